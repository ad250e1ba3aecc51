package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.RunningThread;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The listing writers build their common lines as bytes in the output buffer ({@link ListingOutput}). Random
 * elements (fixed seed) with addresses across 32 and 64 bits and symbol names that are not ASCII are listed
 * that way and compared with the same lines made the plain way: {@code String.format} for the text, Jackson's
 * generator for the JSON objects, encoded by the JDK's charset.
 */
class ListingBytesTest {
    private static final long SEED = 0x5EED_2026_1126L;
    private static final String NEWLINE = System.lineSeparator();

    /** Symbols in 32- and 64-bit address space, some named in other scripts (one name outside the BMP). */
    private static final List<Symbol> SYMBOLS = List.of(
            new Symbol("main", 0x8000, 0x100, false),
            new Symbol("ça_va_très_bien", 0x9000, 0x80, false),
            new Symbol("函数", 0x7fff_f000L, 0x1000, false),
            new Symbol("f\uD835\uDD23", 0xffff_ff00L, 0x100, false),
            new Symbol("_ZN4core3fmt5write17h", 0x0000_ffff_8000_0000L, 0x400, false),
            new Symbol("ünicode_64", 0xffff_0000_1234_0000L, 0x200, false));
    private static final ProgramImage IMAGE = new ProgramImage(new MemoryImage(),
            new SymbolTable(SYMBOLS, new long[0], new byte[0]));
    /** The same memory without symbols: range lines are then made in place rather than kept per range. */
    private static final ProgramImage NO_SYMBOLS = new ProgramImage(new MemoryImage(), SymbolTable.EMPTY);
    /** The image the text listing of a round is made with (and its reference): {@link #IMAGE} but in some rounds. */
    private static ProgramImage listed = IMAGE;

    /** Ranges (A32, T32 of one size, A64), cycle counts, trace-on, timestamps and no-image elements. */
    private static List<TraceElement> hotElements(SplittableRandom rnd, int n) {
        return hotElements(rnd, n, 200_000);
    }

    /** As {@link #hotElements(SplittableRandom, int)}, ranges of at most {@code longest} instructions. */
    private static List<TraceElement> hotElements(SplittableRandom rnd, int n, int longest) {
        List<TraceElement> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int source = rnd.nextInt(8) == 0 ? -1 : rnd.nextInt(0x80);
            switch (rnd.nextInt(6)) {
                case 0, 1 -> out.add(range(rnd, source, longest));
                case 2 -> out.add(new CycleCount(source, rnd.nextBoolean() ? rnd.nextInt(5000) : rnd.nextLong(1L << 40)));
                case 3 -> out.add(new TraceOn(source, TraceOn.Reason.values()[rnd.nextInt(TraceOn.Reason.values().length)],
                        rnd.nextLong(1L << 36)));
                case 4 -> out.add(new Timestamp(source, rnd.nextLong() >>> rnd.nextInt(64),
                        rnd.nextBoolean() ? -1 : rnd.nextLong(1L << 20)));
                default -> out.add(new NoImage(source, address(rnd), Isa.values()[rnd.nextInt(Isa.values().length)]));
            }
        }
        return out;
    }

    /** An address: in a symbol or just below one, or anywhere in 32 or 64 bits. */
    private static long address(SplittableRandom rnd) {
        switch (rnd.nextInt(4)) {
            case 0 -> {
                Symbol s = SYMBOLS.get(rnd.nextInt(SYMBOLS.size()));
                return s.address() + rnd.nextLong(s.size()) - (rnd.nextInt(8) == 0 ? 0x40 : 0);
            }
            case 1 -> {
                return rnd.nextLong(1L << 32);
            }
            case 2 -> {
                return rnd.nextLong(1L << 16);
            }
            default -> {
                return rnd.nextLong() & 0xffff_ffff_ffff_0000L;
            }
        }
    }

    private static InstructionRange range(SplittableRandom rnd, int source, int longest) {
        Isa isa = new Isa[] {Isa.A32, Isa.T32, Isa.A64}[rnd.nextInt(3)];
        int size = isa == Isa.T32 ? 2 : 4;
        long start = address(rnd) & -size;
        int count = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? longest : Math.min(40, longest));
        long end = start + (long) size * count;
        WaypointKind kind = WaypointKind.values()[rnd.nextInt(WaypointKind.values().length)];
        return new InstructionRange(source, start, end, count, isa, end - size, kind, rnd.nextInt(5) != 0);
    }

    // ---- the text listing

    /** One line of the text listing, made with String.format and the symbol table. */
    private static String textLine(TraceElement e, boolean withSource, Timeline time, RunningThread thread) {
        StringBuilder b = new StringBuilder();
        if (withSource) {
            b.append(e.source() < 0 ? "[none] " : String.format("[0x%02x] ", e.source()));
        }
        if (time != null) {
            b.append(String.format("%10s %14s  ", time.cycles() < 0 ? "-" : Long.toString(time.cycles()),
                    time.timestamp() < 0 ? "-" : Long.toString(time.timestamp())));
        }
        if (thread != null) {
            long t = thread.time();
            b.append(String.format("%7s %7s %3s %16s  ", thread.pid() < 0 ? "-" : Long.toString(thread.pid()),
                    thread.tid() < 0 ? "-" : Long.toString(thread.tid()), thread.cpu() < 0 ? "-" : Integer.toString(thread.cpu()),
                    t < 0 ? "-" : String.format("%d.%09d", t / 1_000_000_000L, t % 1_000_000_000L)));
        }
        if (e instanceof InstructionRange r) {
            b.append(String.format("range 0x%08x-0x%08x %5d insn %s", r.start(), r.end(), r.count(), r.isa()));
            if (r.lastKind() != WaypointKind.NONE) {
                b.append(", ends with ").append(r.lastKind().name().toLowerCase(Locale.ROOT).replace('_', ' '));
            }
            if (!r.lastExecuted()) {
                b.append(", last condition failed");
            }
            Symbol s = listed.symbols().nameFor(r.start());
            if (s != null) {
                long off = r.start() - s.address();
                b.append("  <").append(s.name())
                        .append(off > 0 ? String.format("+0x%x", off) : off < 0 ? String.format("-0x%x", -off) : "")
                        .append('>');
            }
        } else if (e instanceof CycleCount c) {
            b.append(String.format("cycles %d", c.cycles()));
        } else if (e instanceof TraceOn t) {
            b.append(String.format("trace on (%s) at byte %d",
                    t.reason().name().toLowerCase(Locale.ROOT).replace('_', ' '), t.offset()));
        } else if (e instanceof Timestamp t) {
            b.append(String.format("timestamp %d", t.value()));
            if (t.cycles() >= 0) {
                b.append(String.format(" (%d cycles after the last cycle count)", t.cycles()));
            }
        } else if (e instanceof NoImage n) {
            b.append(String.format("no image at 0x%08x %s: code not in the program image, waiting for the next address",
                    n.address(), n.isa()));
        } else {
            throw new AssertionError("no reference for " + e);
        }
        return b.append(NEWLINE).toString();
    }

    /** The reference listing: with {@code time}, the elements pass a Timeline first, as before the writer. */
    private static String textReference(List<TraceElement> elements, boolean withSource, boolean time, boolean thread) {
        StringBuilder out = new StringBuilder();
        RunningThread th = thread ? new FakeThread() : null;
        if (time || thread) {
            out.append(withSource ? "src    " : "").append(time ? TextWriter.TIME_HEADER : "")
                    .append(thread ? (time ? "  " : "") + TextWriter.THREAD_HEADER : "").append(NEWLINE);
        }
        Timeline t = time ? new Timeline() : null;
        ElementSink sink = e -> out.append(textLine(e, withSource, t, th));
        if (t != null) {
            sink = t.feed(sink);
        }
        if (th != null) {
            sink = th.feed(sink);
        }
        elements.forEach(sink::accept);
        sink.end();
        return out.toString();
    }

    /** A recording's running thread that changes at random (the same for every instance) at every element. */
    private static final class FakeThread implements RunningThread {
        private final SplittableRandom rnd = new SplittableRandom(SEED + 9);
        private long pid;
        private long tid;
        private int cpu;
        private long time;

        @Override
        public long pid() {
            return pid;
        }

        @Override
        public long tid() {
            return tid;
        }

        @Override
        public int cpu() {
            return cpu;
        }

        @Override
        public long time() {
            return time;
        }

        @Override
        public ElementSink feed(ElementSink next) {
            return new ElementSink() {
                @Override
                public void accept(TraceElement e) {
                    // as a recording's: often the same as the line before (the writer reuses those columns'
                    // bytes), otherwise one of the four or all of them changed
                    switch (rnd.nextInt(8)) {
                        case 0, 1, 2 -> { }
                        case 3 -> pid = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong(1L << rnd.nextInt(1, 40));
                        case 4 -> tid = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong(1L << rnd.nextInt(1, 40));
                        case 5 -> cpu = rnd.nextInt(300);
                        case 6 -> time = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong() >>> rnd.nextInt(1, 64);
                        default -> {
                            pid = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong(1L << rnd.nextInt(1, 40));
                            tid = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong(1L << rnd.nextInt(1, 40));
                            cpu = rnd.nextInt(300);
                            time = rnd.nextInt(8) == 0 ? -1 : rnd.nextLong() >>> rnd.nextInt(1, 64);
                        }
                    }
                    next.accept(e);
                }

                @Override
                public void end() {
                    next.end();
                }
            };
        }
    }

    /** The listing of {@code elements} written to {@code out}, the way the command line feeds the writer. */
    private static void listText(Writer out, List<TraceElement> elements, boolean withSource, boolean time) {
        listText(out, elements, withSource, time, false);
    }

    private static void listText(Writer out, List<TraceElement> elements, boolean withSource, boolean time,
                                 boolean thread) {
        TextWriter w = new TextWriter(out, listed, false, withSource);
        ElementSink sink = w;
        if (time) {
            Timeline t = new Timeline();
            w.time(t);
            sink = t.feed(w);
        }
        if (thread) {
            FakeThread th = new FakeThread();
            w.thread(th);
            sink = th.feed(sink);
        }
        handOver(elements, sink);
        sink.end();
    }

    /**
     * Gives {@code sink} the elements as a decoder does: most ranges, cycle counts and trace-ons as their fields
     * ({@link ElementSink#range}, {@link ElementSink#cycles}, {@link ElementSink#traceOn}), the others, and every
     * third of these, as elements.
     */
    static void handOver(List<TraceElement> elements, ElementSink sink) {
        for (int i = 0; i < elements.size(); i++) {
            TraceElement e = elements.get(i);
            if (i % 3 != 0 && e instanceof InstructionRange r) {
                sink.range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(), r.lastExecuted(),
                        r.sizes(), r.sizesIndex());
            } else if (i % 3 != 0 && e instanceof CycleCount c) {
                sink.cycles(c.source(), c.cycles());
            } else if (i % 3 != 0 && e instanceof TraceOn t) {
                sink.traceOn(t.source(), t.reason(), t.offset());
            } else {
                sink.accept(e);
            }
        }
    }

    /** Bytes written by {@code list} through an EncodingWriter of {@code charset} with a buffer of {@code size}. */
    private static byte[] throughBytes(Charset charset, int size, boolean printWriter,
                                       java.util.function.Consumer<Writer> list) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EncodingWriter e = new EncodingWriter(bytes, charset, size);
        list.accept(printWriter ? e.printWriter(false) : e);
        return bytes.toByteArray();
    }

    @Test
    void textLinesAreThoseOfStringFormat() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        try {
            for (int round = 0; round < 32; round++) {
                boolean withSource = (round & 1) != 0;
                boolean time = (round & 2) != 0;
                boolean thread = (round & 8) != 0;
                listed = (round & 16) != 0 ? NO_SYMBOLS : IMAGE;
                List<TraceElement> elements = hotElements(rnd, 20_000);
                String expected = textReference(elements, withSource, time, thread);
                for (Charset cs : new Charset[] {StandardCharsets.UTF_8, StandardCharsets.US_ASCII, StandardCharsets.ISO_8859_1}) {
                    // non-ASCII symbols are encoded by the charset: '?' where it has no such character
                    byte[] got = throughBytes(cs, 1 << 16, (round & 4) != 0, w -> listText(w, elements, withSource, time, thread));
                    sameText(new String(got, cs), new String(expected.getBytes(cs), cs), "round " + round + ", " + cs);
                    assertThat(got).isEqualTo(expected.getBytes(cs));
                }
                // a buffer little larger than a line: lines are written at its end and after it is emptied
                sameText(new String(throughBytes(StandardCharsets.UTF_8, ListingOutput.MAX_LINE, true,
                        w -> listText(w, elements, withSource, time, thread)), StandardCharsets.UTF_8), expected, "small buffer");
                // any other writer gets the same text
                StringWriter s = new StringWriter();
                listText(new PrintWriter(s), elements, withSource, time, thread);
                sameText(s.toString(), expected, "another writer");
            }
        } finally {
            listed = IMAGE;
        }
    }

    /** Every kind of element among the common ones: the bytes and the other writers' text stay in order. */
    @Test
    void everyKindListsAlikeThroughBytesAndThroughText() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        List<TraceElement> elements = new ArrayList<>();
        List<TraceElement> kinds = new ArrayList<>(EveryElementKindTest.samples().values());
        kinds.add(new ExceptionEntry(0x10, 11, "SVC_ç_函数_\uD835\uDD23", 0x9004, false, 1));
        for (int i = 0; i < 400; i++) {
            elements.addAll(hotElements(rnd, rnd.nextInt(20), 300));
            elements.add(kinds.get(rnd.nextInt(kinds.size())));
        }
        for (int mode = 0; mode < 4; mode++) {
            boolean withSource = (mode & 1) != 0;
            boolean time = (mode & 2) != 0;
            StringWriter text = new StringWriter();
            listText(new PrintWriter(text), elements, withSource, time);
            sameText(new String(throughBytes(StandardCharsets.UTF_8, 4096, true,
                    w -> listText(w, elements, withSource, time)), StandardCharsets.UTF_8), text.toString(), "text " + mode);
            for (boolean ranges : new boolean[] {false, true}) {
                StringWriter json = new StringWriter();
                listJsonl(new PrintWriter(json), elements, withSource, time, ranges);
                sameText(new String(throughBytes(StandardCharsets.UTF_8, 4096, true,
                        w -> listJsonl(w, elements, withSource, time, ranges)), StandardCharsets.UTF_8), json.toString(),
                        "jsonl, ranges " + ranges + ", mode " + mode);
            }
        }
    }

    // ---- JSON Lines

    private static void listJsonl(Writer out, List<TraceElement> elements, boolean withSource, boolean time,
                                  boolean ranges) {
        listJsonl(out, elements, withSource, time, ranges, false);
    }

    private static void listJsonl(Writer out, List<TraceElement> elements, boolean withSource, boolean time,
                                  boolean ranges, boolean thread) {
        JsonlWriter w = new JsonlWriter(out, IMAGE, withSource, ranges);
        ElementSink sink = w;
        if (time) {
            Timeline t = new Timeline();
            w.time(t);
            sink = t.feed(w);
        }
        if (thread) {
            FakeThread th = new FakeThread();
            w.thread(th);
            sink = th.feed(sink);
        }
        handOver(elements, sink);
        sink.end();
    }

    /** The objects of a range, a cycle count, made with Jackson's generator, field by field. */
    private static String jsonReference(List<TraceElement> elements, boolean withSource, boolean time, boolean ranges) {
        return jsonReference(elements, withSource, time, ranges, false);
    }

    /** As above, with a recording's pid, tid, cpu and time after the other fields of a range and an instruction. */
    private static String jsonReference(List<TraceElement> elements, boolean withSource, boolean time, boolean ranges,
                                        boolean thread) {
        FakeThread th = thread ? new FakeThread() : null;
        StringWriter out = new StringWriter();
        Function<Timeline, ElementSink> sink = t -> e -> {
            try {
                JsonGenerator g = new JsonFactory().createGenerator(out);
                g.setPrettyPrinter(new com.fasterxml.jackson.core.util.MinimalPrettyPrinter("")); // objects one a line
                if (e instanceof InstructionRange r && ranges) {
                    g.writeStartObject();
                    g.writeStringField("type", "range");
                    if (withSource) {
                        g.writeNumberField("src", r.source());
                    }
                    g.writeStringField("start", "0x" + Long.toHexString(r.start()));
                    g.writeStringField("end", "0x" + Long.toHexString(r.end()));
                    g.writeNumberField("count", r.count());
                    g.writeStringField("isa", r.isa().name());
                    g.writeStringField("last", "0x" + Long.toHexString(r.lastAddress()));
                    g.writeStringField("last_kind", r.lastKind().name().toLowerCase(Locale.ROOT));
                    g.writeBooleanField("last_executed", r.lastExecuted());
                    times(g, t);
                    threadFields(g, th);
                    g.writeEndObject();
                    g.writeRaw('\n');
                } else if (e instanceof InstructionRange r) {
                    for (int i = 0; i < r.count(); i++) {
                        g.writeStartObject();
                        g.writeStringField("type", "insn");
                        if (withSource) {
                            source(g, r.source());
                        }
                        g.writeStringField("addr", "0x" + Long.toHexString(r.addressOf(i)));
                        g.writeStringField("isa", r.isa().name());
                        g.writeNumberField("size", r.sizeOf(i));
                        g.writeBooleanField("executed", i < r.count() - 1 || r.lastExecuted());
                        times(g, t);
                        threadFields(g, th);
                        g.writeEndObject();
                        g.writeRaw('\n');
                    }
                } else if (e instanceof CycleCount c) {
                    g.writeStartObject();
                    g.writeStringField("type", "cycles");
                    if (withSource) {
                        source(g, c.source());
                    }
                    times(g, t);
                    g.writeNumberField("count", c.cycles());
                    g.writeEndObject();
                    g.writeRaw('\n');
                } else if (e instanceof TraceOn o) {
                    begin(g, "trace_on", o.source(), withSource, t);
                    g.writeStringField("reason", o.reason().name().toLowerCase(Locale.ROOT));
                    g.writeNumberField("offset", o.offset());
                    g.writeEndObject();
                    g.writeRaw('\n');
                } else if (e instanceof Timestamp o) {
                    begin(g, "timestamp", o.source(), withSource, t);
                    g.writeNumberField("value", o.value());
                    if (o.cycles() >= 0) {
                        g.writeNumberField("cycle_count", o.cycles());
                    }
                    g.writeEndObject();
                    g.writeRaw('\n');
                } else if (e instanceof NoImage o) {
                    begin(g, "no_image", o.source(), withSource, t);
                    g.writeStringField("addr", "0x" + Long.toHexString(o.address()));
                    g.writeStringField("isa", o.isa().name());
                    g.writeEndObject();
                    g.writeRaw('\n');
                } else {
                    throw new AssertionError("no reference for " + e);
                }
                g.flush();
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        };
        ElementSink s;
        if (time) {
            Timeline t = new Timeline();
            s = t.feed(sink.apply(t));
        } else {
            s = sink.apply(null);
        }
        if (th != null) {
            s = th.feed(s);
        }
        elements.forEach(s::accept);
        s.end();
        return out.toString();
    }

    /** An object's type, its trace ID (null where there is none) where asked for, and the time fields. */
    private static void begin(JsonGenerator g, String type, int src, boolean withSource, Timeline t) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        if (withSource) {
            source(g, src);
        }
        times(g, t);
    }

    private static void threadFields(JsonGenerator g, RunningThread th) throws IOException {
        if (th != null) {
            g.writeNumberField("pid", th.pid());
            g.writeNumberField("tid", th.tid());
            g.writeNumberField("cpu", th.cpu());
            if (th.time() >= 0) {
                g.writeNumberField("time", th.time());
            }
        }
    }

    private static void source(JsonGenerator g, int src) throws IOException {
        g.writeFieldName("src");
        if (src < 0) {
            g.writeNull();
        } else {
            g.writeNumber(src);
        }
    }

    private static void times(JsonGenerator g, Timeline t) throws IOException {
        if (t != null && t.cycles() >= 0) {
            g.writeNumberField("cycles", t.cycles());
        }
        if (t != null && t.timestamp() >= 0) {
            g.writeNumberField("ts", t.timestamp());
        }
    }

    /**
     * A listing's range lines are kept whole while few distinct ranges were listed, then made in place
     * ({@link JsonlWriter#KEPT_LINES_MAX}): a few ranges listed again and again (lines found kept), then many
     * distinct ones (past the bound), then the few again (made in place), each way as Jackson's generator makes them.
     */
    @Test
    void rangeLinesKeptThenMadeInPlaceAreThoseOfTheGenerator() {
        SplittableRandom rnd = new SplittableRandom(SEED + 3);
        List<InstructionRange> few = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            few.add(range(rnd, 0x10, 300));
        }
        List<TraceElement> elements = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            elements.add(few.get(rnd.nextInt(few.size())));
        }
        for (int i = 0; i < 3 * JsonlWriter.KEPT_LINES_MAX; i++) {
            elements.add(range(rnd, 0x10, 300));
            elements.add(new CycleCount(0x10, rnd.nextInt(100_000)));
        }
        for (int i = 0; i < 1000; i++) {
            elements.add(few.get(rnd.nextInt(few.size())));
        }
        for (boolean withSource : new boolean[] {false, true}) {
            String expected = jsonReference(elements, withSource, false, true, false);
            sameText(new String(throughBytes(StandardCharsets.UTF_8, 1 << 16, true,
                    w -> listJsonl(w, elements, withSource, false, true, false)), StandardCharsets.UTF_8), expected,
                    "with source " + withSource);
        }
    }

    /**
     * A kept range line is found again by the instruction sizes it was listed with, without working out its last
     * instruction's address: ranges of the same start, end and count whose T32 instructions differ in size (code
     * that changed, or another process's at the same address) have each their own {@code "last"}, listed alternately.
     */
    @Test
    void rangesAlikeButForTheirInstructionSizesKeepTheirOwnLastAddress() {
        InstructionSizes narrowFirst = InstructionSizes.ofOffsets(new int[] {0, 2, 4, 8}); // last at +4
        InstructionSizes wideFirst = InstructionSizes.ofOffsets(new int[] {0, 4, 6, 8}); // last at +6
        // sizes 4, 2, 2, 4: from instruction 0 the last at +6, from instruction 1 at +4
        InstructionSizes fromEither = InstructionSizes.ofOffsets(new int[] {0, 4, 6, 8, 12});
        List<TraceElement> elements = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            for (long start : new long[] {0x8000, 0x8000_0000_1000L}) {
                elements.add(new InstructionRange(0x10, start, start + 8, 3, Isa.T32, WaypointKind.DIRECT_BRANCH,
                        CallKind.NONE, true, narrowFirst, (short) 0));
                elements.add(new InstructionRange(0x10, start, start + 8, 3, Isa.T32, WaypointKind.DIRECT_BRANCH,
                        CallKind.NONE, true, wideFirst, (short) 0));
                for (int from = 0; from < 2; from++) {
                    elements.add(new InstructionRange(0x10, start, start + 8, 3, Isa.T32, WaypointKind.DIRECT_BRANCH,
                            CallKind.NONE, true, fromEither, (short) (from ^ i % 2)));
                }
            }
        }
        String expected = jsonReference(elements, false, false, true, false);
        assertThat(expected).contains("\"last\":\"0x8004\"").contains("\"last\":\"0x8006\"");
        sameText(new String(throughBytes(StandardCharsets.UTF_8, 1 << 16, false,
                w -> listJsonl(w, elements, false, false, true, false)), StandardCharsets.UTF_8), expected, "listing");
    }

    @Test
    void jsonObjectsAreThoseOfTheGenerator() {
        SplittableRandom rnd = new SplittableRandom(SEED + 2);
        for (int round = 0; round < 16; round++) {
            boolean withSource = (round & 1) != 0;
            boolean time = (round & 2) != 0;
            boolean ranges = (round & 4) != 0;
            boolean thread = (round & 8) != 0;
            List<TraceElement> elements = new ArrayList<>();
            elements.addAll(hotElements(rnd, 6000, ranges ? 200_000 : 300));
            String expected = jsonReference(elements, withSource, time, ranges, thread);
            sameText(new String(throughBytes(StandardCharsets.UTF_8, 1 << 16, (round & 1) == 0,
                    w -> listJsonl(w, elements, withSource, time, ranges, thread)), StandardCharsets.UTF_8), expected,
                    "round " + round);
            StringWriter s = new StringWriter();
            listJsonl(s, elements, withSource, time, ranges, thread);
            sameText(s.toString(), expected, "another writer");
        }
    }

    /** Equal texts; where not, the first line that differs (a whole listing is too long to show). */
    private static void sameText(String actual, String expected, String what) {
        String[] a = actual.split("\n", -1);
        String[] e = expected.split("\n", -1);
        for (int i = 0; i < Math.min(a.length, e.length); i++) {
            assertThat(a[i]).as("%s, line %d", what, i + 1).isEqualTo(e[i]);
        }
        assertThat(a.length).as("%s: lines", what).isEqualTo(e.length);
    }

    /** Digits made in place against the JDK's. */
    /** Every count a range line makes in a register: a space and the count right-aligned in five places. */
    @Test
    void rangeCountFieldIsThatOfStringFormat() {
        for (int count = 0; count < 100_000; count++) {
            long x = TextWriter.countField(count);
            byte[] b = new byte[6];
            for (int i = 0; i < 6; i++) {
                b[i] = (byte) (x >>> (8 * i));
            }
            String expected = String.format(" %5d", count);
            if (!new String(b, StandardCharsets.US_ASCII).equals(expected)) {
                assertThat(new String(b, StandardCharsets.US_ASCII)).as("count " + count).isEqualTo(expected);
            }
        }
    }

    @Test
    void digitsAreTheJdks() {
        SplittableRandom rnd = new SplittableRandom(SEED + 3);
        byte[] b = new byte[64];
        List<Long> values = new ArrayList<>(List.of(0L, 9L, 10L, 99L, 100L, -1L, Long.MAX_VALUE, Long.MIN_VALUE,
                (long) Integer.MAX_VALUE, Integer.MAX_VALUE + 1L));
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            values.addAll(List.of(p - 1, p, p + 1, -p));
        }
        for (int i = 0; i < 100_000; i++) {
            values.add(rnd.nextLong() >> rnd.nextInt(64));
        }
        for (long v : values) {
            int n = ListingOutput.decimal(b, 3, v);
            assertThat(new String(b, 3, n - 3, StandardCharsets.US_ASCII)).isEqualTo(Long.toString(v));
            int digits = 1 + rnd.nextInt(16);
            n = ListingOutput.hex0x(b, 1, v, digits);
            assertThat(new String(b, 1, n - 1, StandardCharsets.US_ASCII))
                    .isEqualTo(String.format("0x%0" + digits + "x", v));
            n = ListingOutput.hex8(b, 2, v);
            assertThat(new String(b, 2, n - 2, StandardCharsets.US_ASCII)).isEqualTo(String.format("%08x", v));
            n = ListingOutput.hexShortest(b, 5, v);
            assertThat(new String(b, 5, n - 5, StandardCharsets.US_ASCII)).isEqualTo(Long.toHexString(v));
            int w = (int) v;
            n = ListingOutput.hex8(b, 0, w & 0xFFFF_FFFFL);
            assertThat(new String(b, 0, n, StandardCharsets.US_ASCII)).isEqualTo(String.format("%08x", w));
        }
    }
}
