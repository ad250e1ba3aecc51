package io.armtrace.execution;

/**
 * Condition codes, IT state and the few encodings the importers must recognise, read from raw
 * instruction bits. Not a classifier: only what decides pass/fail and exception returns.
 */
final class Conditions {
    static final int AL = 14;

    private Conditions() {
    }

    /** ConditionPassed() for {@code cond} with the N, Z, C, V flags of {@code psr} (ARM DDI 0406C A8.3). */
    static boolean passed(int cond, long psr) {
        boolean n = (psr & 0x8000_0000L) != 0;
        boolean z = (psr & 0x4000_0000L) != 0;
        boolean c = (psr & 0x2000_0000L) != 0;
        boolean v = (psr & 0x1000_0000L) != 0;
        boolean r = switch (cond >> 1) {
            case 0 -> z;              // EQ / NE
            case 1 -> c;              // CS / CC
            case 2 -> n;              // MI / PL
            case 3 -> v;              // VS / VC
            case 4 -> c && !z;        // HI / LS
            case 5 -> n == v;         // GE / LT
            case 6 -> !z && n == v;   // GT / LE
            default -> true;          // AL, and 0b1111 (unconditional space in A32)
        };
        if ((cond & 1) != 0 && cond != 15) {
            r = !r;
        }
        return r;
    }

    /**
     * ITSTATE from a PSR value: IT[7:2] are PSR bits 15:10, IT[1:0] are PSR bits 26:25
     * (ARM DDI 0406C B1.3.3, ARMv7-M B1.4.2 EPSR).
     */
    static int itState(long psr) {
        return (int) (((psr >>> 8) & 0xFC) | ((psr >>> 25) & 0x3));
    }

    /** True when the first halfword of a T32 instruction starts a 32-bit encoding (ARM DDI 0406C A6.1). */
    static boolean isT32Wide(int hw1) {
        int top = (hw1 >>> 11) & 0x1F;
        return top == 0x1D || top == 0x1E || top == 0x1F;
    }

    /**
     * The condition of a T32 instruction outside an IT block: only the conditional branches B<c>
     * (encodings T1 and T3) carry one; everything else is AL. {@code hw2} is ignored for 16-bit ones.
     */
    static int t32Condition(int hw1, int hw2) {
        if ((hw1 & 0xF000) == 0xD000) {
            int cond = (hw1 >>> 8) & 0xF;
            return cond < 14 ? cond : AL; // 0xE: UDF, 0xF: SVC
        }
        if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000) {
            int cond = (hw1 >>> 6) & 0xF;
            return cond < 14 ? cond : AL; // 0b111x: miscellaneous control, not B<c>
        }
        return AL;
    }

    /**
     * The condition of an A64 instruction: that of B.cond and BC.cond ({@code 0101010 0 imm19 o0 cond},
     * Arm DDI 0487 C6.2 "B.cond", "BC.cond"), AL for everything else. No other A64 instruction is
     * skipped by a condition: CSEL, CSINC, CCMP and the like always execute and write their result,
     * and CBZ, CBNZ, TBZ, TBNZ test a register, not the flags. {@code 0b111x} (AL, NV) is always.
     */
    static int a64Condition(long w) {
        if ((w & 0xFF00_0000L) == 0x5400_0000L) {
            int cond = (int) (w & 0xF);
            return cond < 14 ? cond : AL;
        }
        return AL;
    }

    /** The condition of an A32 instruction; 15 means the unconditional space. */
    static int a32Condition(long word) {
        return (int) ((word >>> 28) & 0xF);
    }

    /**
     * A32 exception-return forms (ARM DDI 0406C B9.1.1): data-processing with S set and Rd = PC
     * (MOVS/SUBS PC, LR ...), LDM with the ^ bit and PC in the list, RFE.
     */
    static boolean isA32ExceptionReturn(long w) {
        if (a32Condition(w) == 15) {
            return (w & 0xFE50FFFFL) == 0xF8100A00L; // RFE
        }
        if ((w & 0x0C00_0000L) == 0 && (w & 0x0010_0000L) != 0 && ((w >>> 12) & 0xF) == 15) {
            int opcode = (int) ((w >>> 21) & 0xF);
            boolean immediate = (w & 0x0200_0000L) != 0;
            boolean multiplyOrExtraLoad = !immediate && (w & 0x90) == 0x90;
            return !multiplyOrExtraLoad && (opcode < 8 || opcode > 11);
        }
        return (w & 0x0E50_0000L) == 0x0850_0000L && (w & 0x8000L) != 0; // LDM {..., pc}^
    }

    /** T32 exception-return forms: SUBS PC, LR, #imm8 and RFE (ARM DDI 0406C B9.3.19, B9.3.13). */
    static boolean isT32ExceptionReturn(int hw1, int hw2) {
        if (hw1 == 0xF3DE && (hw2 & 0xFF00) == 0x8F00) {
            return true;
        }
        return ((hw1 & 0xFFD0) == 0xE810 || (hw1 & 0xFFD0) == 0xE990) && hw2 == 0xC000;
    }

    /**
     * A32 instructions that can write the PC and carry a condition: used only when no register log
     * says whether a condition passed, to infer it from where execution went next.
     */
    static boolean a32MayBranch(long w) {
        if ((w & 0x0E00_0000L) == 0x0A00_0000L) {
            return true; // B, BL
        }
        if ((w & 0x0FFF_FFD0L) == 0x012F_FF10L) {
            return true; // BX, BLX register
        }
        if ((w & 0x0C10_F000L) == 0x0410_F000L) {
            return true; // LDR PC
        }
        if ((w & 0x0E10_8000L) == 0x0810_8000L) {
            return true; // LDM with PC
        }
        return (w & 0x0C00_F000L) == 0x0000_F000L && ((w >>> 21) & 0xC) != 0x8; // data-processing to PC
    }
}
