package io.armtrace.source;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A DSTREAM capture as DS-5 saves it ({@code format=dstream_coresight}): blocks of 512 bytes, each 504 bytes
 * of trace port data (CoreSight frames with frame syncs) and an 8-byte footer of the probe's own. This
 * stream gives the 504-byte parts only, one after the other, as OpenCSD's {@code trc_pkt_lister
 * -dstream_format} reads them.
 */
final class DstreamBlocks extends FilterInputStream {
    static final int BLOCK = 512;
    static final int DATA = 504;
    private long position;

    DstreamBlocks(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (true) {
            int inBlock = (int) (position % BLOCK);
            if (inBlock >= DATA) {
                // skip the footer
                long skipped = in.skip(BLOCK - inBlock);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        return -1;
                    }
                    skipped = 1;
                }
                position += skipped;
                continue;
            }
            int n = in.read(b, off, Math.min(len, DATA - inBlock));
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(n, 8192)];
        long done = 0;
        while (done < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - done));
            if (r <= 0) {
                break;
            }
            done += r;
        }
        return done;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** The trace port data of a buffer in {@code format}: DSTREAM captures lose their block footers. */
    static InputStream of(InputStream raw, BufferFormat format) {
        return format == BufferFormat.DSTREAM_CORESIGHT ? new DstreamBlocks(raw) : raw;
    }
}
