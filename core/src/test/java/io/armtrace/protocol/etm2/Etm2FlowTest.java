package io.armtrace.protocol.etm2;

import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_DE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_DW;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_IE;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_IN;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_TD;
import static io.armtrace.protocol.etm2.Etm2CycleRing.V2_WT;
import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.WaypointKind;
import org.junit.jupiter.api.Test;

/** The flow on hand-made ETMv2 captures over a small ARM program. */
class Etm2FlowTest {
    // 0x1000 MOV r0,r0; 0x1004 BX r1; 0x1008 BNE 0x1000; 0x100C B 0x1000 ... 0x2000 MOV; 0x2004 MOV
    static MemoryImage image() {
        MemoryImage m = new MemoryImage();
        m.add(0x1000, words(0xE1A00000, 0xE12FFF11, 0x1AFFFFFC, 0xEAFFFFFB), "code");
        m.add(0x2000, words(0xE1A00000, 0xE1A00000, 0xE1A00000), "target");
        return m;
    }

    static byte[] words(int... w) {
        byte[] b = new byte[w.length * 4];
        for (int k = 0; k < w.length; k++) {
            for (int j = 0; j < 4; j++) {
                b[4 * k + j] = (byte) (w[k] >> (8 * j));
            }
        }
        return b;
    }

    static ElementCollector run(int[][] cycles) {
        ElementCollector c = new ElementCollector();
        Etm2Config cfg = Etm2Config.DEFAULT.withCycleAccurate(false);
        Etm2Flow flow = new Etm2Flow(cfg, image(), c, 7);
        Etm2CycleRing r = Etm2CycleRing.forConfig(cfg, flow);
        for (int[] cy : cycles) {
            r.cycle(cy[0], cy[1], false);
        }
        r.end();
        flow.end();
        return c;
    }

    // TFO, reason b01, address 0x00001000 ARM
    static final int[][] START = {{V2_TD, 0x01}, {V2_WT, 0x20}, {V2_WT, 0x00}, {V2_WT, 0x10}, {V2_WT, 0x00}, {V2_WT, 0x00}};

    static int[][] cat(int[][] a, int[][] b) {
        int[][] r = new int[a.length + b.length][];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test
    void branchAddressOnAWaitCycleBelongsToTheMostRecentInstruction() {
        // IE MOV, IE BX (its address not yet known), DW with the branch address 0x2000: the BX went there.
        // Packed 0x2000 relative to the TFO's 0x1000: bits [13:1] change, two bytes.
        byte[] a = new byte[2];
        Etm2Address.writeV2(Etm2Address.pack(0x2000, Isa.A32), 2, false, a, 0);
        ElementCollector c = run(cat(START, new int[][] {
            {V2_IE, 0}, {V2_IE, 0}, {V2_DW, 0}, {V2_WT, a[0] & 0xFF}, {V2_WT, a[1] & 0xFF}, {V2_IE, 0}, {V2_IE, 0}}));
        assertThat(c.ofType(InstructionRange.class)).containsExactly(
                new InstructionRange(7, 0x1000, 0x1008, 2, Isa.A32, 0x1004, WaypointKind.INDIRECT_BRANCH, true),
                new InstructionRange(7, 0x2000, 0x2008, 2, Isa.A32, 0x2004, WaypointKind.NONE, true));
    }

    @Test
    void conditionFailedAndDirectBranches() {
        // MOV, BX traced as BE to 0x1008, BNE not executed (IN), B 0x1000 taken (IE), MOV
        byte[] a = new byte[1];
        Etm2Address.writeV2(Etm2Address.pack(0x1008, Isa.A32), 1, false, a, 0);
        ElementCollector c = run(cat(START, new int[][] {
            {V2_IE, 0}, {V2_DE, 0}, {V2_WT, a[0] & 0xFF}, {V2_TD, 0}, {V2_IN, 0}, {V2_IE, 0}, {V2_TD, 0}, {V2_TD, 0}, {V2_IE, 0}}));
        assertThat(c.ofType(InstructionRange.class)).containsExactly(
                new InstructionRange(7, 0x1000, 0x1008, 2, Isa.A32, 0x1004, WaypointKind.INDIRECT_BRANCH, true),
                new InstructionRange(7, 0x1008, 0x100C, 1, Isa.A32, 0x1008, WaypointKind.DIRECT_BRANCH, false),
                new InstructionRange(7, 0x100C, 0x1010, 1, Isa.A32, 0x100C, WaypointKind.DIRECT_BRANCH, true),
                new InstructionRange(7, 0x1000, 0x1004, 1, Isa.A32, 0x1000, WaypointKind.NONE, true));
    }

    @Test
    void cancellingExceptionWithdrawsTheInstructionOfItsCycle() {
        // MOV executes; the next instruction (BX at 0x1004) is cancelled by an IRQ: BE with a full address
        // 0x00000018 and the E bit (Table 6.9).
        byte[] a = new byte[5];
        Etm2Address.writeV2(Etm2Address.pack(0x18, Isa.A32), 5, true, a, 0);
        ElementCollector c = run(cat(START, new int[][] {
            {V2_IE, 0}, {V2_DE, 0}, {V2_WT, a[0] & 0xFF}, {V2_WT, a[1] & 0xFF}, {V2_WT, a[2] & 0xFF}, {V2_WT, a[3] & 0xFF},
            {V2_WT, a[4] & 0xFF}, {V2_IE, 0}}));
        assertThat(c.ofType(InstructionRange.class)).containsExactly(
                new InstructionRange(7, 0x1000, 0x1004, 1, Isa.A32, 0x1000, WaypointKind.NONE, true));
        assertThat(c.ofType(ExceptionEntry.class)).containsExactly(new ExceptionEntry(7, 6, "IRQ", 0x1004, true));
        // the vector is not in the image: the decoder says so and waits for the next sync point
        assertThat(c.ofType(NoImage.class)).containsExactly(new NoImage(7, 0x18, Isa.A32));
    }
}
