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
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Q elements (IHI 0064: a count of instructions and the address execution goes on at), made by the encoder
 * from QEMU's records of real AArch64 programs and decoded by the whole ETMv4 decode: every instruction of
 * the record is accounted for in order, either as an instruction range (where exactly one path through the
 * image takes the count from the current address to the Q element's address) or inside an
 * {@link InstructionCount} of exactly the record's number of instructions, which ends where the record goes
 * on. With one P0 instruction per Q element every walk is exact; with more, walks through conditional
 * branches are found by search and those through indirect branches are counts.
 */
class Etm4QElementTest {

    record Result(long exactInstructions, long countedInstructions, int counts) {
    }

    @ParameterizedTest(name = "{0} q-elements={1}")
    @CsvSource({
        "linux-a64, 1, true",
        "linux-a64, 3, false",
        "linux-a64, 8, false",
        "linux-a64-O0, 2, false",
        "a53-el1, 1, true",
        "a53-el1, 5, false",
    })
    void everyInstructionInOrder(String name, int q, boolean allExact) {
        Result r = decode(name, q, "etm4");
        if (allExact) {
            assertThat(r.counts).as("Q elements left as counts").isZero();
        } else {
            assertThat(r.exactInstructions).as("instructions placed exactly").isPositive();
        }
    }

    @Test
    void qElementsOverSeveralBranchesArePlacedWhereTheSearchFindsOnePath() {
        // three P0 instructions per Q element: OpenCSD's rule (walk to the first branch) places none of those
        // with a branch before the last instruction; the search places those whose every other way is ruled out
        Result r = decode("linux-a64", 3, "etm4");
        assertThat(r.exactInstructions).isGreaterThan((r.exactInstructions + r.countedInstructions) / 20);
        assertThat(r.counts).isPositive();
    }

    @Test
    void theReturnStackAndQElementsAreRefusedTogether() {
        Map<String, String> options = new HashMap<>(Map.of("q-elements", "2", "return-stack", "on"));
        assertThatThrownBy(() -> new Etm4Protocol(false).encode(Corpus.execution("linux-a64"), Corpus.image("linux-a64"),
                options)).hasMessageContaining("--q-elements and --return-stack=on");
    }

    static Result decode(String name, int q, String protocol) {
        Map<String, String> options = new HashMap<>();
        options.put("q-elements", Integer.toString(q));
        options.put("el", Integer.toString(Corpus.header(name).el()));
        Execution execution = Corpus.execution(name);
        boolean ete = protocol.equals("ete");
        Etm4Protocol p = new Etm4Protocol(ete);
        EncodeOutput enc = p.encode(execution, Corpus.image(name), options);
        Registers regs = new Registers().putAll(enc.registers());
        List<TraceElement> elements = new ArrayList<>();
        try {
            p.decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("encoded", enc.trace()),
                    DecodeOptions.DEFAULT), elements::add);
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        List<ExecutionEvent.Step> steps = execution.steps();
        int at = 0;
        long exact = 0;
        long counted = 0;
        int counts = 0;
        for (TraceElement e : elements) {
            assertThat(e).isNotInstanceOf(Gap.class);
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    assertThat(at).as("decoded past the record's end").isLessThan(steps.size());
                    assertThat(r.addressOf(i)).as("instruction %d", at).isEqualTo(steps.get(at).address());
                    at++;
                    exact++;
                }
            } else if (e instanceof InstructionCount c) {
                assertThat(c.start()).as("count %d starts where the record is", counts).isEqualTo(steps.get(at).address());
                at += (int) c.count();
                assertThat(at).isLessThanOrEqualTo(steps.size());
                counted += c.count();
                counts++;
            }
        }
        assertThat(at).as("every executed instruction").isEqualTo(steps.size());
        System.out.printf("%s q-elements=%d: %d instructions in ranges, %d in %d counts%n", name, q, exact, counted, counts);
        return new Result(exact, counted, counts);
    }
}
