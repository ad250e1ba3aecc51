package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What a progress bar counts: the bytes read from where the trace is stored, against a size known before
 * reading (the file's), so that decoding does not first read the whole trace to measure it.
 */
class TraceDataTest {
    @Test
    void aFormattedSourceCountsTheWholeFileAgainstTheFileSize() throws Exception {
        Path file = SharedData.tc2().resolve("cstrace.bin");
        TraceData data = TraceData.formatted(file, 0x13, BufferFormat.CORESIGHT);
        assertThat(data.storedBytes()).isEqualTo(Files.size(file)).isEqualTo(32768);
        long[] stored = {0};
        long deformatted;
        try (InputStream in = data.open(n -> stored[0] += n)) {
            deformatted = in.transferTo(OutputStream.nullOutputStream());
        }
        // the bar ends full: every byte of the file was read once, while the source's own bytes are fewer
        assertThat(stored[0]).isEqualTo(data.storedBytes());
        assertThat(deformatted).isPositive().isLessThan(stored[0]);
        // plain open() reads the same stream
        try (InputStream in = data.open()) {
            assertThat(in.transferTo(OutputStream.nullOutputStream())).isEqualTo(deformatted);
        }
    }

    @Test
    void rawFilesAndArraysCountWhatTheyHold() throws Exception {
        Path file = Path.of("examples/ptm-a15/PTM_0_2.bin");
        TraceData data = TraceData.of(file);
        long[] stored = {0};
        try (InputStream in = data.open(n -> stored[0] += n)) {
            in.skipNBytes(6);
            in.transferTo(OutputStream.nullOutputStream());
        }
        assertThat(stored[0]).isEqualTo(data.storedBytes()).isEqualTo(Files.size(file));

        TraceData bytes = TraceData.of("x", new byte[] {1, 2, 3});
        assertThat(bytes.storedBytes()).isEqualTo(3);
        TraceData missing = TraceData.of(file.resolveSibling("no-such-file.bin"));
        assertThat(missing.storedBytes()).isEqualTo(-1);
    }
}
