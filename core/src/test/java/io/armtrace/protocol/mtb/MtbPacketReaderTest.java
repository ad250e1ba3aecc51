package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Packet layout (MTB execution trace storage format, Figure "MTB execution trace storage format"). */
class MtbPacketReaderTest {

    @Test
    void sourceWordThenDestinationWordLittleEndianWithAAndSBits() {
        // even word: source 0x00000106, A=1; odd word: destination 0x00000140, S=1
        byte[] b = {0x07, 0x01, 0, 0, 0x41, 0x01, 0, 0};
        List<MtbPacket> got = new ArrayList<>();
        new MtbPacketReader((o, s, d) -> got.add(MtbPacket.of(o, s, d))).push(b, 0, b.length);
        assertThat(got).containsExactly(new MtbPacket(0, 0x106, true, 0x140, true));
        assertThat(got.get(0).sourceWord()).isEqualTo(0x107);
        assertThat(got.get(0).destinationWord()).isEqualTo(0x141);
    }

    @Test
    void exceptionReturnPacketsAreRecognised() {
        assertThat(MtbPacket.of(0, 0x142, 0xFFFFFFF8).meaning()).startsWith("exception return (1 of 2)");
        assertThat(MtbPacket.of(0, 0xFFFFFFF9, 0x10a).meaning()).startsWith("exception return (2 of 2)");
        assertThat(MtbPacket.of(0, 0x10b, 0x140).meaning()).startsWith("exception entry");
    }

    @Test
    void chunkBoundariesDoNotMatter() {
        byte[] b = new byte[8 * 9];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 37 + 11);
        }
        List<String> whole = new ArrayList<>();
        new MtbPacketReader((o, s, d) -> whole.add(o + ":" + s + ":" + d)).push(b, 0, b.length);
        for (int chunk = 1; chunk <= 13; chunk++) {
            List<String> parts = new ArrayList<>();
            MtbPacketReader r = new MtbPacketReader((o, s, d) -> parts.add(o + ":" + s + ":" + d));
            for (int i = 0; i < b.length; i += chunk) {
                r.push(b, i, Math.min(chunk, b.length - i));
            }
            assertThat(parts).as("chunk %d", chunk).isEqualTo(whole);
            assertThat(r.pending()).isZero();
        }
        assertThat(whole).hasSize(9);
    }

    @Test
    void readGivesAgeOrderAcrossTheWrap() throws Exception {
        byte[] dump = new byte[64]; // 8 packets; packet i holds source word i
        for (int i = 0; i < 8; i++) {
            dump[8 * i] = (byte) (2 * i);
        }
        MtbConfig c = MtbConfig.from(new Registers().put("POSITION", 0x20000018L | 4).put("MASTER", 2));
        List<Long> order = new ArrayList<>();
        long missing = MtbPacketReader.read(TraceData.of("d", dump), c.layout(64), (o, s, d) -> order.add(o));
        assertThat(missing).isZero();
        assertThat(order).containsExactly(24L, 32L, 40L, 48L, 56L, 0L, 8L, 16L);
    }
}
