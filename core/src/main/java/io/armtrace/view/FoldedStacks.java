package io.armtrace.view;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folded stacks (flamegraph.pl's input: {@code frame;frame;frame COUNT} per line) added together: the
 * counts of equal call paths are summed. Paths are written in sorted order, so the result does not
 * depend on the order of the inputs.
 */
public final class FoldedStacks {
    private final Map<String, Long> paths = new TreeMap<>();

    /** Adds one folded-stack file. Throws {@link IllegalArgumentException} naming a malformed line. */
    public void add(Reader folded, String name) throws IOException {
        BufferedReader in = new BufferedReader(folded);
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            try {
                paths.merge(line.substring(0, space), Counts.parse(line.substring(space + 1), Long.MAX_VALUE, "count"),
                        Counts::add);
            } catch (Counts.Overflow | Counts.Malformed e) {
                throw new IllegalArgumentException(name + " line " + number + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(name + " line " + number
                        + " is not a folded stack (frames separated by ';', a space, then a count).", e);
            }
        }
    }

    public void write(PrintWriter out) {
        for (Map.Entry<String, Long> e : paths.entrySet()) {
            out.println(e.getKey() + " " + e.getValue());
        }
        out.flush();
    }
}
