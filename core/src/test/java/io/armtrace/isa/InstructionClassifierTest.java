package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import org.junit.jupiter.api.Test;

/**
 * Hand-assembled encodings, each checked against the encoding diagrams of the ARMv7-A/R ARM (DDI 0406C)
 * chapters A5/A6/A8 (section named per case) and against GNU objdump's disassembly of the same bytes.
 */
class InstructionClassifierTest {
    private static final InstructionClassifier AR = new InstructionClassifier(Profile.AR);
    private static final InstructionClassifier M = new InstructionClassifier(Profile.M);

    static Insn a32(long address, int word) {
        return a32(AR, address, word);
    }

    static Insn a32(InstructionClassifier c, long address, int word) {
        byte[] b = {(byte) word, (byte) (word >>> 8), (byte) (word >>> 16), (byte) (word >>> 24)};
        MemoryImage m = new MemoryImage().add(address, b, "t");
        Insn out = new Insn();
        assertThat(c.classify(m, address, Isa.A32, 0, out)).isTrue();
        return out;
    }

    static Insn t16(long address, int hw) {
        return t(AR, address, 0, hw);
    }

    static Insn t32(long address, int hw1, int hw2) {
        return t(AR, address, 0, hw1, hw2);
    }

    static Insn t(InstructionClassifier c, long address, int it, int... halfwords) {
        byte[] b = new byte[halfwords.length * 2];
        for (int i = 0; i < halfwords.length; i++) {
            b[2 * i] = (byte) halfwords[i];
            b[2 * i + 1] = (byte) (halfwords[i] >>> 8);
        }
        MemoryImage m = new MemoryImage().add(address, b, "t");
        Insn out = new Insn();
        assertThat(c.classify(m, address, Isa.T32, it, out)).isTrue();
        return out;
    }

    // ------------------------------------------------------------------ A32

    @Test
    void a32Branches() {
        Insn i = a32(0x8000, 0xEAFFFFFE); // b . (A8.8.18 A1, imm24 = -2)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x8000);
        assertThat(i.link).isFalse();
        assertThat(i.conditional).isFalse();
        assertThat(i.cond).isEqualTo(14);
        assertThat(i.size).isEqualTo(4);

        i = a32(0x8000, 0xEB000000); // bl 0x8008
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x8008);
        assertThat(i.link).isTrue();
        assertThat(i.returnAddress).isEqualTo(0x8004);
        assertThat(i.targetIsa).isEqualTo(Isa.A32);

        i = a32(0x8000, 0x0A000010); // beq 0x8048
        assertThat(i.target).isEqualTo(0x8048);
        assertThat(i.cond).isEqualTo(0);
        assertThat(i.conditional).isTrue();

        i = a32(0x10, 0xEAFFFFF0); // b to 0x10 + 8 - 64 wraps below zero: 32-bit address arithmetic
        assertThat(i.target).isEqualTo(0xFFFFFFD8L);
    }

    @Test
    void a32BlxImmediateGoesToThumbWithHalfwordBit() {
        Insn i = a32(0x8000, 0xFA000000); // blx 0x8008 (A8.8.25 A2, H=0)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x8008);
        assertThat(i.targetIsa).isEqualTo(Isa.T32);
        assertThat(i.link).isTrue();
        assertThat(i.conditional).isFalse();
        assertThat(a32(0x8000, 0xFB000000).target).isEqualTo(0x800A); // H=1
        assertThat(a32(0x8000, 0xFBFFFFFE).target).isEqualTo(0x8002); // imm24=-2, H=1: 0x8008-8+2
    }

    @Test
    void a32IndirectBranches() {
        assertIndirect(a32(0, 0xE12FFF1E), false); // bx lr
        assertIndirect(a32(0, 0xE12FFF33), true); // blx r3
        assertIndirect(a32(0, 0xE12FFF20), false); // bxj r0
        assertIndirect(a32(0, 0xE8BD8010), false); // pop {r4, pc} = ldmia sp!, {r4, pc}
        assertIndirect(a32(0, 0xE49DF004), false); // pop {pc} = ldr pc, [sp], #4
        assertIndirect(a32(0, 0xE59FF000), false); // ldr pc, [pc]
        assertIndirect(a32(0, 0x979FF103), false); // ldrls pc, [pc, r3, lsl #2] (switch table)
        assertIndirect(a32(0, 0xE1A0F00E), false); // mov pc, lr
        assertIndirect(a32(0, 0xE08FF100), false); // add pc, pc, r0, lsl #2
        assertIndirect(a32(0, 0xE3A0F000), false); // mov pc, #0
        assertIndirect(a32(0, 0xE1A0F110), false); // mov pc, r0, lsl r1 (register-shifted)
        Insn i = a32(0, 0x012FFF1E); // bxeq lr
        assertThat(i.cond).isEqualTo(0);
        assertThat(i.conditional).isTrue();
        assertThat(a32(0, 0xE12FFF33).returnAddress).isEqualTo(4);
    }

    @Test
    void a32ExceptionReturnsAndCalls() {
        assertThat(a32(0, 0xE25EF004).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // subs pc, lr, #4
        assertThat(a32(0, 0xE1B0F00E).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // movs pc, lr
        assertThat(a32(0, 0xE8FD8000).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // ldmia sp!, {pc}^
        assertThat(a32(0, 0xF8BD0A00).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // rfeia sp!
        assertThat(a32(0, 0xE160006E).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // eret
        assertThat(a32(0, 0xEF000000).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // svc 0
        assertThat(a32(0, 0x1F000000).cond).isEqualTo(1); // svcne 0
        assertThat(a32(0, 0xE1200070).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // bkpt 0
        assertThat(a32(0, 0xE7F000F0).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // udf #0
        assertThat(a32(0, 0xE1600070).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // smc 0
        assertThat(a32(0, 0xE1400070).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // hvc 0
    }

    @Test
    void a32NonWaypoints() {
        int[] words = {
            0xE1A00000, // nop (mov r0, r0)
            0xE92D4010, // push {r4, lr}
            0xE8FD0003, // ldmia sp!, {r0, r1}^ (user registers, no pc)
            0xE58DF000, // str pc, [sp]
            0xE5DFF000, // ldrb pc, [pc] (UNPREDICTABLE, not a word load)
            0xE1500000, // cmp r0, r0
            0xE110F000, // tst r0, r0 with Rd field 1111 (the old TSTP): no destination
            0xE300F000, // movw pc, #0: UNPREDICTABLE, MOVW space
            0xE16F0F1F, // clz r0, pc... (misc op 11, op2 001): not BX
            0xE16002E1, // smultt r0, r1, r2: halfword multiply, bits [6:4] = 110 as in ERET
            0xE1A0F09E, // bits 7 and 4 set: synchronization primitive space (Rd = 15 UNPREDICTABLE), not DP
            0xF57FF04F, // dsb sy
            0xEE070F9A, // mcr p15, 0, r0, c7, c10, 4 (CP15 DSB)
            0xEE1F0F10, // mrc p15, 0, r0, c15, c0, 0 (Rt = r0)
            0xEE11FF10, // mrc p15, 0, APSR_nzcv, c1, c0, 0 (Rt = 15 writes flags, not the PC)
        };
        for (int w : words) {
            assertThat(a32(0, w).kind).as("0x%08x", w).isEqualTo(WaypointKind.NONE);
        }
    }

    @Test
    void a32Barrier() {
        Insn i = a32(0, 0xF57FF06F); // isb sy
        assertThat(i.kind).isEqualTo(WaypointKind.BARRIER);
        assertThat(i.writesPc()).isFalse();
        assertThat(a32(0, 0xEE070F95).kind).isEqualTo(WaypointKind.BARRIER); // mcr p15,0,r0,c7,c5,4
    }

    @Test
    void dataBarriersAreFlaggedButNotWaypoints() {
        int[] a32 = {0xF57FF04F, 0xF57FF05F, 0xF57FF05B, 0xEE070F9A, 0xEE070FBA}; // dsb sy, dmb sy, dmb ish, CP15
        for (int w : a32) {
            Insn i = a32(0, w);
            assertThat(i.dataBarrier).as("0x%08x", w).isTrue();
            assertThat(i.kind).isEqualTo(WaypointKind.NONE);
        }
        assertThat(a32(0, 0xF57FF06F).dataBarrier).isFalse(); // isb
        assertThat(a32(0, 0xEE070F95).dataBarrier).isFalse(); // CP15 isb
        assertThat(a32(0, 0xF57FF01F).dataBarrier).isFalse(); // clrex
        assertThat(t32(0, 0xF3BF, 0x8F4F).dataBarrier).isTrue(); // dsb sy
        assertThat(t32(0, 0xF3BF, 0x8F5B).dataBarrier).isTrue(); // dmb ish
        assertThat(t32(0, 0xF3BF, 0x8F6F).dataBarrier).isFalse(); // isb sy
        assertThat(t32(0, 0xF3BF, 0x8F2F).dataBarrier).isFalse(); // clrex
        assertThat(t32(0, 0xEE07, 0x0FBA).dataBarrier).isTrue(); // mcr p15, 0, r0, c7, c10, 5
    }

    @Test
    void a32OnMProfileIsUndefined() {
        Insn i = a32(M, 0, 0xEAFFFFFE);
        assertThat(i.undefined).isTrue();
        assertThat(i.kind).isEqualTo(WaypointKind.NONE);
    }

    // ------------------------------------------------------------------ T32 16-bit

    @Test
    void t32SizeFromFirstHalfword() {
        // A6.1: 0b11101, 0b11110, 0b11111 in bits [15:11] start a 32-bit instruction
        for (int top = 0; top < 32; top++) {
            int hw = top << 11;
            assertThat(InstructionClassifier.t32Size(hw)).as("top %s", Integer.toBinaryString(top))
                    .isEqualTo(top >= 0x1D ? 4 : 2);
        }
        assertThat(t16(0, 0xE7FE).size).isEqualTo(2); // b .  (11100)
        assertThat(t32(0, 0xF000, 0xF800).size).isEqualTo(4);
        assertThat(t32(0, 0xE8BD, 0x8010).size).isEqualTo(4);
        assertThat(t32(0, 0xFB00, 0xF000).size).isEqualTo(4); // mul.w
    }

    @Test
    void t16Branches() {
        Insn i = t16(0x1000, 0xE7FE); // b . (A8.8.18 T2)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x1000);
        assertThat(i.conditional).isFalse();
        assertThat(t16(0x1000, 0xE000).target).isEqualTo(0x1004);
        assertThat(t16(0x1000, 0xE400).target).isEqualTo(0x1004 - 2048); // imm11 = 0x400: -1024 * 2

        i = t16(0x1000, 0xD0FE); // beq . (T1)
        assertThat(i.target).isEqualTo(0x1000);
        assertThat(i.cond).isEqualTo(0);
        assertThat(i.conditional).isTrue();
        i = t16(0x1000, 0xDC7F); // bgt +254+4
        assertThat(i.target).isEqualTo(0x1000 + 4 + 254);
        assertThat(i.cond).isEqualTo(12);

        i = t16(0x1000, 0xB108); // cbz r0, 0x1006 (A8.8.29: i=0 imm5=1)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x1006);
        assertThat(i.conditional).isTrue();
        assertThat(i.cond).isEqualTo(14);
        assertThat(t16(0x1000, 0xB910).target).isEqualTo(0x1008); // cbnz r0, imm5=2
        assertThat(t16(0x1000, 0xBBF8).target).isEqualTo(0x1000 + 4 + 126); // cbnz r0, i=1 imm5=31
        assertThat(t16(0x1000, 0xB3F8).target).isEqualTo(0x1000 + 4 + 126); // cbz r0, i=1 imm5=31
    }

    @Test
    void t16IndirectAndExceptions() {
        assertIndirect(t16(0, 0x4770), false); // bx lr
        assertIndirect(t16(0, 0x4798), true); // blx r3
        assertThat(t16(0, 0x4798).returnAddress).isEqualTo(2);
        assertIndirect(t16(0, 0xBD10), false); // pop {r4, pc}
        assertIndirect(t16(0, 0x46F7), false); // mov pc, lr
        assertIndirect(t16(0, 0x4487), false); // add pc, r0
        assertThat(t16(0, 0xDF00).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // svc 0
        assertThat(t16(0, 0xBE00).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // bkpt 0
        assertThat(t16(0, 0xDE00).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // udf #0
        int[] none = {0xB510, 0xBC10, 0x4607, 0x45F7, 0x4668, 0xBF00, 0xBF30, 0x4478, 0xC8FF};
        // push {r4,lr}; pop {r4}; mov r7, r0; cmp pc, lr; mov r0, sp; nop; wfi;
        // add r0, pc; ldmia r0!, {r0-r7}
        for (int hw : none) {
            assertThat(t16(0, hw).kind).as("0x%04x", hw).isEqualTo(WaypointKind.NONE);
        }
    }

    @Test
    void itBlockConditionsAndAdvance() {
        // ITE EQ: firstcond 0000, mask 1100 (A8.8.54)
        Insn it = t16(0, 0xBF0C);
        assertThat(it.kind).isEqualTo(WaypointKind.NONE);
        assertThat(it.itStateAfter).isEqualTo(0x0C);
        Insn first = t(AR, 2, it.itStateAfter, 0x4770); // bxeq lr
        assertThat(first.cond).isEqualTo(0);
        assertThat(first.conditional).isTrue();
        assertThat(first.itStateAfter).isEqualTo(0x18);
        Insn second = t(AR, 4, first.itStateAfter, 0xE7FE); // bne .
        assertThat(second.cond).isEqualTo(1);
        assertThat(second.itStateAfter).isEqualTo(0);
        // ITTT NE: firstcond 0001, mask 1110: three instructions, all NE
        int s = t16(0, 0xBF1E).itStateAfter; // ittt ne = 1011 1111 0001 1110
        int conds = 0;
        for (int k = 0; k < 3; k++) {
            Insn x = t(AR, 0, s, 0x2000);
            assertThat(x.cond).isEqualTo(1);
            s = x.itStateAfter;
            conds++;
        }
        assertThat(conds).isEqualTo(3);
        assertThat(s).isZero();
        assertThat(t(AR, 0, s, 0x2000).conditional).isFalse();
        // BKPT ignores the IT condition
        assertThat(t(AR, 0, 0x08, 0xBE00).conditional).isFalse();
        // 32-bit instructions inside IT blocks get the condition too (b.w under IT EQ)
        Insn bw = t(AR, 0, 0x08, 0xF000, 0xB800);
        assertThat(bw.cond).isEqualTo(0);
        assertThat(bw.conditional).isTrue();
    }

    // ------------------------------------------------------------------ T32 32-bit

    @Test
    void t32DirectBranches() {
        Insn i = t32(0x1000, 0xF000, 0xF800); // bl 0x1004 (A8.8.25 T1)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.link).isTrue();
        assertThat(i.target).isEqualTo(0x1004);
        assertThat(i.returnAddress).isEqualTo(0x1004);
        assertThat(t32(0x1000, 0xF7FF, 0xFFFE).target).isEqualTo(0x1000); // bl .
        assertThat(t32(0x1000, 0xF3FF, 0xD7FF).target).isEqualTo(0x1000 + 4 + 0xFFFFFE); // max positive
        assertThat(t32(0x1000000, 0xF400, 0xD000).target).isEqualTo(0x1000000 + 4 - 0x1000000); // min

        i = t32(0x1000, 0xF000, 0xB800); // b.w 0x1004 (T4)
        assertThat(i.link).isFalse();
        assertThat(i.target).isEqualTo(0x1004);
        assertThat(i.conditional).isFalse();
        assertThat(t32(0x1000, 0xF7FF, 0xBFFE).target).isEqualTo(0x1000); // b.w .

        i = t32(0x1000, 0xF000, 0x8000); // beq.w 0x1004 (T3)
        assertThat(i.cond).isEqualTo(0);
        assertThat(i.conditional).isTrue();
        assertThat(i.target).isEqualTo(0x1004);
        i = t32(0x1000, 0xF47F, 0xAFFE); // bne.w .
        assertThat(i.cond).isEqualTo(1);
        assertThat(i.target).isEqualTo(0x1000);
        i = t32(0x100000, 0xF400, 0x8000); // beq.w with S=1, all else 0: -1 MiB
        assertThat(i.target).isEqualTo(0x100000 + 4 - 0x100000);
    }

    @Test
    void t32BlxImmediateAlignsTargetForA32() {
        Insn i = t32(0x8000, 0xF000, 0xE800); // blx 0x8004 (A8.8.25 T2)
        assertThat(i.kind).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(i.target).isEqualTo(0x8004);
        assertThat(i.targetIsa).isEqualTo(Isa.A32);
        assertThat(i.link).isTrue();
        assertThat(t32(0x8002, 0xF000, 0xE800).target).isEqualTo(0x8004); // Align(0x8006, 4)
        assertThat(t32(0x8002, 0xF7FF, 0xEFFE).target).isEqualTo(0x8000); // Align(0x8006,4) - 4
        assertThat(t32(0x8000, 0xF000, 0xE801).undefined).isTrue(); // H = 1
        Insn m = t(M, 0x8000, 0, 0xF000, 0xE800);
        assertThat(m.undefined).isTrue();
        assertThat(m.kind).isEqualTo(WaypointKind.NONE);
    }

    @Test
    void t32Indirect() {
        assertIndirect(t32(0, 0xF85D, 0xFB04), false); // ldr.w pc, [sp], #4 (pop.w {pc})
        assertIndirect(t32(0, 0xF8DF, 0xF004), false); // ldr.w pc, [pc, #4]
        assertIndirect(t32(0, 0xF85F, 0xF004), false); // ldr.w pc, [pc, #-4]
        assertIndirect(t32(0, 0xF850, 0xF021), false); // ldr.w pc, [r0, r1, lsl #2]
        assertIndirect(t32(0, 0xF8D0, 0xF000), false); // ldr.w pc, [r0]
        assertIndirect(t32(0, 0xE8BD, 0x8010), false); // pop.w {r4, pc}
        assertIndirect(t32(0, 0xE910, 0x8003), false); // ldmdb r0, {r0, r1, pc}
        assertIndirect(t32(0, 0xE8DF, 0xF000), false); // tbb [pc, r0]
        assertIndirect(t32(0, 0xE8DF, 0xF010), false); // tbh [pc, r0, lsl #1]
        assertIndirect(t32(0, 0xF3C0, 0x8F00), false); // bxj r0
        int[][] none = {
            {0xE8BD, 0x4010}, // pop.w {r4, lr}
            {0xE92D, 0x4010}, // push.w {r4, lr}
            {0xF8DF, 0x0004}, // ldr.w r0, [pc, #4]
            {0xF89F, 0xF004}, // ldrb.w pc, [pc, #4] = pld [pc, #4]
            {0xF890, 0xF000}, // pld [r0]
            {0xF84D, 0xFD04}, // str.w pc, [sp, #-4]! (a store)
            {0xEA4F, 0x0F00}, // mov.w pc, r0: UNPREDICTABLE in T32, not a branch
            {0xF3BF, 0x8F4F}, // dsb sy
            {0xF3AF, 0x8000}, // nop.w
            {0xE8D0, 0x0F4F}, // ldrexb r0, [r0]
        };
        for (int[] h : none) {
            assertThat(t32(0, h[0], h[1]).kind).as("0x%04x %04x", h[0], h[1]).isEqualTo(WaypointKind.NONE);
        }
    }

    @Test
    void t32ExceptionsAndBarrier() {
        assertThat(t32(0, 0xF3DE, 0x8F04).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // subs pc, lr, #4
        assertThat(t32(0, 0xF3DE, 0x8F00).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // eret
        assertThat(t32(0, 0xE9BD, 0xC000).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // rfeia sp!
        assertThat(t32(0, 0xE810, 0xC000).kind).isEqualTo(WaypointKind.EXCEPTION_RETURN); // rfedb r0
        assertThat(t32(0, 0xF7F0, 0xA000).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // udf.w #0
        assertThat(t32(0, 0xF7F0, 0x8000).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // smc #0
        assertThat(t32(0, 0xF7E0, 0x8000).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // hvc #0
        assertThat(t32(0, 0xF3BF, 0x8F6F).kind).isEqualTo(WaypointKind.BARRIER); // isb sy
        assertThat(t32(0, 0xEE07, 0x0F95).kind).isEqualTo(WaypointKind.BARRIER); // mcr p15,0,r0,c7,c5,4
    }

    @Test
    void mProfile() {
        // loads of the PC and BX may be exception returns at run time: still indirect branches
        assertThat(t(M, 0, 0, 0xBD10).kind).isEqualTo(WaypointKind.INDIRECT_BRANCH); // pop {r4, pc}
        assertThat(t(M, 0, 0, 0x4770).kind).isEqualTo(WaypointKind.INDIRECT_BRANCH); // bx lr
        assertThat(t(M, 0, 0, 0xF85D, 0xFB04).kind).isEqualTo(WaypointKind.INDIRECT_BRANCH); // ldr.w pc
        assertThat(t(M, 0, 0, 0xE8BD, 0x8010).kind).isEqualTo(WaypointKind.INDIRECT_BRANCH); // pop.w
        assertThat(t(M, 0, 0, 0xDF00).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // svc
        // A/R-only encodings do not exist on M
        assertThat(t(M, 0, 0, 0xF3DE, 0x8F04).kind).isEqualTo(WaypointKind.NONE);
        assertThat(t(M, 0, 0, 0xF3DE, 0x8F04).undefined).isTrue();
        assertThat(t(M, 0, 0, 0xE9BD, 0xC000).kind).isEqualTo(WaypointKind.NONE);
        assertThat(t(M, 0, 0, 0xF7F0, 0x8000).kind).isEqualTo(WaypointKind.NONE);
        assertThat(t(M, 0, 0, 0xF7F0, 0xA000).kind).isEqualTo(WaypointKind.EXCEPTION_CALL); // udf.w exists
    }

    @Test
    void missingBytes() {
        MemoryImage m = new MemoryImage().add(0x100, new byte[] {0x00, (byte) 0xF0}, "half"); // 0xF000
        Insn out = new Insn();
        assertThat(AR.classify(m, 0x100, Isa.T32, 0, out)).isFalse(); // second halfword missing
        assertThat(AR.classify(m, 0x100, Isa.A32, 0, out)).isFalse();
        assertThat(AR.classify(m, 0x0FE, Isa.T32, 0, out)).isFalse();
        MemoryImage m2 = new MemoryImage().add(0x100, new byte[] {0x70, 0x47}, "bx");
        assertThat(AR.classify(m2, 0x100, Isa.T32, 0, out)).isTrue();
        assertThat(out.kind).isEqualTo(WaypointKind.INDIRECT_BRANCH);
    }

    private static void assertIndirect(Insn i, boolean link) {
        assertThat(i.kind).as("%s", i).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(i.link).as("%s link", i).isEqualTo(link);
        assertThat(i.target).isEqualTo(-1);
    }
}
