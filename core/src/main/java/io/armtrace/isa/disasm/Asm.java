package io.armtrace.isa.disasm;


/**
 * Text building blocks shared by the A32 and T32 disassemblers, in the spelling GNU objdump uses
 * (unified syntax, APCS register names r0-r9, sl, fp, ip, sp, lr, pc).
 */
final class Asm {
    static final String[] REG = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "sl", "fp", "ip", "sp",
        "lr", "pc"};
    static final String[] COND = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "",
        ""};
    static final String[] SHIFT = {"lsl", "lsr", "asr", "ror"};

    private Asm() {
    }

    static String r(int n) {
        return REG[n & 15];
    }

    static String cond(int c) {
        return COND[c & 15];
    }

    /** A register list as objdump prints it: {r4, r5, lr}. */
    static String regList(int mask) {
        StringBuilder b = new StringBuilder(32).append('{');
        boolean first = true;
        for (int i = 0; i < 16; i++) {
            if ((mask & (1 << i)) != 0) {
                if (!first) {
                    b.append(", ");
                }
                b.append(REG[i]);
                first = false;
            }
        }
        return b.append('}').toString();
    }

    /** Immediate shift of a register operand ("r1, lsl #2", "r1, rrx"); empty suffix for LSL #0. */
    static String shiftImm(int type, int amount) {
        if (type == 0 && amount == 0) {
            return "";
        }
        if (type == 3 && amount == 0) {
            return ", rrx";
        }
        if ((type == 1 || type == 2) && amount == 0) {
            amount = 32;
        }
        return ", " + SHIFT[type] + " #" + amount;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** objdump's "0x%08x" form (SVC, BKPT comments and the like). */
    static String hex8(long v) {
        String h = Long.toHexString(v & 0xFFFFFFFFL);
        return "0x" + "00000000".substring(h.length()) + h;
    }

    static int rotr(int v, int n) {
        return Integer.rotateRight(v, n);
    }
}
