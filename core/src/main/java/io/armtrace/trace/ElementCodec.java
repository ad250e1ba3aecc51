package io.armtrace.trace;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A compact binary form of the element stream, so that a stretch of decoded trace can wait in a
 * temporary file (bounded memory) until it is its turn to reach the views. {@link Input#read} gives
 * back an element equal to the one {@link Output#write} was given. Numbers are zigzag varints and a
 * range's start is written relative to the previous range's end, so a range takes about ten bytes;
 * both sides keep their own buffer: no stream call per value on the per-element path.
 */
public final class ElementCodec {
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();
    private static final TraceOn.Reason[] REASONS = TraceOn.Reason.values();
    private static final int BUFFER = 1 << 16;

    private ElementCodec() {
    }

    /** Writes elements to a stream; {@link #close} flushes and closes it. */
    public static final class Output implements Closeable {
        private final OutputStream out;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        /** The previous range's end: the next range's start is written as the difference. */
        private long prevEnd;

        public Output(OutputStream out) {
            this.out = out;
        }

        public void write(TraceElement element) throws IOException {
            if (pos > BUFFER - 128) {
                flush();
            }
            if (element instanceof InstructionRange r) {
                tag(0, r.source());
                putLong(r.start() - prevEnd);
                putLong(r.end() - r.start());
                putLong(r.count());
                buf[pos++] = (byte) (r.isa().ordinal() | (r.lastExecuted() ? 8 : 0));
                buf[pos++] = (byte) r.lastKind().ordinal();
                putLong(r.end() - r.lastAddress());
                prevEnd = r.end();
            } else if (element instanceof ExceptionEntry e) {
                tag(1, e.source());
                putLong(e.number());
                putLong(e.preferredReturn());
                buf[pos++] = (byte) (e.cancelled() ? 1 : 0);
                putString(e.name());
            } else if (element instanceof ExceptionReturn e) {
                tag(2, e.source());
                putLong(e.target());
            } else if (element instanceof TraceOn t) {
                tag(3, t.source());
                buf[pos++] = (byte) t.reason().ordinal();
                putLong(t.offset());
            } else if (element instanceof Gap g) {
                tag(4, g.source());
                putLong(g.offset());
                putString(g.reason());
            } else if (element instanceof NoImage n) {
                tag(5, n.source());
                putLong(n.address());
                buf[pos++] = (byte) (n.isa() == null ? -1 : n.isa().ordinal());
            } else if (element instanceof Context c) {
                tag(6, c.source());
                putLong(c.contextId());
                putLong(c.vmid());
                buf[pos++] = (byte) ((c.nonSecure() ? 1 : 0) | (c.hyp() ? 2 : 0));
            } else if (element instanceof Timestamp t) {
                tag(7, t.source());
                putLong(t.value());
            } else if (element instanceof CycleCount c) {
                tag(8, c.source());
                putLong(c.cycles());
            } else if (element instanceof Trigger t) {
                tag(9, t.source());
                putLong(t.offset());
            } else if (element instanceof DecodeError d) {
                tag(10, d.source());
                putLong(d.address());
                putLong(d.offset());
                putString(d.message());
            } else {
                throw new IllegalArgumentException("unknown element " + element.getClass().getSimpleName());
            }
        }

        private void tag(int tag, int source) {
            buf[pos++] = (byte) tag;
            putLong(source);
        }

        /** Zigzag then 7 bits a byte, low first: small values of either sign take one or two bytes. */
        private void putLong(long v) {
            long z = (v << 1) ^ (v >> 63);
            while ((z & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((z & 0x7F) | 0x80);
                z >>>= 7;
            }
            buf[pos++] = (byte) z;
        }

        private void putString(String s) throws IOException {
            if (s == null) {
                putLong(-1);
                return;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            putLong(b.length);
            flush();
            out.write(b);
        }

        private void flush() throws IOException {
            out.write(buf, 0, pos);
            pos = 0;
        }

        @Override
        public void close() throws IOException {
            try (out) {
                flush();
            }
        }
    }

    /** Reads back what {@link Output} wrote. */
    public static final class Input implements Closeable {
        private final InputStream in;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        private int limit;
        private long prevEnd;

        public Input(InputStream in) {
            this.in = in;
        }

        public TraceElement read() throws IOException {
            need(128);
            int tag = buf[pos++];
            int source = (int) getLong();
            switch (tag) {
                case 0 -> {
                    long start = prevEnd + getLong();
                    long end = start + getLong();
                    int count = (int) getLong();
                    int flags = buf[pos++];
                    WaypointKind kind = KINDS[buf[pos++]];
                    long last = end - getLong();
                    prevEnd = end;
                    return new InstructionRange(source, start, end, count, ISAS[flags & 7], last, kind, (flags & 8) != 0);
                }
                case 1 -> {
                    int number = (int) getLong();
                    long ret = getLong();
                    boolean cancelled = buf[pos++] != 0;
                    return new ExceptionEntry(source, number, getString(), ret, cancelled);
                }
                case 2 -> {
                    return new ExceptionReturn(source, getLong());
                }
                case 3 -> {
                    TraceOn.Reason reason = REASONS[buf[pos++]];
                    return new TraceOn(source, reason, getLong());
                }
                case 4 -> {
                    long offset = getLong();
                    return new Gap(source, getString(), offset);
                }
                case 5 -> {
                    long a = getLong();
                    int isa = buf[pos++];
                    return new NoImage(source, a, isa < 0 ? null : ISAS[isa]);
                }
                case 6 -> {
                    long id = getLong();
                    int vmid = (int) getLong();
                    int flags = buf[pos++];
                    return new Context(source, id, vmid, (flags & 1) != 0, (flags & 2) != 0);
                }
                case 7 -> {
                    return new Timestamp(source, getLong());
                }
                case 8 -> {
                    return new CycleCount(source, getLong());
                }
                case 9 -> {
                    return new Trigger(source, getLong());
                }
                case 10 -> {
                    long a = getLong();
                    long offset = getLong();
                    return new DecodeError(source, getString(), a, offset);
                }
                default -> throw new IOException("not an element record: tag " + tag);
            }
        }

        /** Makes {@code n} bytes available if the stream has them (a record's fixed part is at most 128). */
        private void need(int n) throws IOException {
            if (limit - pos >= n) {
                return;
            }
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
            while (limit < n) {
                int r = in.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    break;
                }
                limit += r;
            }
            if (limit == 0) {
                throw new EOFException("no more elements");
            }
        }

        private long getLong() {
            long z = 0;
            int shift = 0;
            while (true) {
                byte b = buf[pos++];
                z |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
                shift += 7;
            }
            return (z >>> 1) ^ -(z & 1);
        }

        private String getString() throws IOException {
            int n = (int) getLong();
            if (n < 0) {
                return null;
            }
            byte[] b = new byte[n];
            int have = Math.min(n, limit - pos);
            System.arraycopy(buf, pos, b, 0, have);
            pos += have;
            int off = have;
            while (off < n) {
                int r = in.read(b, off, n - off);
                if (r < 0) {
                    throw new EOFException("element record cut short");
                }
                off += r;
            }
            return new String(b, StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
