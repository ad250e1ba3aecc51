package io.armtrace.source;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads one stream's bytes out of a container stream (CoreSight frames, OFLOW frames) that a push decoder splits
 * chunk by chunk: a 64 KB chunk is read and pushed, and the subclass hands the wanted stream's bytes to
 * {@link #accept}. At most one chunk's output is held at a time.
 */
abstract class DemuxInputStream extends InputStream {
    private final InputStream in;
    private final byte[] chunk = new byte[64 * 1024];
    private byte[] buf = new byte[64 * 1024];
    private int pos;
    private int lim;
    private boolean eof;

    DemuxInputStream(InputStream in) {
        this.in = in;
    }

    /** Pushes a chunk of the container stream through the decoder. */
    abstract void push(byte[] b, int off, int len);

    /** Takes bytes of the wanted stream from the decoder. */
    final void accept(byte[] b, int off, int len) {
        if (lim + len > buf.length) {
            byte[] n = new byte[Math.max(buf.length * 2, lim + len)];
            System.arraycopy(buf, 0, n, 0, lim);
            buf = n;
        }
        System.arraycopy(b, off, buf, lim, len);
        lim += len;
    }

    private boolean fill() throws IOException {
        while (pos == lim && !eof) {
            pos = 0;
            lim = 0;
            int n = in.read(chunk);
            if (n < 0) {
                eof = true;
            } else {
                push(chunk, 0, n);
            }
        }
        return pos < lim;
    }

    @Override
    public int read() throws IOException {
        return fill() ? buf[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, lim - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
