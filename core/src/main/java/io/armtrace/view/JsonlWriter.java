package io.armtrace.view;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ProcessorMode;
import io.armtrace.trace.RunningThread;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SecurityState;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.io.IOException;
import java.io.Writer;
import java.io.UncheckedIOException;

/**
 * JSON Lines output, the public contract other tools read: one JSON object per line, each with a
 * {@code "type"}. Instructions come one per line:
 * {@code {"type":"insn","addr":"0x80000554","isa":"A32","size":4,"executed":true}}; with
 * {@code withSource}, every line also has {@code "src"} (the trace ID). The other types are listed in
 * README.md.
 */
public final class JsonlWriter implements ElementSink, ElementVisitor, io.armtrace.trace.PieceFormat.Fresh {
    private final JsonGenerator g;
    /** The lines of nearly every listing (instructions, ranges, cycle counts), built as bytes. */
    private final ListingOutput lines;
    /** Whether the generator may hold text of its own: flushed to the writer before bytes are written. */
    private boolean generatorWrote;
    private final ProgramImage image;
    private final boolean withSource;
    private final boolean ranges;
    private Annotator annotator;
    private Timeline timeline;
    private RunningThread thread;
    private char[] textBuf = new char[64];

    /**
     * @param ranges when true, instruction ranges are written as one {@code "range"} object each instead of
     *               one {@code "insn"} line per instruction
     */
    public JsonlWriter(Writer out, ProgramImage image, boolean withSource, boolean ranges) {
        try {
            this.g = new JsonFactory().createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // the generator's flush (before bytes follow its text) hands its text to the writer and no further
        g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
        this.lines = new ListingOutput(out);
        // each object ends its own line (endLine): no root separator, so no blank line whatever end() is called
        g.setPrettyPrinter(new MinimalPrettyPrinter(""));
        this.image = image;
        this.withSource = withSource;
        this.ranges = ranges;
    }

    public JsonlWriter(Writer out, ProgramImage image, boolean withSource) {
        this(out, image, withSource, false);
    }

    /**
     * Adds {@code sym}, {@code file} and {@code line} to every {@code insn} (and {@code range}: of its start),
     * and {@code disasm} to every {@code insn}; special registers are named as in the A/R profile.
     */
    public JsonlWriter annotate(boolean on) {
        return annotate(on, io.armtrace.isa.Profile.AR);
    }

    /** As {@link #annotate(boolean)}; {@code profile} selects how MRS/MSR name special registers. */
    public JsonlWriter annotate(boolean on, io.armtrace.isa.Profile profile) {
        this.annotator = on ? new Annotator(image) : null;
        this.disassembly = on && !ranges ? new io.armtrace.isa.disasm.DisassemblyCache(new io.armtrace.isa.disasm.Disassembler(profile),
                image.memory(), image.symbols()) : null;
        return this;
    }

    /**
     * Adds {@code cycles} (running cycle count) and {@code ts} (latest timestamp) to every object where the
     * trace has them, read from {@code timeline}, the stage that feeds this writer.
     */
    public JsonlWriter time(Timeline timeline) {
        this.timeline = timeline;
        wholeLinesKept = false;
        return this;
    }

    /**
     * Adds {@code pid}, {@code tid}, {@code cpu} and {@code time} (nanoseconds, the recording's clock) to every
     * {@code insn} and {@code range}, read from {@code thread}, a stage that feeds this writer (a recording's).
     */
    public JsonlWriter thread(RunningThread thread) {
        this.thread = thread;
        wholeLinesKept = false;
        return this;
    }

    private static final SerializedString F_PID = new SerializedString("pid");
    private static final SerializedString F_TID = new SerializedString("tid");
    private static final SerializedString F_CPU = new SerializedString("cpu");
    private static final SerializedString F_TIME = new SerializedString("time");

    private void threadFields() throws IOException {
        g.writeFieldName(F_PID);
        g.writeNumber(thread.pid());
        g.writeFieldName(F_TID);
        g.writeNumber(thread.tid());
        g.writeFieldName(F_CPU);
        g.writeNumber(thread.cpu());
        if (thread.time() >= 0) {
            g.writeFieldName(F_TIME);
            g.writeNumber(thread.time());
        }
    }

    private static final SerializedString F_SYM = new SerializedString("sym");
    private static final SerializedString F_FILE = new SerializedString("file");
    private static final SerializedString F_LINE = new SerializedString("line");
    private static final SerializedString F_DISASM = new SerializedString("disasm");
    private static final SerializedString F_CYCLES = new SerializedString("cycles");
    private static final SerializedString F_TS = new SerializedString("ts");

    /**
     * The optional per-instruction fields, in one place: everything a listing says about one instruction
     * beyond its address, ISA, size and condition. A new field goes here (and into the condition under which
     * the instruction loop calls this).
     */
    private void instructionFields(long address) throws IOException {
        instructionFields(address, 0, null);
    }

    /** {@code size} and {@code isa} of the instruction at {@code address}; 0 and null for a range's start. */
    private void instructionFields(long address, int size, io.armtrace.trace.Isa isa) throws IOException {
        if (disassembly != null && isa != null) {
            String text = disassembly.text(address, isa, size);
            if (text != null) {
                g.writeFieldName(F_DISASM);
                g.writeString(disasmBuf, 0, singleSpaced(text));
            }
        }
        if (annotator != null) {
            io.armtrace.image.Symbol s = annotator.symbol(address);
            if (s != null) {
                g.writeFieldName(F_SYM);
                g.writeString(textBuf, 0, symbolText(s, address - s.address()));
            }
            io.armtrace.image.LineTable.Location l = annotator.location(address);
            if (l != null) {
                if (!l.file().equals(fileText == null ? null : fileText.getValue())) {
                    fileText = new SerializedString(l.file()); // encoded once per file, not per instruction
                }
                g.writeFieldName(F_FILE);
                g.writeString(fileText);
                g.writeFieldName(F_LINE);
                g.writeNumber(l.line());
            }
        }
        timeFields();
        if (thread != null) {
            threadFields();
        }
    }

    /**
     * Copies listing text ("mnemonic" padded to a column, then operands) into {@link #disasmBuf} with one space
     * between mnemonic and operands, as a field value is read rather than lined up; returns the length.
     */
    private int singleSpaced(String text) {
        if (disasmBuf.length < text.length()) {
            disasmBuf = new char[text.length() * 2];
        }
        int n = 0;
        boolean space = false;
        boolean operands = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' && !operands) {
                space = true;
                continue;
            }
            if (space && !operands) {
                disasmBuf[n++] = ' ';
                operands = true;
            }
            disasmBuf[n++] = c;
        }
        return n;
    }

    private io.armtrace.isa.disasm.DisassemblyCache disassembly;

    /** Whether what follows is written as a new writer would write it: the disassembly outside an IT block. */
    @Override
    public boolean fresh() {
        return disassembly == null || disassembly.fresh();
    }
    /** Its own buffer: {@link #textBuf} keeps the current symbol's name between instructions. */
    private char[] disasmBuf = new char[64];
    private SerializedString fileText;
    private io.armtrace.image.Symbol textSymbol;
    private int textNameLength;

    /** {@code name} or {@code name+0xOFFSET} into {@link #textBuf}, the name copied once per symbol; returns the length. */
    private int symbolText(io.armtrace.image.Symbol s, long offset) {
        if (s != textSymbol) {
            String name = s.name();
            if (name.length() + 19 > textBuf.length) {
                textBuf = new char[name.length() + 19];
            }
            name.getChars(0, name.length(), textBuf, 0);
            textSymbol = s;
            textNameLength = name.length();
        }
        int n = textNameLength;
        if (offset == 0) {
            return n;
        }
        textBuf[n++] = offset > 0 ? '+' : '-'; // '-': below every symbol (SymbolTable.nameFor)
        int digits = hexInto(Math.abs(offset));
        System.arraycopy(hexBuf, 0, textBuf, n, digits);
        return n + digits;
    }

    private void timeFields() throws IOException {
        if (timeline != null) {
            if (timeline.cycles() >= 0) {
                g.writeFieldName(F_CYCLES);
                g.writeNumber(timeline.cycles());
            }
            if (timeline.timestamp() >= 0) {
                g.writeFieldName(F_TS);
                g.writeNumber(timeline.timestamp());
            }
        }
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static final SerializedString F_TYPE = new SerializedString("type");
    private static final SerializedString F_SRC = new SerializedString("src");
    private static final SerializedString F_ADDR = new SerializedString("addr");
    private static final SerializedString F_ISA = new SerializedString("isa");
    private static final SerializedString F_SIZE = new SerializedString("size");
    private static final SerializedString F_EXECUTED = new SerializedString("executed");
    private static final SerializedString V_INSN = new SerializedString("insn");
    private static final SerializedString[] ISA_VALUES = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> new SerializedString(i.name())).toArray(SerializedString[]::new);
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final char[] hexBuf = new char[18];

    /** Writes {@code 0x} and the hexadecimal digits of {@code v} into {@link #hexBuf}; returns the length. */
    private int hexInto(long v) {
        int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        hexBuf[0] = '0';
        hexBuf[1] = 'x';
        for (int i = digits + 1; i >= 2; i--) {
            hexBuf[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
        return digits + 2;
    }

    /** The trace ID, or null for a source that has none (-1, e.g. an MTB). */
    private void writeSource(int src) throws IOException {
        g.writeFieldName(F_SRC);
        if (src < 0) {
            g.writeNull();
        } else {
            g.writeNumber(src);
        }
    }

    /** Closes the object and its line. */
    private void endLine() throws IOException {
        g.writeEndObject();
        g.writeRaw('\n');
        generatorWrote = true;
    }

    /** Before the generator writes: the bytes kept for a writer that is not an EncodingWriter go first. */
    private void toGenerator() {
        lines.handOver();
    }

    /** Before bytes are written: the generator's text goes first. */
    private void toBytes() throws IOException {
        if (generatorWrote) {
            generatorWrote = false;
            g.flush();
        }
    }

    private void begin(String type, int src) throws IOException {
        toGenerator();
        g.writeStartObject();
        g.writeStringField("type", type);
        if (withSource) {
            writeSource(src);
        }
        timeFields();
    }

    @Override
    public void accept(TraceElement element) {
        // the elements of nearly every object first, without the visitor's two calls
        if (element instanceof InstructionRange r && ranges && annotator == null) {
            try {
                rangeBytes(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        if (element instanceof CycleCount c) {
            visit(c);
            return;
        }
        element.accept(this);
    }

    @Override
    public void visit(InstructionRange r) {
        try {
            if (ranges) {
                range(r);
            } else {
                instructions(r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void range(InstructionRange r) throws IOException {
        if (annotator == null) {
            rangeBytes(r);
            return;
        }
        toGenerator();
        g.writeStartObject();
        g.writeStringField("type", "range");
        if (withSource) {
            g.writeNumberField("src", r.source());
        }
        g.writeStringField("start", hex(r.start()));
        g.writeStringField("end", hex(r.end()));
        g.writeNumberField("count", r.count());
        g.writeStringField("isa", r.isa().name());
        g.writeStringField("last", hex(r.lastAddress()));
        g.writeStringField("last_kind", r.lastKind().name().toLowerCase(java.util.Locale.ROOT));
        g.writeBooleanField("last_executed", r.lastExecuted());
        instructionFields(r.start());
        endLine();
    }

    /*
     * The objects of nearly every listing, as bytes: their strings are addresses and names of ours (ASCII, nothing
     * to escape), and their fields come in the order and form the generator writes them in.
     */

    /**
     * The most bytes of the optional fields {@code "src"}, {@code "cycles"} and {@code "ts"}, and of a
     * recording's {@code "pid"}, {@code "tid"}, {@code "cpu"} and {@code "time"}.
     */
    private static final int OPTIONAL_MAX = 7 + 11 + 10 + 20 + 6 + 20 + 7 + 20 + 7 + 20 + 7 + 11 + 8 + 20;

    /** The thread fields last written, as bytes, with the values they say: reused while these stay. */
    private final byte[] threadBytes = new byte[7 + 20 + 7 + 20 + 7 + 11 + 8 + 20];
    private int threadLength = -1;
    private long threadPid;
    private long threadTid;
    private int threadCpu;
    private long threadTime;

    /**
     * {@code ,"pid":N,"tid":N,"cpu":N} and {@code ,"time":N} where known, as {@link #threadFields} writes them;
     * the four values change only at a context, a timestamp or a new AUX fragment, so the last line's bytes are
     * copied while they hold.
     */
    private int threadBytes(byte[] b, int p) {
        long pid = thread.pid();
        long tid = thread.tid();
        int cpu = thread.cpu();
        long time = thread.time();
        if (threadLength < 0 || pid != threadPid || tid != threadTid || cpu != threadCpu || time != threadTime) {
            byte[] t = threadBytes;
            int q = ListingOutput.ascii(t, 0, B_PID);
            q = ListingOutput.decimal(t, q, pid);
            q = ListingOutput.ascii(t, q, B_TID);
            q = ListingOutput.decimal(t, q, tid);
            q = ListingOutput.ascii(t, q, B_CPU);
            q = ListingOutput.decimal(t, q, cpu);
            if (time >= 0) {
                q = ListingOutput.ascii(t, q, B_TIME);
                q = ListingOutput.decimal(t, q, time);
            }
            threadLength = q;
            threadPid = pid;
            threadTid = tid;
            threadCpu = cpu;
            threadTime = time;
        }
        System.arraycopy(threadBytes, 0, b, p, threadLength);
        return p + threadLength;
    }

    private static final byte[] B_PID = ListingOutput.ascii(",\"pid\":");
    private static final byte[] B_TID = ListingOutput.ascii(",\"tid\":");
    private static final byte[] B_CPU = ListingOutput.ascii(",\"cpu\":");
    private static final byte[] B_TIME = ListingOutput.ascii(",\"time\":");

    /** {@code ,"src":N} where N is the trace ID, or null when there is none. */
    private int src(byte[] b, int p, int src) {
        p = ListingOutput.ascii(b, p, B_SRC);
        return src < 0 ? ListingOutput.ascii(b, p, B_NULL) : ListingOutput.decimal(b, p, src);
    }

    /** {@code ,"cycles":N} and {@code ,"ts":N} where known, as {@link #timeFields}. */
    private int time(byte[] b, int p) {
        if (timeline.cycles() >= 0) {
            p = ListingOutput.ascii(b, p, B_CYCLES);
            p = ListingOutput.decimal(b, p, timeline.cycles());
        }
        if (timeline.timestamp() >= 0) {
            p = ListingOutput.ascii(b, p, B_TS);
            p = ListingOutput.decimal(b, p, timeline.timestamp());
        }
        return p;
    }

    /** {@code "0x..."}, the quoted address in at least one hex digit (as {@link #hex(long)}). */
    private static int quotedHex(byte[] b, int p, long v) {
        b[p] = '"';
        p = ListingOutput.hex0x(b, p + 1, v, 1);
        b[p] = '"';
        return p + 1;
    }

    /**
     * A range handed over as its fields: with {@code --ranges} and no annotations its object is made from them (no
     * element is made), otherwise as for the element.
     */
    @Override
    public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                      io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall, boolean lastExecuted,
                      io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
        if (!ranges || annotator != null) {
            accept(new InstructionRange(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes,
                    (short) sizesIndex));
            return;
        }
        try {
            RangeBytes kept = rangeFields;
            if (kept != null && wholeLinesKept) {
                // a range listed before with the same instruction sizes has the same last instruction: its line is
                // found without working out that instruction's address (15% of this writer's samples on T32 code)
                int e = kept.findConfirmed(start, end, RangeBytes.shape(count, isa, lastKind, lastExecuted) | WHOLE_LINE,
                        sizes, sizesIndex);
                if (e >= 0) {
                    toBytes();
                    ListingOutput o = lines;
                    int p = o.room(256 + OPTIONAL_MAX);
                    o.done(kept.copy(e, o.buf(), p));
                    return;
                }
            }
            long last = io.armtrace.trace.InstructionRange.lastAddress(start, count, sizes, sizesIndex);
            rangeBytes(source, start, end, count, isa, lastKind, lastExecuted, last, sizes, sizesIndex);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void cycles(int source, long cycles) {
        try {
            cyclesBytes(source, cycles);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@code "range"} object without annotations. */
    private void rangeBytes(InstructionRange r) throws IOException {
        rangeBytes(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastExecuted(), r.lastAddress(),
                r.sizes(), r.sizesIndex());
    }

    /** A range's object, whose last instruction is at {@code last}, as {@code sizes} from {@code sizesIndex} say. */
    private void rangeBytes(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                            io.armtrace.trace.WaypointKind lastKind, boolean lastExecuted, long last,
                            io.armtrace.trace.InstructionSizes sizes, int sizesIndex) throws IOException {
        toBytes();
        ListingOutput o = lines;
        int p = o.room(256 + OPTIONAL_MAX);
        byte[] b = o.buf();
        boolean wholeLine = !withSource && timeline == null && thread == null;
        RangeBytes kept = rangeFields;
        if (kept == null) {
            kept = rangeFields = new RangeBytes(RANGE_LINE_IN_PLACE, wholeLine ? WHOLE_LINE_TABLE_BITS : 16);
            wholeLinesKept = wholeLine;
        }
        long shape = RangeBytes.shape(count, isa, lastKind, lastExecuted);
        if (wholeLine) {
            if (linesMadeInPlace) {
                o.done(rangeLine(b, p, start, end, count, isa, lastKind, lastExecuted, last));
                return;
            }
            // the whole line depends on the range alone: kept whole, one copy a line
            shape |= WHOLE_LINE;
            int e = kept.find(start, end, shape, last);
            if (e < 0) {
                int n = ListingOutput.ascii(fieldBytes, 0, B_RANGE);
                n = rangeFields(fieldBytes, n, start, end, count, isa, lastKind, lastExecuted, last);
                e = kept.put(start, end, shape, last, fieldBytes, 0, ListingOutput.ascii(fieldBytes, n, B_END_LINE));
                if (++linesKept > KEPT_LINES_MAX) {
                    linesMadeInPlace = true;
                    wholeLinesKept = false;
                }
            }
            kept.confirm(e, sizes, sizesIndex);
            o.done(kept.copy(e, b, p));
            return;
        }
        p = ListingOutput.ascii(b, p, B_RANGE);
        if (withSource) {
            p = ListingOutput.ascii(b, p, B_SRC);
            p = ListingOutput.decimal(b, p, source); // a number even when there is no trace ID (-1)
        }
        // from "start" to "last_executed" the object depends on the range alone: kept per range (measured
        // cheaper than making these fields in place, whose constant parts are copied piece by piece)
        int e = kept.find(start, end, shape, last);
        if (e < 0) {
            e = kept.put(start, end, shape, last, fieldBytes, 0,
                    rangeFields(fieldBytes, 0, start, end, count, isa, lastKind, lastExecuted, last));
        }
        p = kept.copy(e, b, p);
        if (timeline != null) {
            p = time(b, p);
        }
        if (thread != null) {
            p = threadBytes(b, p);
        }
        o.done(ListingOutput.ascii(b, p, B_END_LINE));
    }

    /**
     * How many whole lines are kept before the lines are made in place instead: ranges past that many no longer
     * fit the caches with the rest of the listing's work, and reading a kept line from a table that misses them
     * costs more than making it (2-core AMD EPYC, CPU time, one JVM each, table against in place:
     * ptm-a9thumb-rs, 190 distinct ranges, 6.3-7.1 s against 9.0-9.2 s; ptm-tc2, 986 distinct ranges, 2.3-3.1 s
     * against 2.0-2.4 s; sqlite-mix-arm-ptm, 107,954, 2.4-2.9 s against 1.7-1.9 s; etm4-cc1, 22,849,
     * 0.138 against 0.115 s; etm4-juno, 625, and etm3-tc2, 799, the same within the machine's noise).
     */
    static final int KEPT_LINES_MAX = 512;
    /** Whole lines kept so far. */
    private int linesKept;
    /** Whether range lines are now made in place ({@link #KEPT_LINES_MAX}). */
    private boolean linesMadeInPlace;
    /** Whether {@link #rangeFields} keeps whole range lines, and they are not yet made in place. */
    private boolean wholeLinesKept;

    /** A range object's whole line made in place at {@code p}; returns the position after it. */
    private static int rangeLine(byte[] b, int p, long start, long end, int count, io.armtrace.trace.Isa isa,
                                 io.armtrace.trace.WaypointKind lastKind, boolean lastExecuted, long last) {
        p = ListingOutput.ascii8(b, p, LINE_START_0, 8);
        p = ListingOutput.ascii8(b, p, LINE_START_1, 8);
        p = ListingOutput.ascii8(b, p, LINE_START_2, 8);
        p = ListingOutput.ascii8(b, p, LINE_START_3, 3);
        p = ListingOutput.hexShortest(b, p, start);
        p = ListingOutput.ascii8(b, p, LINE_END_0, 8);
        p = ListingOutput.ascii8(b, p, LINE_END_1, 3);
        p = ListingOutput.hexShortest(b, p, end);
        p = ListingOutput.ascii8(b, p, LINE_COUNT_0, 8);
        p = ListingOutput.ascii8(b, p, LINE_COUNT_1, 2);
        p = ListingOutput.decimal(b, p, count);
        int i = isa.ordinal();
        p = ListingOutput.copy8(b, p, LINE_ISA[i], LINE_ISA_LENGTH[i]);
        p = ListingOutput.hexShortest(b, p, last);
        int t = lastKind.ordinal() * 2 + (lastExecuted ? 0 : 1);
        return ListingOutput.copy8(b, p, LINE_TAIL[t], LINE_TAIL_LENGTH[t]);
    }

    private static final long LINE_START_0 = ListingOutput.asciiLong("{\"type\":");
    private static final long LINE_START_1 = ListingOutput.asciiLong("\"range\",");
    private static final long LINE_START_2 = ListingOutput.asciiLong("\"start\":");
    private static final long LINE_START_3 = ListingOutput.asciiLong("\"0x");
    private static final long LINE_END_0 = ListingOutput.asciiLong("\",\"end\":");
    private static final long LINE_END_1 = ListingOutput.asciiLong("\"0x");
    private static final long LINE_COUNT_0 = ListingOutput.asciiLong("\",\"count");
    private static final long LINE_COUNT_1 = ListingOutput.asciiLong("\":");
    private static final byte[][] LINE_ISA = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> ListingOutput.ascii8Padded(",\"isa\":\"" + i.name() + "\",\"last\":\"0x")).toArray(byte[][]::new);
    private static final int[] LINE_ISA_LENGTH = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .mapToInt(i -> (",\"isa\":\"" + i.name() + "\",\"last\":\"0x").length()).toArray();
    private static final String[] TAILS = java.util.Arrays.stream(io.armtrace.trace.WaypointKind.values())
            .flatMap(k -> java.util.stream.Stream.of(true, false).map(x -> "\",\"last_kind\":\""
                    + k.name().toLowerCase(java.util.Locale.ROOT) + "\",\"last_executed\":" + x + "}\n"))
            .toArray(String[]::new);
    private static final byte[][] LINE_TAIL = java.util.Arrays.stream(TAILS).map(ListingOutput::ascii8Padded)
            .toArray(byte[][]::new);
    private static final int[] LINE_TAIL_LENGTH = java.util.Arrays.stream(TAILS).mapToInt(String::length).toArray();

    /** In the shape of a range kept as a whole line, so that a line and a line's fields never match each other. */
    private static final long WHOLE_LINE = RangeBytes.SPARE_SHAPE_BIT;

    /**
     * Writes the fields of a range object from {@code "start"} to {@code "last_executed"} into {@code b} at
     * {@code p}; returns the position after them.
     */
    private static int rangeFields(byte[] b, int p, long start, long end, int count, io.armtrace.trace.Isa isa,
                                   io.armtrace.trace.WaypointKind lastKind, boolean lastExecuted, long last) {
        p = ListingOutput.ascii(b, p, B_START);
        p = quotedHexShortest(b, p, start);
        p = ListingOutput.ascii(b, p, B_END);
        p = quotedHexShortest(b, p, end);
        p = ListingOutput.ascii(b, p, B_COUNT);
        p = ListingOutput.decimal(b, p, count);
        p = ListingOutput.ascii(b, p, B_ISA[isa.ordinal()]);
        p = ListingOutput.ascii(b, p, B_LAST);
        p = quotedHexShortest(b, p, last);
        p = ListingOutput.ascii(b, p, B_LAST_KIND[lastKind.ordinal()]);
        return ListingOutput.ascii(b, p, lastExecuted ? B_TRUE : B_FALSE);
    }

    /** Where a range object's fields are made before they are kept (and the 8 bytes a hex store may write past). */
    private final byte[] fieldBytes = new byte[RangeBytes.MAX_BYTES + 8];

    /**
     * Range objects by range (the last instruction's address part of the key), in sets of two ways as the text
     * listing's range lines: bounded memory. Whole lines where a line has no field of its own besides the range's
     * (no source, time or thread), else the fields from {@code "start"} to {@code "last_executed"}. Made at the
     * first range object (a listing of instructions has none).
     */
    private RangeBytes rangeFields;

    /**
     * Bytes kept in place per range: a whole line with 32-bit addresses is about 150, with 64-bit ones up to
     * about 190 (longer ones are kept apart, at the cost of one more load).
     */
    private static final int RANGE_LINE_IN_PLACE = 192;
    /**
     * The table's entries where it keeps whole lines: 2,048, as lines are kept only up to {@link #KEPT_LINES_MAX}
     * (few entries close together). The fields of lines with src, time or thread fields are kept whatever their
     * number, in 65,536 entries (a large program lists tens of thousands of ranges).
     */
    private static final int WHOLE_LINE_TABLE_BITS = 11;

    /**
     * {@code "0x..."}, the quoted address in at least one hex digit (as {@link #hex(long)}), the digits made at
     * once where it fits in 32 bits (writes up to 8 bytes past what it returns).
     */
    private static int quotedHexShortest(byte[] b, int p, long v) {
        b[p] = '"';
        b[p + 1] = '0';
        b[p + 2] = 'x';
        p = ListingOutput.hexShortest(b, p + 3, v);
        b[p] = '"';
        return p + 1;
    }

    /** {@code "insn"} objects without annotations. */
    private void instructionBytes(InstructionRange r) throws IOException {
        toBytes();
        ListingOutput o = lines;
        byte[] isa = B_INSN_ISA[r.isa().ordinal()];
        long a = r.start();
        int count = r.count();
        if (!withSource && timeline == null && thread == null) {
            // the usual line, its constant parts copied eight bytes a store (a copy call per field cost more than
            // the rest of the line)
            byte[] isaSize = P_INSN_ISA_SIZE[r.isa().ordinal()];
            int isaSizeLength = B_INSN_ISA[r.isa().ordinal()].length + 1;
            for (int i = 0; i < count; i++) {
                int size = r.sizeOf(i);
                int p = o.room(128);
                byte[] b = o.buf();
                p = ListingOutput.copy8(b, p, P_INSN_ADDR, P_INSN_ADDR_LENGTH);
                p = ListingOutput.hexShortest(b, p, a);
                p = ListingOutput.copy8(b, p, isaSize, isaSizeLength);
                p = size >= 0 && size < 10 ? digit(b, p, size) : ListingOutput.decimal(b, p, size);
                o.done(i < count - 1 || r.lastExecuted() ? ListingOutput.copy8(b, p, P_EXECUTED_TRUE_END, P_EXECUTED_TRUE_END_LENGTH)
                        : ListingOutput.copy8(b, p, P_EXECUTED_FALSE_END, P_EXECUTED_FALSE_END_LENGTH));
                a += size;
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            int size = r.sizeOf(i);
            int p = o.room(128 + OPTIONAL_MAX);
            byte[] b = o.buf();
            p = ListingOutput.ascii(b, p, B_INSN);
            if (withSource) {
                p = src(b, p, r.source());
            }
            p = ListingOutput.ascii(b, p, B_ADDR);
            p = quotedHexShortest(b, p, a);
            p = ListingOutput.ascii(b, p, isa);
            p = ListingOutput.decimal(b, p, size);
            p = ListingOutput.ascii(b, p, i < count - 1 || r.lastExecuted() ? B_EXECUTED_TRUE : B_EXECUTED_FALSE);
            if (timeline != null) {
                p = time(b, p);
            }
            if (thread != null) {
                p = threadBytes(b, p);
            }
            o.done(ListingOutput.ascii(b, p, B_END_LINE));
            a += size;
        }
    }

    /** A {@code "cycles"} object. */
    private void cyclesBytes(CycleCount c) throws IOException {
        cyclesBytes(c.source(), c.cycles());
    }

    private void cyclesBytes(int source, long cycles) throws IOException {
        toBytes();
        ListingOutput o = lines;
        int p = o.room(64 + OPTIONAL_MAX);
        byte[] b = o.buf();
        if (!withSource && timeline == null) {
            // {"type":"cycles","count": in four stores (the last one's seven bytes past it overwritten next)
            p = ListingOutput.ascii8(b, p, CYCLES_LINE_0, 8);
            p = ListingOutput.ascii8(b, p, CYCLES_LINE_1, 8);
            p = ListingOutput.ascii8(b, p, CYCLES_LINE_2, 8);
            p = ListingOutput.ascii8(b, p, CYCLES_LINE_3, 1);
            p = ListingOutput.decimal(b, p, cycles);
            o.done(ListingOutput.ascii8(b, p, LINE_END, 2));
            return;
        }
        p = ListingOutput.ascii(b, p, B_CYCLES_TYPE);
        if (withSource) {
            p = src(b, p, source);
        }
        if (timeline != null) {
            p = time(b, p);
        }
        p = ListingOutput.ascii(b, p, B_COUNT);
        p = ListingOutput.decimal(b, p, cycles);
        o.done(ListingOutput.ascii(b, p, B_END_LINE));
    }

    private static final byte[] B_RANGE = ListingOutput.ascii("{\"type\":\"range\"");
    private static final long CYCLES_LINE_0 = ListingOutput.asciiLong("{\"type\":");
    private static final long CYCLES_LINE_1 = ListingOutput.asciiLong("\"cycles\"");
    private static final long CYCLES_LINE_2 = ListingOutput.asciiLong(",\"count\"");
    private static final long CYCLES_LINE_3 = ListingOutput.asciiLong(":");
    private static final long LINE_END = ListingOutput.asciiLong("}\n");
    private static final byte[] B_INSN = ListingOutput.ascii("{\"type\":\"insn\"");
    private static final byte[] B_CYCLES_TYPE = ListingOutput.ascii("{\"type\":\"cycles\"");
    private static final byte[] B_SRC = ListingOutput.ascii(",\"src\":");
    private static final byte[] B_NULL = ListingOutput.ascii("null");
    private static final byte[] B_CYCLES = ListingOutput.ascii(",\"cycles\":");
    private static final byte[] B_TS = ListingOutput.ascii(",\"ts\":");
    private static final byte[] B_START = ListingOutput.ascii(",\"start\":");
    private static final byte[] B_END = ListingOutput.ascii(",\"end\":");
    private static final byte[] B_COUNT = ListingOutput.ascii(",\"count\":");
    private static final byte[] B_LAST = ListingOutput.ascii(",\"last\":");
    private static final byte[] B_ADDR = ListingOutput.ascii(",\"addr\":");
    private static final byte[] B_TRUE = ListingOutput.ascii(",\"last_executed\":true");
    private static final byte[] B_FALSE = ListingOutput.ascii(",\"last_executed\":false");
    private static final byte[] B_EXECUTED_TRUE = ListingOutput.ascii(",\"executed\":true");
    private static final byte[] B_EXECUTED_FALSE = ListingOutput.ascii(",\"executed\":false");
    private static final byte[] B_END_LINE = ListingOutput.ascii("}\n");
    private static final byte[][] B_ISA = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> ListingOutput.ascii(",\"isa\":\"" + i.name() + "\"")).toArray(byte[][]::new);
    private static final byte[][] B_INSN_ISA = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> ListingOutput.ascii(",\"isa\":\"" + i.name() + "\",\"size\":")).toArray(byte[][]::new);
    /** The constant parts of the usual {@code insn} line, padded for {@link ListingOutput#copy8}. */
    private static final String INSN_ADDR = "{\"type\":\"insn\",\"addr\":\"0x";
    private static final byte[] P_INSN_ADDR = ListingOutput.ascii8Padded(INSN_ADDR);
    private static final int P_INSN_ADDR_LENGTH = INSN_ADDR.length();
    /** The closing quote of the address, then the ISA and the size's name. */
    private static final byte[][] P_INSN_ISA_SIZE = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> ListingOutput.ascii8Padded("\",\"isa\":\"" + i.name() + "\",\"size\":")).toArray(byte[][]::new);
    private static final String EXECUTED_TRUE_END = ",\"executed\":true}\n";
    private static final String EXECUTED_FALSE_END = ",\"executed\":false}\n";
    private static final byte[] P_EXECUTED_TRUE_END = ListingOutput.ascii8Padded(EXECUTED_TRUE_END);
    private static final byte[] P_EXECUTED_FALSE_END = ListingOutput.ascii8Padded(EXECUTED_FALSE_END);
    private static final int P_EXECUTED_TRUE_END_LENGTH = EXECUTED_TRUE_END.length();
    private static final int P_EXECUTED_FALSE_END_LENGTH = EXECUTED_FALSE_END.length();

    private static int digit(byte[] b, int p, int d) {
        b[p] = (byte) ('0' + d);
        return p + 1;
    }
    private static final byte[][] B_LAST_KIND = java.util.Arrays.stream(io.armtrace.trace.WaypointKind.values())
            .map(k -> ListingOutput.ascii(",\"last_kind\":\"" + k.name().toLowerCase(java.util.Locale.ROOT) + "\""))
            .toArray(byte[][]::new);

    /** One {@code insn} line per instruction: the hot path of the writer. */
    private void instructions(InstructionRange r) throws IOException {
        if (annotator == null) {
            instructionBytes(r);
            return;
        }
        toGenerator();
        // pre-encoded names and a reused buffer for the address
        SerializedString isaValue = ISA_VALUES[r.isa().ordinal()];
        long a = r.start();
        for (int i = 0; i < r.count(); i++) {
            int size = r.sizeOf(i);
            g.writeStartObject();
            g.writeFieldName(F_TYPE);
            g.writeString(V_INSN);
            if (withSource) {
                writeSource(r.source());
            }
            g.writeFieldName(F_ADDR);
            g.writeString(hexBuf, 0, hexInto(a));
            g.writeFieldName(F_ISA);
            g.writeString(isaValue);
            g.writeFieldName(F_SIZE);
            g.writeNumber(size);
            g.writeFieldName(F_EXECUTED);
            g.writeBoolean(i < r.count() - 1 || r.lastExecuted());
            if (annotator != null || timeline != null || thread != null) { // any optional per-instruction field asked for
                instructionFields(a, size, r.isa());
            }
            endLine();
            a += size;
        }
    }

    /** {@code insn_count}: instructions whose path the trace does not give. */
    @Override
    public void visit(InstructionCount c) {
        try {
            begin("insn_count", c.source());
            g.writeNumberField("count", c.count());
            g.writeStringField("isa", c.isa().name());
            if (c.start() != -1) {
                g.writeStringField("start", hex(c.start()));
            }
            if (c.end() != -1) {
                g.writeStringField("end", hex(c.end()));
            }
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(ExceptionEntry e) {
        try {
            begin("exception", e.source());
            g.writeNumberField("number", e.number());
            if (e.name() != null) {
                g.writeStringField("name", e.name());
            }
            if (e.preferredReturn() != -1) {
                g.writeStringField("return", hex(e.preferredReturn()));
            }
            g.writeBooleanField("cancelled", e.cancelled());
            if (e.exceptionLevel() >= 0) {
                g.writeNumberField("el", e.exceptionLevel());
            }
            endLine();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @Override
    public void visit(ExceptionReturn e) {
        try {
            begin("exception_return", e.source());
            if (e.target() != -1) {
                g.writeStringField("target", hex(e.target()));
            }
            endLine();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    /** In bytes, as {@link #begin} and the generator would write it: a PTM trace says it at every I-sync. */
    @Override
    public void visit(TraceOn t) {
        traceOn(t.source(), t.reason(), t.offset());
    }

    /** A trace-on handed over as its fields: its object made from them, no element made. */
    @Override
    public void traceOn(int source, TraceOn.Reason reason, long offset) {
        try {
            int p = openLine(B_TRACE_ON, source);
            ListingOutput o = lines;
            byte[] b = o.buf();
            p = ListingOutput.ascii(b, p, B_REASON[reason.ordinal()]);
            p = ListingOutput.decimal(b, p, offset);
            o.done(ListingOutput.ascii(b, p, B_END_LINE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@link #begin} writes after the type, in bytes: the trace ID where asked for, and the time fields. */
    private int begun(byte[] b, int p, int source) {
        if (withSource) {
            p = src(b, p, source);
        }
        return timeline != null ? time(b, p) : p;
    }

    private static final byte[] B_TRACE_ON = ListingOutput.ascii("{\"type\":\"trace_on\"");
    /** {@code ,"reason":"REASON","offset":} for each reason. */
    private static final byte[][] B_REASON = java.util.Arrays.stream(TraceOn.Reason.values())
            .map(r -> ListingOutput.ascii(",\"reason\":\"" + r.name().toLowerCase(java.util.Locale.ROOT) + "\",\"offset\":"))
            .toArray(byte[][]::new);

    @Override
    public void visit(Gap gap) {
        try {
            begin("gap", gap.source());
            g.writeStringField("reason", gap.reason());
            g.writeNumberField("offset", gap.offset());
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(NoImage n) {
        try {
            int p = openLine(B_NO_IMAGE, n.source());
            ListingOutput o = lines;
            byte[] b = o.buf();
            p = ListingOutput.ascii(b, p, B_ADDR);
            p = quotedHexShortest(b, p, n.address());
            p = ListingOutput.ascii(b, p, B_ISA[n.isa().ordinal()]);
            o.done(ListingOutput.ascii(b, p, B_END_LINE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts a line written as bytes: the object's type (its opening bytes {@code type}) and its source; returns
     * where the line goes on in {@code lines.buf()}, which has room for the rest of a short object.
     */
    private int openLine(byte[] type, int source) throws IOException {
        toBytes();
        ListingOutput o = lines;
        int p = o.room(128 + OPTIONAL_MAX);
        byte[] b = o.buf();
        return begun(b, ListingOutput.ascii(b, p, type), source);
    }

    private static final byte[] B_NO_IMAGE = ListingOutput.ascii("{\"type\":\"no_image\"");

    /**
     * {@code context}: the fields of the AArch32 protocols always, those only later protocols trace
     * ({@code el}, {@code aarch64}, a {@code security} state other than Secure and Non-secure) when known.
     */
    @Override
    public void visit(Context c) {
        try {
            begin("context", c.source());
            if (c.contextId() >= 0) {
                g.writeStringField("context_id", hex(c.contextId()));
            }
            if (c.vmid() >= 0) {
                g.writeNumberField("vmid", c.vmid());
            }
            g.writeBooleanField("non_secure", c.nonSecure());
            g.writeBooleanField("hyp", c.hyp());
            if (c.security() == SecurityState.REALM || c.security() == SecurityState.ROOT) {
                g.writeStringField("security", c.security().name().toLowerCase(java.util.Locale.ROOT));
            }
            if (c.exceptionLevel() >= 0) {
                g.writeNumberField("el", c.exceptionLevel());
            }
            if (c.aarch64()) {
                g.writeBooleanField("aarch64", true);
            }
            if (c.mode() != ProcessorMode.NONE) {
                g.writeStringField("mode", c.mode() == ProcessorMode.THREAD ? "thread" : "handler");
            }
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(Timestamp t) {
        try {
            int p = openLine(B_TIMESTAMP, t.source());
            ListingOutput o = lines;
            byte[] b = o.buf();
            p = ListingOutput.ascii(b, p, B_VALUE);
            p = ListingOutput.decimal(b, p, t.value());
            if (t.cycles() >= 0) {
                p = ListingOutput.ascii(b, p, B_CYCLE_COUNT);
                p = ListingOutput.decimal(b, p, t.cycles());
            }
            o.done(ListingOutput.ascii(b, p, B_END_LINE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final byte[] B_TIMESTAMP = ListingOutput.ascii("{\"type\":\"timestamp\"");
    private static final byte[] B_VALUE = ListingOutput.ascii(",\"value\":");
    private static final byte[] B_CYCLE_COUNT = ListingOutput.ascii(",\"cycle_count\":");

    @Override
    public void visit(CycleCount c) {
        try {
            cyclesBytes(c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(Event e) {
        try {
            begin("event", e.source());
            g.writeNumberField("number", e.number());
            endLine();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    @Override
    public void visit(Trigger t) {
        try {
            begin("trigger", t.source());
            g.writeNumberField("offset", t.offset());
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(DecodeError e) {
        try {
            begin("error", e.source());
            g.writeStringField("message", e.message());
            if (e.address() != -1) {
                g.writeStringField("addr", hex(e.address()));
            }
            if (e.offset() >= 0) {
                g.writeNumberField("offset", e.offset());
            }
            endLine();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    private static final String[] COUNTERS = EventCounterWrap.NAMES;

    /*
     * Software trace (ITM, DWT, STM); README.md lists their fields.
     */

    @Override
    public void visit(SoftwareMessage m) {
        try {
            begin("software", m.source());
            g.writeStringField("kind", m.kind().name().toLowerCase(java.util.Locale.ROOT));
            if (m.master() == SoftwareMessage.NO_MASTER) {
                g.writeNumberField("port", m.channel());
            } else {
                g.writeNumberField("master", m.master());
                g.writeNumberField("channel", m.channel());
            }
            if (m.bits() > 0) {
                g.writeNumberField("bits", m.bits());
                g.writeStringField("value", hex(m.value()));
            }
            if (m.marker()) {
                g.writeBooleanField("marker", true);
            }
            if (m.timestamped()) {
                g.writeBooleanField("timestamped", true);
            }
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(LocalTimestamp t) {
        try {
            begin("local_timestamp", t.source());
            g.writeNumberField("ticks", t.ticks());
            g.writeStringField("relation", t.relation().name().toLowerCase(java.util.Locale.ROOT));
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(PcSample s) {
        try {
            begin("pc_sample", s.source());
            if (s.sleep()) {
                g.writeBooleanField("sleep", true);
            } else {
                g.writeStringField("addr", hex(s.address()));
            }
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(ExceptionTrace x) {
        try {
            begin("exception_trace", x.source());
            g.writeStringField("function", x.function().name().toLowerCase(java.util.Locale.ROOT));
            g.writeNumberField("number", x.number());
            g.writeStringField("name", x.name());
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(DataTrace d) {
        try {
            begin("data_trace", d.source());
            g.writeNumberField("comparator", d.comparator());
            g.writeStringField("kind", d.kind().name().toLowerCase(java.util.Locale.ROOT));
            g.writeStringField("value", hex(d.value()));
            g.writeNumberField("size", d.bytes());
            if (d.kind() == DataTrace.Kind.DATA_VALUE) {
                g.writeStringField("access", d.write() ? "write" : "read");
            }
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void visit(EventCounterWrap w) {
        try {
            begin("counter_wrap", w.source());
            g.writeArrayFieldStart("counters");
            for (int i = 0; i < COUNTERS.length; i++) {
                if ((w.counters() >> i & 1) != 0) {
                    g.writeString(COUNTERS[i]);
                }
            }
            g.writeEndArray();
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void end() {
        try {
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        generatorWrote = false;
        lines.flush();
    }
}
