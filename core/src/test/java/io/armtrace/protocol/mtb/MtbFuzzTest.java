package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.TraceElement;
import java.io.IOException;

/**
 * Fuzzes the MTB decoder with arbitrary dumps and register values against a real program image. In
 * {@code mvn test} it runs in regression mode over the inputs in MtbFuzzTestInputs; with JAZZER_FUZZ=1
 * it fuzzes. Nothing may throw, and the element count stays bounded by the packets in the dump.
 */
class MtbFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void decodeNeverThrows(FuzzedDataProvider data) throws IOException {
        Registers regs = new Registers()
                .put("POSITION", data.consumeInt() & 0xFFFFFFFFL)
                .put("MASTER", data.consumeInt() & 0xFFFFFFFFL);
        if (data.consumeBoolean()) {
            regs.put("PC", data.consumeInt() & 0x3FFF);
        }
        if (data.consumeBoolean()) {
            regs.put("BASE", data.consumeInt() & 0xFFFFFFFFL);
        }
        byte[] dump = data.consumeRemainingAsBytes();
        long[] count = new long[1];
        ElementSink sink = (TraceElement e) -> count[0]++;
        DecodeInput in = new DecodeInput(0, regs, Fixtures.image("m0plus"), TraceData.of("fuzz", dump),
                DecodeOptions.DEFAULT);
        new MtbProtocol().decode(in, sink);
        new MtbProtocol().packets(in, p -> count[0]++);
        assertThat(count[0]).isLessThanOrEqualTo(5L * (dump.length / 8) + 8);
    }
}
