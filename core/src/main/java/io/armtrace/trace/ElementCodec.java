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
 * back an element equal to the one {@link Output#write} was given. Both keep their own buffer and
 * write numbers big-endian byte by byte: no per-value stream calls on the per-element path.
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

        public Output(OutputStream out) {
            this.out = out;
        }

        public void write(TraceElement element) throws IOException {
            if (pos > BUFFER - 64) {
                flush();
            }
            if (element instanceof InstructionRange r) {
                tag(0, r.source());
                putLong(r.start());
                putLong(r.end());
                putInt(r.count());
                buf[pos++] = (byte) r.isa().ordinal();
                putLong(r.lastAddress());
                buf[pos++] = (byte) r.lastKind().ordinal();
                buf[pos++] = (byte) (r.lastExecuted() ? 1 : 0);
            } else if (element instanceof ExceptionEntry e) {
                tag(1, e.source());
                putInt(e.number());
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
                putInt(c.vmid());
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
            putInt(source);
        }

        private void putInt(int v) {
            buf[pos++] = (byte) (v >>> 24);
            buf[pos++] = (byte) (v >>> 16);
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) v;
        }

        private void putLong(long v) {
            putInt((int) (v >>> 32));
            putInt((int) v);
        }

        private void putString(String s) throws IOException {
            if (s == null) {
                putInt(-1);
                return;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            putInt(b.length);
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

        public Input(InputStream in) {
            this.in = in;
        }

        public TraceElement read() throws IOException {
            need(64);
            int tag = buf[pos++];
            int source = getInt();
            return switch (tag) {
                case 0 -> new InstructionRange(source, getLong(), getLong(), getInt(), ISAS[buf[pos++]], getLong(),
                        KINDS[buf[pos++]], buf[pos++] != 0);
                case 1 -> {
                    int number = getInt();
                    long ret = getLong();
                    boolean cancelled = buf[pos++] != 0;
                    yield new ExceptionEntry(source, number, getString(), ret, cancelled);
                }
                case 2 -> new ExceptionReturn(source, getLong());
                case 3 -> new TraceOn(source, REASONS[buf[pos++]], getLong());
                case 4 -> {
                    long offset = getLong();
                    yield new Gap(source, getString(), offset);
                }
                case 5 -> {
                    long a = getLong();
                    int isa = buf[pos++];
                    yield new NoImage(source, a, isa < 0 ? null : ISAS[isa]);
                }
                case 6 -> {
                    long id = getLong();
                    int vmid = getInt();
                    int flags = buf[pos++];
                    yield new Context(source, id, vmid, (flags & 1) != 0, (flags & 2) != 0);
                }
                case 7 -> new Timestamp(source, getLong());
                case 8 -> new CycleCount(source, getLong());
                case 9 -> new Trigger(source, getLong());
                case 10 -> {
                    long a = getLong();
                    long offset = getLong();
                    yield new DecodeError(source, getString(), a, offset);
                }
                default -> throw new IOException("not an element record: tag " + tag);
            };
        }

        /** Makes {@code n} bytes available if the stream has them (a record's fixed part is at most 64). */
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

        private int getInt() {
            int v = (buf[pos] & 0xFF) << 24 | (buf[pos + 1] & 0xFF) << 16 | (buf[pos + 2] & 0xFF) << 8 | (buf[pos + 3] & 0xFF);
            pos += 4;
            return v;
        }

        private long getLong() {
            return (long) getInt() << 32 | (getInt() & 0xFFFFFFFFL);
        }

        private String getString() throws IOException {
            int n = getInt();
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
