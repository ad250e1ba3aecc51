package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Round trip on real programs: the ARM926 ground-truth executions (QEMU runs of ARM and Thumb code with
 * exceptions) encoded for each protocol version and port width, decoded back to the same instructions.
 */
class Etm2CorpusRoundTripTest {

    @ParameterizedTest
    @CsvSource({"arm926-arm,1,4", "arm926-arm,1,8", "arm926-arm,1,16", "arm926-arm,2,4", "arm926-arm,2,8",
        "arm926-arm,2,16", "arm926-thumb,1,4", "arm926-thumb,1,8", "arm926-thumb,1,16", "arm926-thumb,2,4",
        "arm926-thumb,2,8", "arm926-thumb,2,16"})
    void decodeOfEncodeIsTheExecution(String name, int version, int width) {
        Execution ex = Corpus.execution(name);
        ProgramImage image = Corpus.image(name);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(ex, image.memory(), Etm2Encoder.Options.of(cfg));
        ElementCollector c = new ElementCollector();
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        Etm2Protocol.decode(capture, regs, image.memory(), c);
        assertThat(c.ofType(Gap.class)).isEmpty();
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(ex);
        List<SyntheticProgram.Insn> got = SyntheticProgram.expand(c.elements());
        int i = 0;
        while (i < Math.min(expected.size(), got.size()) && expected.get(i).equals(got.get(i))) {
            i++;
        }
        assertThat(i).as("first difference, of %d instructions", expected.size()).isEqualTo(expected.size());
        assertThat(got).hasSameSizeAs(expected);
    }

    /**
     * Programs not in the repository ({@code -Darmtrace.extraGroundTruth=DIR}) run by ARM7/ARM9/ARM10 cores;
     * without the property, the repository's own.
     */
    @org.junit.jupiter.api.Test
    void extraGroundTruthProgramsRoundTrip() {
        List<String> names = Corpus.extraNamesOr(io.armtrace.isa.Profile.AR, Corpus.allNames()).stream()
                .filter(n -> Corpus.core(n).toLowerCase(java.util.Locale.ROOT).matches("arm(7|9|10).*")).toList();
        // without the property: the repository's ARM926 programs, at the port width the cases above vary least
        assertThat(names).isNotEmpty();
        for (String name : names) {
            for (int version : new int[] {1, 2}) {
                decodeOfEncodeIsTheExecution(name, version, 8);
            }
        }
    }
}
