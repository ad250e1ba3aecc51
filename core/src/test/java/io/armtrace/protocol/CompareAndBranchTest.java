package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A CBZ/CBNZ that does not branch is traced as an instruction that failed its condition code, by ETMv3
 * (IHI 0014Q 4.5.5) and by PFT (an N atom, IHI 0035B 4.5.1), so ETMv3 and PTM agree that it did not execute.
 * The TC2 DS-5 listings of real ETMv3 trace mark such CBZ/CBNZ "fail" too (see Tc2ConformanceTest).
 */
class CompareAndBranchTest {
    @ParameterizedTest
    @ValueSource(strings = {"linux-thumb"})
    void aCbzThatDoesNotBranchIsNotExecutedInEtm3AndPtmAlike(String name) throws Exception {
        Execution x = Corpus.execution(name);
        ProgramImage image = Corpus.image(name);
        // not-taken CBZ/CBNZ (16-bit T32 1011 o0i1 ..., A8.8.29) found from the execution itself
        List<ExecutionEvent.Step> steps = x.steps();
        Map<Long, Integer> notTaken = new HashMap<>();
        for (int i = 0; i + 1 < steps.size(); i++) {
            ExecutionEvent.Step s = steps.get(i);
            if (s.isa() == Isa.T32 && s.size() == 2 && (image.memory().u16(s.address()) & 0xF500) == 0xB100
                    && steps.get(i + 1).address() == s.address() + 2) {
                notTaken.merge(s.address(), 1, Integer::sum);
            }
        }
        assertThat(notTaken).as("the program has CBZ/CBNZ that fall through").isNotEmpty();
        for (String protocol : List.of("etm3", "ptm")) {
            TraceProtocol p = Protocols.byName(protocol).orElseThrow();
            EncodeOutput enc = p.encode(x, image, protocol.equals("etm3") ? Map.of("profile", "AR") : Map.of());
            ElementCollector c = new ElementCollector();
            p.decode(new DecodeInput(0, enc.registers(), image, TraceData.of("trace", enc.trace()), null), c);
            Map<Long, Integer> reportedFailed = new HashMap<>();
            Map<Long, Integer> reportedExecuted = new HashMap<>();
            for (TraceElement e : c.elements()) {
                if (e instanceof InstructionRange r && notTaken.containsKey(r.lastAddress())) {
                    (r.lastExecuted() ? reportedExecuted : reportedFailed).merge(r.lastAddress(), 1, Integer::sum);
                }
            }
            assertThat(reportedFailed).as(protocol + ": not-taken CBZ/CBNZ reported as failed").isEqualTo(notTaken);
        }
    }
}
