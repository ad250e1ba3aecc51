package io.armtrace.protocol.itm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.trace.ElementSink;

/**
 * Arbitrary bytes through the ITM packet reader and flow, in chunks whose size the first byte chooses, with
 * the local timestamp prescaler from it too: nothing escapes, nothing hangs, and there are never more packets
 * or elements than bytes. {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class ItmFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void readerAndFlowNeverThrow(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int a = data[0] & 0xFF;
        long[] n = {0, 0};
        ElementSink sink = e -> n[0]++;
        ItmFlow flow = new ItmFlow(new ItmConfig((long) (a & 3) << ItmConfig.TCR_TSPRESCALE_SHIFT, 0, false), 1, sink);
        ItmPacketReader r = new ItmPacketReader(p -> {
            n[1]++;
            assertThat(p.toString()).isNotEmpty(); // the listing text of every packet can be made
            flow.packet(p);
        });
        int chunk = 1 + (a >> 2 & 15);
        for (int i = 1; i < data.length; i += chunk) {
            r.push(data, i, Math.min(chunk, data.length - i));
        }
        r.end();
        assertThat(n[1]).isLessThanOrEqualTo(data.length);
        assertThat(n[0]).isLessThanOrEqualTo(data.length);
    }
}
