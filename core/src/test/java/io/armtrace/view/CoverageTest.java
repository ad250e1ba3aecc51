package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.LineTable;
import io.armtrace.image.Symbol;
import io.armtrace.trace.TraceElement;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Coverage on the ground-truth executions against what the execution itself says ran. */
class CoverageTest {
    static List<String> names() {
        return GroundTruth.NAMES;
    }

    static Coverage coverage(GroundTruth.Case c) {
        Coverage cov = new Coverage(c.image());
        for (TraceElement e : GroundTruth.elements(c)) {
            cov.accept(e);
        }
        cov.end();
        return cov;
    }

    @ParameterizedTest
    @MethodSource("names")
    void executedInstructionsAndConditionOutcomesEqualTheExecution(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        Map<Long, long[]> expected = new TreeMap<>();
        for (ExecutionEvent.Step s : c.execution().steps()) {
            expected.computeIfAbsent(s.address(), k -> new long[2])[s.executed() ? 0 : 1]++;
        }
        Coverage.Result r = coverage(c).result();
        Map<Long, String> exp = new TreeMap<>();
        expected.forEach((a, v) -> exp.put(a, v[0] + "/" + v[1]));
        Map<Long, String> act = new TreeMap<>();
        r.instructions().forEach((a, i) -> {
            if (i.hit()) {
                act.put(a, i.passed() + "/" + i.failed());
            }
        });
        assertThat(act).isEqualTo(exp);
        // conditions seen both ways: exactly the instructions the execution shows passing and failing
        TreeSet<Long> both = new TreeSet<>();
        expected.forEach((a, v) -> {
            if (v[0] > 0 && v[1] > 0) {
                both.add(a);
            }
        });
        TreeSet<Long> actualBoth = new TreeSet<>();
        r.instructions().forEach((a, i) -> {
            if (i.bothWays()) {
                actualBoth.add(a);
                assertThat(i.conditional()).isTrue();
            }
        });
        assertThat(actualBoth).isEqualTo(both).isNotEmpty();
        // every instruction seen failing is known to be conditional
        r.instructions().values().stream().filter(i -> i.failed() > 0).forEach(i -> assertThat(i.conditional()).isTrue());
    }

    @ParameterizedTest
    @MethodSource("names")
    void functionsHitAndTheirExecutedInstructions(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        TreeSet<Long> executed = new TreeSet<>();
        for (ExecutionEvent.Step s : c.execution().steps()) {
            executed.add(s.address());
        }
        Coverage.Result r = coverage(c).result();
        assertThat(r.functions()).isNotEmpty();
        int hitFunctions = 0;
        for (Coverage.FunctionCoverage f : r.functions()) {
            // names repeat in big programs (static functions of several files): match the address too
            Symbol s = c.image().symbols().symbols().stream()
                    .filter(x -> x.name().equals(f.name()) && x.address() == f.address()).findFirst().orElseThrow();
            long inside = executed.subSet(s.address(), s.address() + s.size()).size();
            assertThat(f.instructionsHit()).as(f.name()).isEqualTo(inside);
            assertThat(f.instructions()).as(f.name()).isGreaterThanOrEqualTo(f.instructionsHit())
                    .isLessThanOrEqualTo((int) (s.size() / 2));
            hitFunctions += inside > 0 ? 1 : 0;
        }
        assertThat(r.functionsHit()).isEqualTo(hitFunctions);
    }

    @ParameterizedTest
    @MethodSource("names")
    void lcovLinesRanExactlyWhereAnExecutedInstructionIs(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        LineTable lines = c.image().lines();
        Map<String, Long> expected = new HashMap<>();
        for (ExecutionEvent.Step s : c.execution().steps()) {
            LineTable.Location l = lines.lookup(s.address());
            if (l != null) {
                expected.put(l.file() + ":" + l.line(), 1L);
            }
        }
        StringWriter w = new StringWriter();
        coverage(c).writeLcov(new PrintWriter(w), name);
        String file = null;
        Map<String, Long> hit = new HashMap<>();
        int records = 0;
        for (String line : w.toString().split("\n")) {
            if (line.startsWith("SF:")) {
                file = line.substring(3);
            } else if (line.startsWith("DA:")) {
                String[] p = line.substring(3).split(",");
                if (Long.parseLong(p[1]) > 0) {
                    hit.put(file + ":" + p[0], 1L);
                }
            } else if (line.equals("end_of_record")) {
                records++;
            }
        }
        assertThat(hit).isEqualTo(expected);
        assertThat(records).isGreaterThan(1);
        assertThat(w.toString()).contains("FNDA:").contains("BRDA:");
    }
}
