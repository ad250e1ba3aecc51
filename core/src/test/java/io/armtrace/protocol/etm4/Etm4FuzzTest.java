package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.source.Registers;

/**
 * Arbitrary bytes through the ETMv4/ETE packet reader and the speculation layer, with the configuration
 * (ETMv4.0-4.6 or ETE, speculation depth, cycle counting and commit mode, Q, conditional and data trace,
 * M-profile) and the chunking taken from the input's first two bytes: nothing escapes, nothing hangs, every
 * byte is in exactly one packet, and the elements stay proportional to the input.
 * {@code mvn test} replays the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm4FuzzTest {

    static Etm4Config config(int a, int b) {
        boolean ete = (a & 1) != 0;
        long idr0 = 0x1 | 0x20 | 0x200 | 0xC00 | 8L << 24
                | ((a & 2) != 0 ? 0x80 | 0x20000000L : 0x80) // cycle counting, commit mode 1 or 0
                | ((a & 4) != 0 ? 3L << 15 : 0) // Q elements
                | ((a & 8) != 0 ? 0x40 | 0x6 | 0x18 : 0); // conditional, load/store P0, data trace
        long configr = 0x1 | 0x10 | 0x800 | 0xC0 | ((a & 8) != 0 ? 0x700 | 0x6 | 0x10000 : 0);
        Registers r = new Registers().put("TRCIDR0", idr0).put("TRCCONFIGR", configr)
                .put("TRCIDR1", 0x4100F400L | (b & 7) << 4).put("TRCIDR2", 0x8 | 4 << 5 | ((a & 16) != 0 ? 4 : 1) << 10)
                .put("TRCIDR8", (a & 32) != 0 ? 16 : (a & 64) != 0 ? 2 : 0)
                .put("TRCDEVARCH", 0x47705A13L | (long) (b & 3) << 16);
        if ((a & 128) != 0) {
            r.put("ARMV8M", 1);
        }
        return Etm4Config.of(r, ete);
    }

    static void run(byte[] data) {
        if (data.length < 2) {
            return;
        }
        Etm4Config c = config(data[0] & 0xFF, data[1] & 0xFF);
        long[] elements = {0};
        long[] covered = {2};
        Etm4Speculation s = new Etm4Speculation(c, e -> elements[0]++);
        Etm4PacketReader reader = new Etm4PacketReader(c, p -> {
            assertThat(p.offset).as("packets follow each other").isEqualTo(covered[0]);
            assertThat(p.length).isPositive();
            covered[0] += p.length;
            s.packet(p);
        }, 2);
        int chunk = 1 + ((data[1] & 0xFF) >> 3);
        for (int i = 2; i < data.length; i += chunk) {
            reader.push(data, i, Math.min(chunk, data.length - i));
        }
        reader.end();
        s.end();
        assertThat(covered[0]).as("every byte in a packet").isEqualTo(data.length);
        // an atom byte gives at most 24 atoms
        assertThat(elements[0]).isLessThanOrEqualTo(25L * data.length + 8);
    }

    @FuzzTest(maxDuration = "20s")
    void readerAndSpeculationNeverThrow(byte[] data) {
        run(data);
    }
}
