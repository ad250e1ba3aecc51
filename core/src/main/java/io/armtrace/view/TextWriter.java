package io.armtrace.view;

import io.armtrace.image.ProgramImage;
import io.armtrace.isa.disasm.Disassembler;
import io.armtrace.isa.disasm.DisassemblyCache;
import io.armtrace.isa.Profile;
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
import io.armtrace.trace.Isa;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SecurityState;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;
import java.io.Writer;
import java.util.Locale;

/**
 * Human-readable listing: one line per element, addresses in hex, function names where the image has
 * symbols; with {@code perInstruction}, every instruction of a range on its own line with its
 * opcode and its disassembly (objdump's syntax, see {@link Disassembler}).
 */
public final class TextWriter implements ElementSink, ElementVisitor, io.armtrace.trace.PieceFormat.Fresh {
    private final ListingOutput out;
    private final ProgramImage image;
    private final Symbolizer symbols;
    private final boolean perInstruction;
    private final boolean withSource;
    private final DisassemblyCache disassembly;
    private final boolean symbolsAvailable;
    private final StringBuilder line = new StringBuilder(128);
    private Annotator annotator;
    private Timeline timeline;
    private RunningThread thread;
    private boolean tailChainPending;
    private int tailChainSource;

    /**
     * Writes to {@code out}; given an {@link EncodingWriter} (or its {@link EncodingWriter#printWriter}), the
     * lines are built as bytes in its buffer.
     */
    public TextWriter(Writer out, ProgramImage image, boolean perInstruction, boolean withSource) {
        this(out, image, perInstruction, withSource, Profile.AR);
    }

    /** {@code profile} selects how MRS/MSR name special registers in the disassembly (M: PRIMASK etc.). */
    public TextWriter(Writer out, ProgramImage image, boolean perInstruction, boolean withSource, Profile profile) {
        this.disassembly = perInstruction
                ? new DisassemblyCache(new Disassembler(profile), image.memory(), image.symbols()) : null;
        this.out = new ListingOutput(out);
        this.image = image;
        this.symbols = new Symbolizer(image.symbols());
        this.symbolsAvailable = symbols.available();
        this.rangeNames = symbolsAvailable ? new RangeNames(image.symbols()) : null;
        this.perInstruction = perInstruction;
        this.withSource = withSource;
    }

    /** Adds {@code function+0xOFFSET} and {@code file:line} to every instruction and range line. */
    public TextWriter annotate(boolean on) {
        this.annotator = on ? new Annotator(image) : null;
        return this;
    }

    /**
     * Starts every line with two columns, the running cycle count and the latest timestamp ({@code -} where
     * the trace has none yet), read from {@code timeline}, the stage that feeds this writer.
     */
    public TextWriter time(Timeline timeline) {
        this.timeline = timeline;
        if (timeline != null) {
            // one header line names the two columns, aligned with them (after the source tag, when shown); written
            // before the first line, as thread() may name more columns
            header = (withSource ? "src    " : "") + TIME_HEADER + NEWLINE;
        }
        return this;
    }

    /**
     * Starts every line (after the {@link #time} columns, when shown) with four columns, the process and thread
     * IDs, the CPU and the time in seconds of the recording's clock ({@code -} where unknown), read from
     * {@code thread}, a stage that feeds this writer: a recording's, as perf script shows them. Call after
     * {@link #time}.
     */
    public TextWriter thread(RunningThread thread) {
        this.thread = thread;
        if (thread != null) {
            // the time columns' header line, if any, said again with these
            header = (withSource ? "src    " : "") + (timeline != null ? TIME_HEADER + "  " : "") + THREAD_HEADER + NEWLINE;
        }
        return this;
    }

    /** The header line of the columns, until it is written before the first line (or at the end). */
    private String header;

    private void writeHeader() {
        out.text(header);
        header = null;
    }

    /** The titles of the {@link #thread} columns: 7, 7, 3 and 16 characters wide, as {@link #threadColumns} writes them. */
    static final String THREAD_HEADER = "    pid     tid cpu             time";

    private void threadColumns() {
        column(thread.pid(), 7);
        line.append(' ');
        column(thread.tid(), 7);
        line.append(' ');
        column(thread.cpu(), 3);
        line.append(' ');
        long t = thread.time();
        if (t < 0) {
            for (int i = 1; i < 16; i++) {
                line.append(' ');
            }
            line.append('-');
        } else {
            String sec = Long.toString(t / 1_000_000_000L);
            String ns = Long.toString(1_000_000_000L + t % 1_000_000_000L).substring(1);
            for (int i = sec.length() + 10; i < 16; i++) {
                line.append(' ');
            }
            line.append(sec).append('.').append(ns);
        }
        line.append("  ");
    }

    /** The titles of the {@link #time} columns: 10 and 14 characters wide, as {@link #timeColumns} writes them. */
    static final String TIME_HEADER = "    cycles      timestamp";

    private static String hex(long v) {
        return "0x" + hexDigits(v, 8);
    }

    /** Appends {@code 0x} and {@code v} in at least 8 lower-case hex digits to the line. */
    private StringBuilder hexTo(long v) {
        line.append('0').append('x');
        appendHex(line, v, 8);
        return line;
    }

    private StringBuilder start(TraceElement e) {
        line.setLength(0);
        if (withSource) {
            sourceTag(e.source());
        }
        if (timeline != null) {
            timeColumns();
        }
        if (thread != null) {
            threadColumns();
        }
        return line;
    }

    private void timeColumns() {
        column(timeline.cycles(), 10);
        line.append(' ');
        column(timeline.timestamp(), 14);
        line.append("  ");
    }

    /** {@code v} in decimal right-aligned in {@code width} characters, or {@code -} when negative (unknown). */
    private void column(long v, int width) {
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        for (int i = digits; i < width; i++) {
            line.append(' ');
        }
        if (v < 0) {
            line.append('-');
        } else {
            line.append(v);
        }
    }

    /** With {@link #annotate}: {@code  <function+0xOFFSET>  file:line} of a code address. */
    private void annotation(long address) {
        int at = line.length();
        line.append("  <");
        if (annotator.appendSymbol(line, address)) {
            line.append('>');
        } else {
            line.setLength(at);
        }
        io.armtrace.image.LineTable.Location l = annotator.location(address);
        if (l != null) {
            line.append("  ").append(l.file()).append(':').append(l.line());
        }
    }

    /** {@code [0xID] }, or {@code [none] } for a stream that has no trace ID (a raw file without one). */
    private void sourceTag(int source) {
        if (source < 0) {
            line.append("[none] ");
            return;
        }
        line.append("[0x");
        appendHex(line, source, 2);
        line.append("] ");
    }

    /** Ends the line and writes it. */
    private void emit() {
        line.append(NEWLINE);
        out.text(line);
    }

    private static final String NEWLINE = System.lineSeparator();
    private static final byte[] NEWLINE_BYTES = ListingOutput.ascii(NEWLINE);

    /*
     * The lines of nearly every listing (ranges, cycle counts) are built as bytes in the output buffer: the
     * columns before the text, the text of a range from a per-range cache, digits in place.
     */

    /** The most bytes of the columns before a line's text: source tag, time columns, thread columns. */
    private static final int COLUMNS_MAX = 12 + 20 + 1 + 20 + 2 + 3 * (20 + 1) + 21 + 2;

    /** Writes the columns ({@code withSource}, {@link #time}) at {@code p}; returns the position after them. */
    private int columns(byte[] b, int p, int source) {
        if (withSource) {
            if (source < 0) {
                p = ListingOutput.ascii(b, p, NONE_TAG);
            } else {
                b[p++] = '[';
                p = ListingOutput.hex0x(b, p, source, 2);
                b[p++] = ']';
                b[p++] = ' ';
            }
        }
        if (timeline != null) {
            p = column(b, p, timeline.cycles(), 10);
            b[p++] = ' ';
            p = column(b, p, timeline.timestamp(), 14);
            b[p++] = ' ';
            b[p++] = ' ';
        }
        if (thread != null) {
            p = threadColumns(b, p);
        }
        return p;
    }

    /**
     * As {@link #threadColumns()}, in bytes: copied from the previous line's when the thread, CPU and time are
     * the same (they change only at a context, a timestamp or a new AUX fragment, not from line to line).
     */
    private int threadColumns(byte[] b, int p) {
        long pid = thread.pid();
        long tid = thread.tid();
        int cpu = thread.cpu();
        long t = thread.time();
        if (threadCached == 0 || pid != cachedPid || tid != cachedTid || cpu != cachedCpu || t != cachedTime) {
            threadCached = formatThreadColumns(cachedThreadColumns, 0, pid, tid, cpu, t);
            cachedPid = pid;
            cachedTid = tid;
            cachedCpu = cpu;
            cachedTime = t;
        }
        System.arraycopy(cachedThreadColumns, 0, b, p, threadCached);
        return p + threadCached;
    }

    /** The bytes of the last {@link #threadColumns(byte[], int)} (their length in {@link #threadCached}, 0 before any). */
    private final byte[] cachedThreadColumns = new byte[3 * (20 + 1) + 21 + 2];
    private int threadCached;
    private long cachedPid;
    private long cachedTid;
    private int cachedCpu;
    private long cachedTime;

    private static int formatThreadColumns(byte[] b, int p, long pid, long tid, int cpu, long t) {
        p = column(b, p, pid, 7);
        b[p++] = ' ';
        p = column(b, p, tid, 7);
        b[p++] = ' ';
        p = column(b, p, cpu, 3);
        b[p++] = ' ';
        if (t < 0) {
            for (int i = 1; i < 16; i++) {
                b[p++] = ' ';
            }
            b[p++] = '-';
        } else {
            long sec = t / 1_000_000_000L;
            for (int i = ListingOutput.decimalDigits(sec) + 10; i < 16; i++) {
                b[p++] = ' ';
            }
            p = ListingOutput.decimal(b, p, sec);
            int dot = p;
            p = ListingOutput.decimal(b, p, 1_000_000_000L + t % 1_000_000_000L); // nine digits after a 1
            b[dot] = '.';
        }
        b[p++] = ' ';
        b[p++] = ' ';
        return p;
    }

    private static final byte[] NONE_TAG = ListingOutput.ascii("[none] ");

    /** As {@link #column(long, int)}, in bytes. */
    private static int column(byte[] b, int p, long v, int width) {
        for (int i = v < 0 ? 1 : ListingOutput.decimalDigits(v); i < width; i++) {
            b[p++] = ' ';
        }
        if (v < 0) {
            b[p++] = '-';
            return p;
        }
        return ListingOutput.decimal(b, p, v);
    }

    private String where(long address) {
        String n = symbols.name(address);
        return n == null ? "" : "  <" + n + ">";
    }

    /** Appends {@code "  <name+0xOFF>"} when a symbol covers the address (as {@link #where}). */
    private void appendWhere(long address) {
        if (!symbolsAvailable) {
            return;
        }
        io.armtrace.image.Symbol s = image.symbols().nameFor(address);
        if (s == null) {
            return;
        }
        line.append("  <").append(s.name());
        long off = address - s.address();
        if (off > 0) {
            line.append("+0x");
            appendHex(line, off, 1);
        } else if (off < 0) {
            line.append("-0x");
            appendHex(line, -off, 1);
        }
        line.append('>');
    }

    @Override
    public void accept(TraceElement element) {
        if (header != null) {
            writeHeader();
        }
        // the elements of nearly every line first, each in a method small enough to be inlined here
        if (element instanceof InstructionRange r && !perInstruction) {
            flushPendingReturn();
            range(r);
            return;
        }
        if (element instanceof CycleCount c) {
            flushPendingReturn();
            cycles(c);
            return;
        }
        if (!(element instanceof ExceptionEntry)) {
            flushPendingReturn();
        }
        element.accept(this);
    }

    /**
     * A range handed over as its fields: the line is made from them where it names no symbol (no element is
     * made), otherwise as for the element.
     */
    @Override
    public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                      io.armtrace.trace.CallKind lastCall, boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes,
                      int sizesIndex) {
        if (header != null || perInstruction || annotator != null) {
            accept(new InstructionRange(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes,
                    (short) sizesIndex));
            return;
        }
        flushPendingReturn();
        int where = symbolsAvailable ? rangeNames.where(start) : NO_SYMBOL;
        if (where == NOT_IN_PLACE) {
            rangeText(new InstructionRange(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes,
                    (short) sizesIndex));
            return;
        }
        rangeDirect(source, start, end, count, isa, lastKind, lastExecuted, where);
    }

    @Override
    public void cycles(int source, long cycles) {
        if (header != null) {
            writeHeader();
        }
        flushPendingReturn();
        cyclesLine(source, cycles);
    }

    /** {@code cycles N}, in bytes. */
    private void cycles(CycleCount c) {
        cyclesLine(c.source(), c.cycles());
    }

    private void cyclesLine(int source, long cycles) {
        ListingOutput o = out;
        int p = o.room(COLUMNS_MAX + 8 + 20 + NEWLINE_BYTES.length);
        byte[] b = o.buf();
        p = columns(b, p, source);
        p = ListingOutput.ascii8(b, p, CYCLES, 7);
        p = ListingOutput.decimal(b, p, cycles);
        o.done(newline(b, p));
    }

    private static final long CYCLES = ListingOutput.asciiLong("cycles ");

    /** The line separator at {@code p}; returns the position after it. */
    private static int newline(byte[] b, int p) {
        if (NEWLINE_BYTES.length == 1) {
            b[p] = NEWLINE_BYTES[0];
            return p + 1;
        }
        return ListingOutput.ascii(b, p, NEWLINE_BYTES);
    }

    /**
     * Whether what follows is listed as a new writer would list it: no exception return held back, and the
     * disassembly (per instruction) outside an IT block.
     */
    @Override
    public boolean fresh() {
        return !tailChainPending && (disassembly == null || disassembly.fresh());
    }

    private void flushPendingReturn() {
        if (tailChainPending) {
            tailChainPending = false;
            line.setLength(0);
            if (withSource) {
                sourceTag(tailChainSource);
            }
            if (timeline != null) {
                timeColumns();
            }
            if (thread != null) {
                threadColumns();
            }
            line.append("exception return");
            emit();
        }
    }

    /*
     * One method per kind of element (ElementVisitor). A pending "exception return" without a target has
     * been said by accept() before any of them but an exception entry, which may tail-chain from it.
     */

    @Override
    public void visit(InstructionRange r) {
        if (!perInstruction) {
            range(r);
            return;
        }
        long a = r.start();
        for (int i = 0; i < r.count(); i++) {
            int size = r.sizeOf(i);
            boolean executed = i < r.count() - 1 || r.lastExecuted();
            String text = disassembly.text(a, r.isa(), size); // once per instruction, in order (IT blocks)
            if (annotator == null && instructionsInPlace) {
                byte[] textBytes = disassembly.lastTextBytes();
                int where = symbolsAvailable ? rangeNames.where(a) : NO_SYMBOL;
                if ((text == null || textBytes != null && textBytes.length <= TEXT_IN_PLACE_MAX) && where != NOT_IN_PLACE) {
                    instructionDirect(r.source(), a, size, r.isa(), executed, text, textBytes, where);
                    a += size;
                    continue;
                }
            }
            start(r).append("  ").append(hex(a)).append("  ").append(r.isa()).append(' ');
            line.append(opcode(a, size, r.isa()));
            String where = annotator != null ? "" : where(a);
            if (text != null) {
                line.append("  ").append(text);
                if (!executed || annotator != null || !where.isEmpty()) {
                    for (int pad = DISASSEMBLY_WIDTH - text.length(); pad > 0; pad--) {
                        line.append(' ');
                    }
                }
            }
            line.append(executed ? "" : "  (condition failed)");
            if (annotator != null) {
                annotation(a);
            } else {
                line.append(where);
            }
            emit();
            a += size;
        }
    }

    /**
     * An instruction's line made in place, as the lines above: the address, ISA, opcode, the disassembly's bytes
     * (ASCII, cached with it), the condition and the symbol ({@code where} from {@link RangeNames}).
     */
    private void instructionDirect(int source, long a, int size, Isa isa, boolean executed, String text,
                                   byte[] textBytes, int where) {
        ListingOutput o = out;
        int p = o.room(COLUMNS_MAX + INSN_LINE_MAX + (textBytes == null ? 0 : textBytes.length) + WHERE_MAX);
        byte[] b = o.buf();
        p = columns(b, p, source);
        p = ListingOutput.ascii8(b, p, SPACE_SPACE_0X, 4);
        p = ListingOutput.hex8(b, p, a);
        int k = isa.ordinal();
        p = ListingOutput.copy8(b, p, INSN_ISA[k], INSN_ISA_LENGTH[k]);
        p = opcode(b, p, a, size, isa);
        if (text != null) {
            p = ListingOutput.ascii8(b, p, SPACES, 2);
            int n = text.length();
            p = ListingOutput.copy8(b, p, textBytes, !executed || where != NO_SYMBOL ? Math.max(n, DISASSEMBLY_WIDTH) : n);
        }
        if (!executed) {
            p = ListingOutput.copy8(b, p, CONDITION_FAILED, CONDITION_FAILED_LENGTH);
        }
        if (where != NO_SYMBOL) {
            p = whereBytes(b, p, a, where);
        }
        o.done(newline(b, p));
    }

    /** The opcode column as {@link #opcode(long, int, Isa)} gives it, in place. */
    private int opcode(byte[] b, int p, long address, int size, Isa isa) {
        io.armtrace.image.MemoryImage m = image.memory();
        if (size == 4) {
            if (isa == Isa.A32 || isa == Isa.A64) {
                long w = m.u32(address);
                if (w < 0) {
                    return ListingOutput.ascii8(b, p, QUESTION_MARKS, 8);
                }
                p = ListingOutput.hex8(b, p, w);
                b[p] = ' ';
                return p + 1;
            }
            int h1 = m.u16(address);
            int h2 = m.u16(address + 2);
            if (h1 < 0 || h2 < 0) {
                p = ListingOutput.ascii8(b, p, QUESTION_MARKS, 4);
                b[p] = ' ';
                return ListingOutput.ascii8(b, p + 1, QUESTION_MARKS, 4);
            }
            p = ListingOutput.hex(b, p, h1, 4);
            b[p] = ' ';
            return ListingOutput.hex(b, p + 1, h2, 4);
        }
        int hw = m.u16(address);
        p = hw < 0 ? ListingOutput.ascii8(b, p, QUESTION_MARKS, 4) : ListingOutput.hex(b, p, hw, 4);
        return ListingOutput.ascii8(b, p, SPACES, 5);
    }

    /** False: every instruction line made as text (the reference {@code InstructionLinesTest} compares with). */
    boolean instructionsInPlace = true;

    /** The longest disassembly made in place (with the rest of the line within {@link ListingOutput#MAX_LINE}). */
    private static final int TEXT_IN_PLACE_MAX = 200;
    private static final long SPACE_SPACE_0X = ListingOutput.asciiLong("  0x");
    private static final long QUESTION_MARKS = ListingOutput.asciiLong("????????");
    /** {@code "  ISA "} after the address, by ISA. */
    private static final byte[][] INSN_ISA = java.util.Arrays.stream(Isa.values())
            .map(i -> ListingOutput.ascii8Padded("  " + i + " ")).toArray(byte[][]::new);
    private static final int[] INSN_ISA_LENGTH = java.util.Arrays.stream(Isa.values())
            .mapToInt(i -> ("  " + i + " ").length()).toArray();
    private static final String CONDITION_FAILED_TEXT = "  (condition failed)";
    private static final byte[] CONDITION_FAILED = ListingOutput.ascii8Padded(CONDITION_FAILED_TEXT);
    private static final int CONDITION_FAILED_LENGTH = CONDITION_FAILED_TEXT.length();
    /**
     * The most bytes of an instruction line after its columns, without the disassembly: address (with the 16 a
     * hex store may write past), ISA, opcode, two spaces, the condition, and slack for the eight-byte stores.
     */
    private static final int INSN_LINE_MAX = 4 + 16 + 16 + 24 + 16 + 2 + 24 + 16;

    /** {@code N insn ISA from 0xSTART, path not traced}, then where execution went on when known. */
    @Override
    public void visit(InstructionCount c) {
        start(c).append(c.count()).append(" insn ").append(c.isa());
        if (c.start() != -1) {
            line.append(" from ").append(hex(c.start())).append(where(c.start()));
        }
        line.append(", path not traced");
        if (c.end() != -1) {
            line.append(", then ").append(hex(c.end())).append(where(c.end()));
        }
        emit();
    }

    @Override
    public void visit(ExceptionEntry e) {
        if (tailChainPending) {
            // a return that went straight into another handler (M-profile tail-chaining)
            tailChainPending = false;
            start(e).append("exception return, tail-chained into ");
        } else {
            start(e).append("exception ");
        }
        if (e.number() >= 0) {
            line.append(e.number());
            if (e.name() != null) {
                line.append(" (").append(e.name()).append(')');
            }
        } else {
            line.append(e.name() != null ? e.name() : "(unknown)");
        }
        if (e.exceptionLevel() >= 0) {
            line.append(" to EL").append(e.exceptionLevel());
        }
        if (e.preferredReturn() != -1) {
            line.append(", returns to ").append(hex(e.preferredReturn())).append(where(e.preferredReturn()));
        }
        if (e.cancelled()) {
            line.append(", last instruction cancelled");
        }
        emit();
    }

    @Override
    public void visit(ExceptionReturn e) {
        if (e.target() == -1) {
            // said when the next element shows whether it tail-chained into another exception
            tailChainPending = true;
            tailChainSource = e.source();
            return;
        }
        start(e).append("exception return to ").append(hex(e.target())).append(where(e.target()));
        emit();
    }

    @Override
    public void visit(TraceOn t) {
        traceOnLine(t.source(), t.reason(), t.offset());
    }

    /** A trace-on handed over as its fields: the line made from them, as {@link #accept} would, no element made. */
    @Override
    public void traceOn(int source, TraceOn.Reason reason, long offset) {
        if (header != null) {
            writeHeader();
        }
        flushPendingReturn();
        traceOnLine(source, reason, offset);
    }

    private void traceOnLine(int source, TraceOn.Reason reason, long offset) {
        // in bytes: a PTM trace says it at every I-sync
        ListingOutput o = out;
        byte[] r = REASON_BYTES[reason.ordinal()];
        int p = o.room(COLUMNS_MAX + r.length + 20 + NEWLINE_BYTES.length);
        byte[] b = o.buf();
        p = columns(b, p, source);
        p = ListingOutput.ascii(b, p, r);
        p = ListingOutput.decimal(b, p, offset);
        o.done(ListingOutput.ascii(b, p, NEWLINE_BYTES));
    }

    /** {@code trace on (REASON) at byte } for each reason. */
    private static final byte[][] REASON_BYTES = java.util.Arrays.stream(TraceOn.Reason.values())
            .map(r -> ListingOutput.ascii("trace on (" + r.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ") at byte "))
            .toArray(byte[][]::new);

    @Override
    public void visit(Gap g) {
        start(g).append("*** gap at byte ").append(g.offset()).append(": ").append(g.reason());
        emit();
    }

    @Override
    public void visit(NoImage n) {
        ListingOutput o = out;
        int p = o.room(COLUMNS_MAX + 128);
        byte[] b = o.buf();
        p = columns(b, p, n.source());
        p = ListingOutput.ascii(b, p, NO_IMAGE);
        p = ListingOutput.hex0x(b, p, n.address(), 8);
        b[p++] = ' ';
        p = ListingOutput.ascii(b, p, ISA_NAMES[n.isa().ordinal()]);
        p = ListingOutput.ascii(b, p, NO_IMAGE_END);
        o.done(ListingOutput.ascii(b, p, NEWLINE_BYTES));
    }

    private static final byte[] NO_IMAGE = ListingOutput.ascii("no image at ");
    private static final byte[] NO_IMAGE_END = ListingOutput.ascii(": code not in the program image, waiting for the next address");
    private static final byte[][] ISA_NAMES = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> ListingOutput.ascii(i.toString())).toArray(byte[][]::new);

    @Override
    public void visit(Context c) {
        start(c).append("context");
        if (c.contextId() >= 0) {
            line.append(" id=").append(hex(c.contextId()));
        }
        if (c.vmid() >= 0) {
            line.append(" vmid=").append(c.vmid());
        }
        line.append(SECURITY[c.security().ordinal()]);
        if (c.exceptionLevel() >= 0) {
            line.append(" EL").append(c.exceptionLevel());
        }
        if (c.aarch64()) {
            line.append(" AArch64");
        }
        if (c.hyp()) {
            line.append(" hyp");
        }
        if (c.mode() != ProcessorMode.NONE) {
            line.append(c.mode() == ProcessorMode.THREAD ? " Thread mode" : " Handler mode");
        }
        emit();
    }

    @Override
    public void visit(Timestamp t) {
        ListingOutput o = out;
        int p = o.room(COLUMNS_MAX + 128);
        byte[] b = o.buf();
        p = columns(b, p, t.source());
        p = ListingOutput.ascii(b, p, TIMESTAMP);
        p = ListingOutput.decimal(b, p, t.value());
        if (t.cycles() >= 0) {
            b[p++] = ' ';
            b[p++] = '(';
            p = ListingOutput.decimal(b, p, t.cycles());
            p = ListingOutput.ascii(b, p, TIMESTAMP_CYCLES);
        }
        o.done(ListingOutput.ascii(b, p, NEWLINE_BYTES));
    }

    private static final byte[] TIMESTAMP = ListingOutput.ascii("timestamp ");
    private static final byte[] TIMESTAMP_CYCLES = ListingOutput.ascii(" cycles after the last cycle count)");

    @Override
    public void visit(CycleCount c) {
        cycles(c);
    }

    @Override
    public void visit(Event e) {
        start(e).append("event ").append(e.number());
        emit();
    }

    @Override
    public void visit(Trigger t) {
        start(t).append("trigger at byte ").append(t.offset());
        emit();
    }

    @Override
    public void visit(DecodeError e) {
        start(e).append("*** error");
        if (e.offset() >= 0) {
            line.append(" at byte ").append(e.offset());
        }
        if (e.address() != -1) {
            line.append(" (address ").append(hex(e.address())).append(')');
        }
        line.append(": ").append(e.message());
        emit();
    }

    /** How each {@link SecurityState} reads in a context line. */
    private static final String[] SECURITY = java.util.Arrays.stream(SecurityState.values())
            .map(x -> " " + x.name().toLowerCase(Locale.ROOT).replace('_', '-')).toArray(String[]::new);

    /*
     * Software trace (ITM, DWT, STM): one line per element.
     */

    @Override
    public void visit(SoftwareMessage m) {
        start(m).append("software ");
        if (m.master() == SoftwareMessage.NO_MASTER) {
            line.append("port ").append(m.channel());
        } else if (m.kind() != SoftwareMessage.Kind.GLOBAL_ERROR) {
            line.append("master ");
            hexTo(m.master(), 2).append(" channel ");
            hexTo(m.channel(), 4);
        }
        switch (m.kind()) {
            case DATA -> {
                line.append(' ').append(m.bits()).append(" bits ");
                hexTo(m.value(), (m.bits() + 3) / 4);
                if (m.marker()) {
                    line.append(" marker");
                }
            }
            case FLAG -> line.append(" flag");
            case TRIGGER -> {
                line.append(" trigger ");
                hexTo(m.value(), 2);
            }
            case FREQUENCY -> line.append(" timestamp clock ").append(m.value()).append(" Hz");
            case MASTER_ERROR -> {
                line.append(" master error ");
                hexTo(m.value(), 2);
            }
            case GLOBAL_ERROR -> {
                line.append("global error ");
                hexTo(m.value(), 2);
            }
            case USER -> {
                line.append(" user ").append(m.bits()).append(" bits ");
                hexTo(m.value(), (m.bits() + 3) / 4);
            }
            case TIME -> {
                line.append(" time ");
                hexTo(m.value(), 1);
            }
            case XSYNC -> {
                line.append(" cross-sync ");
                hexTo(m.value(), 2);
            }
        }
        emit();
    }

    @Override
    public void visit(LocalTimestamp t) {
        start(t).append("local timestamp +").append(t.ticks()).append(" (")
                .append(t.relation().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(')');
        emit();
    }

    @Override
    public void visit(PcSample s) {
        start(s);
        if (s.sleep()) {
            line.append("pc sample: sleeping");
        } else {
            line.append("pc sample ");
            hexTo(s.address());
            appendWhere(s.address());
        }
        emit();
    }

    @Override
    public void visit(ExceptionTrace x) {
        start(x).append("exception trace: ").append(EXCEPTION_FUNCTIONS[x.function().ordinal()]).append(' ')
                .append(x.number()).append(" (").append(x.name()).append(')');
        emit();
    }

    @Override
    public void visit(DataTrace d) {
        start(d).append("data trace comparator ").append(d.comparator());
        switch (d.kind()) {
            case PC_VALUE -> {
                line.append(": pc ");
                hexTo(d.value());
                appendWhere(d.value());
            }
            case ADDRESS -> {
                line.append(": address bits [15:0] ");
                hexTo(d.value(), 4);
            }
            case DATA_VALUE -> {
                line.append(d.write() ? ": write " : ": read ");
                hexTo(d.value(), 2 * d.bytes());
            }
        }
        emit();
    }

    @Override
    public void visit(EventCounterWrap w) {
        start(w).append("event counters wrapped:");
        for (int i = 0; i < EventCounterWrap.NAMES.length; i++) {
            if ((w.counters() >> i & 1) != 0) {
                line.append(' ').append(EventCounterWrap.NAMES[i]);
            }
        }
        emit();
    }

    private static final String[] EXCEPTION_FUNCTIONS = {"entered", "exited", "returned to"};

    /** Appends {@code 0x} and {@code v} in at least {@code digits} lower-case hex digits to the line. */
    private StringBuilder hexTo(long v, int digits) {
        line.append('0').append('x');
        appendHex(line, v, digits);
        return line;
    }


    /** One line per range. */
    private void range(InstructionRange r) {
        if (annotator != null) {
            start(r);
            rangeFields(r);
            annotation(r.start());
            emit();
            return;
        }
        int where = symbolsAvailable ? rangeNames.where(r.start()) : NO_SYMBOL;
        if (where == NOT_IN_PLACE) {
            rangeText(r);
            return;
        }
        rangeDirect(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastExecuted(), where);
    }

    /** A range line made as text and encoded by the output's writer: a symbol name that is not ASCII, or a long one. */
    private void rangeText(InstructionRange r) {
        start(r);
        rangeFields(r);
        appendWhere(r.start());
        emit();
    }

    /**
     * A range line made in place, with {@code "  <name+0xOFFSET>"} where {@code where} names a symbol: fewer
     * instructions than looking the line's bytes up in a table of some MB, whose reads miss the caches on a large
     * program (the SQLite inputs list about 29 K distinct ranges; with symbols, such a table made the text listing
     * of the 50 MB A64 harness input 11 times its decode time).
     */
    private void rangeDirect(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                             boolean lastExecuted, int where) {
        ListingOutput o = out;
        int p = o.room(COLUMNS_MAX + RANGE_LINE_MAX + WHERE_MAX);
        byte[] b = o.buf();
        p = columns(b, p, source);
        p = ListingOutput.ascii8(b, p, RANGE_0X, 8);
        p = ListingOutput.hex8(b, p, start);
        p = ListingOutput.ascii8(b, p, DASH_0X, 3);
        p = ListingOutput.hex8(b, p, end);
        if (count >= 0 && count < 100_000) {
            p = ListingOutput.ascii8(b, p, countField(count), 6);
        } else {
            int digits = count < 0 ? digits(count) : ListingOutput.decimalDigits(count);
            p = ListingOutput.ascii8(b, p, SPACES, digits < 5 ? 6 - digits : 1); // the count right-aligned in 5 places
            p = ListingOutput.decimal(b, p, count);
        }
        int t = (isa.ordinal() * KINDS + lastKind.ordinal()) * 2 + (lastExecuted ? 0 : 1);
        if (where == NO_SYMBOL) {
            o.done(ListingOutput.copy8(b, p, RANGE_TAILS[t], RANGE_TAIL_LENGTHS[t]));
            return;
        }
        p = ListingOutput.copy8(b, p, RANGE_TAILS[t], RANGE_TAIL_LENGTHS[t] - NEWLINE_BYTES.length);
        o.done(newline(b, whereBytes(b, p, start, where)));
    }

    /** {@code "  <name+0xOFFSET>"} for {@code address}, whose symbol is {@link RangeNames} entry {@code where}. */
    private int whereBytes(byte[] b, int p, long address, int where) {
        RangeNames names = rangeNames;
        p = ListingOutput.copy8(b, p, names.name(where), names.nameLength(where)); // "  <name"
        long off = address - names.symbolAddress(where);
        if (off != 0) {
            p = ListingOutput.ascii8(b, p, off > 0 ? PLUS_0X : MINUS_0X, 3);
            p = ListingOutput.hexShortest(b, p, off > 0 ? off : -off);
        }
        b[p] = '>';
        return p + 1;
    }

    private static final long PLUS_0X = ListingOutput.asciiLong("+0x");
    private static final long MINUS_0X = ListingOutput.asciiLong("-0x");

    private static final int NO_SYMBOL = RangeNames.NO_SYMBOL;
    private static final int NOT_IN_PLACE = RangeNames.NOT_IN_PLACE;
    /** What {@code "  <name+0xOFFSET>"} may take beyond the range's text, and the 16 a hex store writes past. */
    private static final int WHERE_MAX = 3 + RangeNames.NAME_MAX + 8 + 3 + 16 + 1 + 16;
    /** With symbols: the symbol that names each range's start. */
    private final RangeNames rangeNames;

    /**
     * A space and {@code count} (0 to 99999) right-aligned in 5 places, as six ASCII bytes in address order from the
     * lowest byte of a long: made in a register, stored at once.
     */
    static long countField(int count) {
        long x = SPACES;
        int shift = 40;
        do {
            int q = count / 10;
            x = x & ~(0xFFL << shift) | (long) ('0' + count - q * 10) << shift;
            count = q;
            shift -= 8;
        } while (count != 0);
        return x;
    }

    private static final long RANGE_0X = ListingOutput.asciiLong("range 0x");
    private static final long DASH_0X = ListingOutput.asciiLong("-0x");
    private static final long SPACES = ListingOutput.asciiLong("        ");
    private static final int KINDS = WaypointKind.values().length;
    /** The most bytes of a range line after its columns, and the 8 that {@link ListingOutput#hex8} may write past. */
    private static final int RANGE_LINE_MAX = 8 + 16 + 3 + 16 + 1 + 11 + 80 + 8;

    /** What follows a range line's count, by ISA, last waypoint kind and whether the last instruction ran. */
    private static final byte[][] RANGE_TAILS = new byte[Isa.values().length * KINDS * 2][];
    private static final int[] RANGE_TAIL_LENGTHS = new int[RANGE_TAILS.length];

    static {
        for (Isa isa : Isa.values()) {
            for (WaypointKind k : WaypointKind.values()) {
                for (int failed = 0; failed < 2; failed++) {
                    String t = " insn " + isa + (k != WaypointKind.NONE ? ", ends with " + kind(k) : "")
                            + (failed == 1 ? ", last condition failed" : "") + NEWLINE;
                    RANGE_TAILS[(isa.ordinal() * KINDS + k.ordinal()) * 2 + failed] = ListingOutput.ascii8Padded(t);
                    RANGE_TAIL_LENGTHS[(isa.ordinal() * KINDS + k.ordinal()) * 2 + failed] = t.length();
                }
            }
        }
    }

    /** {@code range 0xSTART-0xEND COUNT insn ISA} and how the range ends. */
    private void rangeFields(InstructionRange r) {
        line.append("range ");
        hexTo(r.start()).append('-');
        hexTo(r.end()).append(' ');
        int count = r.count();
        for (int w = digits(count); w < 5; w++) {
            line.append(' ');
        }
        line.append(count).append(" insn ").append(r.isa());
        if (r.lastKind() != WaypointKind.NONE) {
            line.append(", ends with ").append(kind(r.lastKind()));
        }
        if (!r.lastExecuted()) {
            line.append(", last condition failed");
        }
    }


    private String opcode(long address, int size, io.armtrace.trace.Isa isa) {
        if (size == 4) {
            if (isa == io.armtrace.trace.Isa.A32 || isa == io.armtrace.trace.Isa.A64) {
                long w = image.memory().u32(address);
                return w < 0 ? "????????" : hexDigits(w, 8) + " ";
            }
            int h1 = image.memory().u16(address);
            int h2 = image.memory().u16(address + 2);
            return h1 < 0 || h2 < 0 ? "???? ????" : hexDigits(h1, 4) + " " + hexDigits(h2, 4);
        }
        int hw = image.memory().u16(address);
        return hw < 0 ? "????     " : hexDigits(hw, 4) + "     ";
    }

    /** The disassembly column is padded to this width so that the flags and symbols line up. */
    private static final int DISASSEMBLY_WIDTH = 32;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** {@code v} in lower-case hexadecimal with at least {@code digits} digits (String.format is slow). */
    static String hexDigits(long v, int digits) {
        int n = Math.max(digits, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        char[] c = new char[n];
        for (int i = n - 1; i >= 0; i--) {
            c[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
        return new String(c);
    }

    /** Decimal digits of {@code v}, with the sign. */
    private static int digits(int v) {
        int n = v < 0 ? 2 : 1;
        long a = Math.abs((long) v);
        while (a >= 10) {
            a /= 10;
            n++;
        }
        return n;
    }

    /** {@code v} in lower-case hexadecimal with at least {@code digits} digits, appended to {@code sb}. */
    private void appendHex(StringBuilder sb, long v, int digits) {
        int n = Math.max(digits, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        char[] c = hexScratch;
        for (int i = n - 1; i >= 0; i--) {
            c[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
        sb.append(c, 0, n);
    }

    /** Digits are put together here and appended at once (one append per char checks capacity each time). */
    private final char[] hexScratch = new char[16];

    private static String kind(WaypointKind k) {
        return switch (k) {
            case DIRECT_BRANCH -> "direct branch";
            case INDIRECT_BRANCH -> "indirect branch";
            case EXCEPTION_CALL -> "exception call";
            case EXCEPTION_RETURN -> "exception return";
            case BARRIER -> "barrier";
            case NONE -> "";
        };
    }

    @Override
    public void end() {
        if (header != null) {
            writeHeader();
        }
        flushPendingReturn();
        out.flush();
    }
}
