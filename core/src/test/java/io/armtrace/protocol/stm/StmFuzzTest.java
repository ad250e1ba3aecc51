package io.armtrace.protocol.stm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.trace.ElementSink;

/**
 * Arbitrary bytes through the STPv2 packet reader and flow, in chunks whose size the first byte chooses:
 * nothing escapes, nothing hangs, and there are at most two packets per byte (a packet is a nibble at least)
 * and two elements per packet. {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class StmFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void readerAndFlowNeverThrow(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int a = data[0] & 0xFF;
        long[] n = {0, 0};
        ElementSink sink = e -> n[0]++;
        StmFlow flow = new StmFlow(0x20, sink);
        StmPacketReader r = new StmPacketReader(p -> {
            n[1]++;
            assertThat(p.toString()).isNotEmpty();
            flow.packet(p);
        });
        int chunk = 1 + (a & 31);
        for (int i = 1; i < data.length; i += chunk) {
            r.push(data, i, Math.min(chunk, data.length - i));
        }
        r.end();
        assertThat(n[1]).isLessThanOrEqualTo(2L * data.length + 1);
        assertThat(n[0]).isLessThanOrEqualTo(2 * n[1]);
    }
}
