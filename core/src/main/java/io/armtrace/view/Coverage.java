package io.armtrace.view;

import io.armtrace.image.LineTable;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.isa.FunctionCode;
import io.armtrace.trace.Isa;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which code ran: per instruction how often it passed and failed its condition; per function the
 * instructions executed out of those it has; per source line whether it ran; and branch coverage in
 * the trace's own terms: a conditional instruction is covered both ways when it was seen passing and
 * failing its condition. Written as a text summary or as an LCOV tracefile (what genhtml reads).
 *
 * <p>The instructions a function has, and which of them are conditional, come from walking its
 * symbol's extent in the image ({@link FunctionCode}: no element can say what never ran); an
 * instruction the trace saw failing is conditional too. Executed instructions outside function symbols
 * take their sizes from the ranges.
 */
public final class Coverage extends AnalysisView {
    private Result result;

    public Coverage(ProgramImage image) {
        this(new TraceAnalysis(image));
    }

    public Coverage(TraceAnalysis analysis) {
        super(analysis);
    }

    /** One instruction of the program: how often it passed and failed; {@code conditional} by its encoding or the trace. */
    public record Instruction(long address, Isa isa, int size, long passed, long failed, boolean conditional) {
        public boolean hit() {
            return passed + failed > 0;
        }

        public boolean bothWays() {
            return passed > 0 && failed > 0;
        }
    }

    /** A function (one with a symbol and a size): its instructions and what of them ran. */
    public record FunctionCoverage(String name, long address, String file, int line, long entries,
                                   int instructions, int instructionsHit, int conditionals, int bothWays,
                                   int linesTotal, int linesHit) {
        public boolean hit() {
            return instructionsHit > 0;
        }
    }

    /** A source line: executions (the most of any of its instructions) and its conditional instructions. */
    public record LineCoverage(String file, int line, long count, List<Instruction> conditionals) {
    }

    /** Everything coverage knows, computed when first asked for after the stream ended. */
    public record Result(List<FunctionCoverage> functions, Map<Long, Instruction> instructions,
                         Map<String, Map<Integer, LineCoverage>> lines) {
        public long instructionsHit() {
            return instructions.values().stream().filter(Instruction::hit).count();
        }

        public long conditionals() {
            return instructions.values().stream().filter(Instruction::conditional).count();
        }

        public long bothWays() {
            return instructions.values().stream().filter(i -> i.conditional() && i.bothWays()).count();
        }

        public long linesTotal() {
            return lines.values().stream().mapToLong(Map::size).sum();
        }

        public long linesHit() {
            return lines.values().stream().flatMap(m -> m.values().stream()).filter(l -> l.count() > 0).count();
        }

        public long functionsHit() {
            return functions.stream().filter(FunctionCoverage::hit).count();
        }
    }

    public Result result() {
        if (result == null) {
            result = compute();
        }
        return result;
    }

    private Result compute() {
        FunctionCode code = new FunctionCode(analysis.image.memory().copy(), analysis.image.symbols());
        LineTable lines = analysis.image.lines();
        FunctionMap fns = analysis.functions();

        // executed instructions, by address
        Map<Long, long[]> runs = new TreeMap<>();
        Map<Long, Isa> isaOf = new TreeMap<>();
        Map<Long, Integer> sizeOf = new TreeMap<>();
        analysis.forEachInstruction((address, isa, size, fn, passed, failed, c) -> {
            long[] v = runs.computeIfAbsent(address, k -> new long[2]);
            v[0] += passed;
            v[1] += failed;
            isaOf.putIfAbsent(address, isa);
            sizeOf.putIfAbsent(address, size);
        });

        // every instruction of the functions, then the executed ones outside them
        Map<Long, Instruction> all = new TreeMap<>();
        List<FunctionCoverage> functions = new ArrayList<>();
        Map<String, Map<Integer, LineCoverage>> byLine = new TreeMap<>();
        for (int f = 0; f < fns.symbolCount(); f++) {
            Symbol s = fns.symbol(f);
            if (s.type() != Symbol.Type.FUNCTION || s.size() <= 0) {
                continue;
            }
            List<Instruction> insns = walk(s, code, runs);
            int hit = 0;
            int cond = 0;
            int both = 0;
            Map<String, Boolean> linesOfFunction = new LinkedHashMap<>();
            for (Instruction i : insns) {
                all.put(i.address(), i);
                hit += i.hit() ? 1 : 0;
                cond += i.conditional() ? 1 : 0;
                both += i.conditional() && i.bothWays() ? 1 : 0;
                LineTable.Location l = lines.lookup(i.address());
                if (l != null) {
                    linesOfFunction.merge(l.file() + ":" + l.line(), i.hit(), Boolean::logicalOr);
                }
            }
            LineTable.Location at = lines.lookup(s.address());
            long[] entry = runs.get(s.address());
            functions.add(new FunctionCoverage(s.name(), s.address(), at == null ? null : at.file(),
                    at == null ? 0 : at.line(), entry == null ? 0 : entry[0] + entry[1], insns.size(), hit, cond, both,
                    linesOfFunction.size(), (int) linesOfFunction.values().stream().filter(b -> b).count()));
        }
        for (Map.Entry<Long, long[]> r : runs.entrySet()) {
            if (!all.containsKey(r.getKey())) {
                long a = r.getKey();
                Isa isa = isaOf.get(a);
                long[] v = r.getValue();
                all.put(a, new Instruction(a, isa, sizeOf.get(a), v[0], v[1], v[1] > 0 || code.conditional(a, isa)));
            }
        }
        for (Instruction i : all.values()) {
            LineTable.Location l = lines.lookup(i.address());
            if (l == null) {
                continue;
            }
            Map<Integer, LineCoverage> m = byLine.computeIfAbsent(l.file(), k -> new TreeMap<>());
            LineCoverage old = m.get(l.line());
            List<Instruction> conds = old == null ? new ArrayList<>() : old.conditionals();
            if (i.conditional()) {
                conds.add(i);
            }
            long count = Math.max(old == null ? 0 : old.count(), i.passed() + i.failed());
            m.put(l.line(), new LineCoverage(l.file(), l.line(), count, conds));
        }
        functions.sort(Comparator.comparingLong(FunctionCoverage::address));
        return new Result(functions, all, byLine);
    }

    /** The instructions of a function symbol, with their executions. */
    private static List<Instruction> walk(Symbol s, FunctionCode code, Map<Long, long[]> runs) {
        List<Instruction> out = new ArrayList<>();
        code.walk(s, (a, isa, size, conditional) -> {
            long[] v = runs.get(a);
            long passed = v == null ? 0 : v[0];
            long failed = v == null ? 0 : v[1];
            out.add(new Instruction(a, isa, size, passed, failed, conditional || failed > 0));
        });
        return out;
    }

    // ---------------------------------------------------------------- output

    /** A text summary: totals, then one line per function. */
    public void writeSummary(PrintWriter out) {
        Result r = result();
        long fnTotal = r.functions().size();
        long insnTotal = r.functions().stream().mapToLong(FunctionCoverage::instructions).sum();
        long insnHit = r.functions().stream().mapToLong(FunctionCoverage::instructionsHit).sum();
        if (fnTotal == 0) {
            out.printf("instructions   %7d distinct ones executed (no function symbols in the image: totals unknown)%n",
                    r.instructionsHit());
        } else {
            out.printf("functions      %7d of %7d hit      (%5.1f%%)%n", r.functionsHit(), fnTotal, Profile.pct(r.functionsHit(), fnTotal));
            out.printf("instructions   %7d of %7d executed (%5.1f%%)%s%n", insnHit, insnTotal, Profile.pct(insnHit, insnTotal),
                    r.instructionsHit() > insnHit ? "; " + (r.instructionsHit() - insnHit) + " more outside function symbols" : "");
        }
        if (r.linesTotal() > 0) {
            out.printf("lines          %7d of %7d hit      (%5.1f%%)%n", r.linesHit(), r.linesTotal(), Profile.pct(r.linesHit(), r.linesTotal()));
        }
        out.printf("conditions     %7d of %7d seen passing and failing (%5.1f%%)%n", r.bothWays(), r.conditionals(),
                Profile.pct(r.bothWays(), r.conditionals()));
        if (fnTotal > 0) {
            out.println();
            out.printf("%7s %13s %11s %11s  %s%n", "insn%", "instructions", "lines", "conditions", "function");
            for (FunctionCoverage f : r.functions()) {
                out.printf("%6.1f%% %6d/%-6d %5d/%-5d %5d/%-5d  %s%n", Profile.pct(f.instructionsHit(), f.instructions()),
                        f.instructionsHit(), f.instructions(), f.linesHit(), f.linesTotal(), f.bothWays(), f.conditionals(), f.name());
            }
        }
        out.flush();
    }

    /**
     * An LCOV tracefile (the format of geninfo(1)): per source file its functions (FN, FNDA: entries),
     * its conditional instructions as two-way branches (BRDA: branch 0 passed, 1 failed; "-" when the
     * instruction never ran) and its lines (DA: executions). Source files are named as the line table
     * records them.
     */
    public void writeLcov(PrintWriter out, String testName) {
        writeLcov(out, testName, file -> file);
    }

    /**
     * As above, with each source file named as {@code sources} finds it (its path joined to the unit's
     * compilation directory first, {@code LineTable.compilationPath}); files it leaves out are not written.
     * Paths the line table spells differently that lead to the same file become one record.
     */
    public void writeLcov(PrintWriter out, String testName, SourceFiles sources) {
        LineTable table = analysis.image.lines();
        writeLcov(out, testName, file -> sources.resolve(table.compilationPath(file)));
    }

    /** The tracefile with each line-table file named {@code naming.apply(file)}, or left out where that is null. */
    private void writeLcov(PrintWriter out, String testName, java.util.function.UnaryOperator<String> naming) {
        Result r = result();
        Map<String, List<String>> byPath = new TreeMap<>(); // written path -> the line table's names for it
        Map<String, List<FunctionCoverage>> fnByFile = new TreeMap<>();
        java.util.TreeSet<String> files = new java.util.TreeSet<>(r.lines().keySet());
        for (FunctionCoverage f : r.functions()) {
            if (f.file() != null) {
                fnByFile.computeIfAbsent(f.file(), k -> new ArrayList<>()).add(f);
                files.add(f.file());
            }
        }
        for (String file : files) {
            String path = naming.apply(file);
            if (path != null) {
                byPath.computeIfAbsent(path, k -> new ArrayList<>()).add(file);
            }
        }
        for (Map.Entry<String, List<String>> e : byPath.entrySet()) {
            out.println("TN:" + (testName == null ? "" : testName.replaceAll("[^A-Za-z0-9_]", "_")));
            out.println("SF:" + e.getKey());
            List<FunctionCoverage> fs = new ArrayList<>();
            Map<Integer, LineCoverage> lines = new TreeMap<>();
            for (String file : e.getValue()) {
                fs.addAll(fnByFile.getOrDefault(file, List.of()));
                // one file under two spellings: a line's count is the most of either, its conditions all
                r.lines().getOrDefault(file, Map.of()).forEach((n, l) -> lines.merge(n, l, (a, b) -> {
                    List<Instruction> conds = new ArrayList<>(a.conditionals());
                    conds.addAll(b.conditionals());
                    return new LineCoverage(a.file(), n, Math.max(a.count(), b.count()), conds);
                }));
            }
            for (FunctionCoverage f : fs) {
                out.println("FN:" + f.line() + "," + f.name());
            }
            for (FunctionCoverage f : fs) {
                out.println("FNDA:" + f.entries() + "," + f.name());
            }
            out.println("FNF:" + fs.size());
            out.println("FNH:" + fs.stream().filter(FunctionCoverage::hit).count());
            int brf = 0;
            int brh = 0;
            for (LineCoverage l : lines.values()) {
                int block = 0;
                for (Instruction i : l.conditionals()) {
                    String pass = i.hit() ? Long.toString(i.passed()) : "-";
                    String fail = i.hit() ? Long.toString(i.failed()) : "-";
                    out.println("BRDA:" + l.line() + "," + block + ",0," + pass);
                    out.println("BRDA:" + l.line() + "," + block + ",1," + fail);
                    block++;
                    brf += 2;
                    brh += (i.passed() > 0 ? 1 : 0) + (i.failed() > 0 ? 1 : 0);
                }
            }
            out.println("BRF:" + brf);
            out.println("BRH:" + brh);
            int lh = 0;
            for (LineCoverage l : lines.values()) {
                out.println("DA:" + l.line() + "," + l.count());
                lh += l.count() > 0 ? 1 : 0;
            }
            out.println("LF:" + lines.size());
            out.println("LH:" + lh);
            out.println("end_of_record");
        }
        out.flush();
    }
}
