package io.armtrace.view;

import io.armtrace.image.LineTable;
import io.armtrace.image.ProgramImage;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who called whom: caller to callee edges with call counts and the instructions (and cycles) executed
 * inside the calls, and per function its own (exclusive) and inclusive instructions. Written as
 * Graphviz dot, or in the callgrind format that KCachegrind and QCachegrind open
 * (valgrind.org/docs/manual/cl-format.html).
 */
public final class CallGraph extends AnalysisView {
    public CallGraph(ProgramImage image) {
        this(new TraceAnalysis(image));
    }

    public CallGraph(TraceAnalysis analysis) {
        super(analysis);
    }

    /** A call edge. */
    public record Edge(String caller, String callee, long calls, long inclusiveInstructions, long inclusiveCycles) {
    }

    public List<Edge> edges() {
        FunctionMap f = analysis.functions();
        List<Edge> out = new ArrayList<>();
        for (int e = 0; e < analysis.tables.edges; e++) {
            out.add(new Edge(f.name(analysis.tables.edgeCaller[e]), f.name(analysis.tables.edgeCallee[e]), analysis.tables.edgeCalls[e],
                    analysis.tables.edgeInclusive[e], analysis.tables.edgeInclusiveCycles[e]));
        }
        return out;
    }

    /** Graphviz dot: a box per function that ran, an arrow per call edge. */
    public void writeDot(PrintWriter out) {
        FunctionMap f = analysis.functions();
        long[] self = analysis.selfInstructions();
        long total = analysis.instructions();
        boolean[] shown = new boolean[f.count()];
        for (int i = 0; i < self.length; i++) {
            shown[i] = self[i] > 0;
        }
        for (int e = 0; e < analysis.tables.edges; e++) {
            shown[analysis.tables.edgeCaller[e]] = true;
            shown[analysis.tables.edgeCallee[e]] = true;
        }
        out.println("digraph callgraph {");
        out.println("  node [shape=box, fontname=\"monospace\"];");
        for (int i = 0; i < shown.length; i++) {
            if (!shown[i]) {
                continue;
            }
            long incl = Math.max(analysis.inclusive(i), self[i]);
            out.printf("  f%d [label=\"%s\\nself %d (%.1f%%)\\ntotal %d (%.1f%%)\"];%n", i, dotEscape(f.name(i)),
                    self[i], Profile.pct(self[i], total), incl, Profile.pct(incl, total));
        }
        for (int e = 0; e < analysis.tables.edges; e++) {
            long calls = analysis.tables.edgeCalls[e];
            out.printf("  f%d -> f%d [label=\"%d call%s\\n%d insn\"];%n", analysis.tables.edgeCaller[e], analysis.tables.edgeCallee[e],
                    calls, calls == 1 ? "" : "s", analysis.tables.edgeInclusive[e]);
        }
        out.println("}");
        out.flush();
    }

    private static String dotEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /**
     * The callgrind format: per function its cost per source line ({@code fl=}/{@code fi=} name the
     * files, line 0 where there is no line information), then per callee a {@code calls=} line and the
     * inclusive cost at the call site's line. Events: {@code Ir} (instructions executed), and
     * {@code Cycles} when the trace had cycle counts.
     */
    public void writeCallgrind(PrintWriter out, String command) {
        FunctionMap f = analysis.functions();
        LineTable lines = analysis.image.lines();
        boolean withCycles = analysis.cycles() > 0;
        int n = f.count();
        // per function: line -> {file, instructions, cycles}
        List<Map<String, double[]>> costs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            costs.add(null);
        }
        analysis.forEachInstruction((address, isa, size, fn, passed, failed, c) -> {
            if (costs.get(fn) == null) {
                costs.set(fn, new TreeMap<>());
            }
            LineTable.Location l = lines.lookup(address);
            String key = l == null ? "\u0000???\u00000" : "\u0000" + l.file() + "\u0000" + l.line();
            double[] v = costs.get(fn).computeIfAbsent(key, k -> new double[2]);
            v[0] += passed + failed;
            v[1] += c;
        });
        out.println("# callgrind format");
        out.println("version: 1");
        out.println("creator: armtrace");
        if (command != null) {
            out.println("cmd: " + command);
        }
        out.println("positions: line");
        out.println(withCycles ? "events: Ir Cycles" : "events: Ir");
        out.println("summary: " + analysis.instructions() + (withCycles ? " " + analysis.cycles() : ""));
        out.println();
        List<List<Integer>> outgoing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            outgoing.add(new ArrayList<>());
        }
        for (int e = 0; e < analysis.tables.edges; e++) {
            outgoing.get(analysis.tables.edgeCaller[e]).add(e);
        }
        for (int i = 0; i < n; i++) {
            Map<String, double[]> cost = costs.get(i);
            if (cost == null && outgoing.get(i).isEmpty()) {
                continue;
            }
            String file = fileOf(i, lines);
            out.println("fl=" + file);
            out.println("fn=" + f.name(i));
            String current = file;
            if (cost != null) {
                for (Map.Entry<String, double[]> c : cost.entrySet()) {
                    String[] k = c.getKey().split("\u0000");
                    if (!k[1].equals(current)) {
                        out.println("fi=" + k[1]);
                        current = k[1];
                    }
                    out.println(k[2] + " " + (long) c.getValue()[0] + (withCycles ? " " + Math.round(c.getValue()[1]) : ""));
                }
            }
            for (int e : outgoing.get(i)) {
                int callee = analysis.tables.edgeCallee[e];
                LineTable.Location site = lines.lookup(analysis.tables.edgeSite[e]);
                if (site != null && !site.file().equals(current)) {
                    out.println("fi=" + site.file());
                    current = site.file();
                }
                out.println("cfl=" + fileOf(callee, lines));
                out.println("cfn=" + f.name(callee));
                out.println("calls=" + analysis.tables.edgeCalls[e] + " " + lineOf(callee, lines));
                out.println((site == null ? 0 : site.line()) + " " + analysis.tables.edgeInclusive[e]
                        + (withCycles ? " " + analysis.tables.edgeInclusiveCycles[e] : ""));
            }
            out.println();
        }
        out.flush();
    }

    private String fileOf(int fn, LineTable lines) {
        long a = analysis.functions().entryAddress(fn);
        LineTable.Location l = a < 0 ? null : lines.lookup(a);
        return l == null ? "???" : l.file();
    }

    private int lineOf(int fn, LineTable lines) {
        long a = analysis.functions().entryAddress(fn);
        LineTable.Location l = a < 0 ? null : lines.lookup(a);
        return l == null ? 0 : l.line();
    }
}
