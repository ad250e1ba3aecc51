package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.cli.Main;
import io.armtrace.source.InputException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording whose AUXTRACE_INFO describes a trace unit the decoder cannot be configured from is refused in
 * one sentence that names the recording and the CPU, through the API ({@link InputException}) and the command
 * line (exit code 2), not with the configuration's own exception.
 */
class PerfRecordingErrorsTest {
    @TempDir
    Path tmp;

    /** CPU 3's ETMv4 block with TRCIDR1 = 0x4100f002: architecture version 0.0, which no ETMv4 trace unit reports. */
    private Path contradictoryRecording() throws Exception {
        long[] unit = PerfDataWriter.etm4(3, 0x10C1, 0x10);
        unit[6] = 0x4100f002L; // TRCIDR1 (magic, cpu, count, TRCCONFIGR, TRCTRACEIDR, TRCIDR0, TRCIDR1, ...)
        byte[] trace = new byte[64];
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(unit))
                .aux(0, trace.length, 0, 1, 1, 1000, 3).auxtrace(0, trace, trace.length, 3, 1, 3);
        Path file = tmp.resolve("contradictory.data");
        w.write(file);
        return file;
    }

    @Test
    void contradictoryEtm4RegistersAreOneSentenceNamingTheRecordingAndTheCpu() throws Exception {
        Path file = contradictoryRecording();
        assertThatThrownBy(() -> Decoder.openRecording(file, List.of(), DecodeOptions.builder().build()))
                .isExactlyInstanceOf(InputException.class)
                .hasMessageStartingWith(file + ": the trace unit registers of CPU 3 (AUXTRACE_INFO) cannot be decoded: ")
                .hasMessageContaining("TRCIDR1=0x4100f002 says architecture version 0.0, which is not ETMv4");
    }

    @Test
    void onTheCommandLineItIsExitCodeTwoAndOneLine() throws Exception {
        Path file = contradictoryRecording();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"decode", file.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).startsWith("armtrace: " + file + ": the trace unit registers of CPU 3")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(err.toString().lines().count()).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
    }

    /** The recording is stored as an input of the decode fuzz target, which found the refusal. */
    @Test
    void theFuzzTargetReplaysIt() throws Exception {
        Path stored = Path.of("core/src/test/resources/io/armtrace/source/perf/PerfDataFuzzTestInputs/recordingDecodesOrSaysWhy/etm4-contradictory-idr1");
        assertThat(Files.readAllBytes(stored)).isEqualTo(Files.readAllBytes(contradictoryRecording()));
    }
}
