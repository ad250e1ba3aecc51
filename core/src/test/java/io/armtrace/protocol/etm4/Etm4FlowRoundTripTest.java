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
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The encoder's trace of real AArch64 programs run under QEMU, decoded by the whole ETMv4/ETE decode
 * ({@link Etm4Protocol#decode}: reader, speculation, {@link Etm4Flow}): the instructions QEMU recorded, every
 * one in order, including with the return stack (RET targets from the stack) and ETE.
 */
class Etm4FlowRoundTripTest {

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "linux-a64, etm4, ''",
        "linux-a64, etm4, return-stack=on",
        "linux-a64, ete, exact-match=off sync-period=64",
        "linux-a64-O0, ete, return-stack=on",
        "a53-el1, etm4, ''",
        "a53-el1, ete, return-stack=on sync-period=100",
    })
    void decodesToTheExecutedInstructions(String name, String protocol, String optionText) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            if (!o.isEmpty()) {
                options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        options.put("el", Integer.toString(Corpus.header(name).el()));
        Execution execution = Corpus.execution(name);
        boolean ete = protocol.equals("ete");
        Etm4Protocol p = new Etm4Protocol(ete);
        EncodeOutput enc = p.encode(execution, Corpus.image(name), options);
        Registers regs = new Registers().putAll(enc.registers());
        List<Long> got = new ArrayList<>();
        List<Object> gaps = new ArrayList<>();
        p.decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("encoded", enc.trace()),
                DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        for (int i = 0; i < r.count(); i++) {
                            got.add(r.addressOf(i));
                        }
                    } else if (e instanceof Gap g) {
                        gaps.add(g);
                    }
                });
        List<Long> expected = new ArrayList<>();
        for (ExecutionEvent.Step s : execution.steps()) {
            expected.add(s.address());
        }
        assertThat(gaps).isEmpty();
        assertThat(got).hasSize(expected.size()).isEqualTo(expected);
    }
}
