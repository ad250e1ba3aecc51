package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The analysis views use the DWARF line tables of an ELF file that a snapshot names as a memory dump. */
class SnapshotElfLinesTest {
    static final Path MTB = Path.of(System.getProperty("user.dir")).resolve("examples/mtb-m0plus");

    @Test
    void coverageAndProfileReadLinesFromTheSnapshotsElfDump(@TempDir Path tmp) throws Exception {
        Path alone = tmp.resolve("alone.info");
        Path withImage = tmp.resolve("image.info");
        assertThat(CliTest.run("coverage", MTB.toString(), "--lcov", alone.toString()).exit()).isZero();
        assertThat(CliTest.run("coverage", MTB.toString(), "--image", MTB.resolve("program.elf").toString(),
                "--lcov", withImage.toString()).exit()).isZero();
        String lcov = Files.readString(alone);
        assertThat(lcov).contains("SF:").contains("DA:");
        assertThat(lcov).isEqualTo(Files.readString(withImage));

        CliTest.Result byLine = CliTest.run("profile", MTB.toString(), "--by", "line");
        assertThat(byLine.exit()).as(byLine.err()).isZero();
        assertThat(byLine.out()).contains("work.c:");
        CliTest.Result cg = CliTest.run("callgraph", MTB.toString());
        assertThat(cg.out()).contains("fl=").contains("work.c");
    }
}
