package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent.Step;
import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The encoder's cycles for a four-instruction program, worked out by hand from IHI 0014Q: MOV, B (direct:
 * IE and two refill cycles), BX (indirect: its address goes through the FIFO), MOV.
 */
class Etm2EncoderTest {
    // 0x1000 MOV r0,r0; 0x1004 B 0x1010; 0x1010 BX r1; 0x2000 MOV r0,r0
    static MemoryImage image() {
        MemoryImage m = new MemoryImage();
        m.add(0x1000, Etm2FlowTest.words(0xE1A00000, 0xEA000001, 0, 0, 0xE12FFF11), "code");
        m.add(0x2000, Etm2FlowTest.words(0xE1A00000), "target");
        return m;
    }

    static final Execution RUN = new Execution(List.of(new Step(0x1000, Isa.A32, 4, true),
            new Step(0x1004, Isa.A32, 4, true), new Step(0x1010, Isa.A32, 4, true), new Step(0x2000, Isa.A32, 4, true)));

    static List<String> cycles(Etm2Config cfg) {
        Etm2Encoder.Cycles c = Etm2Encoder.cycles(RUN, image(), Etm2Encoder.Options.of(cfg));
        int[] ps = c.pipestat();
        int[] pk = c.tracepkt();
        boolean[] sy = c.tracesync();
        List<String> out = new ArrayList<>();
        for (int k = 0; k < ps.length; k++) {
            String hex = String.format(cfg.portWidth() == 16 && pk[k] != 0 ? " %04x" : " %02x", pk[k]);
            out.add(Etm2CycleRing.mnemonic(cfg.version(), ps[k]) + hex + (sy[k] ? " S" : ""));
        }
        return out;
    }

    @Test
    void etmv2() {
        // TFO (reason b01, FIFO empty: value 0) and its packet b00100000 + 00 10 00 00; the packets come out
        // from the next cycle, one a cycle. B: IE then two refill cycles (WT while the FIFO outputs). BX: a
        // DE whose branch address 0x2000 takes two bytes (bits [13:12] changed since 0x1000): packed
        // 0x80001001 -> 0x81 0x20, output during the refill cycles.
        assertThat(cycles(Etm2Config.DEFAULT)).containsExactly("TD 01", "IE 20", "IE 00", "WT 10", "WT 00",
                "DE 00", "WT 81", "WT 20", "IE 00");
    }

    @Test
    void etmv1() {
        // BE with a full address, reason b001 (trace enabled, 5.8.1): 0x80 0xA0 0x80 0x80 0x10, TRACESYNC on
        // its first packet; APO 0 in the two cycles after each BE; B is IE with refill cycles (TD once the
        // FIFO is empty); BX is a BE whose address 0x2000 needs two packets: 0x80 0x40.
        assertThat(cycles(Etm2Config.DEFAULT.withVersion(1))).containsExactly("BE 00", "IE 80 S", "IE a0",
                "IE 80", "IE 80", "WT 10", "TD 00", "BE 00", "IE 80 S", "IE 40", "IE 00");
    }

    @Test
    void fourBitPortTakesTwoCyclesAByteAndSixteenTwoBytesACycle() {
        List<String> w4 = cycles(Etm2Config.DEFAULT.withPortWidth(4));
        // the TFO value is split: TRACEPKT[3:1] = value[2:0] with bit 0 set, then value[6:3]
        assertThat(w4.subList(0, 4)).containsExactly("TD 01", "IE 00", "IE 00", "WT 02");
        List<String> w16 = cycles(Etm2Config.DEFAULT.withPortWidth(16));
        // two bytes a cycle, the first on TRACEPKT[7:0]: 0x20 0x00, then 0x10 0x00, then 0x00
        assertThat(w16.subList(0, 4)).containsExactly("TD 0001", "IE 0020", "IE 0010", "WT 00");
    }
}
