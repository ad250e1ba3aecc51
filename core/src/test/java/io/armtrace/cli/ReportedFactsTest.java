package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What stats, info and decode say about a capture is what the capture holds. */
class ReportedFactsTest {
    static final Path EXAMPLES = Path.of(System.getProperty("user.dir")).resolve("examples");
    static final String MTB = EXAMPLES.resolve("mtb-m0plus").toString();

    /**
     * The MTB example's registers: MASTER 0x80000008 has MASK = 8, a 2^(8+4) = 4096-byte buffer, and
     * POSITION.WRAP set, so the whole buffer is trace: 512 packets of 8 bytes (ARM DDI 0486). The dump
     * itself is the 8192-byte SRAM.
     */
    @Test
    void statsCountsMtbPacketsAsEightBytesOfTheActiveBuffer() throws Exception {
        assertThat(Files.size(EXAMPLES.resolve("mtb-m0plus/mtb_sram.bin"))).isEqualTo(8192);
        CliTest.Result r = CliTest.run("stats", MTB);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("  4096 bytes, ").doesNotContain("8192 bytes");
        assertThat(r.out()).containsPattern("MTB\\s+512 packets\\s+4096 bytes\\s+100\\.0%");
    }

    /** arm-none-eabi-readelf -l program.elf: LOAD at 0x00000000, filesz 0x2e04 (the second LOAD has no file bytes). */
    @Test
    void infoShowsAnElfDumpAtItsLoadSegmentAddresses() {
        CliTest.Result r = CliTest.run("info", MTB);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("0x00000000-0x00002e04    11780 bytes  program.elf (ELF load segment)");
        long elfSize = EXAMPLES.resolve("mtb-m0plus/program.elf").toFile().length();
        assertThat(r.out()).doesNotContain(elfSize + " bytes  program.elf");
    }

    @Test
    void aSourceWithoutTraceIdReadsNone() {
        CliTest.Result stats = CliTest.run("stats", MTB);
        assertThat(stats.out()).contains("MTB_0 (MTB, trace ID none)").doesNotContain("0xffffffff");
        CliTest.Result info = CliTest.run("info", MTB);
        assertThat(info.out()).contains("MTB_0: MTB, trace ID none");
        CliTest.Result report = CliTest.run("report", MTB);
        assertThat(report.out()).contains("trace ID none").contains("<td class=\"n\">none</td>").doesNotContain("0xffffffff");
    }

    @Test
    void aTraceWithoutSynchronizationSaysSoOnStandardError(@TempDir Path tmp) throws Exception {
        Path empty = tmp.resolve("empty.bin");
        Files.write(empty, new byte[0]);
        Path shortTrace = tmp.resolve("short.bin");
        Files.write(shortTrace, java.util.Arrays.copyOf(Files.readAllBytes(EXAMPLES.resolve("ptm-a15/PTM_0_2.bin")), 5));
        for (String protocol : new String[] {"etm2", "etm3", "ptm"}) {
            for (Path trace : new Path[] {empty, shortTrace}) {
                CliTest.Result r = CliTest.run("decode", "--protocol", protocol, "--trace", trace.toString());
                assertThat(r.exit()).isZero();
                assertThat(r.err()).as(protocol + " " + trace.getFileName())
                        .contains(trace.getFileName() + ": no synchronization point found in the trace");
                assertThat(r.err().lines().count()).isEqualTo(1);
            }
        }
        // a trace that decodes says nothing
        assertThat(CliTest.run("decode", EXAMPLES.resolve("ptm-a15").toString()).err()).isEmpty();
    }
}
