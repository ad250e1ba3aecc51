package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.WaypointKind;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The encoder's trace of real AArch64, A32 and T32 programs run under QEMU, decoded by the whole ETMv4/ETE decode
 * ({@link Etm4Protocol#decode}: reader, speculation, {@link Etm4Flow}): the instructions QEMU recorded, every
 * one in order, including with the return stack (RET targets from the stack), ETE, branch broadcast, Q elements
 * (whose counts stand for the instructions they count) and the Cortex-R52 unit.
 */
class Etm4FlowRoundTripTest {
    /** An instruction counted by a Q element, whose address the trace does not give. */
    private static final long COUNTED = -2;

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "linux-a64, etm4, ''",
        "linux-a64, etm4, return-stack=on",
        "linux-a64, ete, exact-match=off sync-period=64",
        "linux-a64-O0, ete, return-stack=on",
        "a53-el1, etm4, ''",
        "a53-el1, ete, return-stack=on sync-period=100",
        "a53-el1, etm4, branch-broadcast=on",
        "linux-a64, ete, branch-broadcast=on branch-broadcast-range=0x400000-0x401fff",
        // AArch32: QEMU user mode (EL0, SVCs into the kernel that is not traced) and bare metal on a Cortex-A9
        // (IRQs and SVCs taken to handlers, their returns), ARM and Thumb builds, each calling code of the other
        "linux-arm, etm4, ''",
        "linux-arm, ete, return-stack=on",
        "linux-arm, etm4, branch-broadcast=on",
        "linux-thumb, etm4, ''",
        "linux-thumb, etm4, return-stack=on exact-match=off sync-period=64",
        "linux-thumb, ete, q-elements=3",
        "linux-thumb, etm4, unit=r52 branch-broadcast=on cycle-accurate=on cycle-threshold=7",
        "a9-arm, etm4, return-stack=on",
        "a9-arm, etm4, unit=r52 q-elements=1",
        "a9-thumb, etm4, ''",
        "a9-thumb, etm4, branch-broadcast=on branch-broadcast-range=0x60010000-0x600107ff el=1",
    })
    void decodesToTheExecutedInstructions(String name, String protocol, String optionText) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            if (!o.isEmpty()) {
                options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        options.putIfAbsent("el", Integer.toString(Math.max(0, Corpus.header(name).el())));
        Execution execution = Corpus.execution(name);
        boolean ete = protocol.equals("ete");
        Etm4Protocol p = new Etm4Protocol(ete);
        EncodeOutput enc = p.encode(execution, Corpus.image(name), options);
        Registers regs = new Registers().putAll(enc.registers());
        List<Long> got = new ArrayList<>();
        List<Object> gaps = new ArrayList<>();
        long[] exceptions = {0};
        p.decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("encoded", enc.trace()),
                DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        for (int i = 0; i < r.count(); i++) {
                            got.add(r.addressOf(i));
                        }
                    } else if (e instanceof InstructionCount c) {
                        // a Q element the flow cannot walk (as OpenCSD's I_RANGE_NOPATH): its first address, then
                        // as many instructions as it counts, which the comparison below takes for the record's
                        got.add(c.start());
                        for (long i = 1; i < c.count(); i++) {
                            got.add(COUNTED);
                        }
                    } else if (e instanceof Gap g) {
                        gaps.add(g);
                    } else if (e instanceof ExceptionEntry) {
                        exceptions[0]++;
                    }
                });
        // every exception of the record, and every SVC (or other exception-generating instruction) it ran without
        // one (user mode: the kernel is not in the record), which is traced as an exception into untraced code
        long expectedExceptions = 0;
        InstructionClassifier classifier = new InstructionClassifier(Profile.AR);
        Insn insn = new Insn();
        List<ExecutionEvent> events = execution.events();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof ExecutionEvent.ExceptionTaken) {
                expectedExceptions++;
            } else if (events.get(i) instanceof ExecutionEvent.Step st && st.executed()
                    && classifier.classify(Corpus.image(name).memory(), st.address(), st.isa(), 0, insn)
                    && insn.kind == WaypointKind.EXCEPTION_CALL
                    && !(i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.ExceptionTaken)) {
                expectedExceptions++;
            }
        }
        assertThat(exceptions[0]).as("exceptions").isEqualTo(expectedExceptions).isGreaterThan(10);
        List<Long> expected = new ArrayList<>();
        for (ExecutionEvent.Step s : execution.steps()) {
            expected.add(s.address());
        }
        assertThat(gaps).isEmpty();
        assertThat(got).hasSize(expected.size());
        for (int i = 0; i < got.size(); i++) {
            if (got.get(i) == COUNTED) {
                expected.set(i, COUNTED);
            }
        }
        assertThat(got).isEqualTo(expected);
    }
}
