package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.ElementSink;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Arbitrary bytes through the packet reader and the flow decoder, under configurations chosen by the
 * input itself: nothing is thrown, nothing hangs. {@code mvn test} runs the stored inputs (regression
 * mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm3FuzzTest {
    private static final ProgramImage IMAGE = new SyntheticProgram(42, false, 10).image;

    /** The first two bytes pick the configuration, the rest is trace. */
    static long run(byte[] data) {
        if (data.length < 2) {
            return 0;
        }
        int a = data[0] & 0xFF;
        int b = data[1] & 0xFF;
        long cr = ((a & 1) != 0 ? Etm3Config.CR_CYCLE_ACCURATE : 0) | (long) ((a >> 1) & 3) << Etm3Config.CR_CONTEXT_ID_SHIFT
                | ((a & 8) != 0 ? Etm3Config.CR_DATA_ADDRESS : 0) | ((a & 16) != 0 ? Etm3Config.CR_DATA_VALUE : 0)
                | ((a & 32) != 0 ? Etm3Config.CR_DATA_ONLY : 0) | Etm3Config.CR_TIMESTAMP | Etm3Config.CR_VMID;
        long idr = Etm3Config.DEFAULT_ETMIDR | ((b & 1) != 0 ? Etm3Config.IDR_ALT_BRANCH : 0);
        long ccer = (b & 2) != 0 ? Etm3Config.CCER_TIMESTAMP_64 : 0;
        Etm3Config cfg = new Etm3Config(cr, idr, ccer, 0x10, (b & 4) != 0);
        long[] count = {0};
        ElementSink sink = e -> count[0]++;
        Etm3Flow flow = new Etm3Flow(cfg, IMAGE, sink);
        Etm3PacketReader r = new Etm3PacketReader(cfg, flow);
        int chunk = 1 + (b >> 4);
        for (int i = 2; i < data.length; i += chunk) {
            r.push(data, i, Math.min(chunk, data.length - i));
        }
        r.end();
        flow.end();
        // bounded output: no element without at least one input byte behind it (plus the end)
        assertThat(count[0]).isLessThanOrEqualTo(16L * data.length + 4);
        return count[0];
    }

    @FuzzTest(maxDuration = "30s")
    void readerAndFlowNeverThrow(byte[] data) {
        run(data);
    }

    @Test
    void randomAndMutatedInputs() {
        Random rnd = new Random(7);
        SyntheticProgram p = new SyntheticProgram(42, false, 2000);
        byte[] good = new Etm3Encoder(Etm3Encoder.Options.DEFAULT.withCycleAccurate(true).withTimestamps(true, false),
                p.image).encode(p.execution).trace();
        for (int round = 0; round < 1500; round++) {
            byte[] d;
            if (round % 2 == 0) {
                d = new byte[2 + rnd.nextInt(300)];
                rnd.nextBytes(d);
                if (round % 4 == 0) { // random bytes after a sync: exercise the packet paths, not only the scanner
                    System.arraycopy(new byte[] {0, 0, 0, 0, 0, (byte) 0x80, 8, 0x20, 0, 0x40, 0, 0}, 0, d, 2,
                            Math.min(12, d.length - 2));
                }
            } else {
                d = new byte[2 + good.length];
                System.arraycopy(good, 0, d, 2, good.length);
                d[0] = 1;
                for (int k = 0; k < 1 + rnd.nextInt(8); k++) {
                    d[2 + rnd.nextInt(good.length)] = (byte) rnd.nextInt(256);
                }
            }
            run(d);
        }
    }
}
