package io.armtrace.protocol.etm2;

import static io.armtrace.protocol.etm2.Etm2CycleRing.BD;
import static io.armtrace.protocol.etm2.Etm2CycleRing.BE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.DN;
import static io.armtrace.protocol.etm2.Etm2CycleRing.DW;
import static io.armtrace.protocol.etm2.Etm2CycleRing.ID;
import static io.armtrace.protocol.etm2.Etm2CycleRing.IE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.IN;
import static io.armtrace.protocol.etm2.Etm2CycleRing.TD;
import static io.armtrace.protocol.etm2.Etm2CycleRing.TR;
import static io.armtrace.protocol.etm2.Etm2CycleRing.WT;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_DE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_DN;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_DW;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_IN;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_IE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_TD;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_TR;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_WT;
import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.Isa;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-made captures, bit by bit as IHI 0014Q chapters 5 and 6 describe them. */
class Etm2PacketReaderTest {

    /** Records what the reader releases, as short strings. */
    static final class Events implements Etm2CycleRing.Listener {
        final List<String> all = new ArrayList<>();

        @Override
        public void cycle(long cycle, int status, long target, Isa isa, boolean cancel, boolean known) {
            if (status == WT || status == TD) {
                return;
            }
            String s = cycle + " " + Etm2CycleRing.MNEMONICS[status];
            if (target >= 0) {
                s += String.format(" 0x%08x %s", target, isa);
            }
            if (cancel) {
                s += " E";
            }
            if (!known) {
                s += " unknown";
            }
            all.add(s);
        }

        @Override
        public void sync(long cycle, int reason, long address, Isa isa, boolean implied) {
            all.add(String.format("%d sync r%d 0x%08x %s%s", cycle, reason, address, isa, implied ? " IE" : ""));
        }

        @Override
        public void contextId(long cycle, long id) {
            all.add(cycle + " ctx 0x" + Long.toHexString(id));
        }

        @Override
        public void trigger(long cycle) {
            all.add(cycle + " trigger");
        }

        @Override
        public void lost(long cycle, String reason) {
            all.add(cycle + " lost");
        }

        @Override
        public void error(long cycle, String message) {
            all.add(cycle + " error " + message);
        }
    }

    static List<String> run(Etm2Config cfg, int[][] cycles) {
        Events ev = new Events();
        Etm2CycleRing r = Etm2CycleRing.forConfig(cfg, ev);
        for (int[] c : cycles) {
            r.cycle(c[0], c[1], c.length > 2 && c[2] != 0);
        }
        r.end();
        return ev.all;
    }

    static final Etm2Config V2_8 = Etm2Config.DEFAULT.withVersion(2).withPortWidth(8);

    // A TFO header: reason in bits [6:5] (normal TFO packet).
    static int tfoHeader(int reason) {
        return reason << 5;
    }

    @Test
    void tfoSynchronizesThenCompressedBranchAddressReplacesLowBits() {
        // IHI 0014Q 6.5.2: TD with TRACEPKT[0] set, TFO value 0 on TRACEPKT[7:1]; the TFO packet (header,
        // four address bytes, bit 0 = Thumb) follows in the FIFO. Then a BE with a one-byte address: b0_000010_1
        // replaces address bits [7:2] (6.7.1): 0x80001000 -> 0x80001008.
        List<String> ev = run(V2_8, new int[][] {
            {V2_TD, 0x01},
            {V2_IE, tfoHeader(1)},
            {V2_IE, 0x00},
            {V2_IE, 0x10},
            {V2_IE, 0x00},
            {V2_DE, 0x80},
            {V2_WT, 0b0_000010_1},
            {V2_IE, 0},
        });
        assertThat(ev).containsExactly("0 sync r1 0x80001000 A32", "1 IE", "2 IE", "3 IE", "4 IE",
                "5 BE 0x80001008 A32", "7 IE");
    }

    @Test
    void tfoValueSkipsTheBytesOfEarlierCyclesWhenStartingMidCapture() {
        // The capture starts with three bytes of unknown packets in the FIFO: the TFO value 3 says so.
        List<String> ev = run(V2_8, new int[][] {
            {V2_DE, 0x00},
            {V2_TD, 3 << 1 | 1},
            {V2_IE, 0x85}, {V2_IE, 0x81}, {V2_IE, 0x03}, // the unknown bytes (a branch of an earlier cycle)
            {V2_IE, tfoHeader(0)}, {V2_IE, 0x01}, {V2_IE, 0x20}, {V2_IE, 0x00}, {V2_IE, 0x00}, // Thumb 0x2000
            {V2_DE, 0}, {V2_WT, 0x05}, {V2_WT, 0x00},
        });
        assertThat(ev).containsExactly("0 ID unknown", "1 sync r0 0x00002000 T32 IE", "2 IE", "3 IE", "4 IE",
                "5 IE", "6 IE", "7 IE", "8 IE", "9 IE", "10 BE 0x00002004 T32");
    }

    @Test
    void fifthAddressByteTable69ArmThumbAndTheEBit() {
        // Table 6.9: ARM b1XXXXXX1 b1XXXXXXX b1XXXXXXX b1XXXXXXX b0E001XXX; Thumb ... b0001XXXX.
        // ARM 0xF0000004 with E: packed 1<<31 | 0x3C000001<<1 | 1
        byte[] arm = new byte[5];
        Etm2Address.writeV2(Etm2Address.pack(0xF0000004L, Isa.A32), 5, true, arm, 0);
        assertThat(arm[0] & 0x81).isEqualTo(0x81);
        for (int k = 1; k < 4; k++) {
            assertThat(arm[k] & 0x80).isEqualTo(0x80);
        }
        assertThat(Etm2CycleRing.bits(arm[4] & 0xFF, 8)).isEqualTo("01001111"); // b0 E=1 001 XXX=111
        byte[] thumb = new byte[5];
        Etm2Address.writeV2(Etm2Address.pack(0xF0000002L, Isa.T32), 5, false, thumb, 0);
        assertThat(Etm2CycleRing.bits(thumb[4] & 0xFF, 8)).isEqualTo("00011111"); // b0001 XXXX=1111
        assertThat(Etm2CycleRing.bits(thumb[0] & 0xFF, 8)).isEqualTo("10000011"); // addr[6:1]=000001, 1
        // Every fifth byte the table does not give is reserved: 16 ARM + 16 Thumb encodings are valid.
        int valid = 0;
        for (int b = 0; b < 256; b++) {
            if (Etm2Address.validFifthByteV2(b)) {
                valid++;
                assertThat(b & 0x80).isZero();
            }
        }
        assertThat(valid).isEqualTo(32);
        // decoded through the reader: E bit reported, ARM state from the marker position
        List<String> ev = run(V2_8, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0}, {V2_WT, 0}, {V2_WT, 0}, {V2_WT, 0},
            {V2_DE, 0}, {V2_WT, arm[0] & 0xFF}, {V2_WT, arm[1] & 0xFF}, {V2_WT, arm[2] & 0xFF}, {V2_WT, arm[3] & 0xFF},
            {V2_WT, arm[4] & 0xFF},
            {V2_DE, 0}, {V2_WT, thumb[0] & 0xFF}, {V2_WT, thumb[1] & 0xFF}, {V2_WT, thumb[2] & 0xFF}, {V2_WT, thumb[3] & 0xFF},
            {V2_WT, thumb[4] & 0xFF}, {V2_TD, 0},
        });
        assertThat(ev).containsExactly("0 sync r1 0x00000000 A32", "6 BE 0xf0000004 A32 E", "12 BE 0xf0000002 T32");
    }

    @Test
    void reservedFifthByteIsAnError() {
        // b0101XXXX: a Thumb fifth byte with bit 6 set is not in Table 6.9
        List<String> ev = run(V2_8, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0}, {V2_WT, 0}, {V2_WT, 0}, {V2_WT, 0},
            {V2_DE, 0}, {V2_WT, 0x81}, {V2_WT, 0x80}, {V2_WT, 0x80}, {V2_WT, 0x80}, {V2_WT, 0x50}, {V2_IE, 0},
        });
        assertThat(ev).contains("6 error reserved fifth branch address byte b01010000", "6 BE unknown");
    }

    @Test
    void addressCompressionOutputsOnlyTheChangedLowBits() {
        // IHI 0014Q 6.7.1 and 5.5.4: upper 12 bits unchanged, A[19] the highest changed bit: A[19:0] in
        // three packets instead of five.
        long prev = 0x12345678L & ~3L;
        long next = (prev & 0xFFF00000L) | 0x80000 | 0x124;
        assertThat(Etm2Address.bytesNeeded(Etm2Address.pack(next, Isa.A32), Etm2Address.pack(prev, Isa.A32), false))
                .isEqualTo(3);
        assertThat(Etm2Address.bytesNeededV1(Etm2Address.v1Value(next, Isa.A32), Etm2Address.v1Value(prev, Isa.A32),
                false)).isEqualTo(3);
        // a full 32-bit address is five bytes; a change of state needs the marker, so five bytes too
        assertThat(Etm2Address.bytesNeeded(Etm2Address.pack(prev, Isa.A32), -1, false)).isEqualTo(5);
        assertThat(Etm2Address.bytesNeeded(Etm2Address.pack(prev, Isa.T32), Etm2Address.pack(prev, Isa.A32), false))
                .isEqualTo(5);
    }

    @Test
    void dataPacketsKeepTheFifoAligned() {
        // Table 6.2 headers with data address and value tracing; packets put in the FIFO in a cycle come out
        // from the next cycle on. ID: normal data b0_0_1_0_11_10 (A=1, SS=11: four bytes) with a 2-byte
        // address and a 4-byte value. BD: normal data b1_0_0_0_01_10 (C=1, one byte) then a branch address.
        // DN: load miss occurred b0_1_1_1_01_00 (A=1) with its address. DW: load miss data b0_01_0_01_00
        // (tag 1, one byte). DW: value not traced b1_1101010 with its address, context ID b0_1101110.
        Etm2Config cfg = V2_8.withData(true, true).withContextIdBytes(1);
        List<String> ev = run(cfg, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0x42}, {V2_WT, 0x00}, {V2_WT, 0x10}, {V2_WT, 0x00}, {V2_WT, 0x80},
            {V2_DE, 0}, {V2_DE, 0b0_0_1_0_11_10}, {V2_WT, 0x84}, {V2_WT, 0x01}, {V2_WT, 1}, {V2_WT, 2}, {V2_WT, 3}, {V2_WT, 4},
            {V2_WT, 0b1_0_0_0_01_10}, {V2_WT, 0x7F}, {V2_WT, 0b0_000100_1},
            {V2_DN, 0}, {V2_DW, 0b0_1_1_1_01_00}, {V2_WT, 0x10}, {V2_WT, 0b0_01_0_01_00}, {V2_WT, 0x55},
            {V2_DW, 0}, {V2_WT, 0b1_1101010}, {V2_WT, 0x20}, {V2_WT, 0b0_1101110}, {V2_WT, 0x43},
            {V2_IE, 0},
        });
        assertThat(ev).containsExactly("0 ctx 0x42", "0 sync r1 0x80001000 A32", "7 ID",
                "8 BD 0x80001010 A32", "18 DN", "19 DW", "23 ctx 0x43", "23 DW", "28 IE");
    }

    @Test
    void reservedHeaderLosesSyncUntilTheNextTfo() {
        List<String> ev = run(V2_8, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0}, {V2_WT, 0x10}, {V2_WT, 0}, {V2_WT, 0},
            {V2_DE, 0}, {V2_WT, 0b0_0_0_1_00_10}, // bX0X1XX10 is reserved
            {V2_DE, 0}, {V2_WT, 0x05}, {V2_IE, 0},
            {V2_TD, 0x01}, {V2_WT, tfoHeader(0)}, {V2_WT, 0}, {V2_WT, 0x20}, {V2_WT, 0}, {V2_WT, 0}, {V2_DE, 0}, {V2_WT, 0x09},
        });
        assertThat(ev).contains("6 error reserved trace packet header b00010010", "8 ID unknown",
                "11 sync r0 0x00002000 A32 IE", "17 BE 0x00002010 A32");
        assertThat(ev).doesNotContain("8 BE 0x00001004 A32");
    }

    @Test
    void triggerReplacesThePipelineStatusAndHoldsTheFifo() {
        // IHI 0014Q 6.1.7: TR on PIPESTAT, the replaced status on TRACEPKT[3:0], no FIFO output that cycle
        List<String> ev = run(V2_8, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0}, {V2_WT, 0x10}, {V2_WT, 0}, {V2_WT, 0},
            {V2_DE, 0}, {V2_TR, V2_DE}, {V2_WT, 0x05}, {V2_WT, 0x09}, {V2_IE, 0},
        });
        // 0x05 = b0_000010_1: A[7:2] = 2; 0x09: A[7:2] = 4
        assertThat(ev).containsExactly("0 sync r1 0x00001000 A32", "6 BE 0x00001008 A32", "7 trigger",
                "7 BE 0x00001010 A32", "10 IE");
    }

    @Test
    void sixteenBitPortCarriesTwoPacketsACycleAndFourBitOneNibble() {
        Etm2Config w16 = V2_8.withPortWidth(16);
        List<String> ev = run(w16, new int[][] {
            {V2_TD, 0x01}, {V2_IE, tfoHeader(1)}, {V2_IE, 0x0010}, {V2_DE, 0x0000}, {V2_DE, 0x0005}, {V2_IE, 0x0009},
        });
        assertThat(ev).containsExactly("0 sync r1 0x00001000 A32", "1 IE", "2 IE", "3 BE 0x00001008 A32",
                "4 BE 0x00001010 A32", "5 IE");
        // 4-bit port: TFO value over two cycles (TRACEPKT[3:1] then [3:0]), then a byte every two cycles
        Etm2Config w4 = V2_8.withPortWidth(4);
        List<String> ev4 = run(w4, new int[][] {
            {V2_TD, 0x1}, {V2_WT, 0x0},
            {V2_IE, 0x0}, {V2_IE, 0x2}, // header b0010_0000
            {V2_IE, 0x0}, {V2_IE, 0x0}, {V2_IE, 0x0}, {V2_IE, 0x1}, {V2_IE, 0}, {V2_IE, 0}, {V2_IE, 0}, {V2_IE, 0}, // 0x00001000
            {V2_DE, 0}, {V2_WT, 0x5}, {V2_WT, 0x0}, {V2_IE, 0},
        });
        assertThat(ev4).containsExactly("0 sync r1 0x00001000 A32", "2 IE", "3 IE", "4 IE", "5 IE", "6 IE", "7 IE",
                "8 IE", "9 IE", "10 IE", "11 IE", "12 BE 0x00001008 A32", "15 IE");
    }

    static final Etm2Config V1_8 = Etm2Config.DEFAULT.withVersion(1).withPortWidth(8);

    @Test
    void etmv1AddressPacketOffsetMatchesBranchesWithTracesyncs() {
        // IHI 0014Q 5.6.1: APO on PIPESTAT[1:0] over the two cycles after the branch, low bits first;
        // 0 = the next TRACESYNC starts this branch's address, 1 = the second one.
        // Branch 1 at cycle 0: full address 0x00008000 with reason b001 (trace enabled, 5.8.1): packets
        // 0x80 0x80 0x82 0x80 0x10. Branch 2 at cycle 3 with APO 1 (branch 1's address has not started),
        // its address 1 byte: 0x00008010 -> b0_0010000.
        List<String> ev = run(V1_8, new int[][] {
            {BE, 0, 0}, {0, 0, 0}, {0, 0, 0},
            {BE, 0x80, 1}, {1, 0x80, 0}, {0, 0x82, 0},
            {WT, 0x80, 0}, {WT, 0x10, 0}, {WT, 0x10, 1}, {IE, 0, 0},
        });
        assertThat(ev).containsExactly("0 sync r1 0x00008000 A32", "3 BE 0x00008010 A32", "9 IE");
    }

    @Test
    void etmv1ContextIdFollowsAFullAddressWithAReason() {
        // IHI 0014Q 5.6.3: a 5-packet address whose reason code is not b000 is followed by the context ID;
        // the fifth packet holds A[31:28] in bits [3:0] and the reason in bits [6:4] (5.5.4).
        Etm2Config cfg = V1_8.withContextIdBytes(2);
        List<String> ev = run(cfg, new int[][] {
            {BE, 0x81, 1}, {0, 0x80, 0}, {0, 0x80, 0}, {WT, 0x80, 0}, {WT, 0b0_100_0001, 0}, {WT, 0x34, 0},
            {WT, 0x12, 0}, {IE, 0, 0},
        });
        // Thumb 0x10000000 (bit 0 set), reason b100 periodic: an executed branch, context 0x1234
        assertThat(ev).containsExactly("0 ctx 0x1234", "0 BE 0x10000000 T32", "7 IE");
    }

    @Test
    void etmv2PhantomsAndDataStatuses() {
        // IHI 0014Q 6.1.2: PTIE is a taken branch phantom and an IE: two instructions in one cycle;
        // PNDN a not-taken phantom and a DN whose packets (here: a context ID) go into the FIFO.
        Etm2Config cfg = V2_8.withContextIdBytes(1);
        List<String> ev = run(cfg, new int[][] {
            {V2_TD, 0x01}, {V2_WT, tfoHeader(1)}, {V2_WT, 0x07}, {V2_WT, 0}, {V2_WT, 0x10}, {V2_WT, 0},
            {V2_WT, 0}, {8, 0}, {15, 0}, {V2_WT, 0b0_1101110}, {V2_WT, 0x09}, {V2_IN, 0},
        });
        assertThat(ev).containsExactly("0 ctx 0x7", "0 sync r1 0x00001000 A32", "7 IE", "7 IE", "8 IN",
                "8 ctx 0x9", "8 DN", "11 IN");
        assertThat(Etm2CycleRing.mnemonic(2, 8)).isEqualTo("PTIE");
        assertThat(Etm2CycleRing.mnemonic(2, 15)).isEqualTo("PNDN");
    }

    @Test
    void pipestatMnemonicsOfTable51() {
        assertThat(List.of(Etm2CycleRing.MNEMONICS).subList(0, 8))
                .containsExactly("IE", "ID", "IN", "WT", "BE", "BD", "TR", "TD");
        // ETMv2: bit 0 marks the D statuses (6.1.3)
        assertThat(List.of(Etm2CycleRing.MNEMONICS_V2).subList(0, 8))
                .containsExactly("IE", "DE", "IN", "DN", "WT", "DW", "TR", "TD");
        assertThat(Etm2CycleRing.rawPipestat(2, BE)).isEqualTo(V2_DE);
        assertThat(Etm2CycleRing.rawPipestat(2, DW)).isEqualTo(V2_DW);
        assertThat(Etm2CycleRing.rawPipestat(1, BE)).isEqualTo(BE);
        assertThat(IN).isEqualTo(2);
    }
}
