package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.Symbol;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.TraceData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The views on real decoder output: each ground-truth execution is encoded as trace by a protocol's
 * encoder, decoded by its decoder, and analysed; instructions per function and calls must equal what
 * the execution itself says.
 */
class DecodedViewsTest {
    static List<String[]> cases() {
        List<String[]> out = new ArrayList<>();
        for (String n : GroundTruth.NAMES) {
            boolean m = n.startsWith("m");
            // (the Linux user-mode programs go through ETMv3 only: their PTM decode does not yet give the
            // execution back, which is the PTM round trip's business, not the views')
            boolean user = Corpus.userModeNames().contains(n);
            for (String p : m ? List.of("etm3", "mtb") : user ? List.of("etm3") : List.of("etm3", "ptm")) {
                out.add(new String[] {n, p});
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void profileAndCallsOfTheDecodedTraceEqualTheExecution(String name, String protocol) throws IOException {
        GroundTruth.Case c = GroundTruth.load(name);
        TraceProtocol p = Protocols.byName(protocol).orElseThrow();
        // the MTB buffer is large enough to hold the whole run (it would otherwise keep its last part)
        EncodeOutput enc = p.encode(c.execution(), c.image(),
                protocol.equals("mtb") ? Map.of("buffer-size", "1048576") : Map.of());
        TraceAnalysis a = new TraceAnalysis(c.image());
        p.decode(new DecodeInput(0x10, enc.registers(), c.image(), TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), a);
        a.end();

        Map<String, Long> expected = new TreeMap<>();
        InstructionClassifier cl = new InstructionClassifier(c.profile());
        Insn insn = new Insn();
        long calls = 0;
        List<ExecutionEvent.Step> steps = c.execution().steps();
        if (protocol.equals("mtb")) {
            // MTB records branches: what ran before the first branch's target is not in the trace
            int first = 1;
            while (first < steps.size() && steps.get(first).address() == steps.get(first - 1).address() + steps.get(first - 1).size()) {
                first++;
            }
            steps = steps.subList(first, steps.size());
        }
        for (ExecutionEvent.Step s : steps) {
            Symbol sym = c.image().symbols().lookup(s.address());
            expected.merge(String.valueOf(sym == null ? null : sym.name()), 1L, Long::sum);
            if (s.executed() && cl.classify(c.image().memory(), s.address(), s.isa(), 0, insn) && insn.link) {
                calls++;
            }
        }
        Map<String, Long> actual = new TreeMap<>();
        for (Profile.Entry e : new Profile(a).byFunction()) {
            actual.merge(e.name(), e.instructions(), Long::sum);
        }
        assertThat(a.gaps()).isZero();
        assertThat(actual).isEqualTo(expected);
        assertThat(a.calls()).isEqualTo(calls);
    }
}
