package io.armtrace.cli;

import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;

/**
 * The raw bytes of packets, for the packet listing: a second pass over the source's stream that follows
 * the packet offsets forwards (and starts again for the rare listing that goes back, MTB's age order).
 * Shows at most {@link #MAX} bytes of a packet; a run of unsynchronized bytes can be long.
 */
final class PacketBytes implements AutoCloseable {
    static final int MAX = 16;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final TraceData data;
    private InputStream in;
    private long position;
    private final byte[] buf = new byte[MAX];

    PacketBytes(TraceData data) {
        this.data = data;
    }

    /**
     * Appends {@code [0x08 0x58 ...]} (trc_pkt_lister's notation) for the {@code length} bytes at {@code offset},
     * and spaces up to {@code width} characters (at least one); nothing when the packet has no byte span.
     */
    void append(StringBuilder out, long offset, int length, int width) throws IOException {
        int start = out.length();
        if (length <= 0) {
            return;
        }
        {
            int n = read(offset, Math.min(length, MAX));
            out.append('[');
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    out.append(' ');
                }
                out.append("0x").append(HEX[(buf[i] >> 4) & 0xF]).append(HEX[buf[i] & 0xF]);
            }
            if (length > n) {
                out.append(" ...");
            }
            out.append(']');
        }
        out.append(' ');
        while (out.length() < start + width) {
            out.append(' ');
        }
    }

    private int read(long offset, int length) throws IOException {
        if (in == null || offset < position) {
            close();
            in = data.open();
            position = 0;
        }
        while (position < offset) {
            long s = in.skip(offset - position);
            if (s <= 0) {
                if (in.read() < 0) {
                    return 0;
                }
                s = 1;
            }
            position += s;
        }
        int n = in.readNBytes(buf, 0, length);
        position += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
            in = null;
        }
    }
}
