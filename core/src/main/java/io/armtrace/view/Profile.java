package io.armtrace.view;

import io.armtrace.image.LineTable;
import io.armtrace.image.ProgramImage;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the time went: instructions (and cycles, where the trace has cycle counts) per function and per
 * source line, as a table, and as folded stacks (one line per call path: {@code main;work;helper 1234},
 * the input of Brendan Gregg's flamegraph.pl and of speedscope) from the call stack that
 * {@link TraceAnalysis} tracks.
 */
public final class Profile extends AnalysisView {
    /** What a table row stands for. */
    public enum By { FUNCTION, LINE }

    /**
     * One row: a function, or a source line with the function it is in. {@code inclusive} counts the
     * instructions executed while the function was on the tracked call stack (functions only, else 0).
     */
    public record Entry(String name, String function, long instructions, double cycles, long inclusive) {
    }

    public Profile(ProgramImage image) {
        this(new TraceAnalysis(image));
    }

    public Profile(TraceAnalysis analysis) {
        super(analysis);
    }

    /** Functions with at least one instruction, most instructions first. */
    public List<Entry> byFunction() {
        FunctionMap fns = analysis.functions();
        long[] self = analysis.selfInstructions();
        double[] cycles = analysis.selfCycles();
        List<Entry> out = new ArrayList<>();
        for (int f = 0; f < self.length; f++) {
            if (self[f] > 0) {
                out.add(new Entry(fns.name(f), fns.name(f), self[f], cycles[f], Math.max(self[f], analysis.inclusive(f))));
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** Source lines with at least one instruction, most instructions first; code without lines by function. */
    public List<Entry> byLine() {
        FunctionMap fns = analysis.functions();
        LineTable lines = analysis.image.lines();
        Map<String, long[]> counts = new HashMap<>();
        Map<String, double[]> cycles = new HashMap<>();
        Map<String, String> function = new HashMap<>();
        analysis.forEachInstruction((address, isa, size, fn, passed, failed, c) -> {
            LineTable.Location l = lines.lookup(address);
            // code without line information is grouped per function, shown as "??"
            String key = l == null ? "??\u0000" + fns.name(fn) : l.file() + "\u0000" + l.line();
            counts.computeIfAbsent(key, k -> new long[1])[0] += passed + failed;
            cycles.computeIfAbsent(key, k -> new double[1])[0] += c;
            function.putIfAbsent(key, fns.name(fn));
        });
        List<Entry> out = new ArrayList<>();
        counts.forEach((k, v) -> out.add(new Entry(lineName(k), function.get(k), v[0], cycles.get(k)[0], 0)));
        out.sort(ORDER);
        return out;
    }

    /** "file.c:12" (the file's last path component) from a "path\0line" key; "??" without a line. */
    private static String lineName(String key) {
        if (key.startsWith("??\u0000")) {
            return "??";
        }
        int z = key.indexOf('\u0000');
        return new LineTable.Location(key.substring(0, z), 0).fileName() + ":" + key.substring(z + 1);
    }

    private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::instructions).reversed()
            .thenComparing(Entry::name);

    /** A table of the {@code top} heaviest functions or lines (all if {@code top <= 0}). */
    public void writeTable(PrintWriter out, By by, int top) {
        List<Entry> rows = by == By.LINE ? byLine() : byFunction();
        long total = analysis.instructions();
        boolean withCycles = analysis.cycles() > 0;
        out.printf("%d instructions in %d ranges%s%n", total, analysis.summary.rangeElements,
                withCycles ? ", " + analysis.cycles() + " cycles" : "");
        if (by == By.LINE && analysis.image.lines().isEmpty()) {
            out.println("(the image has no DWARF line information: give the ELF file built with -g)");
        }
        boolean fn = by == By.FUNCTION;
        out.printf("%12s %7s %7s%s%s  %s%n", "instructions", "%", "cum%", withCycles ? String.format(" %12s", "cycles") : "",
                fn ? String.format(" %12s %7s", "inclusive", "incl%") : "", fn ? "function" : "line (function)");
        long cum = 0;
        int n = 0;
        for (Entry e : rows) {
            if (top > 0 && n++ >= top) {
                break;
            }
            cum += e.instructions();
            out.printf("%12d %6.2f%% %6.2f%%%s%s  %s%n", e.instructions(), pct(e.instructions(), total), pct(cum, total),
                    withCycles ? String.format(" %12.0f", e.cycles()) : "",
                    fn ? String.format(" %12d %6.2f%%", e.inclusive(), pct(e.inclusive(), total)) : "",
                    fn ? e.name() : e.name() + " (" + e.function() + ")");
        }
        out.flush();
    }

    static double pct(double part, double whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    /**
     * Folded stacks: for each call path, its frames from the outermost, separated by ';', a space and
     * the instructions executed with exactly that path on the stack (cycles with {@code cycles}).
     */
    public void writeFolded(PrintWriter out, boolean cycles) {
        writeFolded(out, cycles, null);
    }

    /** Folded stacks under an outermost frame named {@code root} (e.g. the trace source), if not null. */
    public void writeFolded(PrintWriter out, boolean cycles, String root) {
        FunctionMap fns = analysis.functions();
        StringBuilder sb = new StringBuilder();
        List<String> path = new ArrayList<>();
        for (int n = 1; n < analysis.tables.nodes; n++) {
            long v = cycles ? analysis.tables.nodeCycles[n] : analysis.tables.nodeInstructions[n];
            if (v == 0) {
                continue;
            }
            path.clear();
            for (int m = n; m > 0; m = analysis.tables.nodeParent[m]) {
                path.add(frameName(fns.name(analysis.tables.nodeFunction[m])));
            }
            sb.setLength(0);
            if (root != null) {
                sb.append(frameName(root)).append(';');
            }
            for (int i = path.size() - 1; i >= 0; i--) {
                sb.append(path.get(i));
                if (i > 0) {
                    sb.append(';');
                }
            }
            sb.append(' ').append(v);
            out.println(sb);
        }
        out.flush();
    }

    /** Frame names may not contain the separators of the format. */
    private static String frameName(String name) {
        return name.replace(';', ':').replace(' ', '_');
    }
}
