package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** decode(encode(execution)) == execution, for every encoder option, on seeded random programs. */
class Etm3RoundTripTest {

    static Stream<Arguments> options() {
        List<Arguments> out = new ArrayList<>();
        int k = 0;
        for (boolean alt : new boolean[] {false, true}) {
            for (boolean ca : new boolean[] {false, true}) {
                for (int ctx : new int[] {0, 1, 2, 4}) {
                    for (boolean byte5 : new boolean[] {false, true}) {
                        k++;
                        Etm3Encoder.Options o = Etm3Encoder.Options.DEFAULT.withAlternativeBranch(alt).withCycleAccurate(ca)
                                .withContextId(ctx, 0xCAFEF00DL).withDeprecatedExceptions(byte5)
                                .withVmid((k & 1) != 0, k).withTimestamps((k & 2) != 0, (k & 4) != 0)
                                .withPeriods(k % 3 == 0 ? 64 : 1024, k % 2 == 0 ? 100 : 1000);
                        out.add(Arguments.of(o, false, k));
                        out.add(Arguments.of(o.withArmv7m(true, (k & 1) == 0), true, k));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("options")
    void decodeOfEncodeGivesTheExecutionBack(Etm3Encoder.Options o, boolean m, int seed) {
        SyntheticProgram prog = new SyntheticProgram(seed * 7919L, m, 3000);
        Etm3Encoder.Result enc = new Etm3Encoder(o, prog.image).encode(prog.execution);
        List<TraceElement> els = decode(enc.trace(), enc.config(), prog.image);
        assertThat(els).noneMatch(e -> e instanceof Gap || e instanceof DecodeError || e instanceof NoImage);
        assertSameSteps(prog.execution, els, prog.image);
        List<ExceptionEntry> ex = els.stream().filter(e -> e instanceof ExceptionEntry).map(e -> (ExceptionEntry) e).toList();
        List<ExecutionEvent.ExceptionTaken> taken = prog.execution.events().stream()
                .filter(e -> e instanceof ExecutionEvent.ExceptionTaken).map(e -> (ExecutionEvent.ExceptionTaken) e).toList();
        assertThat(ex).hasSize(taken.size());
        for (int i = 0; i < ex.size(); i++) {
            assertThat(ex.get(i).number()).as("exception %d", i).isEqualTo(taken.get(i).number());
            assertThat(ex.get(i).preferredReturn()).as("exception %d return", i).isEqualTo(taken.get(i).preferredReturn());
        }
    }

    static List<TraceElement> decode(byte[] trace, Etm3Config cfg, ProgramImage image) {
        ElementCollector c = new ElementCollector();
        Etm3Flow flow = new Etm3Flow(cfg, image, c);
        Etm3PacketReader r = new Etm3PacketReader(cfg, flow);
        // odd chunk sizes: packets cross push boundaries
        for (int i = 0; i < trace.length; i += 7) {
            r.push(trace, i, Math.min(7, trace.length - i));
        }
        r.end();
        flow.end();
        return c.elements();
    }

    /**
     * The steps as an ETM traces them: a CBZ/CBNZ that did not branch is traced as an instruction that failed
     * its condition code (IHI 0014Q 4.5.5), so it decodes as not executed. CBZ/CBNZ is the 16-bit T32
     * encoding 1011 o0i1 iiii iRRR (ARM DDI 0406C A8.8.29), target = address + 4 + i:imm5:'0'.
     */
    static List<ExecutionEvent.Step> asTraced(Execution x, ProgramImage image) {
        List<ExecutionEvent> ev = x.events();
        List<ExecutionEvent.Step> out = new ArrayList<>();
        for (int i = 0; i < ev.size(); i++) {
            if (!(ev.get(i) instanceof ExecutionEvent.Step s)) {
                continue;
            }
            boolean cbz = s.isa() == io.armtrace.trace.Isa.T32 && s.size() == 2
                    && (image.memory().u16(s.address()) & 0xF500) == 0xB100;
            if (cbz && s.executed()) {
                int hw = image.memory().u16(s.address());
                long target = s.address() + 4 + (((hw >> 9) & 1) << 6 | ((hw >> 3) & 0x1F) << 1);
                long next = -1;
                for (int j = i + 1; j < ev.size() && next < 0; j++) {
                    if (ev.get(j) instanceof ExecutionEvent.Step n) {
                        next = n.address();
                    } else if (ev.get(j) instanceof ExecutionEvent.ExceptionTaken t) {
                        next = t.preferredReturn();
                    }
                }
                if (next >= 0 && next != target) {
                    out.add(new ExecutionEvent.Step(s.address(), s.isa(), s.size(), false));
                    continue;
                }
            }
            out.add(s);
        }
        return out;
    }

    static void assertSameSteps(Execution x, List<TraceElement> els, ProgramImage image) {
        List<ExecutionEvent.Step> want = asTraced(x, image);
        List<ExecutionEvent.Step> got = new ArrayList<>();
        for (TraceElement e : els) {
            if (e instanceof InstructionRange r) {
                long a = r.start();
                for (int i = 0; i < r.count(); i++) {
                    int size = Tc2ConformanceTest.size(image.memory(), a, r.isa());
                    got.add(new ExecutionEvent.Step(a, r.isa(), size, i < r.count() - 1 || r.lastExecuted()));
                    a += size;
                }
            }
        }
        int n = Math.min(want.size(), got.size());
        for (int i = 0; i < n; i++) {
            if (!want.get(i).equals(got.get(i))) {
                throw new AssertionError("step " + i + ": expected " + want.get(i) + " decoded " + got.get(i)
                        + "\n expected next " + want.subList(i, Math.min(n, i + 4)) + "\n decoded next "
                        + got.subList(i, Math.min(n, i + 4)));
            }
        }
        assertThat(got).hasSize(want.size());
    }
}
