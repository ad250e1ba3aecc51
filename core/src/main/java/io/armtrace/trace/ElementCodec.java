package io.armtrace.trace;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
    private static final CallKind[] CALLS = CallKind.values();
    private static final SecurityState[] SECURITY = SecurityState.values();
    private static final ProcessorMode[] MODES = ProcessorMode.values();
    private static final SoftwareMessage.Kind[] MESSAGES = SoftwareMessage.Kind.values();
    private static final LocalTimestamp.Relation[] RELATIONS = LocalTimestamp.Relation.values();
    private static final ExceptionTrace.Function[] FUNCTIONS = ExceptionTrace.Function.values();
    private static final DataTrace.Kind[] DATA = DataTrace.Kind.values();
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
            try {
                element.accept(records);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        /** One record per kind; a visitor, so that a new kind of element cannot be forgotten here. */
        private final ElementVisitor records = new ElementVisitor() {
            @Override
            public void visit(InstructionRange r) {
                tag(0, r.source());
                putLong(r.start() - prevEnd);
                putLong(r.end() - r.start());
                putLong(r.count());
                buf[pos++] = (byte) (r.isa().ordinal() | (r.lastExecuted() ? 8 : 0) | r.lastCall().ordinal() << 4);
                buf[pos++] = (byte) r.lastKind().ordinal();
                prevEnd = r.end();
                sizes(r);
            }

            @Override
            public void visit(InstructionCount c) {
                tag(11, c.source());
                putLong(c.start());
                putLong(c.count());
                buf[pos++] = (byte) c.isa().ordinal();
                putLong(c.end());
            }

            @Override
            public void visit(ExceptionEntry e) {
                tag(1, e.source());
                putLong(e.number());
                putLong(e.preferredReturn());
                buf[pos++] = (byte) (e.cancelled() ? 1 : 0);
                putLong(e.exceptionLevel());
                string(e.name());
            }

            @Override
            public void visit(ExceptionReturn e) {
                tag(2, e.source());
                putLong(e.target());
            }

            @Override
            public void visit(TraceOn t) {
                tag(3, t.source());
                buf[pos++] = (byte) t.reason().ordinal();
                putLong(t.offset());
            }

            @Override
            public void visit(Gap g) {
                tag(4, g.source());
                putLong(g.offset());
                string(g.reason());
            }

            @Override
            public void visit(NoImage n) {
                tag(5, n.source());
                putLong(n.address());
                buf[pos++] = (byte) (n.isa() == null ? -1 : n.isa().ordinal());
            }

            @Override
            public void visit(Context c) {
                tag(6, c.source());
                putLong(c.contextId());
                putLong(c.vmid());
                putLong(c.exceptionLevel());
                buf[pos++] = (byte) ((c.aarch64() ? 1 : 0) | (c.hyp() ? 2 : 0) | c.security().ordinal() << 2
                        | c.mode().ordinal() << 4);
            }

            @Override
            public void visit(Timestamp t) {
                tag(7, t.source());
                putLong(t.value());
                putLong(t.cycles());
            }

            @Override
            public void visit(CycleCount c) {
                tag(8, c.source());
                putLong(c.cycles());
            }

            @Override
            public void visit(Event e) {
                tag(12, e.source());
                putLong(e.number());
            }

            @Override
            public void visit(Trigger t) {
                tag(9, t.source());
                putLong(t.offset());
            }

            @Override
            public void visit(DecodeError d) {
                tag(10, d.source());
                putLong(d.address());
                putLong(d.offset());
                string(d.message());
            }

            @Override
            public void visit(SoftwareMessage m) {
                tag(13, m.source());
                buf[pos++] = (byte) (m.kind().ordinal() | (m.marker() ? 0x40 : 0) | (m.timestamped() ? 0x80 : 0));
                putLong(m.master());
                putLong(m.channel());
                putLong(m.bits());
                putLong(m.value());
            }

            @Override
            public void visit(LocalTimestamp t) {
                tag(14, t.source());
                putLong(t.ticks());
                buf[pos++] = (byte) t.relation().ordinal();
            }

            @Override
            public void visit(PcSample s) {
                tag(15, s.source());
                putLong(s.address());
                buf[pos++] = (byte) (s.sleep() ? 1 : 0);
            }

            @Override
            public void visit(ExceptionTrace x) {
                tag(16, x.source());
                buf[pos++] = (byte) x.function().ordinal();
                putLong(x.number());
            }

            @Override
            public void visit(DataTrace d) {
                tag(17, d.source());
                putLong(d.comparator());
                buf[pos++] = (byte) (d.kind().ordinal() | (d.write() ? 0x80 : 0));
                putLong(d.value());
                putLong(d.bytes());
            }

            @Override
            public void visit(EventCounterWrap w) {
                tag(18, w.source());
                putLong(w.counters());
            }

            private void string(String s) {
                try {
                    putString(s);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            /**
             * The sizes of a range's instructions: 0 and the size when they are all one size (checked
             * from the shared object when it is uniform, else instruction by instruction), otherwise 1
             * and one bit per instruction (set: 4 bytes, clear: 2 bytes, as in T32), or 2 and one byte
             * per instruction for anything else.
             */
            private void sizes(InstructionRange r) {
                int n = r.count();
                int first = n > 0 ? r.sizeOf(0) : r.isa().alignment();
                boolean one = true;
                boolean twoOrFour = true;
                if (!r.sizes().isUniform()) {
                    for (int i = 0; i < n; i++) {
                        int s = r.sizeOf(i);
                        one &= s == first;
                        twoOrFour &= s == 2 || s == 4;
                    }
                }
                if (one) {
                    buf[pos++] = 0;
                    buf[pos++] = (byte) first;
                    return;
                }
                byte[] b;
                if (twoOrFour) {
                    buf[pos++] = 1;
                    b = new byte[(n + 7) / 8];
                    for (int i = 0; i < n; i++) {
                        if (r.sizeOf(i) == 4) {
                            b[i >> 3] |= (byte) (1 << (i & 7));
                        }
                    }
                } else {
                    buf[pos++] = 2;
                    b = new byte[n];
                    for (int i = 0; i < n; i++) {
                        b[i] = (byte) r.sizeOf(i);
                    }
                }
                try {
                    flush();
                    out.write(b);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };

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
                    prevEnd = end;
                    InstructionSizes sizes = sizes(count);
                    return new InstructionRange(source, start, end, count, ISAS[flags & 7], kind,
                            CALLS[(flags >> 4) & 3], (flags & 8) != 0, sizes);
                }
                case 1 -> {
                    int number = (int) getLong();
                    long ret = getLong();
                    boolean cancelled = buf[pos++] != 0;
                    int level = (int) getLong();
                    return new ExceptionEntry(source, number, getString(), ret, cancelled, level);
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
                    long vmid = getLong();
                    int level = (int) getLong();
                    int flags = buf[pos++];
                    return new Context(source, id, vmid, SECURITY[(flags >> 2) & 3], level, (flags & 1) != 0,
                            (flags & 2) != 0, MODES[(flags >> 4) & 3]);
                }
                case 7 -> {
                    long value = getLong();
                    return new Timestamp(source, value, getLong());
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
                case 11 -> {
                    long start = getLong();
                    long count = getLong();
                    Isa isa = ISAS[buf[pos++]];
                    return new InstructionCount(source, start, count, isa, getLong());
                }
                case 12 -> {
                    return new Event(source, (int) getLong());
                }
                case 13 -> {
                    int flags = buf[pos++];
                    int master = (int) getLong();
                    int channel = (int) getLong();
                    int bits = (int) getLong();
                    return new SoftwareMessage(source, MESSAGES[flags & 0x3F], master, channel, bits, getLong(),
                            (flags & 0x40) != 0, (flags & 0x80) != 0);
                }
                case 14 -> {
                    long ticks = getLong();
                    return new LocalTimestamp(source, ticks, RELATIONS[buf[pos++]]);
                }
                case 15 -> {
                    long address = getLong();
                    return new PcSample(source, address, buf[pos++] != 0);
                }
                case 16 -> {
                    ExceptionTrace.Function function = FUNCTIONS[buf[pos++]];
                    return new ExceptionTrace(source, function, (int) getLong());
                }
                case 17 -> {
                    int comparator = (int) getLong();
                    int flags = buf[pos++];
                    long value = getLong();
                    return new DataTrace(source, comparator, DATA[flags & 0x7F], value, (int) getLong(), (flags & 0x80) != 0);
                }
                case 18 -> {
                    return new EventCounterWrap(source, (int) getLong());
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

        /** Reads what {@code Output} wrote for a range's sizes (see there). */
        private InstructionSizes sizes(int count) throws IOException {
            int mode = buf[pos++];
            if (mode == 0) {
                return InstructionSizes.uniform(buf[pos++]);
            }
            byte[] b = getBytes(mode == 1 ? (count + 7) / 8 : count);
            int[] offsets = new int[count + 1];
            for (int i = 0; i < count; i++) {
                int size = mode == 1 ? ((b[i >> 3] >> (i & 7) & 1) != 0 ? 4 : 2) : b[i];
                offsets[i + 1] = offsets[i] + size;
            }
            return InstructionSizes.ofOffsets(offsets);
        }

        private String getString() throws IOException {
            int n = (int) getLong();
            if (n < 0) {
                return null;
            }
            return new String(getBytes(n), StandardCharsets.UTF_8);
        }

        /** The next {@code n} bytes, from the buffer and then the stream. */
        private byte[] getBytes(int n) throws IOException {
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
            return b;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
