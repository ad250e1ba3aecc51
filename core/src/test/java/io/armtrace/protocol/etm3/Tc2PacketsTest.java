package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.etm3.Etm3Packet.Kind;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Tc2PacketsTest {
    @Test
    void everyTc2Etm3StreamSplitsIntoWellFormedPackets() throws Exception {
        Tc2.assumePresent();
        for (int id = 0x10; id <= 0x12; id++) {
            byte[] s = Tc2.stream(id);
            Etm3Config cfg = Etm3Protocol.config(io.armtrace.protocol.DecodeInput.of(Tc2.source(id)));
            Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
            long[] covered = {0};
            StringBuilder first = new StringBuilder();
            Etm3PacketReader r = new Etm3PacketReader(cfg, p -> {
                counts.merge(p.kind, 1, Integer::sum);
                covered[0] += p.length;
                if (first.length() < 3000 && Boolean.getBoolean("etm3.dump")) {
                    first.append(p.offset).append(": ").append(p).append('\n');
                }
            });
            r.push(s, 0, s.length);
            r.end();
            System.out.println("0x" + Integer.toHexString(id) + " " + s.length + " bytes " + counts + "\n" + first);
            assertThat(counts).doesNotContainKey(Kind.MALFORMED);
            assertThat(counts.get(Kind.A_SYNC)).isPositive();
            assertThat(counts.get(Kind.I_SYNC)).isPositive();
            assertThat(covered[0]).isEqualTo(s.length);
        }
    }
}
