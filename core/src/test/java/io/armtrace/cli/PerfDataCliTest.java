package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** perf.data recordings on the command line: info describes them; given as a raw trace file, they are named for what they are. */
class PerfDataCliTest {
    static final String KERNEL = "conformance/perfdata/perf_kernel.data";

    @Test
    void infoDescribesARecording() {
        CliTest.Result r = CliTest.run("info", KERNEL);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("command line: /data/local/tmp/simpleperf64 record -e cs-etm:k")
                .contains("CPU 6: ETMv4, trace ID 0x1c")
                .contains("TRCCONFIGR=0x40 TRCTRACEIDR=0x1c TRCIDR0=0x28000ea1")
                .contains("CPU 6: 22832 bytes in 2 buffers, 2 segments, formatted (CoreSight frames)")
                .contains("lost at stream byte 16368 (AUX offset 0x3ff0): buffer full (AUX record flag truncated)")
                .contains("/vendor/lib/modules/rq_stats.ko build ID a535d7222f9f01d1")
                .contains("Records: MMAP 329, MMAP2 140, COMM 2, AUXTRACE_INFO 1, ITRACE_START 3, AUX 3, AUXTRACE 3");
    }

    @Test
    void aRecordingGivenAsRawTraceIsNamedForWhatItIs() {
        for (String[] args : new String[][] {{"decode", "--trace", KERNEL, "--protocol", "etm3"}}) {
            CliTest.Result r = CliTest.run(args);
            UserErrorsTest.assertMistake(r, KERNEL, "perf.data recording", "armtrace info");
        }
    }
}
