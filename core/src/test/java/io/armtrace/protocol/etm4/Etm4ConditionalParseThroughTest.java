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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conditional instruction tracing (TRCCONFIGR.COND, AArch32 only) adds Conditional Instruction, Conditional
 * Result and Conditional Flush packets to the instruction trace; armtrace parses them through, as the program
 * flow does not depend on them. Here every format of them (their bytes as {@code tools/opencsd-check/etm4_cases.py}
 * writes them from IHI 0064's packet descriptions, and which trc_pkt_lister lists as the same packets,
 * {@link Etm4OpenCsdListingsTest}) is spliced in after the atom packets of the encoder's trace of a real A32 or
 * T32 program, in a unit that says it traces conditional instructions: the decode must still give QEMU's record,
 * every instruction in order, with no gap. The packets are not what a unit would write for that execution (their
 * keys and results are arbitrary): the test is of parsing them through, not of their meaning, which armtrace does
 * not decode (nor does OpenCSD, whose decoder stops at them as unsupported).
 */
class Etm4ConditionalParseThroughTest {
    /** One of each conditional packet format: instruction 1-3, flush, result 1-4. */
    private static final int[][] CONDITIONAL = {
        {0x6C, 0x03}, {0x40}, {0x41}, {0x42}, {0x6D, 0x07}, {0x43}, {0x68, 0x31, 0x02}, {0x69, 0xB1, 0x05, 0x22},
        {0x6E, 0x15}, {0x6F, 0x95, 0x03}, {0x48}, {0x4D}, {0x50, 0x12}, {0x5F, 0xFF}, {0x44}, {0x46},
    };

    @ParameterizedTest
    @ValueSource(strings = {"linux-arm", "linux-thumb", "a9-arm"})
    void conditionalPacketsLeaveTheInstructionsAsTheyWere(String name) throws IOException {
        Execution execution = Corpus.execution(name);
        EncodeOutput enc = new Etm4Protocol(false).encode(execution, Corpus.image(name), new HashMap<>());
        Registers regs = new Registers().putAll(enc.registers());
        regs.put("TRCCONFIGR", regs.get("TRCCONFIGR", 0) | 7L << Etm4Config.CONFIGR_COND_SHIFT); // all conditional instructions
        regs.put("TRCIDR0", regs.get("TRCIDR0", 0) | Etm4Config.IDR0_TRCCOND);
        Etm4Config config = Etm4Config.of(regs, false);
        assertThat(config.conditionalPackets()).isTrue();

        // the ends of the atom packets of the plain trace
        byte[] plain = enc.trace();
        List<Long> ends = new ArrayList<>();
        Etm4PacketReader plainReader = new Etm4PacketReader(Etm4Config.of(enc.registers(), false), p -> {
            if (p.kind().isAtom()) {
                ends.add(p.offset + p.length);
            }
        });
        plainReader.push(plain, 0, plain.length);
        plainReader.end();
        ByteArrayOutputStream spliced = new ByteArrayOutputStream();
        int from = 0;
        int inserted = 0;
        for (long end : ends) {
            spliced.write(plain, from, (int) end - from);
            from = (int) end;
            for (int b : CONDITIONAL[inserted % CONDITIONAL.length]) {
                spliced.write(b);
            }
            inserted++;
        }
        spliced.write(plain, from, plain.length - from);
        byte[] trace = spliced.toByteArray();
        assertThat(inserted).isGreaterThan(1000);

        // the reader sees each of them as a conditional packet
        int[] conditional = {0};
        List<String> errors = new ArrayList<>();
        Etm4PacketReader reader = new Etm4PacketReader(config, p -> {
            if (p.kind().name().startsWith("COND_")) {
                conditional[0]++;
            } else if (p.kind().isError()) {
                errors.add(p.toString());
            }
        });
        reader.push(trace, 0, trace.length);
        reader.end();
        assertThat(errors).isEmpty();
        assertThat(conditional[0]).isEqualTo(inserted);

        // and the decode gives the executed instructions
        List<Long> got = new ArrayList<>();
        List<Object> gaps = new ArrayList<>();
        new Etm4Protocol(false).decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("spliced", trace),
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
