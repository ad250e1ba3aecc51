package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.view.TraceEventWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Arbitrary trace through a decoder and the timeline writer: nothing escapes, and the JSON always reads as a
 * Trace Event Format document whose slices nest and whose time never goes back. The first byte picks the
 * protocol (ETMv3, PTM and MTB configured as the encoder configures them for a ground-truth program, with
 * that program's image; ITM; STM); the rest is the trace. {@code mvn test} replays the stored inputs;
 * {@code JAZZER_FUZZ=1} fuzzes.
 */
class TimelineFuzzTest {
    private static final String[] PROTOCOLS = {"etm3", "ptm", "mtb", "itm", "stm"};
    private static final String A = "a9-thumb";
    private static final String M = "m0plus";
    private static final Registers[] REGISTERS = new Registers[PROTOCOLS.length];

    private static Registers registers(int p) {
        if (REGISTERS[p] == null) {
            String name = PROTOCOLS[p];
            TraceProtocol proto = Protocols.byName(name).orElseThrow();
            if (name.equals("itm") || name.equals("stm")) {
                REGISTERS[p] = new Registers();
            } else {
                String fixture = name.equals("mtb") ? M : A;
                EncodeOutput enc = proto.encode(Corpus.execution(fixture), Corpus.image(fixture), Map.of());
                REGISTERS[p] = enc.registers();
            }
        }
        return REGISTERS[p];
    }

    @FuzzTest(maxDuration = "20s")
    void decodeAndTimelineNeverThrow(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int p = (data[0] & 0xFF) % PROTOCOLS.length;
        String name = PROTOCOLS[p];
        ProgramImage image = name.equals("mtb") ? Corpus.image(M) : name.equals("itm") || name.equals("stm")
                ? null : Corpus.image(A);
        byte[] trace = Arrays.copyOfRange(data, 1, data.length);
        StringWriter out = new StringWriter();
        TraceEventWriter w = new TraceEventWriter(out, "fuzz");
        TraceEventWriter.Track track = w.track(name, image != null ? image : ProgramImage.of(new io.armtrace.image.MemoryImage()));
        Protocols.byName(name).orElseThrow().decode(
                new DecodeInput(0x10, registers(p), image, TraceData.of("fuzz", trace), DecodeOptions.DEFAULT), track);
        track.end();
        w.finish();
        Path json = Files.createTempFile("timeline", ".json");
        try {
            Files.writeString(json, out.toString());
            TimelineCommandTest.Events ev = TimelineCommandTest.read(json);
            assertThat(ev.trackNames()).hasSize(1);
        } catch (UncheckedIOException e) {
            throw e;
        } finally {
            Files.delete(json);
        }
    }
}
