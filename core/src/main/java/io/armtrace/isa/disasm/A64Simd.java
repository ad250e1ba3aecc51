package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.COND;
import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.dec;
import static io.armtrace.isa.disasm.A64Disassembler.hex;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64Disassembler.r;
import static io.armtrace.isa.disasm.A64LoadStore.ARRANGEMENT;
import static io.armtrace.isa.disasm.A64LoadStore.fp;
import static io.armtrace.isa.disasm.A64LoadStore.vlist;

import java.util.Locale;

/**
 * A64 scalar floating-point and Advanced SIMD data processing, and the cryptographic extension
 * (DDI 0487 C4.1.6), in objdump's spelling: vector operands {@code v2.4s}, elements {@code v0.s[1]},
 * floating-point immediates as {@code %.18e} ({@code #1.000000000000000000e+00}), comparisons with
 * zero as {@code #0} (integer) and {@code #0.0}.
 */
final class A64Simd {
    private A64Simd() {
    }

    private static final String SIZES = "bhsd";

    static String v(int n, String arrangement) {
        return "v" + (n & 31) + "." + arrangement;
    }

    static String vt(int n, int size, boolean q) {
        return v(n, ARRANGEMENT[size << 1 | (q ? 1 : 0)]);
    }

    /** Scalar register of element size 8 << size bits. */
    static String s(int n, int size) {
        return fp(size, n);
    }

    static String elem(int n, char t, int index) {
        return "v" + (n & 31) + "." + t + "[" + index + "]";
    }

    static String fimm(double d) {
        return "#" + String.format(Locale.ROOT, "%.18e", d);
    }

    /** VFPExpandImm: the value of an 8-bit floating-point immediate. */
    static double expandImm(int imm8) {
        int sign = imm8 >>> 7;
        int exp = ((imm8 >>> 4) & 7) ^ 4; // NOT(b):b:b... : exponent -3..4 around the bias
        int frac = imm8 & 15;
        double value = (16 + frac) / 16.0 * Math.pow(2, exp - 3);
        return sign != 0 ? -value : value;
    }

    static String disassemble(int w) {
        int op0 = bits(w, 31, 28);
        int op1 = bits(w, 24, 23);
        int op2 = bits(w, 22, 19);
        int op3 = bits(w, 18, 10);
        if ((op0 & 5) == 1) { // x0x1: scalar floating point
            return (op1 & 2) != 0 ? fpThreeSource(w) : floatingPoint(w);
        }
        if (op0 == 4 && (op1 & 2) == 0 && (op2 & 7) == 5 && (op3 & 0x183) == 2) {
            return aes(w);
        }
        if (op0 == 5 && (op1 & 2) == 0 && (op2 & 4) == 0 && (op3 & 0x23) == 0) {
            return sha3(w);
        }
        if (op0 == 5 && (op1 & 2) == 0 && (op2 & 7) == 5 && (op3 & 0x183) == 2) {
            return sha2(w);
        }
        if ((w & 0xFF000000) == 0xCE000000) {
            return A64Crypto.disassemble(w);
        }
        boolean scalar = (op0 & 0xD) == 5; // 01x1; vectors are 0xx0
        if (!scalar && (op0 & 9) != 0) {
            return null;
        }
        if ((op1 & 2) != 0) {
            if ((w & 0x400) == 0) {
                return indexed(w, scalar);
            }
            if (op1 == 2) {
                if (scalar) {
                    return shiftImmediate(w, true);
                }
                return op2 == 0 ? modifiedImmediate(w) : shiftImmediate(w, false);
            }
            return null;
        }
        if (!scalar && (op0 & 0xB) == 0 && (op2 & 4) == 0 && (op3 & 0x21) == 0) { // 0x00: table, permute
            return (op3 & 2) == 0 ? tableLookup(w) : permute(w);
        }
        if (!scalar && (op0 & 0xB) == 2 && (op2 & 4) == 0 && (op3 & 0x21) == 0) {
            return extract(w);
        }
        if (op1 == 0 && (op2 & 0xC) == 0 && (op3 & 0x21) == 1) {
            return copy(w, scalar);
        }
        if ((op2 & 0xC) == 8 && (op3 & 0x31) == 1) {
            return threeSameFp16(w, scalar);
        }
        if (op2 == 0xF && (op3 & 0x183) == 2) {
            return twoRegMiscFp16(w, scalar);
        }
        if ((op2 & 4) == 0 && (op3 & 0x21) == 0x21) {
            return threeSameExtra(w, scalar);
        }
        if ((op2 & 7) == 4 && (op3 & 0x183) == 2) {
            return twoRegMisc(w, scalar);
        }
        if ((op2 & 7) == 6 && (op3 & 0x183) == 2) {
            return scalar ? pairwise(w) : acrossLanes(w);
        }
        if ((op2 & 4) == 4 && (op3 & 3) == 0) {
            return threeDifferent(w, scalar);
        }
        if ((op2 & 4) == 4 && (op3 & 1) == 1) {
            return threeSame(w, scalar);
        }
        return null;
    }

    // ---------------------------------------------------------------- crypto (AES, SHA1, SHA256)

    private static String aes(int w) {
        if (bits(w, 23, 22) != 0) {
            return null;
        }
        String[] m = {"aese", "aesd", "aesmc", "aesimc"};
        int opcode = bits(w, 16, 12);
        if (opcode < 4 || opcode > 7) {
            return null;
        }
        return op(m[opcode - 4], v(w, "16b") + ", " + v(w >>> 5, "16b"));
    }

    private static String sha3(int w) {
        if (bits(w, 23, 22) != 0) {
            return null;
        }
        int opcode = bits(w, 14, 12);
        int rm = bits(w, 20, 16);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        switch (opcode) {
            case 0: case 1: case 2:
                return op(new String[] {"sha1c", "sha1p", "sha1m"}[opcode], fp(4, rd) + ", " + fp(2, rn) + ", " + v(rm, "4s"));
            case 3:
                return op("sha1su0", v(rd, "4s") + ", " + v(rn, "4s") + ", " + v(rm, "4s"));
            case 4: case 5:
                return op(opcode == 4 ? "sha256h" : "sha256h2", fp(4, rd) + ", " + fp(4, rn) + ", " + v(rm, "4s"));
            case 6:
                return op("sha256su1", v(rd, "4s") + ", " + v(rn, "4s") + ", " + v(rm, "4s"));
            default:
                return null;
        }
    }

    private static String sha2(int w) {
        if (bits(w, 23, 22) != 0) {
            return null;
        }
        int opcode = bits(w, 16, 12);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        switch (opcode) {
            case 0:
                return op("sha1h", fp(2, rd) + ", " + fp(2, rn));
            case 1:
                return op("sha1su1", v(rd, "4s") + ", " + v(rn, "4s"));
            case 2:
                return op("sha256su0", v(rd, "4s") + ", " + v(rn, "4s"));
            default:
                return null;
        }
    }

    // ---------------------------------------------------------------- table, permute, extract, copy

    private static String tableLookup(int w) {
        if (bits(w, 23, 22) != 0) {
            return null;
        }
        boolean q = bit(w, 30);
        int len = bits(w, 14, 13) + 1;
        String t = q ? "16b" : "8b";
        String m = bit(w, 12) ? "tbx" : "tbl";
        return op(m, v(w, t) + ", " + vlist(bits(w, 9, 5), len, "16b") + ", " + v(w >>> 16, t));
    }

    private static String permute(int w) {
        int opcode = bits(w, 14, 12);
        String[] m = {null, "uzp1", "trn1", "zip1", null, "uzp2", "trn2", "zip2"};
        int size = bits(w, 23, 22);
        boolean q = bit(w, 30);
        if (m[opcode] == null || (size == 3 && !q)) {
            return null;
        }
        return op(m[opcode], vt(w, size, q) + ", " + vt(w >>> 5, size, q) + ", " + vt(w >>> 16, size, q));
    }

    private static String extract(int w) {
        boolean q = bit(w, 30);
        int imm4 = bits(w, 14, 11);
        if (bits(w, 23, 22) != 0 || (!q && imm4 >= 8)) {
            return null;
        }
        String t = q ? "16b" : "8b";
        return op("ext", v(w, t) + ", " + v(w >>> 5, t) + ", " + v(w >>> 16, t) + ", " + dec(imm4));
    }

    private static String copy(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean opBit = bit(w, 29);
        int imm5 = bits(w, 20, 16);
        int imm4 = bits(w, 14, 11);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        int size = Integer.numberOfTrailingZeros(imm5);
        if (size > 3) {
            return null;
        }
        char t = SIZES.charAt(size);
        int index = imm5 >>> (size + 1);
        if (scalar) {
            if (opBit || imm4 != 0) {
                return null;
            }
            return op("mov", s(rd, size) + ", " + elem(rn, t, index));
        }
        if (opBit) {
            if (!q) {
                return null;
            }
            return op("mov", elem(rd, t, index) + ", " + elem(rn, t, imm4 >>> size));
        }
        switch (imm4) {
            case 0:
                if (size == 3 && !q) {
                    return null;
                }
                return op("dup", vt(rd, size, q) + ", " + elem(rn, t, index));
            case 1:
                if (size == 3 && !q) {
                    return null;
                }
                return op("dup", vt(rd, size, q) + ", " + r(size == 3, rn));
            case 3:
                return q ? op("mov", elem(rd, t, index) + ", " + r(size == 3, rn)) : null;
            case 5:
                if (size == 3 || (size == 2 && !q)) {
                    return null;
                }
                return op("smov", r(q, rd) + ", " + elem(rn, t, index));
            case 7:
                if (size == 3 ? !q : q) {
                    return null;
                }
                return op(size >= 2 ? "mov" : "umov", r(size == 3, rd) + ", " + elem(rn, t, index));
            default:
                return null;
        }
    }

    // ---------------------------------------------------------------- three registers

    private static String three(int w, int size, boolean q, boolean scalar) {
        if (scalar) {
            return s(w, size) + ", " + s(w >>> 5, size) + ", " + s(w >>> 16, size);
        }
        return vt(w, size, q) + ", " + vt(w >>> 5, size, q) + ", " + vt(w >>> 16, size, q);
    }

    private static String fpArr(int sz, boolean q) {
        return sz == 0 ? (q ? "4s" : "2s") : (q ? "2d" : null);
    }

    private static String threeFp(int w, int sz, boolean q, boolean scalar) {
        if (scalar) {
            return three(w, 2 + sz, q, true);
        }
        String t = fpArr(sz, q);
        if (t == null) {
            return null;
        }
        return v(w, t) + ", " + v(w >>> 5, t) + ", " + v(w >>> 16, t);
    }

    private static final String[][] THREE_SAME = {
        {"shadd", "uhadd"}, {"sqadd", "uqadd"}, {"srhadd", "urhadd"}, {null, null}, {"shsub", "uhsub"},
        {"sqsub", "uqsub"}, {"cmgt", "cmhi"}, {"cmge", "cmhs"}, {"sshl", "ushl"}, {"sqshl", "uqshl"},
        {"srshl", "urshl"}, {"sqrshl", "uqrshl"}, {"smax", "umax"}, {"smin", "umin"}, {"sabd", "uabd"},
        {"saba", "uaba"}, {"add", "sub"}, {"cmtst", "cmeq"}, {"mla", "mls"}, {"mul", "pmul"},
        {"smaxp", "umaxp"}, {"sminp", "uminp"}, {"sqdmulh", "sqrdmulh"}, {"addp", null}};
    // FP three same, indexed by U:a:opcode<2:0> (opcode 11xxx)
    private static final String[] THREE_SAME_FP = {
        "fmaxnm", "fmla", "fadd", "fmulx", "fcmeq", null, "fmax", "frecps",
        "fminnm", "fmls", "fsub", null, null, null, "fmin", "frsqrts",
        "fmaxnmp", null, "faddp", "fmul", "fcmge", "facge", "fmaxp", "fdiv",
        "fminnmp", null, "fabd", null, "fcmgt", "facgt", "fminp", null};

    private static String threeSame(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 15, 11);
        if (opcode >= 0x18) {
            int sz = size & 1;
            String m = THREE_SAME_FP[(u ? 16 : 0) | (size & 2) << 2 | (opcode & 7)];
            if (opcode == 0x1D && !u) { // FMLAL, FMLSL (FEAT_FHM); objdump ignores bit 22
                if (scalar) {
                    return null;
                }
                String t = q ? "4s" : "2s";
                String h = q ? "4h" : "2h";
                return op((size & 2) == 0 ? "fmlal" : "fmlsl", v(w, t) + ", " + v(w >>> 5, h) + ", " + v(w >>> 16, h));
            }
            if (opcode == 0x19 && u) { // FMLAL2, FMLSL2
                if (scalar) {
                    return null;
                }
                String t = q ? "4s" : "2s";
                String h = q ? "4h" : "2h";
                return op((size & 2) == 0 ? "fmlal2" : "fmlsl2", v(w, t) + ", " + v(w >>> 5, h) + ", " + v(w >>> 16, h));
            }
            if (m == null) {
                return null;
            }
            if (scalar && !(m.equals("fmulx") || m.startsWith("fcm") || m.startsWith("fac") || m.equals("frecps")
                    || m.equals("frsqrts") || m.equals("fabd"))) {
                return null;
            }
            String ops = threeFp(w, sz, q, scalar);
            return ops == null ? null : op(m, ops);
        }
        String m = THREE_SAME[opcode][u ? 1 : 0];
        if (opcode == 3) {
            if (scalar) {
                return null;
            }
            String t = q ? "16b" : "8b";
            int rn = bits(w, 9, 5);
            int rm = bits(w, 20, 16);
            if (!u && size == 2 && rn == rm) {
                return op("mov", v(w, t) + ", " + v(rn, t));
            }
            m = u ? new String[] {"eor", "bsl", "bit", "bif"}[size] : new String[] {"and", "bic", "orr", "orn"}[size];
            return op(m, v(w, t) + ", " + v(rn, t) + ", " + v(rm, t));
        }
        if (m == null) {
            return null;
        }
        if (scalar) {
            switch (opcode) {
                case 1: case 5: case 9: case 11: // saturating: any size
                    break;
                case 6: case 7: case 8: case 10: case 16: case 17: // d only
                    if (size != 3) {
                        return null;
                    }
                    break;
                case 22:
                    if (size != 1 && size != 2) {
                        return null;
                    }
                    break;
                default:
                    return null;
            }
            return op(m, three(w, size, q, true));
        }
        if (size == 3 && !q) {
            return null;
        }
        switch (opcode) {
            case 0: case 2: case 4: case 12: case 13: case 14: case 15: case 18: case 20: case 21:
                if (size == 3) {
                    return null;
                }
                break;
            case 19:
                if (u ? size != 0 : size == 3) {
                    return null;
                }
                break;
            case 22:
                if (size != 1 && size != 2) {
                    return null;
                }
                break;
            default:
                break;
        }
        return op(m, three(w, size, q, false));
    }

    private static final String[] THREE_SAME_FP16 = {
        "fmaxnm", "fmla", "fadd", "fmulx", "fcmeq", null, "fmax", "frecps",
        "fminnm", "fmls", "fsub", null, null, null, "fmin", "frsqrts",
        "fmaxnmp", null, "faddp", "fmul", "fcmge", "facge", "fmaxp", "fdiv",
        "fminnmp", null, "fabd", null, "fcmgt", "facgt", "fminp", null};

    private static String threeSameFp16(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        boolean a = bit(w, 23);
        int opcode = bits(w, 13, 11);
        String m = THREE_SAME_FP16[(u ? 16 : 0) | (a ? 8 : 0) | opcode];
        if (m == null) {
            return null;
        }
        if (scalar) {
            if (!(m.equals("fmulx") || m.startsWith("fcm") || m.startsWith("fac") || m.equals("frecps")
                    || m.equals("frsqrts") || m.equals("fabd"))) {
                return null;
            }
            return op(m, fp(1, w) + ", " + fp(1, w >>> 5) + ", " + fp(1, w >>> 16));
        }
        String t = q ? "8h" : "4h";
        return op(m, v(w, t) + ", " + v(w >>> 5, t) + ", " + v(w >>> 16, t));
    }

    private static String threeSameExtra(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 14, 11);
        if (opcode <= 1) { // SQRDMLAH, SQRDMLSH (FEAT_RDM)
            if (!u || size == 0 || size == 3) {
                return null;
            }
            String m = opcode == 0 ? "sqrdmlah" : "sqrdmlsh";
            return op(m, three(w, size, q, scalar));
        }
        if (scalar) {
            return null;
        }
        if (opcode == 2) { // SDOT, UDOT (FEAT_DotProd)
            if (size != 2) {
                return null;
            }
            String t = q ? "4s" : "2s";
            String b = q ? "16b" : "8b";
            return op(u ? "udot" : "sdot", v(w, t) + ", " + v(w >>> 5, b) + ", " + v(w >>> 16, b));
        }
        if (opcode == 3 && !u && size == 2) { // USDOT (FEAT_I8MM)
            String t = q ? "4s" : "2s";
            String b = q ? "16b" : "8b";
            return op("usdot", v(w, t) + ", " + v(w >>> 5, b) + ", " + v(w >>> 16, b));
        }
        if (opcode == 4 || opcode == 5) { // SMMLA, UMMLA, USMMLA (FEAT_I8MM)
            if (!q || size != 2 || (opcode == 5 && u)) {
                return null;
            }
            String m = opcode == 5 ? "usmmla" : u ? "ummla" : "smmla";
            return op(m, v(w, "4s") + ", " + v(w >>> 5, "16b") + ", " + v(w >>> 16, "16b"));
        }
        if (u && (opcode & 0xC) == 8) { // FCMLA (FEAT_FCMA)
            String ops = fcomplexOperands(w, size, q);
            return ops == null ? null : op("fcmla", ops + ", " + dec((opcode & 3) * 90L));
        }
        if (u && (opcode & 0xD) == 0xC) { // FCADD
            String ops = fcomplexOperands(w, size, q);
            return ops == null ? null : op("fcadd", ops + ", " + dec((opcode & 2) != 0 ? 270 : 90));
        }
        if (u && opcode == 0xF && size == 1) { // BFDOT (FEAT_BF16)
            String t = q ? "4s" : "2s";
            String h = q ? "8h" : "4h";
            return op("bfdot", v(w, t) + ", " + v(w >>> 5, h) + ", " + v(w >>> 16, h));
        }
        if (u && opcode == 0xD && size == 1 && q) { // BFMMLA
            return op("bfmmla", v(w, "4s") + ", " + v(w >>> 5, "8h") + ", " + v(w >>> 16, "8h"));
        }
        if (u && opcode == 0xF && size == 3) { // BFMLALB, BFMLALT
            return op(q ? "bfmlalt" : "bfmlalb", v(w, "4s") + ", " + v(w >>> 5, "8h") + ", " + v(w >>> 16, "8h"));
        }
        return null;
    }

    private static String fcomplexOperands(int w, int size, boolean q) {
        if (size == 0 || (size == 3 && !q)) {
            return null;
        }
        return three(w, size, q, false);
    }

    // ---------------------------------------------------------------- three different

    private static String threeDifferent(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 15, 12);
        String two = q ? "2" : "";
        if (scalar) {
            if (u || size == 0 || size == 3) {
                return null;
            }
            String m = opcode == 9 ? "sqdmlal" : opcode == 11 ? "sqdmlsl" : opcode == 13 ? "sqdmull" : null;
            if (m == null) {
                return null;
            }
            return op(m, s(w, size + 1) + ", " + s(w >>> 5, size) + ", " + s(w >>> 16, size));
        }
        String[][] names = {{"saddl", "uaddl"}, {"saddw", "uaddw"}, {"ssubl", "usubl"}, {"ssubw", "usubw"},
            {"addhn", "raddhn"}, {"sabal", "uabal"}, {"subhn", "rsubhn"}, {"sabdl", "uabdl"}, {"smlal", "umlal"},
            {"sqdmlal", null}, {"smlsl", "umlsl"}, {"sqdmlsl", null}, {"smull", "umull"}, {"sqdmull", null},
            {"pmull", null}, {null, null}};
        String m = names[opcode][u ? 1 : 0];
        if (m == null) {
            return null;
        }
        if (opcode == 14) {
            if (size == 0) {
                return op(m + two, v(w, "8h") + ", " + vt(w >>> 5, 0, q) + ", " + vt(w >>> 16, 0, q));
            }
            if (size == 3) {
                return op(m + two, v(w, "1q") + ", " + v(w >>> 5, q ? "2d" : "1d") + ", " + v(w >>> 16, q ? "2d" : "1d"));
            }
            return null;
        }
        if (size == 3) {
            return null;
        }
        if ((opcode == 9 || opcode == 11 || opcode == 13) && size == 0) {
            return null;
        }
        String wide = v(w, ARRANGEMENT[(size + 1) << 1 | 1]);
        String wideN = v(w >>> 5, ARRANGEMENT[(size + 1) << 1 | 1]);
        String wideM = v(w >>> 16, ARRANGEMENT[(size + 1) << 1 | 1]);
        if (opcode == 1 || opcode == 3) {
            return op(m + two, wide + ", " + wideN + ", " + vt(w >>> 16, size, q));
        }
        if (opcode == 4 || opcode == 6) {
            return op(m + two, vt(w, size, q) + ", " + wideN + ", " + wideM);
        }
        return op(m + two, wide + ", " + vt(w >>> 5, size, q) + ", " + vt(w >>> 16, size, q));
    }

    // ---------------------------------------------------------------- two-register miscellaneous

    private static String twoRegMisc(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 16, 12);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        String two = q ? "2" : "";
        if (opcode >= 0xC && opcode != 0x12 && opcode != 0x13 && opcode != 0x14 && !(opcode == 0x16 && size == 2 && !u)) {
            return twoRegMiscFp(w, scalar);
        }
        if (scalar) {
            String m;
            switch (opcode) {
                case 3: m = u ? "usqadd" : "suqadd"; break;
                case 7: m = u ? "sqneg" : "sqabs"; break;
                case 8: return size == 3 ? op(u ? "cmge" : "cmgt", s(rd, 3) + ", " + s(rn, 3) + ", #0") : null;
                case 9: return size == 3 ? op(u ? "cmle" : "cmeq", s(rd, 3) + ", " + s(rn, 3) + ", #0") : null;
                case 10: return size == 3 && !u ? op("cmlt", s(rd, 3) + ", " + s(rn, 3) + ", #0") : null;
                case 11: return size == 3 ? op(u ? "neg" : "abs", s(rd, 3) + ", " + s(rn, 3)) : null;
                case 0x12:
                    if (!u || size == 3) {
                        return null;
                    }
                    return op("sqxtun", s(rd, size) + ", " + s(rn, size + 1));
                case 0x14:
                    if (size == 3) {
                        return null;
                    }
                    return op(u ? "uqxtn" : "sqxtn", s(rd, size) + ", " + s(rn, size + 1));
                default: return null;
            }
            return op(m, s(rd, size) + ", " + s(rn, size));
        }
        String t = size == 3 && !q ? null : ARRANGEMENT[size << 1 | (q ? 1 : 0)];
        switch (opcode) {
            case 0:
                if (size == 3) {
                    return null;
                }
                return op(u ? "rev32" : "rev64", v(rd, t) + ", " + v(rn, t));
            case 1:
                if (u || size != 0) {
                    return null;
                }
                return op("rev16", v(rd, t) + ", " + v(rn, t));
            case 2:
            case 6: {
                if (size == 3) {
                    return null;
                }
                String m = (u ? "u" : "s") + (opcode == 2 ? "addlp" : "adalp");
                return op(m, v(rd, ARRANGEMENT[(size + 1) << 1 | (q ? 1 : 0)]) + ", " + v(rn, t));
            }
            case 3:
            case 7:
                if (t == null) {
                    return null;
                }
                return op(opcode == 3 ? (u ? "usqadd" : "suqadd") : (u ? "sqneg" : "sqabs"), v(rd, t) + ", " + v(rn, t));
            case 4:
                if (size == 3) {
                    return null;
                }
                return op(u ? "clz" : "cls", v(rd, t) + ", " + v(rn, t));
            case 5: {
                String b = q ? "16b" : "8b";
                if (!u) {
                    return size == 0 ? op("cnt", v(rd, b) + ", " + v(rn, b)) : null;
                }
                return size == 0 ? op("mvn", v(rd, b) + ", " + v(rn, b)) : size == 1 ? op("rbit", v(rd, b) + ", " + v(rn, b)) : null;
            }
            case 8: case 9: case 10: {
                if (t == null || (opcode == 10 && u)) {
                    return null;
                }
                String m = opcode == 8 ? (u ? "cmge" : "cmgt") : opcode == 9 ? (u ? "cmle" : "cmeq") : "cmlt";
                return op(m, v(rd, t) + ", " + v(rn, t) + ", #0");
            }
            case 11:
                if (t == null) {
                    return null;
                }
                return op(u ? "neg" : "abs", v(rd, t) + ", " + v(rn, t));
            case 0x12:
                if (size == 3) {
                    return null;
                }
                return op((u ? "sqxtun" : "xtn") + two, vt(rd, size, q) + ", " + v(rn, ARRANGEMENT[(size + 1) << 1 | 1]));
            case 0x13:
                if (!u || size == 3) {
                    return null;
                }
                return op("shll" + two, v(rd, ARRANGEMENT[(size + 1) << 1 | 1]) + ", " + vt(rn, size, q) + ", " + dec(8L << size));
            case 0x14:
                if (size == 3) {
                    return null;
                }
                return op((u ? "uqxtn" : "sqxtn") + two, vt(rd, size, q) + ", " + v(rn, ARRANGEMENT[(size + 1) << 1 | 1]));
            case 0x16: // BFCVTN (FEAT_BF16), size 10, U 0
                return op("bfcvtn" + two, v(rd, q ? "8h" : "4h") + ", " + v(rn, "4s"));
            default:
                return null;
        }
    }

    private static String twoRegMiscFp(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int sz = size & 1;
        boolean hi = (size & 2) != 0;
        int opcode = bits(w, 16, 12);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        String two = q ? "2" : "";
        if (opcode == 0x16 || opcode == 0x17) {
            if (hi || scalar && (opcode == 0x17 || !u || sz == 0)) {
                return null;
            }
            if (scalar) {
                return op("fcvtxn", fp(2, rd) + ", " + fp(3, rn));
            }
            if (opcode == 0x16) {
                if (u && sz == 0) {
                    return null;
                }
                String m = (u ? "fcvtxn" : "fcvtn") + two;
                return op(m, v(rd, sz == 0 ? (q ? "8h" : "4h") : (q ? "4s" : "2s")) + ", " + v(rn, sz == 0 ? "4s" : "2d"));
            }
            if (u) {
                return null;
            }
            return op("fcvtl" + two, v(rd, sz == 0 ? "4s" : "2d") + ", " + v(rn, sz == 0 ? (q ? "8h" : "4h") : (q ? "4s" : "2s")));
        }
        String m = null;
        boolean zero = false;
        if (!hi) {
            switch (opcode) {
                case 0x18: m = u ? "frinta" : "frintn"; break;
                case 0x19: m = u ? "frintx" : "frintm"; break;
                case 0x1A: m = u ? "fcvtnu" : "fcvtns"; break;
                case 0x1B: m = u ? "fcvtmu" : "fcvtms"; break;
                case 0x1C: m = u ? "fcvtau" : "fcvtas"; break;
                case 0x1D: m = u ? "ucvtf" : "scvtf"; break;
                case 0x1E: m = u ? "frint32x" : "frint32z"; break;
                case 0x1F: m = u ? "frint64x" : "frint64z"; break;
                default: return null;
            }
            if (scalar && (m.startsWith("frint"))) {
                return null;
            }
        } else {
            switch (opcode) {
                case 0xC: m = u ? "fcmge" : "fcmgt"; zero = true; break;
                case 0xD: m = u ? "fcmle" : "fcmeq"; zero = true; break;
                case 0xE: m = u ? null : "fcmlt"; zero = true; break;
                case 0xF: m = u ? "fneg" : "fabs"; break;
                case 0x18: m = u ? null : "frintp"; break;
                case 0x19: m = u ? "frinti" : "frintz"; break;
                case 0x1A: m = u ? "fcvtpu" : "fcvtps"; break;
                case 0x1B: m = u ? "fcvtzu" : "fcvtzs"; break;
                case 0x1C: m = u ? "ursqrte" : "urecpe"; break;
                case 0x1D: m = u ? "frsqrte" : "frecpe"; break;
                case 0x1F: m = u ? "fsqrt" : "frecpx"; break;
                default: return null;
            }
            if (m == null) {
                return null;
            }
            if (m.startsWith("ur")) {
                if (scalar || sz != 0) {
                    return null;
                }
                String t = q ? "4s" : "2s";
                return op(m, v(rd, t) + ", " + v(rn, t));
            }
            if (scalar ? m.equals("fneg") || m.equals("fabs") || m.equals("fsqrt") || m.startsWith("frint")
                    : m.equals("frecpx")) {
                return null;
            }
        }
        String z = zero ? ", #0.0" : "";
        if (scalar) {
            return op(m, fp(2 + sz, rd) + ", " + fp(2 + sz, rn) + z);
        }
        String t = fpArr(sz, q);
        if (t == null) {
            return null;
        }
        return op(m, v(rd, t) + ", " + v(rn, t) + z);
    }

    private static String twoRegMiscFp16(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        boolean a = bit(w, 23);
        int opcode = bits(w, 16, 12);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        String m = null;
        boolean zero = false;
        if (!a) {
            switch (opcode) {
                case 0x18: m = u ? "frinta" : "frintn"; break;
                case 0x19: m = u ? "frintx" : "frintm"; break;
                case 0x1A: m = u ? "fcvtnu" : "fcvtns"; break;
                case 0x1B: m = u ? "fcvtmu" : "fcvtms"; break;
                case 0x1C: m = u ? "fcvtau" : "fcvtas"; break;
                case 0x1D: m = u ? "ucvtf" : "scvtf"; break;
                default: return null;
            }
        } else {
            switch (opcode) {
                case 0xC: m = u ? "fcmge" : "fcmgt"; zero = true; break;
                case 0xD: m = u ? "fcmle" : "fcmeq"; zero = true; break;
                case 0xE: m = u ? null : "fcmlt"; zero = true; break;
                case 0xF: m = u ? "fneg" : "fabs"; break;
                case 0x18: m = u ? null : "frintp"; break;
                case 0x19: m = u ? "frinti" : "frintz"; break;
                case 0x1A: m = u ? "fcvtpu" : "fcvtps"; break;
                case 0x1B: m = u ? "fcvtzu" : "fcvtzs"; break;
                case 0x1D: m = u ? "frsqrte" : "frecpe"; break;
                case 0x1F: m = u ? "fsqrt" : "frecpx"; break;
                default: return null;
            }
        }
        if (m == null) {
            return null;
        }
        String z = zero ? ", #0.0" : "";
        if (scalar) {
            if (m.startsWith("frint") || m.equals("fneg") || m.equals("fabs") || m.equals("fsqrt")) {
                return null;
            }
            return op(m, fp(1, rd) + ", " + fp(1, rn) + z);
        }
        if (m.equals("frecpx")) {
            return null;
        }
        String t = q ? "8h" : "4h";
        return op(m, v(rd, t) + ", " + v(rn, t) + z);
    }

    // ---------------------------------------------------------------- across lanes, pairwise

    private static String acrossLanes(int w) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 16, 12);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        if (opcode == 0xC || opcode == 0xF) {
            boolean min = (size & 2) != 0;
            String m = opcode == 0xC ? (min ? "fminnmv" : "fmaxnmv") : (min ? "fminv" : "fmaxv");
            if (!u) { // half precision
                if ((size & 1) != 0) {
                    return null;
                }
                return op(m, fp(1, rd) + ", " + v(rn, q ? "8h" : "4h"));
            }
            if ((size & 1) != 0 || !q) {
                return null;
            }
            return op(m, fp(2, rd) + ", " + v(rn, "4s"));
        }
        String m;
        boolean wideDst = false;
        switch (opcode) {
            case 3: m = u ? "uaddlv" : "saddlv"; wideDst = true; break;
            case 0xA: m = u ? "umaxv" : "smaxv"; break;
            case 0x1A: m = u ? "uminv" : "sminv"; break;
            case 0x1B: m = u ? null : "addv"; break;
            default: return null;
        }
        if (m == null || size == 3 || (size == 2 && !q)) {
            return null;
        }
        return op(m, s(rd, wideDst ? size + 1 : size) + ", " + vt(rn, size, q));
    }

    private static String pairwise(int w) {
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        int opcode = bits(w, 16, 12);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        if (opcode == 0x1B) {
            return !u && size == 3 ? op("addp", s(rd, 3) + ", " + v(rn, "2d")) : null;
        }
        boolean min = (size & 2) != 0;
        String m;
        switch (opcode) {
            case 0xC: m = min ? "fminnmp" : "fmaxnmp"; break;
            case 0xD: m = min ? null : "faddp"; break;
            case 0xF: m = min ? "fminp" : "fmaxp"; break;
            default: return null;
        }
        if (m == null) {
            return null;
        }
        if (!u) { // half precision (FEAT_FP16)
            return (size & 1) == 0 ? op(m, fp(1, rd) + ", " + v(rn, "2h")) : null;
        }
        int sz = size & 1;
        return op(m, fp(2 + sz, rd) + ", " + v(rn, sz == 0 ? "2s" : "2d"));
    }

    // ---------------------------------------------------------------- immediates

    private static String modifiedImmediate(int w) {
        boolean q = bit(w, 30);
        boolean opBit = bit(w, 29);
        int cmode = bits(w, 15, 12);
        boolean o2 = bit(w, 11);
        int imm8 = bits(w, 18, 16) << 5 | bits(w, 9, 5);
        int rd = w & 31;
        if (o2 && !(cmode == 15 && !opBit)) {
            return null;
        }
        if ((cmode & 8) == 0) { // 32-bit shifted
            String t = q ? "4s" : "2s";
            int shift = (cmode >>> 1) & 3;
            String sh = shift == 0 ? "" : ", lsl #" + shift * 8;
            if ((cmode & 1) == 0) {
                return op(opBit ? "mvni" : "movi", v(rd, t) + ", " + hex(imm8) + sh);
            }
            return op(opBit ? "bic" : "orr", v(rd, t) + ", " + hex(imm8) + sh);
        }
        if ((cmode & 0xC) == 8) { // 16-bit shifted
            String t = q ? "8h" : "4h";
            String sh = (cmode & 2) == 0 ? "" : ", lsl #8";
            if ((cmode & 1) == 0) {
                return op(opBit ? "mvni" : "movi", v(rd, t) + ", " + hex(imm8) + sh);
            }
            return op(opBit ? "bic" : "orr", v(rd, t) + ", " + hex(imm8) + sh);
        }
        if ((cmode & 0xE) == 0xC) { // shifting ones
            String t = q ? "4s" : "2s";
            return op(opBit ? "mvni" : "movi", v(rd, t) + ", " + hex(imm8) + ", msl #" + ((cmode & 1) == 0 ? 8 : 16));
        }
        if (cmode == 14) {
            if (!opBit) {
                return op("movi", v(rd, q ? "16b" : "8b") + ", " + hex(imm8));
            }
            long imm = 0;
            for (int i = 0; i < 8; i++) {
                if ((imm8 & (1 << i)) != 0) {
                    imm |= 0xFFL << (8 * i);
                }
            }
            return op("movi", (q ? v(rd, "2d") : fp(3, rd)) + ", " + hex(imm));
        }
        // cmode 1111: FMOV (vector, immediate)
        if (!opBit) {
            return op("fmov", v(rd, o2 ? (q ? "8h" : "4h") : (q ? "4s" : "2s")) + ", " + fimm(expandImm(imm8)));
        }
        return q ? op("fmov", v(rd, "2d") + ", " + fimm(expandImm(imm8))) : null;
    }

    private static String shiftImmediate(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int immh = bits(w, 22, 19);
        int immhb = bits(w, 22, 16);
        int opcode = bits(w, 15, 11);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        if (immh == 0) {
            return null;
        }
        int size = 31 - Integer.numberOfLeadingZeros(immh); // 0 = 8-bit ... 3 = 64-bit
        int esize = 8 << size;
        int right = 2 * esize - immhb;
        int left = immhb - esize;
        String two = q ? "2" : "";
        String m;
        int kind; // 0 same, right shift; 1 same, left shift; 2 narrow (right); 3 long (left); 4 fixed point
        switch (opcode) {
            case 0: m = u ? "ushr" : "sshr"; kind = 0; break;
            case 2: m = u ? "usra" : "ssra"; kind = 0; break;
            case 4: m = u ? "urshr" : "srshr"; kind = 0; break;
            case 6: m = u ? "ursra" : "srsra"; kind = 0; break;
            case 8: m = u ? "sri" : null; kind = 0; break;
            case 10: m = u ? "sli" : "shl"; kind = 1; break;
            case 12: m = u ? "sqshlu" : null; kind = 1; break;
            case 14: m = u ? "uqshl" : "sqshl"; kind = 1; break;
            case 16: m = u ? "sqshrun" : "shrn"; kind = 2; break;
            case 17: m = u ? "sqrshrun" : "rshrn"; kind = 2; break;
            case 18: m = u ? "uqshrn" : "sqshrn"; kind = 2; break;
            case 19: m = u ? "uqrshrn" : "sqrshrn"; kind = 2; break;
            case 20: m = u ? "ushll" : "sshll"; kind = 3; break;
            case 28: m = u ? "ucvtf" : "scvtf"; kind = 4; break;
            case 31: m = u ? "fcvtzu" : "fcvtzs"; kind = 4; break;
            default: return null;
        }
        if (m == null) {
            return null;
        }
        if (scalar) {
            switch (kind) {
                case 0:
                case 1:
                    if (size != 3 && !(opcode == 12 || opcode == 14)) {
                        return null;
                    }
                    return op(m, s(rd, size) + ", " + s(rn, size) + ", " + dec(kind == 0 ? right : left));
                case 2:
                    if (size == 3 || (!u && opcode <= 17)) {
                        return null;
                    }
                    return op(m, s(rd, size) + ", " + s(rn, size + 1) + ", " + dec(right));
                case 4:
                    if (size == 0) {
                        return null;
                    }
                    return op(m, s(rd, size) + ", " + s(rn, size) + ", " + dec(right));
                default:
                    return null;
            }
        }
        if (size == 3 && !q && kind != 2 && kind != 3) {
            return null;
        }
        switch (kind) {
            case 0:
            case 1: {
                String t = ARRANGEMENT[size << 1 | (q ? 1 : 0)];
                return op(m, v(rd, t) + ", " + v(rn, t) + ", " + dec(kind == 0 ? right : left));
            }
            case 2:
                if (size == 3) {
                    return null;
                }
                return op(m + two, vt(rd, size, q) + ", " + v(rn, ARRANGEMENT[(size + 1) << 1 | 1]) + ", " + dec(right));
            case 3: {
                if (size == 3) {
                    return null;
                }
                String dst = v(rd, ARRANGEMENT[(size + 1) << 1 | 1]);
                if (left == 0) {
                    return op((u ? "uxtl" : "sxtl") + two, dst + ", " + vt(rn, size, q));
                }
                return op(m + two, dst + ", " + vt(rn, size, q) + ", " + dec(left));
            }
            default: {
                if (size == 0) {
                    return null;
                }
                String t = ARRANGEMENT[size << 1 | (q ? 1 : 0)];
                return op(m, v(rd, t) + ", " + v(rn, t) + ", " + dec(right));
            }
        }
    }

    // ---------------------------------------------------------------- by element

    private static String indexed(int w, boolean scalar) {
        boolean q = bit(w, 30);
        boolean u = bit(w, 29);
        int size = bits(w, 23, 22);
        boolean l = bit(w, 21);
        boolean mBit = bit(w, 20);
        int opcode = bits(w, 15, 12);
        boolean h = bit(w, 11);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        int rm4 = bits(w, 19, 16);
        String two = q ? "2" : "";
        // element and index by size (h: H:L:M with Rm 0-15; s: H:L with M:Rm; d: H)
        int hIndex = (h ? 4 : 0) | (l ? 2 : 0) | (mBit ? 1 : 0);
        int sIndex = (h ? 2 : 0) | (l ? 1 : 0);
        int rmFull = (mBit ? 16 : 0) | rm4;
        boolean fp = false;
        String m;
        int kind; // 0 same size, 1 long, 2 dot product
        if (!u) {
            switch (opcode) {
                case 0: m = "fmlal"; kind = 3; break;
                case 1: m = "fmla"; fp = true; kind = 0; break;
                case 2: m = "smlal"; kind = 1; break;
                case 3: m = "sqdmlal"; kind = 1; break;
                case 4: m = "fmlsl"; kind = 3; break;
                case 5: m = "fmls"; fp = true; kind = 0; break;
                case 6: m = "smlsl"; kind = 1; break;
                case 7: m = "sqdmlsl"; kind = 1; break;
                case 8: m = "mul"; kind = 0; break;
                case 9: m = "fmul"; fp = true; kind = 0; break;
                case 10: m = "smull"; kind = 1; break;
                case 11: m = "sqdmull"; kind = 1; break;
                case 12: m = "sqdmulh"; kind = 0; break;
                case 13: m = "sqrdmulh"; kind = 0; break;
                case 14: m = "sdot"; kind = 2; break;
                case 15:
                    m = size == 0 ? "sudot" : size == 1 ? "bfdot" : size == 2 ? "usdot" : "bfmlal";
                    kind = size == 1 ? 4 : size == 3 ? 5 : 2;
                    break;
                default: return null;
            }
        } else {
            switch (opcode) {
                case 0: m = "mla"; kind = 0; break;
                case 2: m = "umlal"; kind = 1; break;
                case 4: m = "mls"; kind = 0; break;
                case 6: m = "umlsl"; kind = 1; break;
                case 8: m = "fmlal2"; kind = 3; break;
                case 9: m = "fmulx"; fp = true; kind = 0; break;
                case 10: m = "umull"; kind = 1; break;
                case 12: m = "fmlsl2"; kind = 3; break;
                case 13: m = "sqrdmlah"; kind = 0; break;
                case 14: m = "udot"; kind = 2; break;
                case 15: m = "sqrdmlsh"; kind = 0; break;
                default:
                    if ((opcode & 9) == 1) { // FCMLA (by element): opcode 0rr1
                        return scalar ? null : fcmlaIndexed(w);
                    }
                    return null;
            }
        }
        if (scalar) {
            boolean ok = fp || m.startsWith("sq");
            if (!ok || kind > 1 || (kind == 1 && !m.startsWith("sqdm"))) {
                return null;
            }
        }
        if (kind == 2) { // SDOT, UDOT, SUDOT, USDOT (by element)
            if (size != 2 && !(m.equals("sudot") && size == 0)) {
                return null;
            }
            if (m.equals("sudot") && size != 0) {
                return null;
            }
            return op(m, v(rd, q ? "4s" : "2s") + ", " + v(rn, q ? "16b" : "8b") + ", " + v(rmFull, "4b") + "[" + sIndex + "]");
        }
        if (kind == 3) { // FMLAL and friends (by element): half precision elements
            if (size != 2) {
                return null;
            }
            return op(m, v(rd, q ? "4s" : "2s") + ", " + v(rn, q ? "4h" : "2h") + ", " + elem(rm4, 'h', hIndex));
        }
        if (kind == 4) { // BFDOT (by element)
            return op(m, v(rd, q ? "4s" : "2s") + ", " + v(rn, q ? "8h" : "4h") + ", " + v(rmFull, "2h") + "[" + sIndex + "]");
        }
        if (kind == 5) { // BFMLALB/T (by element)
            return op(q ? "bfmlalt" : "bfmlalb", v(rd, "4s") + ", " + v(rn, "8h") + ", " + elem(rm4, 'h', hIndex));
        }
        if (fp) {
            String t;
            String e;
            int reg;
            if (size == 0) { // half precision (FEAT_FP16), only for U = 0 FMLA/FMLS/FMUL and FMULX
                e = elem(rm4, 'h', hIndex);
                if (scalar) {
                    return op(m, fp(1, rd) + ", " + fp(1, rn) + ", " + e);
                }
                t = q ? "8h" : "4h";
                return op(m, v(rd, t) + ", " + v(rn, t) + ", " + e);
            }
            if (size == 1) {
                return null;
            }
            if (size == 2) {
                e = elem(rmFull, 's', sIndex);
                reg = 2;
                t = q ? "4s" : "2s";
            } else {
                if (l || (!q && !scalar)) {
                    return null;
                }
                e = elem(rmFull, 'd', h ? 1 : 0);
                reg = 3;
                t = "2d";
            }
            if (scalar) {
                return op(m, fp(reg, rd) + ", " + fp(reg, rn) + ", " + e);
            }
            return op(m, v(rd, t) + ", " + v(rn, t) + ", " + e);
        }
        String e;
        if (size == 1) {
            e = elem(rm4, 'h', hIndex);
        } else if (size == 2) {
            e = elem(rmFull, 's', sIndex);
        } else {
            return null;
        }
        if (scalar) {
            if (kind == 1) {
                return op(m, s(rd, size + 1) + ", " + s(rn, size) + ", " + e);
            }
            return op(m, s(rd, size) + ", " + s(rn, size) + ", " + e);
        }
        if (kind == 1) {
            return op(m + two, v(rd, ARRANGEMENT[(size + 1) << 1 | 1]) + ", " + vt(rn, size, q) + ", " + e);
        }
        return op(m, vt(rd, size, q) + ", " + vt(rn, size, q) + ", " + e);
    }

    private static String fcmlaIndexed(int w) {
        boolean q = bit(w, 30);
        int size = bits(w, 23, 22);
        int rot = bits(w, 14, 13);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        boolean h = bit(w, 11);
        boolean l = bit(w, 21);
        boolean mBit = bit(w, 20);
        int rm4 = bits(w, 19, 16);
        String e;
        String t;
        if (size == 1 && (q || !h)) {
            e = elem((mBit ? 16 : 0) | rm4, 'h', (h ? 2 : 0) | (l ? 1 : 0));
            t = q ? "8h" : "4h";
        } else if (size == 2 && q && !l) {
            e = elem((mBit ? 16 : 0) | rm4, 's', h ? 1 : 0);
            t = "4s";
        } else {
            return null;
        }
        return op("fcmla", v(rd, t) + ", " + v(rn, t) + ", " + e + ", " + dec(rot * 90L));
    }

    // ---------------------------------------------------------------- scalar floating point

    /** Scalar FP register for a type field: 00 single, 01 double, 11 half; null for 10. */
    private static String ft(int type, int n) {
        switch (type) {
            case 0: return fp(2, n);
            case 1: return fp(3, n);
            case 3: return fp(1, n);
            default: return null;
        }
    }

    private static String floatingPoint(int w) {
        boolean sf = bit(w, 31);
        boolean s = bit(w, 29);
        int type = bits(w, 23, 22);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        int rm = bits(w, 20, 16);
        if (!bit(w, 21)) { // conversion between floating point and fixed point
            int rmode = bits(w, 20, 19);
            int opcode = bits(w, 18, 16);
            int scale = bits(w, 15, 10);
            if (s || type == 2 || (!sf && scale < 32)) {
                return null;
            }
            String fbits = dec(64 - scale);
            if (rmode == 0 && (opcode == 2 || opcode == 3)) {
                return op(opcode == 2 ? "scvtf" : "ucvtf", ft(type, rd) + ", " + r(sf, rn) + ", " + fbits);
            }
            if (rmode == 3 && (opcode == 0 || opcode == 1)) {
                return op(opcode == 0 ? "fcvtzs" : "fcvtzu", r(sf, rd) + ", " + ft(type, rn) + ", " + fbits);
            }
            return null;
        }
        int op3 = bits(w, 15, 10);
        if (op3 == 0) {
            return fpInteger(w);
        }
        if (s || type == 2) {
            return null;
        }
        if ((op3 & 0x1F) == 0x10) { // data processing, 1 source
            int opcode = bits(w, 20, 15);
            if (sf) {
                return null;
            }
            String d = ft(type, rd);
            String n = ft(type, rn);
            switch (opcode) {
                case 0: return op("fmov", d + ", " + n);
                case 1: return op("fabs", d + ", " + n);
                case 2: return op("fneg", d + ", " + n);
                case 3: return op("fsqrt", d + ", " + n);
                case 4: case 5: case 7: {
                    int to = opcode & 3;
                    if (to == type) {
                        return null;
                    }
                    return op("fcvt", ft(to, rd) + ", " + n);
                }
                case 6:
                    return type == 1 ? op("bfcvt", fp(1, rd) + ", " + fp(2, rn)) : null;
                case 8: case 9: case 10: case 11: case 12: case 14: case 15:
                    return op("frint" + "npmza?xi".charAt(opcode - 8), d + ", " + n);
                case 16: case 17: case 18: case 19:
                    if (type == 3) {
                        return null;
                    }
                    return op(new String[] {"frint32z", "frint32x", "frint64z", "frint64x"}[opcode - 16], d + ", " + n);
                default:
                    return null;
            }
        }
        if ((op3 & 0xF) == 8) { // compare
            int opcode2 = w & 31;
            if (sf || bits(w, 15, 14) != 0 || (opcode2 & 7) != 0) {
                return null;
            }
            String m = (opcode2 & 0x10) != 0 ? "fcmpe" : "fcmp";
            if ((opcode2 & 8) != 0) {
                return op(m, ft(type, rn) + ", #0.0");
            }
            return op(m, ft(type, rn) + ", " + ft(type, rm));
        }
        if ((op3 & 7) == 4) { // immediate
            if (sf || bits(w, 9, 5) != 0) {
                return null;
            }
            return op("fmov", ft(type, rd) + ", " + fimm(expandImm(bits(w, 20, 13))));
        }
        if ((op3 & 3) == 1) { // conditional compare
            if (sf) {
                return null;
            }
            String m = bit(w, 4) ? "fccmpe" : "fccmp";
            return op(m, ft(type, rn) + ", " + ft(type, rm) + ", " + hex(w & 15) + ", " + COND[bits(w, 15, 12)]);
        }
        if ((op3 & 3) == 2) { // data processing, 2 source
            int opcode = bits(w, 15, 12);
            if (sf || opcode > 8) {
                return null;
            }
            String[] m = {"fmul", "fdiv", "fadd", "fsub", "fmax", "fmin", "fmaxnm", "fminnm", "fnmul"};
            return op(m[opcode], ft(type, rd) + ", " + ft(type, rn) + ", " + ft(type, rm));
        }
        // conditional select
        if (sf || (op3 & 3) != 3) {
            return null;
        }
        return op("fcsel", ft(type, rd) + ", " + ft(type, rn) + ", " + ft(type, rm) + ", " + COND[bits(w, 15, 12)]);
    }

    private static String fpInteger(int w) {
        boolean sf = bit(w, 31);
        int type = bits(w, 23, 22);
        int rmode = bits(w, 20, 19);
        int opcode = bits(w, 18, 16);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        if (bit(w, 29)) {
            return null;
        }
        if ((opcode & 6) == 6) { // FMOV (general)
            if (type == 2) {
                if (!sf || rmode != 1) {
                    return null;
                }
                return opcode == 6 ? op("fmov", r(true, rd) + ", " + "v" + rn + ".d[1]")
                        : op("fmov", "v" + rd + ".d[1], " + r(true, rn));
            }
            if (rmode != 0) {
                if (type == 1 && !sf && rmode == 3 && opcode == 6) {
                    return op("fjcvtzs", r(false, rd) + ", " + fp(3, rn));
                }
                return null;
            }
            if (type != 3 && sf != (type == 1)) {
                return null;
            }
            return opcode == 6 ? op("fmov", r(sf, rd) + ", " + ft(type, rn)) : op("fmov", ft(type, rd) + ", " + r(sf, rn));
        }
        if (type == 2) {
            return null;
        }
        if ((opcode & 6) == 2) { // SCVTF, UCVTF
            if (rmode != 0) {
                return null;
            }
            return op(opcode == 2 ? "scvtf" : "ucvtf", ft(type, rd) + ", " + r(sf, rn));
        }
        if ((opcode & 4) != 0 && rmode != 0) {
            return null;
        }
        String m = "fcvt" + ((opcode & 4) != 0 ? "a" : "npmz".charAt(rmode)) + ((opcode & 1) != 0 ? "u" : "s");
        return op(m, r(sf, rd) + ", " + ft(type, rn));
    }

    private static String fpThreeSource(int w) {
        int type = bits(w, 23, 22);
        if (bit(w, 31) || bit(w, 29) || type == 2) {
            return null;
        }
        int o = (bit(w, 21) ? 2 : 0) | bits(w, 15, 15);
        String[] m = {"fmadd", "fmsub", "fnmadd", "fnmsub"};
        return op(m[o], ft(type, w) + ", " + ft(type, w >>> 5) + ", " + ft(type, w >>> 16) + ", " + ft(type, w >>> 10));
    }
}
