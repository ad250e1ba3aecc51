package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.dec;
import static io.armtrace.isa.disasm.A64Disassembler.hex;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64Disassembler.rsp;
import static io.armtrace.isa.disasm.A64LoadStore.fp;

/**
 * SVE and SVE2 data processing as compilers emit it for vectorised loops (DDI 0487 C4.1.7-C4.1.8):
 * integer and floating-point arithmetic (predicated and unpredicated), multiply-add, shifts,
 * reductions, compares, conversions and rounding, element counts and increments, ADDVL/ADDPL,
 * INDEX, DUP/DUPM/FDUP and their MOV/FMOV aliases, permutes and unpacks, MOVPRFX, predicate logic.
 * Forms outside these groups print as undefined (docs/disassembly.md counts them).
 */
final class A64SveArith {
    private A64SveArith() {
    }

    private static final String SIZES = "bhsd";

    static String z(int n, int size) {
        return "z" + (n & 31) + "." + SIZES.charAt(size);
    }

    private static String p(int n) {
        return "p" + (n & 15);
    }

    private static String pm(int n) {
        return "p" + (n & 7) + "/m";
    }

    private static String pz(int n) {
        return "p" + (n & 15) + "/z";
    }

    /** Zdn, Pg/M, Zdn, Zm: the destructive predicated form. */
    private static String destructive(String m, int w, int size) {
        int zdn = w & 31;
        return op(m, z(zdn, size) + ", " + pm(bits(w, 12, 10)) + ", " + z(zdn, size) + ", " + z(bits(w, 9, 5), size));
    }

    /** Element size and shift amount from tsize:imm3 (right shifts: 2 * esize - value). */
    private static int tsizeSize(int tsize) {
        return tsize == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(tsize);
    }

    static String disassemble(int w) {
        int top = w >>> 24;
        if (top == 0x04) {
            return group04(w);
        }
        if (top == 0x05) {
            return group05(w);
        }
        if (top == 0x25) {
            return group25(w);
        }
        if (top == 0x24) {
            return compareVectors(w);
        }
        if (top == 0x65) {
            return floatingPoint(w);
        }
        if (top == 0x44 || top == 0x45) {
            return sve2(w);
        }
        return null;
    }

    // ---------------------------------------------------------------- 0x04: integer

    private static final String[][] BINARY = {
        {"add", "sub", null, "subr", null, null, null, null},
        {"smax", "umax", "smin", "umin", "sabd", "uabd", null, null},
        {"mul", null, "smulh", "umulh", "sdiv", "udiv", "sdivr", "udivr"},
        {"orr", "eor", "and", "bic", null, null, null, null}};

    private static String group04(int w) {
        int size = bits(w, 23, 22);
        int zd = w & 31;
        int zn = bits(w, 9, 5);
        int pg = bits(w, 12, 10);
        if (!bit(w, 21)) {
            int op = bits(w, 15, 13);
            if (bit(w, 14)) { // multiply-add: MLA, MLS (01x), MAD, MSB (11x)
                if (bit(w, 15)) { // MAD, MSB: Zdn, Pg/M, Zm, Za
                    return op(bit(w, 13) ? "msb" : "mad", z(zd, size) + ", " + pm(pg) + ", " + z(bits(w, 20, 16), size) + ", "
                            + z(zn, size));
                }
                return op(bit(w, 13) ? "mls" : "mla", z(zd, size) + ", " + pm(pg) + ", " + z(zn, size) + ", "
                        + z(bits(w, 20, 16), size));
            }
            int opc = bits(w, 20, 16);
            switch (op) {
                case 0: { // binary arithmetic, predicated
                    String m = BINARY[opc >>> 3][opc & 7];
                    if (m == null || (opc >>> 3) > 3 || ((opc & 0x1C) == 0x14 && size < 2)) {
                        return null;
                    }
                    return destructive(m, w, size);
                }
                case 1: { // reductions; MOVPRFX (predicated)
                    if (opc == 0x10 || opc == 0x11) {
                        return op("movprfx", z(zd, size) + ", " + (bit(w, 16) ? pm(pg) : "p" + pg + "/z") + ", " + z(zn, size));
                    }
                    String m;
                    switch (opc) {
                        case 0: m = "saddv"; break;
                        case 1: m = "uaddv"; break;
                        case 8: m = "smaxv"; break;
                        case 9: m = "umaxv"; break;
                        case 10: m = "sminv"; break;
                        case 11: m = "uminv"; break;
                        case 0x18: m = "orv"; break;
                        case 0x19: m = "eorv"; break;
                        case 0x1A: m = "andv"; break;
                        default: return null;
                    }
                    if (opc == 0 && size == 3) {
                        return null;
                    }
                    int dst = opc <= 1 ? 3 : size;
                    return op(m, fp(dst, zd) + ", " + p(pg) + ", " + z(zn, size));
                }
                case 4: { // bitwise shift, predicated
                    int kind = opc >>> 3;
                    if (kind == 0) { // by immediate: tsize = size:imm3<4:3>... (tszh:tszl = 23:22 and 9:8)
                        int tsize = size << 2 | bits(w, 9, 8);
                        int esize = tsizeSize(tsize);
                        if (esize < 0) {
                            return null;
                        }
                        int value = tsize << 3 | bits(w, 7, 5);
                        String m;
                        int amount;
                        switch (opc & 7) {
                            case 0: m = "asr"; amount = (16 << esize) - value; break;
                            case 1: m = "lsr"; amount = (16 << esize) - value; break;
                            case 3: m = "lsl"; amount = value - (8 << esize); break;
                            case 4: m = "asrd"; amount = (16 << esize) - value; break;
                            default: return null;
                        }
                        return op(m, z(zd, esize) + ", " + pm(pg) + ", " + z(zd, esize) + ", " + dec(amount));
                    }
                    if (kind == 2) {
                        String m = new String[] {"asr", "lsr", null, "lsl", "asrr", "lsrr", null, "lslr"}[opc & 7];
                        return m == null ? null : destructive(m, w, size);
                    }
                    if (kind == 3) { // wide elements
                        String m = new String[] {"asr", "lsr", null, "lsl", null, null, null, null}[opc & 7];
                        if (m == null || size == 3) {
                            return null;
                        }
                        return op(m, z(zd, size) + ", " + pm(pg) + ", " + z(zd, size) + ", " + z(zn, 3));
                    }
                    return null;
                }
                case 5: { // unary, predicated
                    String[] names = {"sxtb", "uxtb", "sxth", "uxth", "sxtw", "uxtw", "abs", "neg", "cls", "clz", "cnt",
                        "cnot", "fabs", "fneg", "not", null};
                    if ((opc & 0x10) == 0) {
                        return null;
                    }
                    String m = names[opc & 15];
                    if (m == null) {
                        return null;
                    }
                    int from = (opc & 15) <= 5 ? (opc & 15) >>> 1 : -1;
                    if (from >= 0 && size <= from) {
                        return null;
                    }
                    if ((m.equals("fabs") || m.equals("fneg")) && size == 0) {
                        return null;
                    }
                    return op(m, z(zd, size) + ", " + pm(pg) + ", " + z(zn, size));
                }
                default:
                    return null;
            }
        }
        int op15 = bits(w, 15, 10);
        int zm = bits(w, 20, 16);
        if ((op15 & 0x38) == 0) { // add/sub, unpredicated
            String m = new String[] {"add", "sub", null, null, "sqadd", "uqadd", "sqsub", "uqsub"}[op15 & 7];
            return m == null ? null : op(m, z(zd, size) + ", " + z(zn, size) + ", " + z(zm, size));
        }
        if (op15 == 0x0C) { // bitwise logical, unpredicated
            String m = new String[] {"and", "orr", "eor", "bic"}[size];
            if (size == 1 && zn == zm) {
                return op("mov", z(zd, 3) + ", " + z(zn, 3));
            }
            return op(m, z(zd, 3) + ", " + z(zn, 3) + ", " + z(zm, 3));
        }
        if ((op15 & 0x3C) == 0x10) { // INDEX
            String first;
            String second;
            boolean sf = size == 3;
            switch (op15 & 3) {
                case 0:
                    first = dec((long) (w << 22) >> 27);
                    second = dec((long) (w << 11) >> 27);
                    break;
                case 1:
                    first = dec((long) (w << 22) >> 27);
                    second = A64Disassembler.r(sf, zm);
                    break;
                case 2:
                    first = A64Disassembler.r(sf, zn);
                    second = dec((long) (w << 11) >> 27);
                    break;
                default:
                    first = A64Disassembler.r(sf, zn);
                    second = A64Disassembler.r(sf, zm);
                    break;
            }
            return op("index", z(zd, size) + ", " + first + ", " + second);
        }
        if ((op15 & 0x3E) == 0x14 && !bit(w, 11)) { // ADDVL, ADDPL; RDVL
            long imm6 = (long) (w << 21) >> 26;
            if (size <= 1) {
                return op(size == 1 ? "addpl" : "addvl", rsp(true, zd) + ", " + rsp(true, zm) + ", " + dec(imm6));
            }
            if (size == 2 && zm == 31) {
                return op("rdvl", A64Disassembler.r(true, zd) + ", " + dec(imm6));
            }
            return null;
        }
        if ((op15 & 0x3C) == 0x24 || (op15 & 0x3C) == 0x20) { // shift by immediate / wide elements, unpredicated
            if (bit(w, 12)) { // 1001xx: by immediate
                int tsize = size << 2 | bits(w, 20, 19);
                int esize = tsizeSize(tsize);
                int value = tsize << 3 | bits(w, 18, 16);
                if (esize < 0) {
                    return null;
                }
                String m;
                int amount;
                switch (op15 & 3) {
                    case 0: m = "asr"; amount = (16 << esize) - value; break;
                    case 1: m = "lsr"; amount = (16 << esize) - value; break;
                    case 3: m = "lsl"; amount = value - (8 << esize); break;
                    default: return null;
                }
                return op(m, z(zd, esize) + ", " + z(zn, esize) + ", " + dec(amount));
            }
            String m = new String[] {"asr", "lsr", null, "lsl"}[op15 & 3];
            if (m == null || size == 3) {
                return null;
            }
            return op(m, z(zd, size) + ", " + z(zn, size) + ", " + z(zm, 3));
        }
        if ((op15 & 0x3C) == 0x28) { // ADR
            int msz = op15 & 3;
            String sh = msz == 0 ? "" : ", lsl #" + msz;
            switch (size) {
                case 0:
                    return op("adr", z(zd, 3) + ", [" + z(zn, 3) + ", " + z(zm, 3) + ", sxtw" + (msz == 0 ? "" : " #" + msz) + "]");
                case 1:
                    return op("adr", z(zd, 3) + ", [" + z(zn, 3) + ", " + z(zm, 3) + ", uxtw" + (msz == 0 ? "" : " #" + msz) + "]");
                default: {
                    int s = size == 2 ? 2 : 3;
                    return op("adr", z(zd, s) + ", [" + z(zn, s) + ", " + z(zm, s) + sh + "]");
                }
            }
        }
        if (op15 == 0x2F && size == 0 && zm == 0) { // MOVPRFX (unpredicated)
            return op("movprfx", "z" + zd + ", z" + zn);
        }
        if ((op15 & 0x30) == 0x30 && bit(w, 20)) { // element count: INC, DEC (CNT is in A64Sve)
            String ops = A64Disassembler.r(true, zd);
            int imm4 = bits(w, 19, 16) + 1;
            String pattern = A64Sve.pattern(zn);
            String tail = imm4 != 1 ? ", " + pattern + ", mul #" + imm4 : zn != 31 ? ", " + pattern : "";
            char t = SIZES.charAt(size) == 's' ? 'w' : SIZES.charAt(size);
            if ((op15 & 0x3E) == 0x38) { // INC/DEC (scalar)
                return op(((op15 & 1) == 0 ? "inc" : "dec") + t, ops + tail);
            }
            if ((op15 & 0x3E) == 0x30 && size != 0) { // INC/DEC (vector)
                return op(((op15 & 1) == 0 ? "inc" : "dec") + t, z(zd, size) + tail);
            }
            return null;
        }
        return null;
    }

    // ---------------------------------------------------------------- 0x05: permutes, DUP, bitmask immediates

    private static String group05(int w) {
        int size = bits(w, 23, 22);
        int zd = w & 31;
        int zn = bits(w, 9, 5);
        if (!bit(w, 21)) {
            if (bits(w, 21, 18) == 0) { // bitmask immediate: ORR, EOR, AND, DUPM
                int opc = bits(w, 23, 22);
                int imm13 = bits(w, 17, 5);
                int n = imm13 >>> 12;
                int immr = (imm13 >>> 6) & 63;
                int imms = imm13 & 63;
                if (!A64Disassembler.validBitMask(n, imms)) {
                    return null;
                }
                int esize = n == 1 ? 3 : (imms & 0x20) == 0 ? 2 : (imms & 0x10) == 0 ? 1 : 0;
                long imm = A64Disassembler.decodeBitMask(n, immr, imms, 64) & (esize == 3 ? -1L : (1L << (8 << esize)) - 1);
                if (opc == 3) {
                    return op("mov", z(zd, esize) + ", " + hex(imm));
                }
                String m = new String[] {"orr", "eor", "and"}[opc];
                return op(m, z(zd, esize) + ", " + z(zd, esize) + ", " + hex(imm));
            }
            return null;
        }
        int op15 = bits(w, 15, 10);
        int zm = bits(w, 20, 16);
        if (op15 == 0x08) { // DUP (indexed): imm2:tsz
            int tsz = bits(w, 20, 16);
            int imm = bits(w, 23, 22) << 5 | tsz;
            int lowest = Integer.numberOfTrailingZeros(tsz);
            if (tsz == 0 || lowest > 4) {
                return null;
            }
            char t = "bhsdq".charAt(lowest);
            int index = imm >>> (lowest + 1);
            if (index == 0) {
                return op("mov", "z" + zd + "." + t + ", " + t + zn);
            }
            return op("mov", "z" + zd + "." + t + ", z" + zn + "." + t + "[" + index + "]");
        }
        if ((op15 & 0x38) == 0x18) { // permute vector elements
            String m = new String[] {"zip1", "zip2", "uzp1", "uzp2", "trn1", "trn2", null, null}[op15 & 7];
            return m == null ? null : op(m, z(zd, size) + ", " + z(zn, size) + ", " + z(zm, size));
        }
        if (op15 == 0x10 && size == 0 && (zm & 0x1E) == 0x10 && !bit(w, 9) && !bit(w, 4)) { // PUNPKLO, PUNPKHI
            return op((zm & 1) == 0 ? "punpklo" : "punpkhi", p(w & 15) + ".h, " + p(bits(w, 8, 5)) + ".b");
        }
        if (op15 == 0x0E && (zm & 0x1C) == 0x10 && size != 0) { // SUNPK*, UUNPK*
            String m = ((zm & 2) == 0 ? "s" : "u") + "unpk" + ((zm & 1) == 0 ? "lo" : "hi");
            return op(m, z(zd, size) + ", " + z(zn, size - 1));
        }
        return null;
    }

    // ---------------------------------------------------------------- 0x25: immediates, compares, predicates

    private static String group25(int w) {
        int size = bits(w, 23, 22);
        int zd = w & 31;
        if (bit(w, 21) && bits(w, 15, 14) == 3) { // integer wide immediate, unpredicated
            int opc = bits(w, 20, 16);
            boolean sh = bit(w, 13);
            int imm8 = bits(w, 12, 5);
            if ((opc & 0x18) == 0) { // add/sub (immediate)
                String m = new String[] {"add", "sub", null, "subr", "sqadd", "uqadd", "sqsub", "uqsub"}[opc & 7];
                if (m == null || (size == 0 && sh)) {
                    return null;
                }
                return op(m, z(zd, size) + ", " + z(zd, size) + ", " + dec(imm8) + (sh ? ", lsl #8" : ""));
            }
            if ((opc & 0x1C) == 0x08 && !sh) { // min/max (immediate)
                String m = new String[] {"smax", "umax", "smin", "umin"}[opc & 3];
                long v = (opc & 1) == 0 ? (byte) imm8 : imm8;
                return op(m, z(zd, size) + ", " + z(zd, size) + ", " + dec(v));
            }
            if (opc == 0x10 && !sh) { // MUL (immediate)
                return op("mul", z(zd, size) + ", " + z(zd, size) + ", " + dec((byte) imm8));
            }
            if (opc == 0x18) { // DUP (immediate), preferred as MOV
                if (size == 0 && sh) {
                    return null;
                }
                long v = (byte) imm8;
                return op("mov", z(zd, size) + ", " + dec(v) + (sh ? ", lsl #8" : ""));
            }
            if (opc == 0x19 && !sh) { // FDUP, preferred as FMOV
                if (size == 0) {
                    return null;
                }
                return op("fmov", z(zd, size) + ", " + A64Simd.fimm(A64Simd.expandImm(imm8)));
            }
            return null;
        }
        if (!bit(w, 21) && !bit(w, 14)) { // integer compare with signed immediate: imm5 op o2 ne
            int opc = (bit(w, 15) ? 4 : 0) | (bit(w, 13) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
            String[] m = {"cmpge", "cmpgt", "cmplt", "cmple", "cmpeq", "cmpne", null, null};
            if (m[opc] == null) {
                return null;
            }
            long imm5 = (long) (w << 11) >> 27;
            return op(m[opc], p(w & 15) + "." + SIZES.charAt(size) + ", " + pz(bits(w, 12, 10)) + ", "
                    + z(bits(w, 9, 5), size) + ", " + dec(imm5));
        }
        if (bits(w, 21, 20) == 0 && bits(w, 15, 14) == 1) { // predicate logical operations: op S o2 o3
            boolean or = bit(w, 23);
            boolean s = bit(w, 22);
            int o2o3 = (bit(w, 9) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
            int pg = bits(w, 13, 10);
            int pn = bits(w, 8, 5);
            int pm = bits(w, 19, 16);
            int pd = w & 15;
            String m = (or ? new String[] {"orr", "orn", "nor", "nand"} : new String[] {"and", "bic", "eor", "sel"})[o2o3];
            if (s && m.equals("sel")) {
                return null;
            }
            String flags = s ? "s" : "";
            if (!or && o2o3 == 2 && pm == pg) {
                return op("not" + flags, p(pd) + ".b, " + pz(pg) + ", " + p(pn) + ".b");
            }
            if (!or && o2o3 == 0 && pn == pm) {
                return op("mov" + flags, p(pd) + ".b, " + pz(pg) + ", " + p(pn) + ".b");
            }
            if (or && o2o3 == 0 && pn == pm && pm == pg) {
                return op("mov" + flags, p(pd) + ".b, " + p(pn) + ".b");
            }
            if (m.equals("sel")) {
                if (pd == pm) {
                    return op("mov", p(pd) + ".b, " + p(pg) + "/m, " + p(pn) + ".b");
                }
                return op("sel", p(pd) + ".b, " + p(pg) + ", " + p(pn) + ".b, " + p(pm) + ".b");
            }
            return op(m + flags, p(pd) + ".b, " + pz(pg) + ", " + p(pn) + ".b, " + p(pm) + ".b");
        }
        return null;
    }

    private static String compareVectors(int w) {
        int size = bits(w, 23, 22);
        int pd = w & 15;
        int pg = bits(w, 12, 10);
        int zn = bits(w, 9, 5);
        if (bit(w, 21)) { // unsigned immediate: imm7 lt ne
            int opc = (bit(w, 13) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
            String m = new String[] {"cmphs", "cmphi", "cmplo", "cmpls"}[opc];
            return op(m, p(pd) + "." + SIZES.charAt(size) + ", " + pz(pg) + ", " + z(zn, size) + ", " + dec(bits(w, 20, 14)));
        }
        int opc = (bit(w, 15) ? 4 : 0) | (bit(w, 13) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
        if (bit(w, 14)) {
            return null;
        }
        String[] m = {"cmphs", "cmphi", "cmpeq", "cmpne", "cmpge", "cmpgt", "cmpeq", "cmpne"};
        int zm = bits(w, 20, 16);
        boolean wide = opc == 2 || opc == 3;
        if (wide && size == 3) {
            return null;
        }
        return op(m[opc], p(pd) + "." + SIZES.charAt(size) + ", " + pz(pg) + ", " + z(zn, size) + ", "
                + z(zm, wide ? 3 : size));
    }

    // ---------------------------------------------------------------- 0x65: floating point

    private static String floatingPoint(int w) {
        int size = bits(w, 23, 22);
        int zd = w & 31;
        int zn = bits(w, 9, 5);
        int pg = bits(w, 12, 10);
        int zm = bits(w, 20, 16);
        if (size == 0) {
            return null; // no byte-sized floating point
        }
        if (bit(w, 21)) {
            if (!bit(w, 15)) { // multiply-add, writing the addend: FMLA, FMLS, FNMLA, FNMLS
                String m = new String[] {"fmla", "fmls", "fnmla", "fnmls"}[bits(w, 14, 13)];
                return op(m, z(zd, size) + ", " + pm(pg) + ", " + z(zn, size) + ", " + z(zm, size));
            }
            String m = new String[] {"fmad", "fmsb", "fnmad", "fnmsb"}[bits(w, 14, 13)];
            return op(m, z(zd, size) + ", " + pm(pg) + ", " + z(zn, size) + ", " + z(zm, size));
        }
        int op15 = bits(w, 15, 13);
        if (op15 == 0 && bits(w, 12, 10) != 4 && bits(w, 12, 10) != 5) { // arithmetic, unpredicated
            String m = new String[] {"fadd", "fsub", "fmul", "ftsmul", null, null, "frecps", "frsqrts"}[bits(w, 12, 10)];
            return op(m, z(zd, size) + ", " + z(zn, size) + ", " + z(zm, size));
        }
        if (op15 == 4 && !bit(w, 20)) { // arithmetic, predicated
            String[] names = {"fadd", "fsub", "fmul", "fsubr", "fmaxnm", "fminnm", "fmax", "fmin", "fabd", "fscale",
                "fmulx", null, "fdivr", "fdiv", null, null};
            String m = names[bits(w, 19, 16)];
            return m == null ? null : destructive(m, w, size);
        }
        if (op15 == 1 && bits(w, 20, 16) == 0x18) { // FADDA
            return op("fadda", fp(size, zd) + ", " + p(pg) + ", " + fp(size, zd) + ", " + z(zn, size));
        }
        if (op15 == 1 && bits(w, 20, 19) == 0) { // reductions: FADDV, FMAXNMV, FMINNMV, FMAXV, FMINV
            String m = new String[] {"faddv", null, null, null, "fmaxnmv", "fminnmv", "fmaxv", "fminv"}[bits(w, 18, 16)];
            return m == null ? null : op(m, fp(size, zd) + ", " + p(pg) + ", " + z(zn, size));
        }
        if ((op15 & 2) == 2) { // compare vectors: op o2 o3
            int opc = (bit(w, 15) ? 4 : 0) | (bit(w, 13) ? 2 : 0) | (bit(w, 4) ? 1 : 0);
            String m = new String[] {"fcmge", "fcmgt", "fcmeq", "fcmne", "fcmuo", "facge", null, "facgt"}[opc];
            return m == null ? null : op(m, p(w & 15) + "." + SIZES.charAt(size) + ", " + pz(pg) + ", " + z(zn, size) + ", "
                    + z(zm, size));
        }
        if (op15 == 5) { // unary, predicated: rounding, conversions, FRECPX, FSQRT
            int opc = bits(w, 20, 16);
            if ((opc & 0x18) == 0) {
                String m = new String[] {"frintn", "frintp", "frintm", "frintz", "frinta", null, "frintx", "frinti"}[opc & 7];
                return m == null ? null : op(m, z(zd, size) + ", " + pm(pg) + ", " + z(zn, size));
            }
            if (opc == 0x0C || opc == 0x0D) {
                return op(opc == 0x0C ? "frecpx" : "fsqrt", z(zd, size) + ", " + pm(pg) + ", " + z(zn, size));
            }
            int key = size << 5 | opc;
            int[] to;
            String m;
            switch (key) {
                case 2 << 5 | 0x08: m = "fcvt"; to = new int[] {1, 2}; break;
                case 2 << 5 | 0x09: m = "fcvt"; to = new int[] {2, 1}; break;
                case 3 << 5 | 0x08: m = "fcvt"; to = new int[] {1, 3}; break;
                case 3 << 5 | 0x09: m = "fcvt"; to = new int[] {3, 1}; break;
                case 3 << 5 | 0x0A: m = "fcvt"; to = new int[] {2, 3}; break;
                case 3 << 5 | 0x0B: m = "fcvt"; to = new int[] {3, 2}; break;
                default:
                    m = null;
                    to = null;
            }
            if (m == null) {
                // integer conversions: size:opc picks the element sizes (C8.2, SVE FP convert to/from integer)
                boolean u = (opc & 1) != 0;
                switch (key & ~1) {
                    case 1 << 5 | 0x1A: m = "fcvtz"; to = new int[] {1, 1}; break;
                    case 1 << 5 | 0x1C: m = "fcvtz"; to = new int[] {2, 1}; break;
                    case 1 << 5 | 0x1E: m = "fcvtz"; to = new int[] {3, 1}; break;
                    case 2 << 5 | 0x1C: m = "fcvtz"; to = new int[] {2, 2}; break;
                    case 3 << 5 | 0x18: m = "fcvtz"; to = new int[] {2, 3}; break;
                    case 3 << 5 | 0x1C: m = "fcvtz"; to = new int[] {3, 2}; break;
                    case 3 << 5 | 0x1E: m = "fcvtz"; to = new int[] {3, 3}; break;
                    case 1 << 5 | 0x12: m = "cvtf"; to = new int[] {1, 1}; break;
                    case 1 << 5 | 0x14: m = "cvtf"; to = new int[] {1, 2}; break;
                    case 1 << 5 | 0x16: m = "cvtf"; to = new int[] {1, 3}; break;
                    case 2 << 5 | 0x14: m = "cvtf"; to = new int[] {2, 2}; break;
                    case 3 << 5 | 0x10: m = "cvtf"; to = new int[] {3, 2}; break;
                    case 3 << 5 | 0x14: m = "cvtf"; to = new int[] {2, 3}; break;
                    case 3 << 5 | 0x16: m = "cvtf"; to = new int[] {3, 3}; break;
                    default: return null;
                }
                m = m.equals("fcvtz") ? "fcvtz" + (u ? "u" : "s") : (u ? "u" : "s") + "cvtf";
            }
            return op(m, z(zd, to[0]) + ", " + pm(pg) + ", " + z(zn, to[1]));
        }
        return null;
    }

    // ---------------------------------------------------------------- 0x44, 0x45: SVE2

    private static String sve2(int w) {
        int size = bits(w, 23, 22);
        int zd = w & 31;
        int zn = bits(w, 9, 5);
        if ((w & 0xFF38E000) == 0x44108000) { // halving add/subtract, predicated
            String m = new String[] {"shadd", "uhadd", "shsub", "uhsub", "srhadd", "urhadd", "shsubr", "uhsubr"}[bits(w, 18, 16)];
            return destructive(m, w, size);
        }
        if ((w & 0xFF20F000) == 0x4500E000) { // shift right and accumulate
            int tsize = size << 2 | bits(w, 20, 19);
            int esize = tsizeSize(tsize);
            if (esize < 0) {
                return null;
            }
            int amount = (16 << esize) - (tsize << 3 | bits(w, 18, 16));
            String m = new String[] {"ssra", "usra", "srsra", "ursra"}[bits(w, 11, 10)];
            return op(m, z(zd, esize) + ", " + z(zn, esize) + ", " + dec(amount));
        }
        return null;
    }
}
