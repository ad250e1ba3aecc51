package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.dec;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64LoadStore.fp;
import static io.armtrace.isa.disasm.A64Simd.v;

/**
 * The Armv8.2 cryptographic extensions (DDI 0487 C4.1.6, op0 = 1100): SHA512, SHA3 (EOR3, RAX1, XAR,
 * BCAX), SM3 and SM4.
 */
final class A64Crypto {
    private A64Crypto() {
    }

    static String disassemble(int w) {
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        int rm = bits(w, 20, 16);
        if ((w & 0xFFE0C000) == 0xCE408000) { // SM3TT1A, SM3TT1B, SM3TT2A, SM3TT2B
            String[] m = {"sm3tt1a", "sm3tt1b", "sm3tt2a", "sm3tt2b"};
            return op(m[bits(w, 11, 10)], v(rd, "4s") + ", " + v(rn, "4s") + ", v" + rm + ".s[" + bits(w, 13, 12) + "]");
        }
        if ((w & 0xFFE0B000) == 0xCE608000) { // three registers, SHA512
            int opcode = (bit(w, 14) ? 4 : 0) | bits(w, 11, 10);
            switch (opcode) {
                case 0:
                    return op("sha512h", fp(4, rd) + ", " + fp(4, rn) + ", " + v(rm, "2d"));
                case 1:
                    return op("sha512h2", fp(4, rd) + ", " + fp(4, rn) + ", " + v(rm, "2d"));
                case 2:
                    return op("sha512su1", v(rd, "2d") + ", " + v(rn, "2d") + ", " + v(rm, "2d"));
                case 3:
                    return op("rax1", v(rd, "2d") + ", " + v(rn, "2d") + ", " + v(rm, "2d"));
                case 4:
                    return op("sm3partw1", v(rd, "4s") + ", " + v(rn, "4s") + ", " + v(rm, "4s"));
                case 5:
                    return op("sm3partw2", v(rd, "4s") + ", " + v(rn, "4s") + ", " + v(rm, "4s"));
                case 6:
                    return op("sm4ekey", v(rd, "4s") + ", " + v(rn, "4s") + ", " + v(rm, "4s"));
                default:
                    return null;
            }
        }
        if ((w & 0xFF800000) == 0xCE000000) { // four registers: EOR3, BCAX, SM3SS1
            int op0 = bits(w, 22, 21);
            int ra = bits(w, 14, 10);
            if (bit(w, 15) || op0 == 3) {
                return null;
            }
            String t = op0 == 2 ? "4s" : "16b";
            String m = new String[] {"eor3", "bcax", "sm3ss1"}[op0];
            return op(m, v(rd, t) + ", " + v(rn, t) + ", " + v(rm, t) + ", " + v(ra, t));
        }
        if ((w & 0xFFE00000) == 0xCE800000) { // XAR
            return op("xar", v(rd, "2d") + ", " + v(rn, "2d") + ", " + v(rm, "2d") + ", " + dec(bits(w, 15, 10)));
        }
        if ((w & 0xFFFFF800) == 0xCEC08000) { // two registers: SHA512SU0, SM4E
            int opcode = bits(w, 11, 10);
            if (opcode == 0) {
                return op("sha512su0", v(rd, "2d") + ", " + v(rn, "2d"));
            }
            if (opcode == 1) {
                return op("sm4e", v(rd, "4s") + ", " + v(rn, "4s"));
            }
        }
        return null;
    }
}
