package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.MemoryImage;
import io.armtrace.trace.InstructionRange;

/**
 * Arbitrary bytes through the ETMv4/ETE packet reader, the speculation layer and the flow, with the
 * configuration from the first two bytes (as {@link Etm4FuzzTest}; the return stack on when the second says
 * so) and a small program image: the input's own bytes placed at address 0 and at 0x400000, where
 * short addresses after a trace info and typical user code lie, so that atoms walk real (if random) A64,
 * A32 and T32 code. Nothing escapes, nothing hangs, and the instructions decoded stay within the walk
 * bound per element. {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm4FlowFuzzTest {

    static void run(byte[] data) {
        if (data.length < 2) {
            return;
        }
        Etm4Config base = Etm4FuzzTest.config(data[0] & 0xFF, data[1] & 0xFF);
        Etm4Config c = (data[1] & 0x80) != 0 ? new Etm4Config(base.configr() | 0x1000, base.traceId(),
                base.authstatus(), base.idr0(), base.idr1(), base.idr2(), base.idr3(), base.idr4(), base.idr5(),
                base.idr8(), base.idr9(), base.idr10(), base.idr11(), base.idr12(), base.idr13(), base.devarch(),
                base.ete(), base.mProfile()) : base;
        MemoryImage memory = new MemoryImage();
        byte[] code = java.util.Arrays.copyOf(data, Math.max(64, Math.min(data.length, 4096)));
        memory.add(0, code, "low");
        memory.add(0x400000, code, "user");
        long[] ranges = {0};
        long[] elements = {0};
        Etm4Flow flow = new Etm4Flow(c, memory, e -> {
            elements[0]++;
            if (e instanceof InstructionRange r) {
                ranges[0]++;
                assertThat(r.count()).isPositive();
                assertThat((long) r.count()).isLessThanOrEqualTo(Etm4Flow.WALK_BYTES + 8);
            }
        });
        Etm4Speculation s = new Etm4Speculation(c, flow);
        Etm4PacketReader reader = new Etm4PacketReader(c, s, 2);
        int chunk = 1 + ((data[1] & 0xFF) >> 3);
        for (int i = 2; i < data.length; i += chunk) {
            reader.push(data, i, Math.min(chunk, data.length - i));
        }
        reader.end();
        s.end();
        flow.end();
        // an atom byte gives at most 24 atoms, each at most a range and a few more elements
        assertThat(elements[0]).isLessThanOrEqualTo(100L * data.length + 16);
    }

    @FuzzTest(maxDuration = "20s")
    void readerSpeculationAndFlowNeverThrow(byte[] data) {
        run(data);
    }
}
