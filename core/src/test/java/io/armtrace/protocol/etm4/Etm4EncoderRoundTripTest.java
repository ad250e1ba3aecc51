package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ETMv4/ETE encoder's trace, read back by {@link Etm4PacketReader} and {@link Etm4Speculation} and walked
 * through the program, gives the executed instructions of real AArch64 programs run under QEMU exactly: every
 * address in order, none left out, none added; a B.cond that failed its condition decodes as an N atom, and
 * an N atom elsewhere is a CBZ/CBNZ/TBZ/TBNZ that fell through. The truth is QEMU's record, not our code; the
 * same traces decode identically in OpenCSD (tools/opencsd-check/etm4-encode.sh).
 */
class Etm4EncoderRoundTripTest {

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "linux-a64, etm4, ''",
        "linux-a64, etm4, return-stack=on",
        "linux-a64, ete, exact-match=off sync-period=64",
        "linux-a64-O0, etm4, ''",
        "linux-a64-O0, ete, return-stack=on",
        "linux-a64-O0, etm4, exact-match=off sync-period=64",
        "a53-el1, etm4, ''",
        "a53-el1, ete, return-stack=on sync-period=100",
        "a53-el1, etm4, exact-match=off",
    })
    void decodesToTheExecutedInstructions(String name, String protocol, String optionText) {
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            if (!o.isEmpty()) {
                options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        ExecutionEvent.Step first = Corpus.execution(name).steps().get(0);
        assertThat(first.isa()).isEqualTo(Isa.A64);
        options.put("el", Integer.toString(Corpus.header(name).el()));
        Execution execution = Corpus.execution(name);
        boolean ete = protocol.equals("ete");
        EncodeOutput enc = new Etm4Protocol(ete).encode(execution, Corpus.image(name), options);
        assertThat(enc.deviceType()).isEqualTo(ete ? "ETE" : "ETM4");
        Decoded d = decode(enc, ete, Corpus.image(name).memory());

        List<ExecutionEvent.Step> steps = execution.steps();
        List<Long> expected = new ArrayList<>(steps.size());
        for (ExecutionEvent.Step s : steps) {
            expected.add(s.address());
        }
        assertThat(d.gaps).as("gaps").isEmpty();
        assertThat(d.addresses).as("every executed instruction, in order").hasSize(steps.size());
        assertThat(d.addresses).isEqualTo(expected);
        int failed = 0;
        int fellThrough = 0;
        for (int i = 0; i < steps.size(); i++) {
            boolean nAtom = d.notTaken.get(i);
            if (!steps.get(i).executed()) {
                assertThat(nAtom).as("the failed B.cond at 0x%x is an N atom", steps.get(i).address()).isTrue();
                failed++;
            } else if (nAtom) {
                assertThat(i + 1 < steps.size() && steps.get(i + 1).address() == steps.get(i).address() + 4)
                        .as("an N atom at 0x%x falls through", steps.get(i).address()).isTrue();
                fellThrough++;
            }
        }
        assertThat(failed).as("the corpus has failed B.cond").isGreaterThan(100);
        assertThat(fellThrough).as("and CBZ/TBZ that did not branch").isGreaterThan(10);
        // every exception of the record, and every SVC (user mode) or semihosting HLT (bare metal) that QEMU ran
        // without one, which the trace shows as an exception into code that is not traced
        long taken = execution.events().stream().filter(e -> e instanceof ExecutionEvent.ExceptionTaken).count();
        long calls = 0;
        List<ExecutionEvent> events = execution.events();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof ExecutionEvent.Step st) {
                long w = Corpus.image(name).memory().u32(st.address());
                boolean svcOrHlt = (w & 0xFFE0001FL) == 0xD4000001L || (w & 0xFFE0001FL) == 0xD4400000L;
                if (svcOrHlt && !(i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.ExceptionTaken)) {
                    calls++;
                }
            }
        }
        assertThat(d.exceptions).as("exceptions").isEqualTo(taken + calls);
        assertThat(taken + calls).isGreaterThan(10);
    }

    @Test
    void returnStackAndExactMatchMakeTheTraceSmaller() {
        Execution e = Corpus.execution("linux-a64-O0");
        int plain = size(e, Map.of("exact-match", "off"));
        int exact = size(e, Map.of());
        int stack = size(e, Map.of("return-stack", "on"));
        assertThat(exact).isLessThan(plain);
        assertThat(stack).isLessThan(exact);
    }

    private static int size(Execution e, Map<String, String> options) {
        return new Etm4Protocol(false).encode(e, Corpus.image("linux-a64-O0"), new HashMap<>(options)).trace().length;
    }

    @Test
    void refusesWhatItCannotEncode() {
        Etm4Protocol p = new Etm4Protocol(false);
        assertThatThrownBy(() -> p.encode(Corpus.execution("m33"), Corpus.image("m33"), new HashMap<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A64 code only");
        // M-profile executions (profile=M) go to the M-profile encoder: Etm4MEncoderRoundTripTest
        Execution a64 = Corpus.execution("linux-a64");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("sync-period", "8")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("trace-id", "0x70")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trace ID");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("branch-broadcast", "on")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown ETMv4 option");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("cycle-accurate", "on", "cycle-threshold", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 4095");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("vmid", "256")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8-bit");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("q-elements", "-1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 to 1000");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("el", "4")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exception level");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("linux-a64"), Map.of("security", "realm")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secure or non-secure");
        assertThatThrownBy(() -> p.encode(a64, Corpus.image("m33"), new HashMap<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not hold");
    }

    /** What the walk found: instruction addresses, whether each ended an N atom, gaps and exceptions. */
    static final class Decoded {
        final List<Long> addresses = new ArrayList<>();
        final List<Boolean> notTaken = new ArrayList<>();
        final List<String> gaps = new ArrayList<>();
        long exceptions;
    }

    /**
     * Reads the trace into elements and walks the program with them: an atom runs from the current address to
     * the next P0 instruction (branch, ERET or ISB); an exception runs to its preferred return address.
     */
    static Decoded decode(EncodeOutput enc, boolean ete, MemoryImage memory) {
        Etm4Config config = Etm4Config.of(enc.registers(), ete);
        Decoded d = new Decoded();
        InstructionClassifier classifier = new InstructionClassifier(Profile.AR);
        Insn insn = new Insn();
        ArrayDeque<Long> stack = new ArrayDeque<>();
        boolean returnStack = config.returnStack();
        long[] pc = {-1};
        boolean[] popPending = {false};
        Etm4Speculation s = new Etm4Speculation(config, e -> {
            switch (e.kind()) {
                case TRACE_ON -> pc[0] = -1;
                case ADDRESS -> {
                    popPending[0] = false;
                    pc[0] = e.address;
                }
                case ATOM -> {
                    if (popPending[0]) {
                        popPending[0] = false;
                        pc[0] = stack.isEmpty() ? -1 : stack.pop();
                    }
                    assertThat(pc[0]).as("an atom where the address is known").isNotEqualTo(-1L);
                    long a = pc[0];
                    for (int n = 0; ; n++, a += 4) {
                        assertThat(n).as("a P0 instruction within reach").isLessThan(1_000_000);
                        assertThat(classifier.classify(memory, a, Isa.A64, 0, insn)).isTrue();
                        d.addresses.add(a);
                        WaypointKind k = insn.kind;
                        if (k == WaypointKind.DIRECT_BRANCH || k == WaypointKind.INDIRECT_BRANCH
                                || k == WaypointKind.EXCEPTION_RETURN || k == WaypointKind.BARRIER) {
                            break;
                        }
                        d.notTaken.add(false);
                    }
                    d.notTaken.add(!e.executed);
                    if (!e.executed || insn.kind == WaypointKind.BARRIER) {
                        pc[0] = a + 4;
                    } else {
                        if (insn.link && returnStack) {
                            stack.push(a + 4);
                        }
                        if (insn.kind == WaypointKind.DIRECT_BRANCH) {
                            pc[0] = insn.target;
                        } else {
                            pc[0] = -1;
                            popPending[0] = returnStack && insn.ret;
                        }
                    }
                }
                case EXCEPTION -> {
                    d.exceptions++;
                    popPending[0] = false;
                    if (pc[0] != -1 && !e.atBranchTarget) {
                        for (long a = pc[0]; a != e.address; a += 4) {
                            assertThat(a - pc[0]).as("the exception's return address within reach").isLessThan(1 << 24);
                            d.addresses.add(a);
                            d.notTaken.add(false);
                        }
                    }
                    stack.clear();
                    pc[0] = -1;
                }
                case GAP -> d.gaps.add(e.toString());
                default -> {
                }
            }
        });
        Etm4PacketReader reader = new Etm4PacketReader(config, s);
        reader.push(enc.trace(), 0, enc.trace().length);
        reader.end();
        s.end();
        return d;
    }
}
