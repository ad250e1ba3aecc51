package io.armtrace.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementSink;
import io.armtrace.view.EncodingWriter;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.TextWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The harness's "-replay" modes time a listing writer alone on the calls a decoder made: the calls recorded and made
 * again must give the listing the decoder gives directly, byte for byte, or the time would be another listing's.
 */
class ReplayTest {
    @Test
    void replayedCallsListAsTheDecoderDoes() throws IOException {
        for (int id : new int[] {0x13, 0x10}) { // PTM (trace-ons at its I-syncs) and ETMv3 of the TC2 snapshot
            SnapshotSource s = Snapshot.load(SharedData.tc2()).source(id).orElseThrow();
            DecodeInput input = DecodeInput.of(s);
            TraceProtocol protocol = Protocols.forDeviceType(s.type()).orElseThrow();
            VsOpenCsd.Recorder recorded = new VsOpenCsd.Recorder();
            protocol.decode(input, recorded);
            for (boolean jsonl : new boolean[] {false, true}) {
                Function<PrintWriter, ElementSink> writer = out -> jsonl
                        ? new JsonlWriter(out, input.image(), false, true) : new TextWriter(out, input.image(), false, false);
                String direct = list(writer, w -> protocol.decode(input, w));
                String replayed = list(writer, recorded::replay);
                assertThat(direct).contains(jsonl ? "\"type\":\"trace_on\"" : "trace on (").contains("range");
                assertThat(replayed).as("source 0x%x, %s", id, jsonl ? "JSONL" : "text").isEqualTo(direct);
            }
            assertThat(recorded.instructions).isPositive();
        }
    }

    private interface Into {
        void run(ElementSink sink) throws IOException;
    }

    private static String list(Function<PrintWriter, ElementSink> writer, Into into) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintWriter out = new EncodingWriter(bytes, StandardCharsets.UTF_8, 1 << 16).printWriter(false)) {
            ElementSink w = writer.apply(out);
            into.run(w);
            w.end();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
