package io.armtrace.protocol.mtb;

import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;

/**
 * Turns MTB buffer bytes into packets: two little-endian words each, the source word at the even word
 * address and the destination word at the odd one. Streaming: {@link #push} takes chunks of any size;
 * no object is created per packet. {@link #read} walks a dump's active buffer in age order.
 */
public final class MtbPacketReader {
    private final MtbPacketListener out;
    private final byte[] partial = new byte[8];
    private int partialLength;
    private long partialStart;
    private long offset;
    private long packets;

    public MtbPacketReader(MtbPacketListener out) {
        this.out = out;
    }

    /** The next byte pushed is byte {@code dumpOffset} of the dump; drops an unfinished packet. */
    public void seek(long dumpOffset) {
        offset = dumpOffset;
        partialLength = 0;
    }

    /** Bytes of an unfinished packet held back (0 at packet boundaries). */
    public int pending() {
        return partialLength;
    }

    /** Dump offset of the next byte expected. */
    public long offset() {
        return offset;
    }

    public long packets() {
        return packets;
    }

    public void push(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        long base = offset - off; // dump offset of b[j] is base + j
        offset += len;
        if (partialLength > 0) {
            while (partialLength < 8 && i < end) {
                partial[partialLength++] = b[i++];
            }
            if (partialLength < 8) {
                return;
            }
            emit(partial, 0, partialStart);
            partialLength = 0;
        }
        while (end - i >= 8) {
            emit(b, i, base + i);
            i += 8;
        }
        if (i < end) {
            partialStart = base + i;
            while (i < end) {
                partial[partialLength++] = b[i++];
            }
        }
    }

    private void emit(byte[] b, int i, long at) {
        int src = (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
        int dst = (b[i + 4] & 0xFF) | (b[i + 5] & 0xFF) << 8 | (b[i + 6] & 0xFF) << 16 | (b[i + 7] & 0xFF) << 24;
        packets++;
        out.packet(at, src, dst);
    }

    /**
     * Reads the active buffer of {@code data} in age order (see {@link MtbLayout}) and passes each packet
     * to {@code out}. Memory stays fixed: the dump is read in chunks, once per buffer segment. Returns the
     * number of bytes of the buffer that the dump did not deliver (0 normally).
     */
    public static long read(TraceData data, MtbLayout layout, MtbPacketListener out) throws IOException {
        if (layout.problem() != null) {
            return layout.firstLength() + layout.secondLength();
        }
        MtbPacketReader reader = new MtbPacketReader(out);
        byte[] chunk = new byte[(int) Math.min(1 << 16, Math.max(8, layout.bufferSize()))];
        long missing = segment(data, layout.firstOffset(), layout.firstLength(), reader, chunk);
        if (layout.secondLength() > 0) {
            missing += segment(data, layout.secondOffset(), layout.secondLength(), reader, chunk);
        }
        return missing;
    }

    private static long segment(TraceData data, long from, long length, MtbPacketReader reader, byte[] chunk)
            throws IOException {
        if (length <= 0) {
            return 0;
        }
        reader.seek(from);
        try (InputStream in = data.open()) {
            long skip = from;
            while (skip > 0) {
                long n = in.skip(skip);
                if (n <= 0) {
                    if (in.read() < 0) {
                        return length;
                    }
                    n = 1;
                }
                skip -= n;
            }
            long left = length;
            while (left > 0) {
                int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
                if (n < 0) {
                    break;
                }
                reader.push(chunk, 0, n);
                left -= n;
            }
            return left;
        }
    }
}
