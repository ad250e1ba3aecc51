package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64Disassembler.r;
import static io.armtrace.isa.disasm.A64Disassembler.xsp;

/**
 * The Scalable Vector Extension forms that compiled code here holds (DDI 0487 C4.1.7; glibc's SVE
 * memcpy and memset variants): contiguous LD1 and ST1 (scalar plus immediate, scalar plus scalar),
 * WHILE, PTRUE, DUP (scalar), and the element counts CNTB/CNTH/CNTW/CNTD. The rest of SVE (and SME) is left out,
 * see docs/disassembly.md: it prints as undefined.
 */
final class A64Sve {
    private A64Sve() {
    }

    private static final String SIZES = "bhsd";
    // LD1 contiguous dtype: mnemonic and element size
    private static final String[] LD1 = {"ld1b", "ld1b", "ld1b", "ld1b", "ld1sw", "ld1h", "ld1h", "ld1h", "ld1sh",
        "ld1sh", "ld1w", "ld1w", "ld1sb", "ld1sb", "ld1sb", "ld1d"};
    private static final int[] LD1_ESIZE = {0, 1, 2, 3, 3, 1, 2, 3, 3, 2, 2, 3, 3, 2, 1, 3};
    private static final int[] LD1_MSIZE = {0, 0, 0, 0, 2, 1, 1, 1, 1, 1, 2, 2, 0, 0, 0, 3};

    static String pattern(int p) {
        if (p == 0) {
            return "pow2";
        }
        if (p >= 1 && p <= 8) {
            return "vl" + p;
        }
        if (p >= 9 && p <= 13) {
            return "vl" + (16 << (p - 9));
        }
        if (p == 29) {
            return "mul4";
        }
        if (p == 30) {
            return "mul3";
        }
        if (p == 31) {
            return "all";
        }
        return "#" + p;
    }

    static String z(int n, int size) {
        return "z" + (n & 31) + "." + SIZES.charAt(size);
    }

    /** {z4.b-z6.b}: a list of n consecutive vectors, as a range from three on. */
    private static String zlist(int first, int n, int size) {
        if (n == 1) {
            return "{" + z(first, size) + "}";
        }
        int last = (first + n - 1) & 31;
        if (n == 2 || last < first) {
            StringBuilder b = new StringBuilder("{");
            for (int i = 0; i < n; i++) {
                b.append(i == 0 ? "" : ", ").append(z(first + i, size));
            }
            return b.append('}').toString();
        }
        return "{" + z(first, size) + "-" + z(last, size) + "}";
    }

    static String disassemble(int w) {
        int rt = w & 31;
        int pg = bits(w, 12, 10);
        int rn = bits(w, 9, 5);
        if ((w & 0xFE408000) == 0x84408000) { // LD1R* (load and broadcast): dtypeh:dtypel, imm6
            int dtype = bits(w, 24, 23) << 2 | bits(w, 14, 13);
            long offset = (long) bits(w, 21, 16) << LD1_MSIZE[dtype];
            String at = offset == 0 ? "[" + xsp(rn) + "]" : "[" + xsp(rn) + ", #" + offset + "]";
            return op("ld1r" + LD1[dtype].substring(3), "{" + z(rt, LD1_ESIZE[dtype]) + "}, p" + pg + "/z, " + at);
        }
        if ((w & 0xFE008000) == 0x84000000) { // 32-bit gather, scalar plus vector (xs, scaled)
            int msz = bits(w, 24, 23);
            boolean scaled = bit(w, 21);
            boolean u = bit(w, 14);
            boolean ff = bit(w, 13);
            if (msz == 3 || (msz == 0 && scaled) || (msz == 2 && !u)) {
                return null;
            }
            String m = (ff ? "ldff1" : "ld1") + (u ? "" : "s") + "bhw".charAt(msz);
            String ext = (bit(w, 22) ? "sxtw" : "uxtw") + (scaled ? " #" + msz : "");
            return op(m, "{" + z(rt, 2) + "}, p" + pg + "/z, [" + xsp(rn) + ", " + z(bits(w, 20, 16), 2) + ", " + ext + "]");
        }
        if ((w & 0xFE10E000) == 0xA400E000 && bits(w, 22, 21) != 0) { // LD2-LD4 (scalar plus immediate)
            int msz = bits(w, 24, 23);
            int n = bits(w, 22, 21) + 1;
            long imm4 = ((w << 12) >> 28) * (long) n;
            String at = imm4 == 0 ? "[" + xsp(rn) + "]" : "[" + xsp(rn) + ", #" + imm4 + ", mul vl]";
            return op("ld" + n + "bhwd".charAt(msz), zlist(rt, n, msz) + ", p" + pg + "/z, " + at);
        }
        if ((w & 0xFE00E000) == 0xA400C000 && bits(w, 22, 21) != 0 && bits(w, 20, 16) != 31) { // LD2-LD4 (scalar plus scalar)
            int msz = bits(w, 24, 23);
            int n = bits(w, 22, 21) + 1;
            String at = "[" + xsp(rn) + ", " + r(true, bits(w, 20, 16)) + (msz == 0 ? "" : ", lsl #" + msz) + "]";
            return op("ld" + n + "bhwd".charAt(msz), zlist(rt, n, msz) + ", p" + pg + "/z, " + at);
        }
        if ((w & 0xFE10E000) == 0xE410E000 && bits(w, 22, 21) != 0) { // ST2-ST4 (scalar plus immediate)
            int msz = bits(w, 24, 23);
            int n = bits(w, 22, 21) + 1;
            long imm4 = ((w << 12) >> 28) * (long) n;
            String at = imm4 == 0 ? "[" + xsp(rn) + "]" : "[" + xsp(rn) + ", #" + imm4 + ", mul vl]";
            return op("st" + n + "bhwd".charAt(msz), zlist(rt, n, msz) + ", p" + pg + ", " + at);
        }
        if ((w & 0xFE100000) == 0xA4000000 && bits(w, 15, 13) == 5) { // LD1 (scalar plus immediate)
            int dtype = bits(w, 24, 21);
            long imm4 = (w << 12) >> 28;
            String at = imm4 == 0 ? "[" + xsp(rn) + "]" : "[" + xsp(rn) + ", #" + imm4 + ", mul vl]";
            return op(LD1[dtype], "{" + z(rt, LD1_ESIZE[dtype]) + "}, p" + pg + "/z, " + at);
        }
        if ((w & 0xFE000000) == 0xA4000000 && bits(w, 15, 13) == 2) { // LD1 (scalar plus scalar)
            int dtype = bits(w, 24, 21);
            int rm = bits(w, 20, 16);
            if (rm == 31) {
                return null;
            }
            int msize = LD1_MSIZE[dtype];
            String at = "[" + xsp(rn) + ", " + r(true, rm) + (msize == 0 ? "" : ", lsl #" + msize) + "]";
            return op(LD1[dtype], "{" + z(rt, LD1_ESIZE[dtype]) + "}, p" + pg + "/z, " + at);
        }
        if ((w & 0xFE100000) == 0xE4000000 && bits(w, 15, 13) == 7) { // ST1 (scalar plus immediate)
            int msz = bits(w, 24, 23);
            int size = bits(w, 22, 21);
            if (size < msz) {
                return null;
            }
            long imm4 = (w << 12) >> 28;
            String at = imm4 == 0 ? "[" + xsp(rn) + "]" : "[" + xsp(rn) + ", #" + imm4 + ", mul vl]";
            return op("st1" + "bhwd".charAt(msz), "{" + z(rt, size) + "}, p" + pg + ", " + at);
        }
        if ((w & 0xFE000000) == 0xE4000000 && bits(w, 15, 13) == 2) { // ST1 (scalar plus scalar)
            int msz = bits(w, 24, 23);
            int size = bits(w, 22, 21);
            int rm = bits(w, 20, 16);
            if (size < msz || rm == 31) {
                return null;
            }
            String at = "[" + xsp(rn) + ", " + r(true, rm) + (msz == 0 ? "" : ", lsl #" + msz) + "]";
            return op("st1" + "bhwd".charAt(msz), "{" + z(rt, size) + "}, p" + pg + ", " + at);
        }
        if ((w & 0xFF20E000) == 0x25200000) { // WHILE (predicate, scalars)
            int size = bits(w, 23, 22);
            boolean sf = bit(w, 12);
            int cond = (bit(w, 11) ? 4 : 0) | (bit(w, 10) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
            String[] m = {"whilege", "whilegt", "whilelt", "whilele", "whilehs", "whilehi", "whilelo", "whilels"};
            return op(m[cond], "p" + (w & 15) + "." + SIZES.charAt(size) + ", " + r(sf, rn) + ", " + r(sf, bits(w, 20, 16)));
        }
        if ((w & 0xFF3EFC10) == 0x2518E000) { // PTRUE, PTRUES
            int size = bits(w, 23, 22);
            int p = bits(w, 9, 5);
            String m = bit(w, 16) ? "ptrues" : "ptrue";
            return op(m, "p" + (w & 15) + "." + SIZES.charAt(size) + (p == 31 ? "" : ", " + pattern(p)));
        }
        if ((w & 0xFF3FFC00) == 0x05203800) { // DUP (scalar), preferred as MOV
            int size = bits(w, 23, 22);
            return op("mov", z(rt, size) + ", " + A64Disassembler.rsp(size == 3, rn));
        }
        if ((w & 0xFF30FC00) == 0x0420E000) { // CNTB, CNTH, CNTW, CNTD
            int size = bits(w, 23, 22);
            int imm4 = bits(w, 19, 16) + 1;
            int p = bits(w, 9, 5);
            String ops = r(true, rt);
            if (imm4 != 1) {
                ops += ", " + pattern(p) + ", mul #" + imm4;
            } else if (p != 31) {
                ops += ", " + pattern(p);
            }
            return op("cnt" + "bhwd".charAt(size), ops);
        }
        return A64SveArith.disassemble(w);
    }
}
