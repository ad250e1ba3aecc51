package io.armtrace.source.perf;

import io.airlift.compress.zstd.ZstdIncrementalFrameDecompressor;
import java.nio.ByteBuffer;

/**
 * Decompresses the data of PERF_RECORD_COMPRESSED records (perf record -z; simpleperf's compressed
 * records): one zstd stream that runs through all of them in file order, flushed but not ended at each
 * record, so that a frame and the records inside it may continue from one compressed record into the next
 * (tools/perf/util/zstd.c, session.c perf_session__process_compressed_event). The decompressed records are
 * handed on as complete records; the rest of one waits for the next compressed record. Memory is bounded by
 * the zstd window (at most 8 MiB in the decoder used) and the largest record.
 *
 * <p>The decoder keeps the last window of output until its frame ends, and perf never ends the frame: so
 * decompressed records come out up to a window later than their compressed record, and at the end of the
 * data section {@link #finish} ends the frame with an empty last block (RFC 8878 3.1.1.2: Last_Block set, a
 * Raw_Block of size 0), which releases the rest. Each compressed record holds whole blocks (perf flushes the
 * stream per record), so the stream is at a block boundary there.
 */
final class ZstdRecords {
    /** Damaged zstd data. */
    static final class Malformed extends RuntimeException {
        Malformed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Takes decompressed bytes in [from, to) and returns how far it consumed whole records. */
    interface Sink {
        int records(ByteBuffer b, int from, int to);
    }

    /** sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET: the decoder addresses its byte arrays from there. */
    private static final long BASE = arrayBase();

    private final ZstdIncrementalFrameDecompressor decoder = new ZstdIncrementalFrameDecompressor();
    private byte[] in = new byte[1 << 16];
    private int inStart;
    private int inEnd;
    private byte[] pending = new byte[1 << 17];
    private int pendingEnd;
    long produced;

    void feed(ByteBuffer b, int at, int length, Sink sink) {
        // append the compressed bytes after what is left of earlier records
        if (inEnd - inStart + length > in.length) {
            byte[] grown = new byte[Math.max(in.length, (inEnd - inStart + length) * 2)];
            System.arraycopy(in, inStart, grown, 0, inEnd - inStart);
            in = grown;
            inEnd -= inStart;
            inStart = 0;
        } else if (inEnd + length > in.length) {
            System.arraycopy(in, inStart, in, 0, inEnd - inStart);
            inEnd -= inStart;
            inStart = 0;
        }
        b.get(at, in, inEnd, length);
        inEnd += length;
        try {
            while (true) {
                int required = decoder.getInputRequired();
                if (inEnd - inStart < Math.max(required, 1)) {
                    break;
                }
                if (pending.length - pendingEnd < (1 << 16)) {
                    if (pendingEnd > PerfData.MAX_RECORD) {
                        throw new Malformed("a decompressed record larger than " + PerfData.MAX_RECORD + " bytes", null);
                    }
                    byte[] grown = new byte[pending.length * 2];
                    System.arraycopy(pending, 0, grown, 0, pendingEnd);
                    pending = grown;
                }
                decoder.partialDecompress(in, BASE + inStart, BASE + inEnd, pending, pendingEnd, pending.length);
                int consumed = decoder.getInputConsumed();
                int out = decoder.getOutputBufferUsed();
                inStart += consumed;
                pendingEnd += out;
                produced += out;
                if (out > 0) {
                    int used = sink.records(ByteBuffer.wrap(pending), 0, pendingEnd);
                    System.arraycopy(pending, used, pending, 0, pendingEnd - used);
                    pendingEnd -= used;
                }
                if (consumed == 0 && out == 0) {
                    break;
                }
            }
        } catch (Malformed e) {
            throw e;
        } catch (RuntimeException e) {
            if (e instanceof PerfDataReader.Damage) {
                throw e;
            }
            throw new Malformed(String.valueOf(e.getMessage()), e);
        }
    }

    /** Ends an unfinished frame at the end of the data, so that the decoder hands out what it still holds. */
    void finish(Sink sink) {
        if (decoder.isAtStoppingPoint() || inEnd - inStart != 0 || decoder.getInputRequired() != 3) {
            return; // no frame open, or stopped inside a block: nothing a block header could end
        }
        feed(java.nio.ByteBuffer.wrap(new byte[] {1, 0, 0}), 0, 3, sink);
    }

    private static long arrayBase() {
        try {
            return Class.forName("sun.misc.Unsafe").getField("ARRAY_BYTE_BASE_OFFSET").getInt(null);
        } catch (ReflectiveOperationException e) {
            return 16;
        }
    }
}
