package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline streams: the ETMv3 example's trace repeated 200 times (11 million instructions) gives a
 * timeline larger than the 32 MB heap it is written in, and it still nests.
 */
class TimelineSmallHeapTest {
    private static final int COPIES = 200;

    @Test
    void aTimelineLargerThanTheHeapIsStreamed(@TempDir Path dir) throws Exception {
        Path example = Path.of("examples/etm3-a9-thumb");
        Path snap = Files.createDirectories(dir.resolve("snap"));
        try (Stream<Path> files = Files.list(example)) {
            for (Path f : files.toList()) {
                Files.copy(f, snap.resolve(f.getFileName()));
            }
        }
        byte[] trace = Files.readAllBytes(example.resolve("trace_0.bin"));
        try (OutputStream out = Files.newOutputStream(snap.resolve("trace_0.bin"))) {
            for (int i = 0; i < COPIES; i++) {
                out.write(trace);
            }
        }
        Path json = dir.resolve("t.json");
        SmallHeapTest.Result r = SmallHeapTest.runSmallHeap(dir, "timeline", snap.toString(), "-o", json.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.size(json)).isGreaterThan(40L << 20);

        Path one = dir.resolve("one.json");
        assertThat(ViewCommandsTest.run("timeline", example.toString(), "-o", one.toString()).exit()).isZero();
        long calls = TimelineCommandTest.read(one).begins("call");
        TimelineCommandTest.Events ev = TimelineCommandTest.read(json);
        // each copy starts at the trace's sync: every copy's calls, give or take where one copy meets the next
        assertThat(ev.begins("call")).isBetween((COPIES - 2) * calls, COPIES * calls + COPIES);
    }
}
