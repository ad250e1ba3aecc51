package io.armtrace.view;

import io.armtrace.image.ProgramImage;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
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
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the DWT said of a capture, for the report: exceptions by number (entered, and the local timestamp
 * ticks from each entry to its exit when local timestamps are on) and periodic PC samples by function.
 * Entries, exits and returns pair up as on the timeline (ARMv7-M ARM, Appendix D4, exception trace packet):
 * an exit ends the innermost active exception, a return to thread mode or to an active exception ends all
 * inside it, a gap ends all. Memory is fixed: exception numbers are 9 bits, the active stack is bounded,
 * samples outside every function symbol count together.
 */
public final class SoftwareTraceSummary implements ElementSink, ElementVisitor {
    private static final int NUMBERS = 512;
    private static final int DEPTH = 64;

    /** One exception number's line. */
    public record ExceptionLine(String name, long entered, long exited, long ticks) {
    }

    /** One function's PC samples. */
    public record SampleLine(String function, long samples) {
    }

    private final FunctionMap functions;
    private final io.armtrace.image.LineTable lines;
    /** PC samples per source line ("path\0line"), in functions; bounded by the program's lines. */
    private final java.util.Map<String, long[]> byLine = new java.util.HashMap<>();
    private final java.util.Map<String, String> lineFunction = new java.util.HashMap<>();
    private final long[] entered = new long[NUMBERS];
    private final long[] exited = new long[NUMBERS];
    private final long[] ticks = new long[NUMBERS];
    private final int[] active = new int[DEPTH];
    private final long[] since = new long[DEPTH];
    private int depth;
    private long now;
    private boolean timed;
    private long samples;
    private long sleeping;
    private long[] bySymbol;
    private long outside;

    public SoftwareTraceSummary(ProgramImage image) {
        this.functions = new FunctionMap(image.symbols());
        this.lines = image.lines();
        this.bySymbol = new long[functions.count()];
    }

    @Override
    public void accept(TraceElement e) {
        e.accept(this);
    }

    /** True when the source reported exceptions or PC samples. */
    public boolean hasContent() {
        return samples > 0 || exceptions().stream().anyMatch(l -> l.entered() > 0);
    }

    /** True when local timestamps came with the trace: the ticks of {@link #exceptions()} mean something. */
    public boolean timed() {
        return timed;
    }

    /** Exceptions seen, by number. */
    public List<ExceptionLine> exceptions() {
        List<ExceptionLine> out = new ArrayList<>();
        for (int n = 0; n < NUMBERS; n++) {
            if (entered[n] > 0 || exited[n] > 0) {
                out.add(new ExceptionLine(n + " " + ExceptionTrace.mProfileName(n), entered[n], exited[n], ticks[n]));
            }
        }
        return out;
    }

    /** PC samples (sleep samples included). */
    public long samples() {
        return samples;
    }

    /** PC samples taken while the core slept. */
    public long sleeping() {
        return sleeping;
    }

    /** PC samples by function, most first; samples in no function symbol as one line "[no symbol]". */
    public List<SampleLine> samplesByFunction() {
        List<SampleLine> out = new ArrayList<>();
        for (int f = 0; f < bySymbol.length; f++) {
            if (bySymbol[f] > 0) {
                out.add(new SampleLine(functions.name(f), bySymbol[f]));
            }
        }
        if (outside > 0) {
            out.add(new SampleLine("[no symbol]", outside));
        }
        out.sort(Comparator.comparingLong(SampleLine::samples).reversed().thenComparing(SampleLine::function));
        return out;
    }

    @Override
    public void visit(ExceptionTrace x) {
        int n = x.number() & (NUMBERS - 1);
        switch (x.function()) {
            case ENTRY -> {
                entered[n]++;
                if (depth < DEPTH) {
                    active[depth] = n;
                    since[depth++] = now;
                }
            }
            case EXIT -> {
                exited[n]++;
                end(depth - 1);
            }
            case RETURN -> {
                if (n == 0) {
                    end(0);
                } else {
                    for (int i = depth - 1; i >= 0; i--) {
                        if (active[i] == n) {
                            end(i + 1);
                            break;
                        }
                    }
                }
            }
            default -> throw new IllegalStateException(x.function().name());
        }
    }

    /** Active exceptions from {@code level} up have ended now: their time counts. */
    private void end(int level) {
        while (depth > Math.max(0, level)) {
            depth--;
            ticks[active[depth]] += now - since[depth];
        }
    }

    @Override
    public void visit(LocalTimestamp t) {
        timed = true;
        if (t.ticks() > 0) {
            now += t.ticks();
        }
    }

    @Override
    public void visit(PcSample s) {
        samples++;
        if (s.sleep()) {
            sleeping++;
            return;
        }
        int f = functions.at(s.address());
        if (f >= 0) {
            bySymbol[f]++;
        } else {
            outside++;
        }
        if (!lines.isEmpty()) {
            io.armtrace.image.LineTable.Location l = lines.lookup(s.address());
            String fn = f >= 0 ? functions.name(f) : "[no symbol]";
            // samples without line information count per function, as "??"
            String key = l == null ? "??\u0000" + fn : l.fileName() + "\u0000" + l.line();
            byLine.computeIfAbsent(key, k -> new long[1])[0]++;
            lineFunction.putIfAbsent(key, fn);
        }
    }

    /** PC samples by source line ("file.c:12", "??" without line information) with their function, most first. */
    public List<SampleLine> samplesByLine() {
        List<SampleLine> out = new ArrayList<>();
        byLine.forEach((k, v) -> {
            int z = k.indexOf('\u0000');
            String name = k.startsWith("??\u0000") ? "??" : k.substring(0, z) + ":" + k.substring(z + 1);
            out.add(new SampleLine(name + " (" + lineFunction.get(k) + ")", v[0]));
        });
        out.sort(Comparator.comparingLong(SampleLine::samples).reversed().thenComparing(SampleLine::function));
        return out;
    }

    /**
     * The statistical profile of the PC samples, as {@code profile} prints the decoded one: a table of the
     * {@code top} heaviest functions or lines (all if {@code top <= 0}).
     */
    public void writeSampleTable(java.io.PrintWriter out, boolean byLines, int top) {
        out.printf("%d PC samples%s%n", samples, sleeping > 0 ? ", " + sleeping + " of them asleep" : "");
        if (byLines && lines.isEmpty()) {
            out.println("(the image has no DWARF line information: give the ELF file built with -g)");
        }
        out.printf("%12s %7s %7s  %s%n", "samples", "%", "cum%", byLines ? "line (function)" : "function");
        long cum = 0;
        int n = 0;
        List<SampleLine> rows = new ArrayList<>(byLines ? samplesByLine() : samplesByFunction());
        if (sleeping > 0) {
            rows.add(new SampleLine("(asleep)", sleeping));
            rows.sort(Comparator.comparingLong(SampleLine::samples).reversed().thenComparing(SampleLine::function));
        }
        for (SampleLine l : rows) {
            if (top > 0 && n++ >= top) {
                break;
            }
            cum += l.samples();
            out.printf("%12d %6.2f%% %6.2f%%  %s%n", l.samples(), Profile.pct(l.samples(), samples), Profile.pct(cum, samples),
                    l.function());
        }
        out.flush();
    }

    /**
     * The samples as a callgrind profile (event {@code Samples}, a cost line per function at its first source
     * line where the image says, no calls: a PC sample carries no call stack), or as a Graphviz graph of the
     * sampled functions.
     */
    public void writeSampleCallgrind(java.io.PrintWriter out, String command) {
        out.println("# callgrind format");
        out.println("version: 1");
        out.println("creator: armtrace");
        out.println("cmd: " + command);
        out.println("events: Samples");
        out.println("summary: " + samples);
        for (int f = 0; f < bySymbol.length; f++) {
            if (bySymbol[f] > 0) {
                io.armtrace.image.LineTable.Location l = lines.isEmpty() ? null : lines.lookup(functions.entryAddress(f));
                if (l != null) {
                    out.println("fl=" + l.file());
                }
                out.println("fn=" + functions.name(f));
                out.println((l != null ? l.line() : 0) + " " + bySymbol[f]);
            }
        }
        if (outside > 0) {
            out.println("fn=[no symbol]");
            out.println("0 " + outside);
        }
        if (sleeping > 0) {
            out.println("fn=[asleep]");
            out.println("0 " + sleeping);
        }
        out.flush();
    }

    /** The sampled functions as Graphviz nodes labelled with their samples (no edges: samples have no calls). */
    public void writeSampleDot(java.io.PrintWriter out) {
        out.println("digraph samples {");
        out.println("  node [shape=box];");
        for (SampleLine l : samplesByFunction()) {
            out.printf("  \"%s\" [label=\"%s\\n%d samples (%.1f%%)\"];%n", l.function().replace("\"", "\\\""),
                    l.function().replace("\"", "\\\""), l.samples(), Profile.pct(l.samples(), samples));
        }
        out.println("}");
        out.flush();
    }

    /** Folded stacks of the samples: one frame each (a PC sample carries no call stack), under {@code root} if not null. */
    public void writeSampleFolded(java.io.PrintWriter out, String root) {
        for (SampleLine l : samplesByFunction()) {
            out.println((root != null ? root + ";" : "") + l.function() + " " + l.samples());
        }
        if (sleeping > 0) {
            out.println((root != null ? root + ";" : "") + "[asleep] " + sleeping);
        }
        out.flush();
    }

    /** What happened in between is unknown: no active exception's time is measured across it. */
    @Override
    public void visit(Gap g) {
        depth = 0;
    }

    @Override
    public void visit(SoftwareMessage m) {
    }

    @Override
    public void visit(DataTrace d) {
    }

    @Override
    public void visit(EventCounterWrap w) {
    }

    @Override
    public void visit(Timestamp t) {
    }

    /* Program flow is the analyses' business, not this summary's. */

    @Override
    public void visit(InstructionRange r) {
    }

    @Override
    public void visit(InstructionCount c) {
    }

    @Override
    public void visit(CycleCount c) {
    }

    @Override
    public void visit(ExceptionEntry e) {
    }

    @Override
    public void visit(ExceptionReturn e) {
    }

    /** An ITM overflow lost packets: exits may be among them. */
    @Override
    public void visit(TraceOn t) {
        if (t.reason() == TraceOn.Reason.OVERFLOW) {
            depth = 0;
        }
    }

    @Override
    public void visit(NoImage n) {
    }

    @Override
    public void visit(Context c) {
    }

    @Override
    public void visit(Event e) {
    }

    @Override
    public void visit(Trigger t) {
    }

    @Override
    public void visit(DecodeError e) {
    }
}
