package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.source.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Arbitrary bytes as a perf.data recording: it reads, or says in one sentence naming the file what is
 * wrong ({@link InputException}); what reads can be indexed, its AUX data streamed within the file, and its
 * mappings asked for. {@code mvn test} replays the stored inputs (the real recordings' heads, a written
 * recording, a compressed one); {@code JAZZER_FUZZ=1} fuzzes.
 */
class PerfDataFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void recordingReadsOrSaysWhy(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".data");
        try {
            Files.write(file, data);
            PerfData d;
            try {
                d = PerfData.read(file);
            } catch (InputException e) {
                assertThat(e.getMessage()).startsWith(file.toString());
                return;
            }
            for (AuxQueue q : d.auxQueues()) {
                long stream = 0;
                for (AuxSegment s : d.auxSegments(q)) {
                    assertThat(s.streamOffset()).isEqualTo(stream);
                    assertThat(s.fileOffset() + s.size()).isLessThanOrEqualTo(data.length);
                    stream += s.size();
                    try (InputStream in = d.openAux(s)) {
                        assertThat(in.readAllBytes()).hasSize((int) s.size());
                    }
                }
                for (AuxLoss l : d.auxLosses(q)) {
                    assertThat(l.streamOffset()).isBetween(0L, stream);
                }
            }
            for (ThreadEvent t : d.threads()) {
                d.mappings().at(t.pid(), t.time());
            }
            d.mappings().at(-1, -1);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Arbitrary bytes as a recording to decode: opening it either works or says in one sentence naming the
     * file what is wrong; what opens decodes per CPU into elements without throwing, whatever the AUX data.
     */
    @FuzzTest(maxDuration = "20s")
    void recordingDecodesOrSaysWhy(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".data");
        try {
            Files.write(file, data);
            io.armtrace.api.Decoder d;
            try {
                d = io.armtrace.api.Decoder.openRecording(file, java.util.List.of(), io.armtrace.api.DecodeOptions.builder()
                        .warnings(w -> assertThat(w).startsWith(file.toString())).build());
            } catch (InputException e) {
                assertThat(e.getMessage()).startsWith(file.toString());
                return;
            }
            long[] elements = new long[1];
            d.decode(new io.armtrace.trace.ElementSink() {
                @Override
                public void accept(io.armtrace.trace.TraceElement e) {
                    elements[0]++;
                }
            });
            assertThat(elements[0]).isNotNegative();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
