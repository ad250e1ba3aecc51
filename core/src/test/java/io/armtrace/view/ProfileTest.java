package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.Symbol;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.trace.TraceElement;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Profile, call graph and folded stacks on the ground-truth executions, each checked against counts
 * computed straight from the execution and the ELF symbols, without the views' code.
 */
class ProfileTest {
    static List<String> names() {
        return GroundTruth.NAMES;
    }

    static TraceAnalysis analyse(GroundTruth.Case c) {
        TraceAnalysis a = new TraceAnalysis(c.image());
        for (TraceElement e : GroundTruth.elements(c)) {
            a.accept(e);
        }
        a.end();
        return a;
    }

    static String function(GroundTruth.Case c, long address) {
        Symbol s = c.image().symbols().lookup(address);
        return s == null ? null : s.name();
    }

    @ParameterizedTest
    @MethodSource("names")
    void instructionsPerFunctionEqualTheExecution(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        Map<String, Long> expected = new TreeMap<>();
        long total = 0;
        for (ExecutionEvent.Step s : c.execution().steps()) {
            expected.merge(String.valueOf(function(c, s.address())), 1L, Long::sum);
            total++;
        }
        Profile p = new Profile(analyse(c));
        Map<String, Long> actual = new TreeMap<>();
        for (Profile.Entry e : p.byFunction()) {
            actual.merge(e.name(), e.instructions(), Long::sum);
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(p.analysis().instructions()).isEqualTo(total);
        assertThat(expected).hasSizeGreaterThan(5);
    }

    @ParameterizedTest
    @MethodSource("names")
    void instructionsPerSourceLineEqualTheExecution(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        Map<String, Long> expected = new TreeMap<>();
        for (ExecutionEvent.Step s : c.execution().steps()) {
            io.armtrace.image.LineTable.Location l = c.image().lines().lookup(s.address());
            String key = l == null ? "?? " + function(c, s.address()) : l.fileName() + ":" + l.line() + " " + function(c, s.address());
            expected.merge(key, 1L, Long::sum);
        }
        Map<String, Long> actual = new TreeMap<>();
        for (Profile.Entry e : new Profile(analyse(c)).byLine()) {
            actual.merge(e.name() + " " + e.function(), e.instructions(), Long::sum);
        }
        // a line's instructions can lie in several functions (inlining); the view names one of them
        Map<String, Long> expectedByLine = new TreeMap<>();
        expected.forEach((k, v) -> expectedByLine.merge(k.startsWith("??") ? k : k.substring(0, k.indexOf(' ')), v, Long::sum));
        Map<String, Long> actualByLine = new TreeMap<>();
        actual.forEach((k, v) -> actualByLine.merge(k.startsWith("??") ? k : k.substring(0, k.indexOf(' ')), v, Long::sum));
        assertThat(actualByLine).isEqualTo(expectedByLine);
        assertThat(actualByLine.keySet()).anyMatch(k -> k.startsWith("work.c:"));
    }

    @ParameterizedTest
    @MethodSource("names")
    void callsEqualTheBranchWithLinkExecutions(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        InstructionClassifier cl = new InstructionClassifier(c.profile());
        Insn insn = new Insn();
        // caller -> callee: the function of each executed BL/BLX and of the instruction that follows it
        // (or, when an exception comes first, of the exception's preferred return address)
        Map<String, Long> expected = new TreeMap<>();
        List<ExecutionEvent> events = c.execution().events();
        long bl = 0;
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof ExecutionEvent.Step s) || !s.executed()
                    || !cl.classify(c.image().memory(), s.address(), s.isa(), 0, insn) || !insn.link) {
                continue;
            }
            bl++;
            String callee = "[unknown]";
            if (i + 1 < events.size()) {
                ExecutionEvent n = events.get(i + 1);
                long target = n instanceof ExecutionEvent.Step t ? t.address()
                        : n instanceof ExecutionEvent.ExceptionTaken x ? x.preferredReturn() : -1;
                callee = target < 0 ? "[unknown]" : String.valueOf(function(c, target));
            }
            expected.merge(function(c, s.address()) + " -> " + callee, 1L, Long::sum);
        }
        TraceAnalysis a = analyse(c);
        assertThat(a.calls()).isEqualTo(bl);
        Map<String, Long> actual = new TreeMap<>();
        for (int e = 0; e < a.tables.edges; e++) {
            actual.merge(a.functions.name(a.tables.edgeCaller[e]) + " -> " + a.functions.name(a.tables.edgeCallee[e]),
                    a.tables.edgeCalls[e], Long::sum);
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(bl).isGreaterThan(20);
    }

    /**
     * Inclusive instructions per function from an instruction-level model of the execution: a stack of
     * (return address, function) pushed by each executed BL/BLX and by each exception, popped when
     * execution jumps to a return address on it or returns from an exception; an instruction counts for
     * every distinct function on the stack. The outermost frame follows the code when it leaves the
     * function it started in.
     */
    @ParameterizedTest
    @MethodSource("names")
    void inclusiveInstructionsEqualAnInstructionLevelModel(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        InstructionClassifier cl = new InstructionClassifier(c.profile());
        Insn insn = new Insn();
        List<long[]> stack = new java.util.ArrayList<>(); // {return address, kind (0 root, 1 call, 2 exception)}
        List<String> fns = new java.util.ArrayList<>();
        Map<String, Long> inclusive = new TreeMap<>();
        List<ExecutionEvent> events = c.execution().events();
        long prevEnd = -1;
        boolean pendingCall = false;
        long pendingReturn = 0;
        boolean pendingException = false;
        long exceptionReturn = 0;
        for (ExecutionEvent ev : events) {
            if (ev instanceof ExecutionEvent.ExceptionTaken x) {
                if (pendingCall) {
                    stack.add(new long[] {pendingReturn, 1});
                    fns.add(String.valueOf(function(c, x.preferredReturn())));
                    pendingCall = false;
                }
                pendingException = true;
                exceptionReturn = x.preferredReturn();
                prevEnd = -1;
                continue;
            }
            if (ev instanceof ExecutionEvent.ExceptionReturned) {
                pendingException = false;
                for (int i = stack.size() - 1; i >= 0; i--) {
                    if (stack.get(i)[1] == 2) {
                        while (stack.size() > i) {
                            stack.remove(stack.size() - 1);
                            fns.remove(fns.size() - 1);
                        }
                        break;
                    }
                }
                prevEnd = -1;
                continue;
            }
            ExecutionEvent.Step s = (ExecutionEvent.Step) ev;
            String f = String.valueOf(function(c, s.address()));
            if (pendingCall) {
                stack.add(new long[] {pendingReturn, 1});
                fns.add(f);
                pendingCall = false;
            } else if (pendingException) {
                stack.add(new long[] {exceptionReturn, 2});
                fns.add(f);
                pendingException = false;
            } else if (s.address() != prevEnd) {
                for (int i = stack.size() - 1; i >= 0; i--) {
                    if (stack.get(i)[1] != 0 && stack.get(i)[0] == s.address()) {
                        while (stack.size() > i) {
                            stack.remove(stack.size() - 1);
                            fns.remove(fns.size() - 1);
                        }
                        break;
                    }
                }
            }
            if (stack.isEmpty()) {
                stack.add(new long[] {-1, 0});
                fns.add(f);
            } else if (stack.get(stack.size() - 1)[1] == 0 && !fns.get(fns.size() - 1).equals(f)) {
                fns.set(fns.size() - 1, f); // the outermost frame left its function for its caller
            }
            for (String g : new java.util.HashSet<>(fns)) {
                inclusive.merge(g, 1L, Long::sum);
            }
            prevEnd = s.address() + s.size();
            if (s.executed() && cl.classify(c.image().memory(), s.address(), s.isa(), 0, insn) && insn.link) {
                pendingCall = true;
                pendingReturn = s.address() + s.size();
            }
        }
        // a function's inclusive count from the analysis: its own frames (tail calls stay in the caller's
        // frame, as in the model, where a frame keeps the function it was entered at)
        TraceAnalysis a = analyse(c);
        Map<String, Long> actual = new TreeMap<>();
        for (int f = 0; f < a.functions.count(); f++) {
            if (a.inclusive(f) > 0) {
                actual.merge(a.functions.name(f), a.inclusive(f), Long::sum);
            }
        }
        Map<String, Long> expected = new TreeMap<>(inclusive);
        assertThat(actual).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("names")
    void foldedStacksAddUpToEachFunctionsInstructions(String name) {
        GroundTruth.Case c = GroundTruth.load(name);
        Profile p = new Profile(analyse(c));
        StringWriter w = new StringWriter();
        p.writeFolded(new PrintWriter(w), false);
        Map<String, Long> leaf = new HashMap<>();
        long sum = 0;
        for (String line : w.toString().split("\n")) {
            int sp = line.lastIndexOf(' ');
            String stack = line.substring(0, sp);
            long v = Long.parseLong(line.substring(sp + 1));
            leaf.merge(stack.substring(stack.lastIndexOf(';') + 1), v, Long::sum);
            sum += v;
        }
        assertThat(sum).isEqualTo(c.execution().steps().size());
        // the innermost frame of each stack is the function the instructions are in
        Map<String, Long> self = new HashMap<>();
        for (Profile.Entry e : p.byFunction()) {
            self.put(e.name(), e.instructions());
        }
        assertThat(leaf).isEqualTo(self);
        // and some stacks are deeper than two frames (quicksort recurses, chain0 calls chain1 ...)
        assertThat(w.toString()).containsPattern("(?m)^[^ ;]+;[^ ;]+;[^ ;]+;[^ ;]+ \\d+$");
    }
}
