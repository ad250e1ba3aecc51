package io.armtrace.protocol.etm4;

import io.armtrace.source.BufferFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One source's bytes out of a snapshot buffer together with the index OpenCSD's listings give each byte
 * ({@code Idx:N}). Written from OpenCSD's frame deformatter (trc_frame_deformatter.cpp): the index counts
 * bytes of the buffer file, not of the source's stream, and within a 16-byte frame a run of one source's
 * data is indexed from the frame's start (a run that continues from the previous frame) or from the position
 * of the ID byte that began it, one up per data byte. A DSTREAM capture's 8-byte block footers are not
 * counted ({@code trc_pkt_lister -dstream_format} reads 504 bytes of every 512). A source_data buffer is
 * indexed by stream offset.
 *
 * <p>This is independent of armtrace's own deformatter: the test checks that both give the same bytes.
 */
final class OpenCsdIndex {
    final byte[] stream;
    final long[] index;

    private OpenCsdIndex(byte[] stream, long[] index) {
        this.stream = stream;
        this.index = index;
    }

    /** OpenCSD's index of stream byte {@code offset} (the index just past the end for the end). */
    long idx(long offset) {
        if (offset >= index.length) {
            return index.length == 0 ? 0 : index[index.length - 1] + 1 + (offset - index.length);
        }
        return index[(int) offset];
    }

    /** The first stream offset whose index is at least {@code idx}. */
    int offsetOf(long idx) {
        int i = Arrays.binarySearch(index, idx);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && index[i - 1] == idx) {
            i--;
        }
        return i;
    }

    static OpenCsdIndex of(Path buffer, BufferFormat format, int traceId) throws IOException {
        byte[] raw = Files.readAllBytes(buffer);
        if (format == BufferFormat.SOURCE_DATA) {
            long[] idx = new long[raw.length];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            return new OpenCsdIndex(raw, idx);
        }
        byte[] data = raw;
        boolean fsyncs = format == BufferFormat.DSTREAM_CORESIGHT;
        if (fsyncs) {
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            for (int block = 0; block < raw.length; block += 512) {
                kept.write(raw, block, Math.min(504, raw.length - block));
            }
            data = kept.toByteArray();
        }
        Collector c = new Collector(traceId);
        int pos = 0;
        if (fsyncs) {
            // unsynchronized bytes before the first frame sync are dropped
            while (pos + 3 < data.length && !isFsync(data, pos)) {
                pos++;
            }
        }
        byte[] frame = new byte[16];
        while (pos < data.length) {
            if (fsyncs) {
                while (pos + 3 < data.length && isFsync(data, pos)) {
                    pos += 4;
                }
            }
            if (data.length - pos < 16) {
                break;
            }
            System.arraycopy(data, pos, frame, 0, 16);
            c.frame(frame, pos);
            pos += 16;
        }
        return new OpenCsdIndex(c.bytes.toByteArray(), Arrays.copyOf(c.idx, c.n));
    }

    private static boolean isFsync(byte[] d, int p) {
        return (d[p] & 0xFF) == 0xFF && (d[p + 1] & 0xFF) == 0xFF && (d[p + 2] & 0xFF) == 0xFF && d[p + 3] == 0x7F;
    }

    /** Unpacks frames as OpenCSD does and keeps one source's bytes with their indexes. */
    private static final class Collector {
        final int wanted;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long[] idx = new long[1024];
        int n;
        int currentId = -1;
        long runIndex;
        int runId;
        int runLen;

        Collector(int wanted) {
            this.wanted = wanted;
        }

        void frame(byte[] f, long sof) {
            int flags = f[15] & 0xFF;
            runId = currentId;
            runIndex = sof;
            runLen = 0;
            for (int i = 0; i < 14; i += 2) {
                boolean flag = (flags >> (i / 2) & 1) != 0;
                boolean prevAndChange = false;
                if ((f[i] & 1) != 0) {
                    int id = (f[i] & 0xFF) >> 1;
                    if (id != currentId) {
                        prevAndChange = flag;
                        if (prevAndChange) {
                            add(f[i + 1]);
                        }
                        currentId = id;
                        if (runLen > 0) {
                            runIndex = sof + i;
                            runLen = 0;
                        }
                        runId = currentId;
                    }
                } else {
                    add((byte) (f[i] | (flag ? 1 : 0)));
                }
                if (!prevAndChange) {
                    add(f[i + 1]);
                }
            }
            if ((f[14] & 1) != 0) {
                currentId = (f[14] & 0xFF) >> 1;
            } else {
                add((byte) (f[14] | ((flags >> 7 & 1) != 0 ? 1 : 0)));
            }
        }

        private void add(byte b) {
            if (runId == wanted) {
                if (n == idx.length) {
                    idx = Arrays.copyOf(idx, n * 2);
                }
                idx[n++] = runIndex + runLen;
                bytes.write(b);
            }
            runLen++;
        }
    }
}
