package io.armtrace.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Finds split points in an ETMv3 or PFT byte stream: A-sync packets, the same in both (IHI 0014Q 7.4.1
 * and IHI 0035B 4.5.1: five 0x00 then 0x80), the first one at or after each multiple of a spacing. A decoder started at one sees an A-sync first and
 * synchronizes at the I-sync that follows. An A-sync pattern inside another packet's payload would only
 * give a decoder that finds no seam there (see {@code ChunkedDecode}), never different output.
 */
public final class ASyncScanner {
    private ASyncScanner() {
    }

    /** Offsets (all above 0, increasing) of the A-syncs chosen as split points. */
    public static long[] scan(InputStream in, long spacing) throws IOException {
        return scan(in, spacing, 5);
    }

    /**
     * As {@link #scan(InputStream, long)} for an A-sync of {@code zerosBefore} 0x00 then 0x80 (ETMv4 and ETE:
     * eleven, IHI 0064 A-sync packet); the offset given is that of the first of those zeros.
     */
    public static long[] scan(InputStream in, long spacing, int zerosBefore) throws IOException {
        long[] found = new long[16];
        int n = 0;
        long next = spacing;
        long offset = 0;
        int zeros = 0;
        byte[] buf = new byte[1 << 16];
        int len;
        while (true) {
            // the bytes before the next point cannot hold a split point: skip them (a seek for a file). The zeros
            // counted from there decide the same A-syncs: one starting at offset o qualifies when o >= next,
            // and then at least zerosBefore of its zeros lie at or after next.
            if (offset < next) {
                if (!skip(in, next - offset)) {
                    break;
                }
                offset = next;
                zeros = 0;
            }
            if ((len = in.read(buf, 0, (int) Math.min(buf.length, Math.max(4096, spacing)))) <= 0) {
                break;
            }
            for (int i = 0; i < len; i++, offset++) {
                int v = buf[i] & 0xFF;
                if (v == 0) {
                    zeros++;
                    continue;
                }
                if (v == 0x80 && zeros >= zerosBefore && offset - zerosBefore >= next) {
                    if (n == found.length) {
                        found = Arrays.copyOf(found, n * 2);
                    }
                    found[n++] = offset - zerosBefore;
                    next = offset - zerosBefore + spacing;
                }
                zeros = 0;
            }
        }
        return Arrays.copyOf(found, n);
    }

    /** Skips {@code n} bytes; false when the stream ends first. */
    private static boolean skip(InputStream in, long n) throws IOException {
        while (n > 0) {
            long s = in.skip(n);
            if (s > 0) {
                n -= s;
            } else if (in.read() < 0) {
                return false;
            } else {
                n--;
            }
        }
        return true;
    }
}
