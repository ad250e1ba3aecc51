package io.armtrace.view;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.util.Map;
import java.util.TreeMap;

/**
 * LCOV tracefiles (geninfo(1) format) added together: the coverage of many captures of the same
 * program. Per source file, execution counts are summed per line (DA), entry counts per function (FNDA,
 * a function is its name; FN keeps the first line seen), and branch counts per (line, block, branch)
 * (BRDA; "-", never reached, adds as nothing: it stays "-" only if every tracefile says "-"). The
 * summary lines (FNF, FNH, BRF, BRH, LF, LH) are recomputed. Files, functions, lines and branches are
 * written in sorted order, so the result does not depend on the order of the inputs.
 */
public final class LcovTracefile {
    private final Map<String, SourceFile> files = new TreeMap<>();

    private static final class SourceFile {
        final Map<String, Integer> functionLines = new TreeMap<>();
        final Map<String, Long> functionEntries = new TreeMap<>();
        final Map<Integer, Long> lines = new TreeMap<>();
        /** Key: line, block, branch; value: taken count or -1 for "-". */
        final Map<Branch, Long> branches = new TreeMap<>();
    }

    private record Branch(int line, int block, int branch) implements Comparable<Branch> {
        @Override
        public int compareTo(Branch o) {
            int c = Integer.compare(line, o.line);
            if (c == 0) {
                c = Integer.compare(block, o.block);
            }
            return c != 0 ? c : Integer.compare(branch, o.branch);
        }
    }

    /** Adds one tracefile. Throws {@link IllegalArgumentException} naming the line that is not LCOV. */
    public void add(Reader tracefile, String name) throws IOException {
        BufferedReader in = new BufferedReader(tracefile);
        SourceFile file = null;
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            try {
                if (line.startsWith("SF:")) {
                    file = files.computeIfAbsent(line.substring(3), k -> new SourceFile());
                } else if (line.equals("end_of_record")) {
                    file = null;
                } else if (line.isEmpty() || line.startsWith("TN:") || line.startsWith("FNF:") || line.startsWith("FNH:")
                        || line.startsWith("BRF:") || line.startsWith("BRH:") || line.startsWith("LF:")
                        || line.startsWith("LH:")) {
                    continue; // recomputed
                } else if (file == null) {
                    throw new IllegalArgumentException("outside a record");
                } else if (line.startsWith("FN:")) {
                    String[] f = line.substring(3).split(",", 2);
                    file.functionLines.putIfAbsent(f[1], (int) Counts.parse(f[0], Integer.MAX_VALUE, "line number"));
                } else if (line.startsWith("FNDA:")) {
                    String[] f = line.substring(5).split(",", 2);
                    file.functionEntries.merge(f[1], Counts.parse(f[0], Long.MAX_VALUE, "count"), Counts::add);
                } else if (line.startsWith("DA:")) {
                    String[] f = line.substring(3).split(",");
                    file.lines.merge((int) Counts.parse(f[0], Integer.MAX_VALUE, "line number"),
                            Counts.parse(f[1], Long.MAX_VALUE, "count"), Counts::add);
                } else if (line.startsWith("BRDA:")) {
                    String[] f = line.substring(5).split(",");
                    long taken = f[3].equals("-") ? -1 : Counts.parse(f[3], Long.MAX_VALUE, "count");
                    file.branches.merge(new Branch((int) Counts.parse(f[0], Integer.MAX_VALUE, "line number"),
                                    (int) Counts.parse(f[1], Integer.MAX_VALUE, "block number"),
                                    (int) Counts.parse(f[2], Integer.MAX_VALUE, "branch number")),
                            taken, (a, b) -> a < 0 ? b : b < 0 ? a : Counts.add(a, b));
                } else {
                    throw new IllegalArgumentException("unknown record");
                }
            } catch (Counts.Overflow e) {
                throw new IllegalArgumentException(name + " line " + number + ": " + e.getMessage(), e);
            } catch (Counts.Malformed e) {
                throw new IllegalArgumentException(name + " line " + number + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + " line " + number + " is not an LCOV record (TN, SF, FN, FNDA, "
                        + "DA, BRDA, the summaries or end_of_record).", e);
            }
        }
    }

    /** Writes the sum, with {@code testName} on every record's TN line. */
    public void write(PrintWriter out, String testName) {
        for (Map.Entry<String, SourceFile> e : files.entrySet()) {
            SourceFile f = e.getValue();
            out.println("TN:" + testName);
            out.println("SF:" + e.getKey());
            for (Map.Entry<String, Integer> fn : f.functionLines.entrySet()) {
                out.println("FN:" + fn.getValue() + "," + fn.getKey());
            }
            long hit = 0;
            for (Map.Entry<String, Long> fn : f.functionEntries.entrySet()) {
                out.println("FNDA:" + fn.getValue() + "," + fn.getKey());
                hit += fn.getValue() > 0 ? 1 : 0;
            }
            out.println("FNF:" + f.functionLines.size());
            out.println("FNH:" + hit);
            long brh = 0;
            for (Map.Entry<Branch, Long> b : f.branches.entrySet()) {
                Branch k = b.getKey();
                long v = b.getValue();
                out.println("BRDA:" + k.line() + "," + k.block() + "," + k.branch() + "," + (v < 0 ? "-" : Long.toString(v)));
                brh += v > 0 ? 1 : 0;
            }
            out.println("BRF:" + f.branches.size());
            out.println("BRH:" + brh);
            long lh = 0;
            for (Map.Entry<Integer, Long> l : f.lines.entrySet()) {
                out.println("DA:" + l.getKey() + "," + l.getValue());
                lh += l.getValue() > 0 ? 1 : 0;
            }
            out.println("LF:" + f.lines.size());
            out.println("LH:" + lh);
            out.println("end_of_record");
        }
        out.flush();
    }
}
