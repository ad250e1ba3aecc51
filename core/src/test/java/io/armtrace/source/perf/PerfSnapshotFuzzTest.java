package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.source.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Arbitrary bytes as a recording to convert: it reads and converts into a snapshot, or a sentence naming
 * the file says why not ({@link InputException}); nothing else escapes. {@code mvn test} replays the stored
 * inputs (the real recordings' heads, a written recording); {@code JAZZER_FUZZ=1} fuzzes.
 */
class PerfSnapshotFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void snapshotWritesOrSaysWhy(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".data");
        Path dir = Files.createTempDirectory("fuzz-snapshot");
        try {
            Files.write(file, data);
            try {
                PerfData d = PerfData.read(file);
                PerfSnapshot.Summary s = PerfSnapshot.write(d, dir, List.of());
                assertThat(s.cpus().size() + s.threads().size()).isPositive();
                assertThat(dir.resolve("snapshot.ini")).exists();
            } catch (InputException e) {
                assertThat(e.getMessage()).startsWith(file.toString()).doesNotContain("\n");
            }
        } finally {
            Files.deleteIfExists(file);
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
