package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import org.junit.jupiter.api.Test;

/**
 * A64 classification from the encodings of the Arm ARM (DDI 0487, C4.1 and C6.2): each word is built
 * here from the instruction's fields as the manual draws them.
 */
class A64ClassifierTest {
    private static final long PC = 0xFFFF_0000_1000_0000L; // a kernel address: targets use all 64 bits

    private static Insn classify(int word) {
        return classify(word, Profile.AR);
    }

    private static Insn classify(int word, Profile profile) {
        byte[] b = {(byte) word, (byte) (word >>> 8), (byte) (word >>> 16), (byte) (word >>> 24)};
        MemoryImage m = new MemoryImage().add(PC, b, "code");
        Insn insn = new Insn();
        assertThat(new InstructionClassifier(profile).classify(m, PC, Isa.A64, 0, insn)).isTrue();
        assertThat(insn.size).isEqualTo(4);
        assertThat(insn.opcode).isEqualTo(word);
        assertThat(insn.returnAddress).isEqualTo(PC + 4);
        return insn;
    }

    // C6.2.26 B: 0 00101 imm26; C6.2.34 BL: 1 00101 imm26
    private static int b(boolean link, int imm26) {
        return (link ? 0x94000000 : 0x14000000) | (imm26 & 0x3FFFFFF);
    }

    // C6.2.27 B.cond: 0101010 0 imm19 0 cond; BC.cond (FEAT_HBC) has bit 4 set
    private static int bCond(int imm19, int cond, boolean consistent) {
        return 0x54000000 | (imm19 & 0x7FFFF) << 5 | (consistent ? 0x10 : 0) | cond;
    }

    // C6.2.48 CBZ: sf 011010 op imm19 Rt; C6.2.371 TBZ: b5 011011 op b40 imm14 Rt
    private static int cb(boolean sf, boolean nonZero, int imm19, int rt) {
        return (sf ? 0x80000000 : 0) | 0x34000000 | (nonZero ? 0x01000000 : 0) | (imm19 & 0x7FFFF) << 5 | rt;
    }

    private static int tb(int bit, boolean nonZero, int imm14, int rt) {
        return (bit >= 32 ? 0x80000000 : 0) | 0x36000000 | (nonZero ? 0x01000000 : 0) | (bit & 31) << 19
                | (imm14 & 0x3FFF) << 5 | rt;
    }

    // C4.1.3 unconditional branch (register): 1101011 opc op2=11111 op3 Rn op4
    private static int branchRegister(int opc, int op3, int rn, int op4) {
        return 0xD6000000 | opc << 21 | 0x1F << 16 | op3 << 10 | rn << 5 | op4;
    }

    // C4.1.3 exception generation: 11010100 opc imm16 op2=000 LL
    private static int exception(int opc, int imm16, int ll) {
        return 0xD4000000 | opc << 21 | imm16 << 5 | ll;
    }

    @Test
    void directBranchesCarryTheirTargets() {
        Insn i = classify(b(false, 3));
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(PC + 12);
        assertThat(i.link).isFalse();
        assertThat(i.conditional).isFalse();
        assertThat(i.targetIsa).isEqualTo(Isa.A64);

        i = classify(b(true, -0x2000000)); // the most negative imm26: 128 MB back
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(PC - 0x8000000);
        assertThat(i.link).isTrue();
        assertThat(i.returns).isFalse();

        i = classify(bCond(-1, 1, false)); // b.ne .-4
        assertThat(i.target).isEqualTo(PC - 4);
        assertThat(i.cond).isEqualTo(1);
        assertThat(i.conditional).isTrue();

        i = classify(bCond(0x3FFFF, 14, true)); // bc.al, the largest forward offset: always taken
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(PC + 0x3FFFF * 4L);
        assertThat(i.conditional).isFalse();
        assertThat(classify(bCond(2, 15, false)).conditional).as("b.nv is always taken too (C1.2.4)").isFalse();

        i = classify(cb(true, true, -0x40000, 3)); // cbnz x3, the most negative imm19
        assertThat(i.target).isEqualTo(PC - 0x100000);
        assertThat(i.conditional).isTrue();
        assertThat(i.cond).isEqualTo(14);

        i = classify(tb(63, false, 0x1FFF, 7)); // tbz x7, #63, the largest forward imm14
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(PC + 0x1FFF * 4L);
        assertThat(i.conditional).isTrue();
        assertThat(classify(tb(0, true, -0x2000, 0)).target).isEqualTo(PC - 0x8000);
    }

    @Test
    void indirectBranchesReturnsAndTheirPointerAuthenticatedForms() {
        Insn br = classify(branchRegister(0, 0, 17, 0));
        assertThat(br.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(br.link || br.returns).isFalse();
        assertThat(br.target).isEqualTo(-1);
        Insn blr = classify(branchRegister(1, 0, 8, 0));
        assertThat(blr.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(blr.link).isTrue();
        Insn ret = classify(branchRegister(2, 0, 30, 0)); // d65f03c0
        assertThat(ret.opcode).isEqualTo(0xD65F03C0);
        assertThat(ret.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(ret.returns).isTrue();
        assertThat(ret.link).isFalse();
        assertThat(classify(branchRegister(2, 0, 15, 0)).returns).as("ret x15").isTrue();
        // FEAT_PAuth (C6.2.36, C6.2.39, C6.2.249): op3 = 00001M; the Z forms have op4 = 11111
        for (int m = 0; m < 2; m++) {
            Insn braz = classify(branchRegister(0, 2 | m, 4, 31));
            assertThat(braz.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
            Insn blraz = classify(branchRegister(1, 2 | m, 4, 31));
            assertThat(blraz.link).isTrue();
            Insn bra = classify(0x01000000 | branchRegister(0, 2 | m, 1, 2)); // Z = 1: modifier register
            assertThat(bra.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
            assertThat(bra.link).isFalse();
            Insn blra = classify(0x01000000 | branchRegister(1, 2 | m, 6, 31)); // modifier sp
            assertThat(blra.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
            assertThat(blra.link).isTrue();
            Insn reta = classify(branchRegister(2, 2 | m, 31, 31)); // d65f0bff, d65f0fff
            assertThat(reta.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
            assertThat(reta.returns).isTrue();
            Insn ereta = classify(branchRegister(4, 2 | m, 31, 31)); // d69f0bff, d69f0fff
            assertThat(ereta.kind).isEqualTo(WaypointKind.EXCEPTION_RETURN);
            assertThat(ereta.returns).isFalse();
        }
        assertThat(classify(0xD69F03E0).kind).as("eret").isEqualTo(WaypointKind.EXCEPTION_RETURN);
        // BR with op4 != 0 and RETAA with Rn != 31 are unallocated: no waypoint
        assertThat(classify(branchRegister(0, 0, 17, 1)).kind).isEqualTo(WaypointKind.NONE);
        assertThat(classify(branchRegister(2, 2, 30, 31)).kind).isEqualTo(WaypointKind.NONE);
        assertThat(classify(0xD6BF03E0).undefined).as("drps: Debug state only").isTrue();
    }

    @Test
    void exceptionGeneratingInstructions() {
        for (int word : new int[] {exception(0, 0, 1), exception(0, 0x1234, 2), exception(0, 7, 3), exception(1, 0x3E8, 0),
            exception(2, 0xF000, 0), 0x00000000, 0x0000FFFF}) { // SVC, HVC, SMC, BRK, HLT, UDF #0, UDF #65535
            Insn i = classify(word);
            assertThat(i.kind).as("%08x", word).isEqualTo(WaypointKind.EXCEPTION_CALL);
            assertThat(i.target).isEqualTo(-1);
            assertThat(i.writesPc()).isTrue();
        }
        Insn dcps1 = classify(exception(5, 0, 1));
        assertThat(dcps1.kind).isEqualTo(WaypointKind.NONE);
        assertThat(dcps1.undefined).isTrue();
    }

    @Test
    void barriersAndWaitsAreMarkedForTheProtocolsToDecide() {
        // C6.2.125 ISB: 11010101 00000011 0011 CRm 110 11111
        Insn isb = classify(0xD5033FDF);
        assertThat(isb.kind).isEqualTo(WaypointKind.BARRIER);
        assertThat(isb.writesPc()).isFalse();
        assertThat(classify(0xD50333DF).kind).as("isb #3").isEqualTo(WaypointKind.BARRIER);
        assertThat(classify(0xD5033BBF).dataBarrier).as("dmb ish").isTrue();
        assertThat(classify(0xD5033F9F).dataBarrier).as("dsb sy").isTrue();
        assertThat(classify(0xD503363F).dataBarrier).as("dsb nshnxs").isTrue();
        assertThat(classify(0xD503309F).dataBarrier).as("ssbb (dsb #0)").isFalse();
        assertThat(classify(0xD50330FF).dataBarrier).as("sb").isFalse();
        for (int word : new int[] {0xD503207F, 0xD503205F, 0xD5031021, 0xD5031002}) { // WFI, WFE, WFIT x1, WFET x2
            Insn i = classify(word);
            assertThat(i.kind).isEqualTo(WaypointKind.NONE);
            assertThat(i.waitForInterruptOrEvent).as("%08x", word).isTrue();
        }
        assertThat(classify(0xD503201F).waitForInterruptOrEvent).as("nop").isFalse();
    }

    @Test
    void everythingElseStepsToTheNextInstruction() {
        // add x0, x1, #1; ldr x17, [x16]; stp x29, x30, [sp, #-16]!; fmadd; bti c; paciasp
        for (int word : new int[] {0x91000420, 0xF9400211, 0xA9BF7BFD, 0x1F0A0541, 0xD503245F, 0xD503233F}) {
            Insn i = classify(word);
            assertThat(i.kind).as("%08x", word).isEqualTo(WaypointKind.NONE);
            assertThat(i.undefined || i.dataBarrier || i.returns || i.link).isFalse();
        }
    }

    @Test
    void anMProfileCoreHasNoA64() {
        Insn i = classify(b(true, 3), Profile.M);
        assertThat(i.kind).isEqualTo(WaypointKind.NONE);
        assertThat(i.undefined).isTrue();
    }

    @Test
    void theWalkerEndsA64BlocksAtP0InstructionsAndReportsReturns() {
        // mov x0, x1; wfi; dmb ish; isb; ret
        int[] code = {0xAA0103E0, 0xD503207F, 0xD5033BBF, 0xD5033FDF, 0xD65F03C0};
        byte[] bytes = new byte[code.length * 4];
        for (int i = 0; i < code.length; i++) {
            for (int k = 0; k < 4; k++) {
                bytes[4 * i + k] = (byte) (code[i] >>> (8 * k));
            }
        }
        MemoryImage m = new MemoryImage().add(PC, bytes, "code");
        InstructionClassifier c = new InstructionClassifier(Profile.AR);
        Block plain = new CodeWalker(m, c, false, 4096).block(PC, Isa.A64);
        assertThat(plain.count()).isEqualTo(5);
        assertThat(plain.kind()).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(plain.returns()).isTrue();
        assertThat(plain.lastAddress()).isEqualTo(PC + 16);
        // ETMv4/ETE: ISB is P0; with WFXMODE, WFI is too (a block ending at it is a barrier)
        CodeWalker etm4 = new CodeWalker(m, c, true, false, true, 4096, 64);
        Block wfi = etm4.block(PC, Isa.A64);
        assertThat(wfi.count()).isEqualTo(2);
        assertThat(wfi.kind()).isEqualTo(WaypointKind.BARRIER);
        assertThat(wfi.returns()).isFalse();
        Block isb = etm4.block(wfi.nextAddress(), Isa.A64);
        assertThat(isb.count()).isEqualTo(2);
        assertThat(isb.kind()).isEqualTo(WaypointKind.BARRIER);
        assertThat(etm4.block(isb.nextAddress(), Isa.A64).returns()).isTrue();
        // an M-profile core cannot walk A64
        assertThat(new CodeWalker(m, new InstructionClassifier(Profile.M), false, 4096).block(PC, Isa.A64).end())
                .isEqualTo(Block.End.UNSUPPORTED);
    }
}
