package io.armtrace.protocol.etm2;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.image.ProgramImage;

/**
 * Arbitrary captures in every configuration: decoding and listing never throw and always end. Runs the
 * stored inputs in regression mode during {@code mvn test}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm2FuzzTest {
    private static final SyntheticProgram PROGRAM = new SyntheticProgram(3, 400);

    @FuzzTest(maxDuration = "60s")
    void decodeAnything(FuzzedDataProvider data) throws Exception {
        int version = data.consumeBoolean() ? 1 : 2;
        int width = data.pickValue(new int[] {4, 8, 16});
        int ctx = data.pickValue(new int[] {0, 1, 2, 4});
        boolean dataTrace = data.consumeBoolean();
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width).withContextIdBytes(ctx)
                .withData(dataTrace, dataTrace);
        byte[] body = data.consumeRemainingAsBytes();
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        DecodeInput in = new DecodeInput(0, regs, ProgramImage.of(PROGRAM.image), TraceData.of("fuzz", body),
                DecodeOptions.DEFAULT);
        Etm2Protocol p = new Etm2Protocol();
        p.decode(in, new ElementCollector());
        int[] lines = {0};
        p.packets(in, packet -> lines[0]++);
        // the same bytes as per-cycle records
        byte[] records = new byte[Etm2Capture.HEADER + body.length];
        System.arraycopy(Etm2Capture.MAGIC, 0, records, 0, Etm2Capture.MAGIC.length);
        System.arraycopy(body, 0, records, Etm2Capture.HEADER, body.length);
        p.decode(new DecodeInput(0, regs, ProgramImage.of(PROGRAM.image), TraceData.of("fuzz", records),
                DecodeOptions.DEFAULT), new ElementCollector());
    }
}
