package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.ProcessorMode;
import io.armtrace.trace.Timestamp;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ETMv4 encoder's trace of the M-profile ground-truth programs (Cortex-M33, Armv8-M; Cortex-M55, Armv8.1-M
 * with low-overhead loops and branch-future instructions), run under qemu-system-arm and recorded by QEMU,
 * decoded by the whole ETMv4 decode (reader, speculation, {@link Etm4Flow}) as an Armv8-M core: every
 * instruction QEMU recorded, in order, every exception with its number and preferred return address, and one
 * exception return for every return of the record; a tail-chained exception (the trace's Exception packet at
 * 0xFFFFFFFE) is a return whose target is unknown followed by the exception, without a return address.
 */
class Etm4MEncoderRoundTripTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "m33, ''",
        "m33, exact-match=off sync-period=64",
        "m55, ''",
        "m55, exact-match=off sync-period=64",
        "m33, return-stack=on",
        "m55, return-stack=on exact-match=off sync-period=64",
        "m33, q-elements=1",
        "m33, q-elements=3 sync-period=64",
        "m55, q-elements=2",
        "m33, cycle-accurate=on cycle-threshold=7 timestamps=on",
        "m55, cycle-accurate=on timestamps=on sync-period=64",
        "m33, cycle-accurate=on timestamps=on q-elements=2 security=non-secure",
    })
    void decodesToTheExecutedInstructions(String name, String optionText) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            if (!o.isEmpty()) {
                options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        options.put("profile", "M");
        options.putIfAbsent("security", "secure");
        Execution execution = Corpus.execution(name);
        Etm4Protocol p = new Etm4Protocol(false);
        EncodeOutput enc = p.encode(execution, Corpus.image(name), options);
        assertThat(enc.deviceType()).isEqualTo("ETM4");
        Registers regs = new Registers().putAll(enc.registers()).putAll(p.registersForCore("Cortex-M33"));
        List<Long> got = new ArrayList<>();
        // Q elements whose path the decode cannot place are counts: [index of the first instruction, count]
        List<long[]> counts = new ArrayList<>();
        // each context: [index of the next instruction, mode]; timestamps: [instructions before, value]
        List<Object[]> contexts = new ArrayList<>();
        List<long[]> timestamps = new ArrayList<>();
        long[] cycles = {0, 0};
        List<Object> gaps = new ArrayList<>();
        List<String> exceptions = new ArrayList<>();
        int[] returns = {0};
        p.decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("encoded", enc.trace()),
                DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        for (int i = 0; i < r.count(); i++) {
                            got.add(r.addressOf(i));
                        }
                    } else if (e instanceof InstructionCount c) {
                        counts.add(new long[] {got.size(), c.count()});
                        for (int i = 0; i < c.count(); i++) {
                            got.add(-1L);
                        }
                    } else if (e instanceof Context c) {
                        assertThat(c.exceptionLevel()).as("no exception level on M profile").isEqualTo(-1);
                        assertThat(c.nonSecure()).isEqualTo(options.get("security").equals("non-secure"));
                        contexts.add(new Object[] {got.size(), c.mode()});
                    } else if (e instanceof Timestamp t) {
                        timestamps.add(new long[] {got.size(), t.value()});
                    } else if (e instanceof CycleCount c) {
                        cycles[0]++;
                        cycles[1] += c.cycles();
                    } else if (e instanceof Gap g) {
                        gaps.add(g);
                    } else if (e instanceof ExceptionEntry x) {
                        assertThat(x.exceptionLevel()).as("no exception level on M profile").isEqualTo(-1);
                        exceptions.add(x.number() + "@" + (x.preferredReturn() == -1 ? "-" : Long.toHexString(x.preferredReturn())));
                    } else if (e instanceof ExceptionReturn) {
                        returns[0]++;
                    }
                });
        List<ExecutionEvent> events = execution.events();
        List<String> expectedExceptions = new ArrayList<>();
        int expectedReturns = 0;
        int tailChains = 0;
        int lastStep = -1;
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent ev = events.get(i);
            if (ev instanceof ExecutionEvent.ExceptionTaken x) {
                // the first exception before any instruction of the record is not traced
                if (lastStep >= 0) {
                    boolean tail = i > 0 && events.get(i - 1) instanceof ExecutionEvent.Step prev
                            && isReturnInHandler(events, i - 1);
                    // tail-chained: the decode gives a return (target unknown) and the exception, whose return
                    // address the trace does not repeat
                    expectedExceptions.add(x.number() + "@" + (tail ? "-" : Long.toHexString(x.preferredReturn())));
                    if (tail) {
                        tailChains++;
                        expectedReturns++;
                    }
                }
            } else if (ev instanceof ExecutionEvent.ExceptionReturned) {
                expectedReturns++;
            } else {
                lastStep = i;
            }
        }
        // the instructions after the last P0 element are not traced: the decode is a prefix of the record
        List<Long> expected = new ArrayList<>();
        for (ExecutionEvent.Step s : execution.steps()) {
            expected.add(s.address());
        }
        assertThat(gaps).isEmpty();
        assertThat(got.size()).isGreaterThan(expected.size() - 64);
        for (long[] c : counts) {
            // a count stands for exactly that many instructions of the record: the ones the record has there
            for (int i = 0; i < c[1]; i++) {
                got.set((int) c[0] + i, expected.get((int) c[0] + i));
            }
        }
        assertThat(got).isEqualTo(expected.subList(0, got.size()));
        if (options.containsKey("q-elements")) {
            assertThat(counts.size() + ranges(got, counts)).as("Q elements decoded").isPositive();
        } else {
            assertThat(counts).isEmpty();
        }
        // Thread or Handler mode: every context's mode is the record's at the instruction after it (inside a
        // handler: an exception taken and not yet returned from; a tail chain goes from handler to handler)
        boolean[] handler = handlerModeOfEachStep(events);
        assertThat(contexts).isNotEmpty();
        for (Object[] c : contexts) {
            int at = (Integer) c[0];
            if (at < handler.length) {
                assertThat(c[1]).as("mode of the context before instruction %d", at)
                        .isEqualTo(handler[at] ? ProcessorMode.HANDLER : ProcessorMode.THREAD);
            }
        }
        // timestamps: the encoder's clock is the instructions executed, given where trace (re)starts
        if (options.containsKey("timestamps")) {
            assertThat(timestamps).isNotEmpty();
            for (long[] t : timestamps) {
                assertThat(t[1]).as("timestamp after %d instructions", t[0]).isEqualTo(t[0]);
            }
        } else {
            assertThat(timestamps).isEmpty();
        }
        // cycle counts: at least the threshold each, one cycle an instruction in all
        if (options.containsKey("cycle-accurate")) {
            long threshold = Long.decode(options.getOrDefault("cycle-threshold", "100"));
            assertThat(cycles[0]).isGreaterThan(expected.size() / 4095);
            assertThat(cycles[1]).isBetween(cycles[0] * threshold, (long) expected.size());
        } else {
            assertThat(cycles[0]).isZero();
        }
        assertThat(exceptions).isEqualTo(expectedExceptions);
        assertThat(exceptions).hasSizeGreaterThan(20);
        assertThat(tailChains).as("tail-chained exceptions in the record").isPositive();
        assertThat(returns[0]).isEqualTo(expectedReturns);
    }

    private static int ranges(List<Long> got, List<long[]> counts) {
        long inCounts = counts.stream().mapToLong(c -> c[1]).sum();
        return (int) (got.size() - inCounts);
    }

    /** For each step of the record, whether it runs in Handler mode: inside an exception not yet returned from. */
    private static boolean[] handlerModeOfEachStep(List<ExecutionEvent> events) {
        List<Boolean> modes = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent ev = events.get(i);
            if (ev instanceof ExecutionEvent.ExceptionTaken) {
                boolean tail = i > 0 && events.get(i - 1) instanceof ExecutionEvent.Step && depth > 0
                        && isReturnInHandler(events, i - 1);
                if (!tail) {
                    depth++;
                }
            } else if (ev instanceof ExecutionEvent.ExceptionReturned) {
                depth = Math.max(0, depth - 1);
            } else {
                modes.add(depth > 0);
            }
        }
        boolean[] out = new boolean[modes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = modes.get(i);
        }
        return out;
    }

    /**
     * Whether the step at {@code i} is a handler's return that the exception after it tail-chained: the
     * exception's preferred return address is that of the exception the handler was entered for.
     */
    private static boolean isReturnInHandler(List<ExecutionEvent> events, int i) {
        ExecutionEvent.ExceptionTaken x = (ExecutionEvent.ExceptionTaken) events.get(i + 1);
        List<Long> open = new ArrayList<>();
        for (int k = 0; k <= i; k++) {
            if (events.get(k) instanceof ExecutionEvent.ExceptionTaken t) {
                if (!open.isEmpty() && k > 0 && events.get(k - 1) instanceof ExecutionEvent.Step
                        && open.get(open.size() - 1) == t.preferredReturn()) {
                    continue; // a tail chain replaces the exception it follows
                }
                open.add(t.preferredReturn());
            } else if (events.get(k) instanceof ExecutionEvent.ExceptionReturned && !open.isEmpty()) {
                open.remove(open.size() - 1);
            }
        }
        return !open.isEmpty() && open.get(open.size() - 1) == x.preferredReturn();
    }

    @Test
    void refusesWhatItCannotEncode() {
        Etm4Protocol p = new Etm4Protocol(false);
        Map<String, String> m = new HashMap<>(Map.of("profile", "M"));
        m.put("return-stack", "on");
        m.put("q-elements", "2");
        assertThatThrownBy(() -> p.encode(Corpus.execution("m33"), Corpus.image("m33"), m))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not go together");
        assertThatThrownBy(() -> p.encode(Corpus.execution("m33"), Corpus.image("m33"),
                Map.of("profile", "M", "context-id", "5"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not available for M-profile");
        assertThatThrownBy(() -> p.encode(Corpus.execution("linux-a64"), Corpus.image("linux-a64"), Map.of("profile", "M")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("T32 code only");
        assertThatThrownBy(() -> p.encode(Corpus.execution("m33"), Corpus.image("m33"), Map.of("profile", "M", "el", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exception levels");
        assertThatThrownBy(() -> new Etm4Protocol(true).encode(Corpus.execution("m33"), Corpus.image("m33"),
                Map.of("profile", "M"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("M-profile");
    }
}
