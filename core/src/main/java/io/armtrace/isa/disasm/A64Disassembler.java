package io.armtrace.isa.disasm;

/**
 * A64 instructions as text, spelt as GNU {@code aarch64-linux-gnu-objdump -d} (binutils 2.40) spells
 * them: the preferred aliases of the Arm ARM (DDI 0487, C6 "alias conditions": {@code mov}, {@code cmp},
 * {@code lsl}, {@code cset}, {@code ubfx}, ...), immediates in objdump's radix per operand kind
 * (hexadecimal for arithmetic, logical, move-wide and exception immediates, decimal for offsets, shifts
 * and bit positions), branch targets as absolute addresses. objdump's comments ({@code // #16},
 * {@code // b.none}) are left out.
 *
 * <p>This class decodes the top-level groups of DDI 0487 C4.1 and the integer instructions;
 * {@link A64Simd} the scalar floating-point and Advanced SIMD groups, {@link A64LoadStore} the loads and
 * stores, {@link A64System} the system instructions, {@link A64Sve} the few SVE forms that compiled
 * code here holds. Returns "mnemonic\toperands" or null for an encoding objdump calls undefined.
 */
final class A64Disassembler {
    static final String[] COND = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le",
        "al", "nv"};
    static final String[] SHIFT = {"lsl", "lsr", "asr", "ror"};
    static final String[] EXTEND = {"uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"};

    private A64Disassembler() {
    }

    // ---------------------------------------------------------------- register names

    /** General-purpose register, 31 = zero register. */
    static String r(boolean sf, int n) {
        n &= 31;
        if (n == 31) {
            return sf ? "xzr" : "wzr";
        }
        return (sf ? "x" : "w") + n;
    }

    /** General-purpose register, 31 = stack pointer. */
    static String rsp(boolean sf, int n) {
        n &= 31;
        if (n == 31) {
            return sf ? "sp" : "wsp";
        }
        return (sf ? "x" : "w") + n;
    }

    static String x(int n) {
        return r(true, n);
    }

    static String xsp(int n) {
        return rsp(true, n);
    }

    static String hex(long v) {
        return "#0x" + Long.toHexString(v);
    }

    static String dec(long v) {
        return "#" + v;
    }

    static String op(String mnemonic, String operands) {
        return mnemonic + "\t" + operands;
    }

    static int bits(int w, int hi, int lo) {
        return (w >>> lo) & ((1 << (hi - lo + 1)) - 1);
    }

    static boolean bit(int w, int n) {
        return ((w >>> n) & 1) != 0;
    }

    // ---------------------------------------------------------------- top level (C4.1)

    static String disassemble(int w, long address, Disassembler.Names names) {
        int op0 = bits(w, 28, 25);
        switch (op0) {
            case 0x0:
                if ((w & 0xFFFF0000) == 0) {
                    return op("udf", dec(w & 0xFFFF));
                }
                return null; // SME (bit 31 set) and reserved: not covered, see docs/disassembly.md
            case 0x2:
                return A64Sve.disassemble(w);
            case 0x8:
            case 0x9:
                return dataProcessingImmediate(w, address, names);
            case 0xA:
            case 0xB:
                return A64System.branchesExceptionsSystem(w, address, names);
            case 0x5:
            case 0xD:
                return dataProcessingRegister(w);
            case 0x7:
            case 0xF:
                return A64Simd.disassemble(w);
            case 0x4:
            case 0x6:
            case 0xC:
            case 0xE:
                return A64LoadStore.disassemble(w, address, names);
            default:
                return null;
        }
    }

    // ---------------------------------------------------------------- data processing, immediate (C4.1.2)

    private static String dataProcessingImmediate(int w, long address, Disassembler.Names names) {
        int op1 = bits(w, 25, 23);
        boolean sf = bit(w, 31);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        switch (op1) {
            case 0:
            case 1: { // ADR, ADRP
                long imm = ((long) (w << 8) >> 13 << 2) | bits(w, 30, 29);
                if (bit(w, 31)) {
                    long target = (address & ~0xFFFL) + (imm << 12);
                    return op("adrp", x(rd) + ", " + names.target(target));
                }
                return op("adr", x(rd) + ", " + names.target(address + imm));
            }
            case 2: { // add/sub (immediate)
                boolean sub = bit(w, 30);
                boolean s = bit(w, 29);
                boolean shift = bit(w, 22);
                int imm = bits(w, 21, 10);
                String immText = hex(imm) + (shift ? ", lsl #12" : "");
                if (!sub && !s && !shift && imm == 0 && (rd == 31 || rn == 31)) {
                    return op("mov", rsp(sf, rd) + ", " + rsp(sf, rn));
                }
                if (s && rd == 31) {
                    return op(sub ? "cmp" : "cmn", rsp(sf, rn) + ", " + immText);
                }
                String m = (sub ? "sub" : "add") + (s ? "s" : "");
                return op(m, (s ? r(sf, rd) : rsp(sf, rd)) + ", " + rsp(sf, rn) + ", " + immText);
            }
            case 3: { // add/sub (immediate, with tags): ADDG, SUBG (FEAT_MTE); min/max (immediate), FEAT_CSSC
                if (bit(w, 22)) {
                    int opc = bits(w, 21, 18);
                    if (bits(w, 30, 29) != 0 || opc > 3) {
                        return null;
                    }
                    int imm8 = bits(w, 17, 10);
                    long imm = (opc & 1) != 0 ? imm8 : (byte) imm8;
                    String m = new String[] {"smax", "umax", "smin", "umin"}[opc];
                    return op(m, r(sf, rd) + ", " + r(sf, rn) + ", " + dec(imm));
                }
                if (!sf || bit(w, 29)) {
                    return null;
                }
                int uimm6 = bits(w, 21, 16);
                int uimm4 = bits(w, 13, 10);
                if (bits(w, 15, 14) != 0) {
                    return null;
                }
                return op(bit(w, 30) ? "subg" : "addg", xsp(rd) + ", " + xsp(rn) + ", " + hex(uimm6 * 16L) + ", " + hex(uimm4));
            }
            case 4: { // logical (immediate)
                int opc = bits(w, 30, 29);
                int n = bits(w, 22, 22);
                if (!sf && n == 1) {
                    return null;
                }
                long imm = decodeBitMask(n, bits(w, 21, 16), bits(w, 15, 10), sf ? 64 : 32);
                if (imm == 0 && !validBitMask(n, bits(w, 15, 10))) {
                    return null;
                }
                String immText = hex(sf ? imm : imm & 0xFFFFFFFFL);
                switch (opc) {
                    case 0:
                        return op("and", rsp(sf, rd) + ", " + r(sf, rn) + ", " + immText);
                    case 1:
                        if (rn == 31 && !moveWidePreferred(sf, n, bits(w, 15, 10), bits(w, 21, 16))) {
                            return op("mov", rsp(sf, rd) + ", " + immText);
                        }
                        return op("orr", rsp(sf, rd) + ", " + r(sf, rn) + ", " + immText);
                    case 2:
                        return op("eor", rsp(sf, rd) + ", " + r(sf, rn) + ", " + immText);
                    default:
                        if (rd == 31) {
                            return op("tst", r(sf, rn) + ", " + immText);
                        }
                        return op("ands", r(sf, rd) + ", " + r(sf, rn) + ", " + immText);
                }
            }
            case 5: { // move wide (immediate)
                int opc = bits(w, 30, 29);
                int hw = bits(w, 22, 21);
                long imm16 = bits(w, 20, 5);
                if (opc == 1 || (!sf && hw >= 2)) {
                    return null;
                }
                String shift = hw == 0 ? "" : ", lsl #" + hw * 16;
                if (opc == 0) { // MOVN
                    if (!(imm16 == 0 && hw != 0) && (sf || imm16 != 0xFFFF)) {
                        long v = ~(imm16 << (hw * 16));
                        return op("mov", r(sf, rd) + ", " + hex(sf ? v : v & 0xFFFFFFFFL));
                    }
                    return op("movn", r(sf, rd) + ", " + hex(imm16) + shift);
                }
                if (opc == 2) { // MOVZ
                    if (!(imm16 == 0 && hw != 0)) {
                        return op("mov", r(sf, rd) + ", " + hex(imm16 << (hw * 16)));
                    }
                    return op("movz", r(sf, rd) + ", " + hex(imm16) + shift);
                }
                return op("movk", r(sf, rd) + ", " + hex(imm16) + shift);
            }
            case 6:
                return bitfield(w);
            default: { // extract
                int op21 = bits(w, 30, 29);
                boolean n = bit(w, 22);
                int imms = bits(w, 15, 10);
                int rm = bits(w, 20, 16);
                if (op21 != 0 || bit(w, 21) || n != sf || (!sf && imms >= 32)) {
                    return null;
                }
                if (rn == rm) {
                    return op("ror", r(sf, rd) + ", " + r(sf, rn) + ", " + dec(imms));
                }
                return op("extr", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + dec(imms));
            }
        }
    }

    private static String bitfield(int w) {
        boolean sf = bit(w, 31);
        int opc = bits(w, 30, 29);
        boolean n = bit(w, 22);
        int immr = bits(w, 21, 16);
        int imms = bits(w, 15, 10);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        int size = sf ? 64 : 32;
        if (opc == 3 || n != sf || (!sf && (immr >= 32 || imms >= 32))) {
            return null;
        }
        String d = r(sf, rd);
        String s = r(sf, rn);
        String two = d + ", " + s + ", ";
        int lsbIz = (size - immr) & (size - 1);
        switch (opc) {
            case 0: // SBFM
                if (imms == size - 1) {
                    return op("asr", two + dec(immr));
                }
                if (imms < immr) {
                    return op("sbfiz", two + dec(lsbIz) + ", " + dec(imms + 1));
                }
                if (immr == 0 && (imms == 7 || imms == 15 || (sf && imms == 31))) {
                    return op(imms == 7 ? "sxtb" : imms == 15 ? "sxth" : "sxtw", d + ", " + r(false, rn));
                }
                return op("sbfx", two + dec(immr) + ", " + dec(imms - immr + 1));
            case 1: // BFM
                if (imms < immr) {
                    if (rn == 31) {
                        return op("bfc", d + ", " + dec(lsbIz) + ", " + dec(imms + 1));
                    }
                    return op("bfi", two + dec(lsbIz) + ", " + dec(imms + 1));
                }
                return op("bfxil", two + dec(immr) + ", " + dec(imms - immr + 1));
            default: // UBFM
                if (imms != size - 1 && imms + 1 == immr) {
                    return op("lsl", two + dec(size - 1 - imms));
                }
                if (imms == size - 1) {
                    return op("lsr", two + dec(immr));
                }
                if (imms < immr) {
                    return op("ubfiz", two + dec(lsbIz) + ", " + dec(imms + 1));
                }
                if (!sf && immr == 0 && (imms == 7 || imms == 15)) {
                    return op(imms == 7 ? "uxtb" : "uxth", d + ", " + r(false, rn));
                }
                return op("ubfx", two + dec(immr) + ", " + dec(imms - immr + 1));
        }
    }

    /** DecodeBitMasks() of the Arm ARM (J1.1.3): the immediate of a logical instruction. */
    static long decodeBitMask(int n, int immr, int imms, int dataSize) {
        int len = 31 - Integer.numberOfLeadingZeros((n << 6) | (~imms & 0x3F));
        if (len < 1) {
            return 0;
        }
        int esize = 1 << len;
        int levels = esize - 1;
        int s = imms & levels;
        int r = immr & levels;
        if (s == levels) {
            return 0; // reserved: all ones
        }
        long welem = (s + 1 == 64) ? -1L : (1L << (s + 1)) - 1;
        // rotate right by r within esize bits
        long emask = esize == 64 ? -1L : (1L << esize) - 1;
        long elem = r == 0 ? welem : ((welem >>> r) | (welem << (esize - r))) & emask;
        long result = 0;
        for (int i = 0; i < dataSize; i += esize) {
            result |= elem << i;
        }
        return dataSize == 32 ? result & 0xFFFFFFFFL : result;
    }

    static boolean validBitMask(int n, int imms) {
        int len = 31 - Integer.numberOfLeadingZeros((n << 6) | (~imms & 0x3F));
        if (len < 1) {
            return false;
        }
        int levels = (1 << len) - 1;
        return (imms & levels) != levels;
    }

    /** MoveWidePreferred() (C6.2.205, MOV (bitmask immediate)). */
    private static boolean moveWidePreferred(boolean sf, int n, int imms, int immr) {
        int width = sf ? 64 : 32;
        if (sf && n != 1) {
            return false;
        }
        if (!sf && !(n == 0 && (imms & 0x20) == 0)) {
            return false;
        }
        if (imms < 16) {
            return Math.floorMod(-immr, 16) <= (15 - imms);
        }
        if (imms >= width - 15) {
            return Math.floorMod(immr, 16) <= (imms - (width - 15));
        }
        return false;
    }

    // ---------------------------------------------------------------- data processing, register (C4.1.5)

    private static String dataProcessingRegister(int w) {
        boolean op1 = bit(w, 28);
        int op2 = bits(w, 24, 21);
        boolean sf = bit(w, 31);
        int rd = w & 31;
        int rn = bits(w, 9, 5);
        int rm = bits(w, 20, 16);
        if (!op1) {
            if ((op2 & 8) == 0) {
                return logicalShifted(w);
            }
            if ((op2 & 1) == 0) {
                return addSubShifted(w);
            }
            return addSubExtended(w);
        }
        if (op2 == 0) {
            int op3 = bits(w, 15, 10);
            if (op3 == 0) { // add/subtract with carry
                boolean sub = bit(w, 30);
                boolean s = bit(w, 29);
                if (sub && rn == 31) {
                    return op(s ? "ngcs" : "ngc", r(sf, rd) + ", " + r(sf, rm));
                }
                return op((sub ? "sbc" : "adc") + (s ? "s" : ""), r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm));
            }
            if ((op3 & 0x1F) == 1) { // RMIF (FEAT_FlagM)
                if (sf && !bit(w, 30) && bit(w, 29) && !bit(w, 4)) {
                    return op("rmif", x(rn) + ", " + dec(bits(w, 20, 15)) + ", " + hex(w & 0xF));
                }
                return null;
            }
            if ((op3 & 0xF) == 2) { // SETF8, SETF16
                if (!sf && !bit(w, 30) && bit(w, 29) && bits(w, 20, 15) == 0 && bits(w, 4, 0) == 0xD) {
                    return op(bit(w, 14) ? "setf16" : "setf8", r(false, rn));
                }
                return null;
            }
            return null;
        }
        if (op2 == 2) { // conditional compare (register / immediate)
            if (!bit(w, 29) || bit(w, 10) || bit(w, 4)) {
                return null;
            }
            String m = bit(w, 30) ? "ccmp" : "ccmn";
            String second = bit(w, 11) ? hex(rm) : r(sf, rm);
            return op(m, r(sf, rn) + ", " + second + ", " + hex(w & 0xF) + ", " + COND[bits(w, 15, 12)]);
        }
        if (op2 == 4) { // conditional select
            if (bit(w, 29) || bit(w, 11)) {
                return null;
            }
            int o = (bit(w, 30) ? 2 : 0) | bits(w, 10, 10);
            int cond = bits(w, 15, 12);
            String inv = COND[cond ^ 1];
            boolean notAl = (cond & 0xE) != 0xE;
            switch (o) {
                case 0:
                    return op("csel", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + COND[cond]);
                case 1:
                    if (rn == 31 && rm == 31 && notAl) {
                        return op("cset", r(sf, rd) + ", " + inv);
                    }
                    if (rn == rm && rn != 31 && notAl) {
                        return op("cinc", r(sf, rd) + ", " + r(sf, rn) + ", " + inv);
                    }
                    return op("csinc", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + COND[cond]);
                case 2:
                    if (rn == 31 && rm == 31 && notAl) {
                        return op("csetm", r(sf, rd) + ", " + inv);
                    }
                    if (rn == rm && rn != 31 && notAl) {
                        return op("cinv", r(sf, rd) + ", " + r(sf, rn) + ", " + inv);
                    }
                    return op("csinv", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + COND[cond]);
                default:
                    if (rn == rm && notAl) {
                        return op("cneg", r(sf, rd) + ", " + r(sf, rn) + ", " + inv);
                    }
                    return op("csneg", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + COND[cond]);
            }
        }
        if (op2 == 6) {
            return bit(w, 30) ? dataProcessing1(w) : dataProcessing2(w);
        }
        if ((op2 & 8) != 0) {
            return dataProcessing3(w);
        }
        return null;
    }

    private static String logicalShifted(int w) {
        boolean sf = bit(w, 31);
        int opc = bits(w, 30, 29);
        int shift = bits(w, 23, 22);
        boolean neg = bit(w, 21);
        int rm = bits(w, 20, 16);
        int imm6 = bits(w, 15, 10);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        if (!sf && imm6 >= 32) {
            return null;
        }
        String sh = imm6 == 0 && shift == 0 ? "" : ", " + SHIFT[shift] + " " + dec(imm6);
        String m = new String[] {"and", "orr", "eor", "ands"}[opc];
        if (neg) {
            m = new String[] {"bic", "orn", "eon", "bics"}[opc];
        }
        if (opc == 1 && rn == 31) {
            if (!neg && shift == 0 && imm6 == 0) {
                return op("mov", r(sf, rd) + ", " + r(sf, rm));
            }
            if (neg) {
                return op("mvn", r(sf, rd) + ", " + r(sf, rm) + sh);
            }
        }
        if (opc == 3 && !neg && rd == 31) {
            return op("tst", r(sf, rn) + ", " + r(sf, rm) + sh);
        }
        return op(m, r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + sh);
    }

    private static String addSubShifted(int w) {
        boolean sf = bit(w, 31);
        boolean sub = bit(w, 30);
        boolean s = bit(w, 29);
        int shift = bits(w, 23, 22);
        int rm = bits(w, 20, 16);
        int imm6 = bits(w, 15, 10);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        if (shift == 3 || (!sf && imm6 >= 32)) {
            return null;
        }
        String sh = imm6 == 0 && shift == 0 ? "" : ", " + SHIFT[shift] + " " + dec(imm6);
        if (s && rd == 31) {
            return op(sub ? "cmp" : "cmn", r(sf, rn) + ", " + r(sf, rm) + sh);
        }
        if (sub && rn == 31) {
            return op(s ? "negs" : "neg", r(sf, rd) + ", " + r(sf, rm) + sh);
        }
        return op((sub ? "sub" : "add") + (s ? "s" : ""), r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + sh);
    }

    private static String addSubExtended(int w) {
        boolean sf = bit(w, 31);
        boolean sub = bit(w, 30);
        boolean s = bit(w, 29);
        int opt = bits(w, 23, 22);
        int rm = bits(w, 20, 16);
        int option = bits(w, 15, 13);
        int imm3 = bits(w, 12, 10);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        if (opt != 0 || imm3 > 4) {
            return null;
        }
        String ext;
        boolean lslForm = (rd == 31 && !s || rn == 31) && option == (sf ? 3 : 2);
        if (lslForm) {
            ext = imm3 == 0 ? "" : ", lsl " + dec(imm3);
        } else {
            ext = ", " + EXTEND[option] + (imm3 == 0 ? "" : " " + dec(imm3));
        }
        String m = r(sf && (option & 3) == 3, rm);
        if (s && rd == 31) {
            return op(sub ? "cmp" : "cmn", rsp(sf, rn) + ", " + m + ext);
        }
        return op((sub ? "sub" : "add") + (s ? "s" : ""), (s ? r(sf, rd) : rsp(sf, rd)) + ", " + rsp(sf, rn) + ", " + m + ext);
    }

    private static String dataProcessing2(int w) {
        boolean sf = bit(w, 31);
        boolean s = bit(w, 29);
        int opcode = bits(w, 15, 10);
        int rm = bits(w, 20, 16);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        String three = r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm);
        if (s) {
            if (opcode == 0 && sf) { // SUBPS (FEAT_MTE)
                if (rd == 31) {
                    return op("cmpp", xsp(rn) + ", " + xsp(rm));
                }
                return op("subps", x(rd) + ", " + xsp(rn) + ", " + xsp(rm));
            }
            return null;
        }
        switch (opcode) {
            case 0:
                return sf ? op("subp", x(rd) + ", " + xsp(rn) + ", " + xsp(rm)) : null;
            case 2:
                return op("udiv", three);
            case 3:
                return op("sdiv", three);
            case 4:
                return sf ? op("irg", xsp(rd) + ", " + xsp(rn) + (rm == 31 ? "" : ", " + x(rm))) : null;
            case 5:
                return sf ? op("gmi", x(rd) + ", " + xsp(rn) + ", " + x(rm)) : null;
            case 8:
                return op("lsl", three);
            case 9:
                return op("lsr", three);
            case 10:
                return op("asr", three);
            case 11:
                return op("ror", three);
            case 12:
                return sf ? op("pacga", x(rd) + ", " + x(rn) + ", " + xsp(rm)) : null;
            case 16: case 17: case 18: case 19: case 20: case 21: case 22: case 23: {
                int sz = opcode & 3;
                boolean c = (opcode & 4) != 0;
                if ((sz == 3) != sf) {
                    return null;
                }
                String m = "crc32" + (c ? "c" : "") + "bhwx".charAt(sz);
                return op(m, r(false, rd) + ", " + r(false, rn) + ", " + r(sz == 3, rm));
            }
            case 24: case 25: case 26: case 27: { // SMAX, UMAX, SMIN, UMIN (register), FEAT_CSSC
                String m = new String[] {"smax", "umax", "smin", "umin"}[opcode & 3];
                return op(m, three);
            }
            default:
                return null;
        }
    }

    private static String dataProcessing1(int w) {
        boolean sf = bit(w, 31);
        int opcode2 = bits(w, 20, 16);
        int opcode = bits(w, 15, 10);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        if (bit(w, 29)) {
            return null;
        }
        if (opcode2 == 0) {
            String two = r(sf, rd) + ", " + r(sf, rn);
            switch (opcode) {
                case 0:
                    return op("rbit", two);
                case 1:
                    return op("rev16", two);
                case 2:
                    return op(sf ? "rev32" : "rev", two);
                case 3:
                    return sf ? op("rev", two) : null;
                case 4:
                    return op("clz", two);
                case 5:
                    return op("cls", two);
                case 6:
                    return op("ctz", two);
                case 7:
                    return op("cnt", two);
                case 8:
                    return op("abs", two);
                default:
                    return null;
            }
        }
        if (opcode2 == 1 && sf) { // pointer authentication (FEAT_PAuth)
            String[] names = {"pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda", "autdb"};
            if (opcode < 8) {
                return op(names[opcode], x(rd) + ", " + xsp(rn));
            }
            if (opcode < 16 && rn == 31) {
                return op(names[opcode - 8].substring(0, 4) + "z" + names[opcode - 8].substring(4), x(rd));
            }
            if (opcode == 16 && rn == 31) {
                return op("xpaci", x(rd));
            }
            if (opcode == 17 && rn == 31) {
                return op("xpacd", x(rd));
            }
        }
        return null;
    }

    private static String dataProcessing3(int w) {
        boolean sf = bit(w, 31);
        int op54 = bits(w, 30, 29);
        int op31 = bits(w, 23, 21);
        boolean o0 = bit(w, 15);
        int rm = bits(w, 20, 16);
        int ra = bits(w, 14, 10);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        if (op54 != 0) {
            return null;
        }
        switch (op31) {
            case 0:
                if (ra == 31) {
                    return op(o0 ? "mneg" : "mul", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm));
                }
                return op(o0 ? "msub" : "madd", r(sf, rd) + ", " + r(sf, rn) + ", " + r(sf, rm) + ", " + r(sf, ra));
            case 1:
            case 5: {
                if (!sf) {
                    return null;
                }
                String u = op31 == 5 ? "u" : "s";
                if (ra == 31) {
                    return op(u + (o0 ? "mnegl" : "mull"), x(rd) + ", " + r(false, rn) + ", " + r(false, rm));
                }
                return op(u + (o0 ? "msubl" : "maddl"), x(rd) + ", " + r(false, rn) + ", " + r(false, rm) + ", " + x(ra));
            }
            case 2:
            case 6:
                if (!sf || o0) {
                    return null;
                }
                return op(op31 == 6 ? "umulh" : "smulh", x(rd) + ", " + x(rn) + ", " + x(rm));
            default:
                return null;
        }
    }
}
