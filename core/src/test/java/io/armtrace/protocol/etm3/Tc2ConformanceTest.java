package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TC2 capture's three Cortex-A7 ETMv3.5 sources (cycle-accurate, timestamps) decode to exactly the
 * instructions Arm DS-5 lists, in order, with the same condition-failed flags.
 */
class Tc2ConformanceTest {

    /** One instruction per element of {@code elements}' instruction ranges. */
    static List<Tc2.Ds5Insn> expand(List<TraceElement> elements, MemoryImage memory) {
        List<Tc2.Ds5Insn> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                long a = r.start();
                for (int i = 0; i < r.count(); i++) {
                    out.add(new Tc2.Ds5Insn(r.addressOf(i), i < r.count() - 1 || r.lastExecuted()));
                    // the size the range carries is the one the encoding gives (ARM ARM A6.1)
                    assertThat(r.sizeOf(i)).as("size at 0x%x", a).isEqualTo(size(memory, a, r.isa()));
                    assertThat(r.addressOf(i)).isEqualTo(a);
                    a += size(memory, a, r.isa());
                }
                assertThat(a).as("range end").isEqualTo(r.end());
            }
        }
        return out;
    }

    static int size(MemoryImage memory, long a, Isa isa) {
        if (isa == Isa.A32) {
            return 4;
        }
        int hw = memory.u16(a);
        return (hw >> 11) >= 0x1D ? 4 : 2;
    }

    static List<TraceElement> decode(SnapshotSource s) throws Exception {
        ElementCollector c = new ElementCollector();
        new Etm3Protocol().decode(DecodeInput.of(s), c);
        return c.elements();
    }

    @ParameterizedTest
    @ValueSource(ints = {0x10, 0x11, 0x12})
    void decodesExactlyTheInstructionsDs5Lists(int traceId) throws Exception {
        Tc2.assumePresent();
        SnapshotSource s = Tc2.source(traceId);
        List<Tc2.Ds5Insn> expected = Tc2.ds5(traceId);
        List<Tc2.Ds5Insn> actual = expand(decode(s), s.image().memory());
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionError(String.format("instruction %d: expected %s, decoded %s; next expected %s, decoded %s",
                        i, expected.get(i), actual.get(i), expected.subList(i, Math.min(n, i + 5)),
                        actual.subList(i, Math.min(n, i + 5))));
            }
        }
        assertThat(actual).hasSize(expected.size());
        assertThat(expected).hasSize(switch (traceId) {
            case 0x10 -> 7205;
            case 0x11 -> 7471;
            default -> 1947;
        });
    }
}
