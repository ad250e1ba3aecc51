package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.dec;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64Disassembler.r;
import static io.armtrace.isa.disasm.A64Disassembler.x;
import static io.armtrace.isa.disasm.A64Disassembler.xsp;

/** A64 loads and stores (DDI 0487 C4.1.4), integer, floating-point and Advanced SIMD structures. */
final class A64LoadStore {
    private A64LoadStore() {
    }

    static final String[] ARRANGEMENT = {"8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"};
    private static final String FP = "bhsdq";

    /** A SIMD&FP register by its access size in bytes, log2 (0 = b ... 4 = q). */
    static String fp(int log2, int n) {
        return FP.charAt(log2) + Integer.toString(n & 31);
    }

    private static String mem(int rn) {
        return "[" + xsp(rn) + "]";
    }

    private static String memOffset(int rn, long offset) {
        return offset == 0 ? mem(rn) : "[" + xsp(rn) + ", " + dec(offset) + "]";
    }

    static String disassemble(int w, long address, Disassembler.Names names) {
        int op0 = bits(w, 31, 28);
        boolean v = bit(w, 26);
        int op2 = bits(w, 24, 23);
        if ((op0 & 0xB) == 0 && v) { // 0x00 1: Advanced SIMD structures
            if ((op2 & 2) == 0) {
                return bits(w, 21, 21) == 0 && (op2 == 1 || bits(w, 20, 16) == 0) ? multipleStructures(w) : null;
            }
            return op2 == 3 || bits(w, 20, 16) == 0 ? singleStructure(w) : null;
        }
        if (op0 == 0xD && !v && (op2 & 2) != 0 && bit(w, 21)) {
            return memoryTags(w);
        }
        switch (bits(w, 29, 28)) {
            case 0:
                return v || bit(w, 24) ? null : exclusive(w);
            case 1:
                if ((op2 & 2) == 0) {
                    return literal(w, address, names);
                }
                if (bits(w, 25, 24) == 1 && !bit(w, 21) && bits(w, 11, 10) == 1) {
                    return memoryCopySet(w);
                }
                if (!v && !bit(w, 21) && bits(w, 11, 10) == 0) {
                    return rcpcUnscaled(w);
                }
                return null;
            case 2:
                return pair(w);
            default:
                return register(w);
        }
    }

    // ---------------------------------------------------------------- exclusive, ordered, compare and swap

    private static String exclusive(int w) {
        int size = bits(w, 31, 30);
        boolean o2 = bit(w, 23);
        boolean l = bit(w, 22);
        boolean o1 = bit(w, 21);
        int rs = bits(w, 20, 16);
        boolean o0 = bit(w, 15);
        int rt2 = bits(w, 14, 10);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        boolean wide = size == 3;
        String bh = size == 0 ? "b" : size == 1 ? "h" : "";
        if (!o2 && !o1) { // STXR, STLXR, LDXR, LDAXR
            String m = (l ? (o0 ? "ldaxr" : "ldxr") : (o0 ? "stlxr" : "stxr")) + bh;
            if (l) {
                return op(m, r(wide, rt) + ", " + mem(rn));
            }
            return op(m, r(false, rs) + ", " + r(wide, rt) + ", " + mem(rn));
        }
        if (!o2) { // o1 = 1: STXP, STLXP, LDXP, LDAXP (size 1x), CASP (size 0x)
            if ((size & 2) != 0) {
                boolean x = size == 3;
                String m = l ? (o0 ? "ldaxp" : "ldxp") : (o0 ? "stlxp" : "stxp");
                if (l) {
                    return op(m, r(x, rt) + ", " + r(x, rt2) + ", " + mem(rn));
                }
                return op(m, r(false, rs) + ", " + r(x, rt) + ", " + r(x, rt2) + ", " + mem(rn));
            }
            if (rt2 != 31 || (rs & 1) != 0 || (rt & 1) != 0) {
                return null;
            }
            boolean x = size == 1;
            String m = "casp" + (l ? "a" : "") + (o0 ? "l" : "");
            return op(m, r(x, rs) + ", " + r(x, rs + 1) + ", " + r(x, rt) + ", " + r(x, rt + 1) + ", " + mem(rn));
        }
        if (!o1) { // STLLR, STLR, LDLAR, LDAR
            if (l && o0 && (rs != 31 || rt2 != 31)) {
                return null; // objdump decodes LDAR only with Rs and Rt2 all ones (their fixed values)
            }
            String m = (l ? (o0 ? "ldar" : "ldlar") : (o0 ? "stlr" : "stllr")) + bh;
            return op(m, r(wide, rt) + ", " + mem(rn));
        }
        if (rt2 != 31) {
            return null;
        }
        String m = "cas" + (l ? "a" : "") + (o0 ? "l" : "") + bh;
        return op(m, r(wide, rs) + ", " + r(wide, rt) + ", " + mem(rn));
    }

    // ---------------------------------------------------------------- literal, pairs

    private static String literal(int w, long address, Disassembler.Names names) {
        int opc = bits(w, 31, 30);
        boolean v = bit(w, 26);
        int rt = w & 31;
        String target = names.target(address + ((long) (w << 8) >> 13 << 2));
        if (v) {
            return opc == 3 ? null : op("ldr", fp(opc + 2, rt) + ", " + target);
        }
        switch (opc) {
            case 0:
                return op("ldr", r(false, rt) + ", " + target);
            case 1:
                return op("ldr", x(rt) + ", " + target);
            case 2:
                return op("ldrsw", x(rt) + ", " + target);
            default:
                return op("prfm", prefetch(rt) + ", " + target);
        }
    }

    static String prefetch(int rt) {
        int type = rt >>> 3;
        int target = (rt >>> 1) & 3;
        if (type == 3 || target == 3) {
            return String.format("#0x%02x", rt);
        }
        return new String[] {"pld", "pli", "pst"}[type] + "l" + (target + 1) + ((rt & 1) == 0 ? "keep" : "strm");
    }

    private static String pair(int w) {
        int opc = bits(w, 31, 30);
        boolean v = bit(w, 26);
        int mode = bits(w, 24, 23); // 0 no-allocate, 1 post-index, 2 offset, 3 pre-index
        boolean l = bit(w, 22);
        long imm7 = (w << 10) >> 25;
        int rt2 = bits(w, 14, 10);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        String m;
        String t1;
        String t2;
        int scale;
        if (v) {
            if (opc == 3) {
                return null;
            }
            scale = 2 + opc;
            t1 = fp(scale, rt);
            t2 = fp(scale, rt2);
            m = mode == 0 ? (l ? "ldnp" : "stnp") : (l ? "ldp" : "stp");
        } else {
            if (opc == 3) {
                return null;
            }
            if (opc == 1) {
                if (!l) {
                    if (mode == 0) {
                        return null;
                    }
                    scale = 4;
                    m = "stgp";
                    t1 = x(rt);
                    t2 = x(rt2);
                } else {
                    // objdump calls LDPSW with Rt = Rt2, or with write-back into Rt or Rt2, undefined
                    if (mode == 0 || rt == rt2 || (mode != 2 && rn != 31 && (rn == rt || rn == rt2))) {
                        return null;
                    }
                    scale = 2;
                    m = "ldpsw";
                    t1 = x(rt);
                    t2 = x(rt2);
                }
            } else {
                boolean x = opc == 2;
                scale = x ? 3 : 2;
                t1 = r(x, rt);
                t2 = r(x, rt2);
                m = mode == 0 ? (l ? "ldnp" : "stnp") : (l ? "ldp" : "stp");
            }
        }
        long offset = imm7 << scale;
        String address;
        switch (mode) {
            case 1:
                address = mem(rn) + ", " + dec(offset);
                break;
            case 3:
                address = "[" + xsp(rn) + ", " + dec(offset) + "]!";
                break;
            default:
                address = memOffset(rn, offset);
                break;
        }
        return op(m, t1 + ", " + t2 + ", " + address);
    }

    // ---------------------------------------------------------------- single registers

    /** Mnemonic stem, register and access size for size:V:opc; null if unallocated. */
    private static final class Access {
        String stem; // "str", "ldrsb", ...
        String reg;
        int scale;
    }

    private static Access access(int w, boolean prfmAllowed) {
        int size = bits(w, 31, 30);
        boolean v = bit(w, 26);
        int opc = bits(w, 23, 22);
        int rt = w & 31;
        Access a = new Access();
        if (v) {
            int log2 = (opc & 2) != 0 ? (size == 0 ? 4 : -1) : size;
            if (log2 < 0) {
                return null;
            }
            a.stem = (opc & 1) != 0 ? "ldr" : "str";
            a.reg = fp(log2, rt);
            a.scale = log2;
            return a;
        }
        a.scale = size;
        String bh = size == 0 ? "b" : size == 1 ? "h" : "";
        switch (opc) {
            case 0:
                a.stem = "str" + bh;
                a.reg = r(size == 3, rt);
                return a;
            case 1:
                a.stem = "ldr" + bh;
                a.reg = r(size == 3, rt);
                return a;
            case 2:
                if (size == 3) {
                    if (!prfmAllowed) {
                        return null;
                    }
                    a.stem = "prfm";
                    a.reg = prefetch(rt);
                    return a;
                }
                a.stem = "ldrs" + (size == 2 ? "w" : bh);
                a.reg = x(rt);
                return a;
            default:
                if (size >= 2) {
                    return null;
                }
                a.stem = "ldrs" + bh;
                a.reg = r(false, rt);
                return a;
        }
    }

    private static String register(int w) {
        int op2 = bits(w, 24, 23);
        int rn = bits(w, 9, 5);
        if ((op2 & 2) != 0) { // unsigned immediate
            Access a = access(w, true);
            if (a == null) {
                return null;
            }
            long offset = (long) bits(w, 21, 10) << a.scale;
            return op(a.stem, a.reg + ", " + memOffset(rn, offset));
        }
        int op4 = bits(w, 11, 10);
        if (!bit(w, 21)) {
            long imm9 = (w << 11) >> 23;
            if (op4 == 0 || op4 == 2) { // unscaled (STUR...), unprivileged (STTR...)
                Access a = access(w, true);
                if (a == null) {
                    return null;
                }
                String m;
                if (op4 == 0) {
                    m = a.stem.equals("prfm") ? "prfum" : a.stem.substring(0, 2) + "u" + a.stem.substring(2);
                } else {
                    if (bit(w, 26) || a.stem.equals("prfm")) {
                        return null;
                    }
                    m = a.stem.substring(0, 2) + "t" + a.stem.substring(2);
                }
                return op(m, a.reg + ", " + memOffset(rn, imm9));
            }
            Access a = access(w, false);
            if (a == null) {
                return null;
            }
            if (op4 == 1) {
                return op(a.stem, a.reg + ", " + mem(rn) + ", " + dec(imm9));
            }
            return op(a.stem, a.reg + ", [" + xsp(rn) + ", " + dec(imm9) + "]!");
        }
        switch (op4) {
            case 0:
                return bit(w, 26) ? null : atomic(w);
            case 2: { // register offset
                Access a = access(w, true);
                int option = bits(w, 15, 13);
                if (a == null || (option & 2) == 0) {
                    return null;
                }
                boolean s = bit(w, 12);
                int rm = bits(w, 20, 16);
                String index = r((option & 1) != 0, rm);
                String ext;
                if (option == 3) {
                    ext = s ? ", lsl " + dec(a.scale) : "";
                } else {
                    ext = ", " + A64Disassembler.EXTEND[option] + (s ? " " + dec(a.scale) : "");
                }
                return op(a.stem, a.reg + ", [" + xsp(rn) + ", " + index + ext + "]");
            }
            default: { // LDRAA, LDRAB (FEAT_PAuth)
                if (bits(w, 31, 30) != 3 || bit(w, 26)) {
                    return null;
                }
                long offset = ((long) ((bits(w, 22, 22) << 9 | bits(w, 20, 12)) << 22) >> 22) << 3;
                String m = bit(w, 23) ? "ldrab" : "ldraa";
                String mem = memOffset(rn, offset);
                if (bit(w, 11)) {
                    mem = "[" + xsp(rn) + ", " + dec(offset) + "]!";
                }
                return op(m, x(w) + ", " + mem);
            }
        }
    }

    private static String atomic(int w) {
        int size = bits(w, 31, 30);
        boolean a = bit(w, 23);
        boolean rel = bit(w, 22);
        int rs = bits(w, 20, 16);
        boolean o3 = bit(w, 15);
        int opc = bits(w, 14, 12);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        boolean wide = size == 3;
        String bh = size == 0 ? "b" : size == 1 ? "h" : "";
        String order = (a ? "a" : "") + (rel ? "l" : "");
        if (o3) {
            if (opc == 0) {
                return op("swp" + order + bh, r(wide, rs) + ", " + r(wide, rt) + ", " + mem(rn));
            }
            if (opc == 4 && a && !rel && rs == 31) {
                return op("ldapr" + bh, r(wide, rt) + ", " + mem(rn));
            }
            return null;
        }
        String[] ops = {"add", "clr", "eor", "set", "smax", "smin", "umax", "umin"};
        if (rt == 31 && !a) {
            return op("st" + ops[opc] + (rel ? "l" : "") + bh, r(wide, rs) + ", " + mem(rn));
        }
        return op("ld" + ops[opc] + order + bh, r(wide, rs) + ", " + r(wide, rt) + ", " + mem(rn));
    }

    private static final String[] COPY_OPTIONS = {"", "wt", "rt", "t", "wn", "wtwn", "rtwn", "twn", "rn", "wtrn",
        "rtrn", "trn", "n", "wtn", "rtn", "tn"};

    /** CPY* and SET* (FEAT_MOPS): prologue, main and epilogue of memcpy/memmove and memset. */
    private static String memoryCopySet(int w) {
        if (bits(w, 31, 30) != 0) {
            return null;
        }
        boolean o0 = bit(w, 26);
        int op1 = bits(w, 23, 22);
        int op2 = bits(w, 15, 12);
        int rs = bits(w, 20, 16);
        int rn = bits(w, 9, 5);
        int rd = w & 31;
        // the three registers are distinct, and none is 31 except the SET data register (C6.2.70 ff.)
        if (rd == 31 || rn == 31 || rd == rn || rd == rs || rn == rs || (op1 != 3 && rs == 31)) {
            return null;
        }
        if (op1 == 3) {
            if ((op2 & 0xC) == 0xC) {
                return null;
            }
            String m = (o0 ? "setg" : "set") + "pme".charAt(op2 >>> 2) + new String[] {"", "t", "n", "tn"}[op2 & 3];
            return op(m, "[" + x(rd) + "]!, " + x(rn) + "!, " + x(rs));
        }
        String m = (o0 ? "cpy" : "cpyf") + "pme".charAt(op1) + COPY_OPTIONS[op2];
        return op(m, "[" + x(rd) + "]!, [" + x(rs) + "]!, " + x(rn) + "!");
    }

    private static String rcpcUnscaled(int w) {
        int size = bits(w, 31, 30);
        int opc = bits(w, 23, 22);
        long imm9 = (w << 11) >> 23;
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        String bh = size == 0 ? "b" : size == 1 ? "h" : "";
        String m;
        String reg;
        switch (opc) {
            case 0:
                m = "stlur" + bh;
                reg = r(size == 3, rt);
                break;
            case 1:
                m = "ldapur" + bh;
                reg = r(size == 3, rt);
                break;
            case 2:
                if (size == 3) {
                    return null;
                }
                m = "ldapurs" + (size == 2 ? "w" : bh);
                reg = x(rt);
                break;
            default:
                if (size >= 2) {
                    return null;
                }
                m = "ldapurs" + bh;
                reg = r(false, rt);
                break;
        }
        return op(m, reg + ", " + memOffset(rn, imm9));
    }

    private static String memoryTags(int w) {
        int opc = bits(w, 23, 22);
        long imm9 = (w << 11) >> 23;
        int op2 = bits(w, 11, 10);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        if (op2 == 0) {
            switch (opc) {
                case 0:
                    return imm9 == 0 ? op("stzgm", x(rt) + ", " + mem(rn)) : null;
                case 1:
                    return op("ldg", x(rt) + ", " + memOffset(rn, imm9 << 4));
                case 2:
                    return imm9 == 0 ? op("stgm", x(rt) + ", " + mem(rn)) : null;
                default:
                    return imm9 == 0 ? op("ldgm", x(rt) + ", " + mem(rn)) : null;
            }
        }
        String m = new String[] {"stg", "stzg", "st2g", "stz2g"}[opc];
        long offset = imm9 << 4;
        String address;
        if (op2 == 1) {
            address = mem(rn) + ", " + dec(offset);
        } else if (op2 == 3) {
            address = "[" + xsp(rn) + ", " + dec(offset) + "]!";
        } else {
            address = memOffset(rn, offset);
        }
        return op(m, xsp(rt) + ", " + address);
    }

    // ---------------------------------------------------------------- Advanced SIMD structures

    static String vlist(int first, int count, String suffix) {
        StringBuilder b = new StringBuilder(24).append('{');
        int last = (first + count - 1) & 31;
        if (count > 2 && last > first) {
            b.append('v').append(first).append('.').append(suffix).append("-v").append(last).append('.').append(suffix);
        } else {
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append('v').append((first + i) & 31).append('.').append(suffix);
            }
        }
        return b.append('}').toString();
    }

    private static String postIndex(int w, int bytes) {
        int rm = bits(w, 20, 16);
        return rm == 31 ? ", " + dec(bytes) : ", " + x(rm);
    }

    private static String multipleStructures(int w) {
        boolean q = bit(w, 30);
        boolean l = bit(w, 22);
        boolean post = bit(w, 23);
        int opcode = bits(w, 15, 12);
        int size = bits(w, 11, 10);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        int regs;
        int selem;
        switch (opcode) {
            case 0: regs = 4; selem = 4; break;
            case 2: regs = 4; selem = 1; break;
            case 4: regs = 3; selem = 3; break;
            case 6: regs = 3; selem = 1; break;
            case 7: regs = 1; selem = 1; break;
            case 8: regs = 2; selem = 2; break;
            case 10: regs = 2; selem = 1; break;
            default: return null;
        }
        if (size == 3 && !q && selem != 1) {
            return null;
        }
        String m = (l ? "ld" : "st") + selem;
        String ops = vlist(rt, regs, ARRANGEMENT[size << 1 | (q ? 1 : 0)]) + ", " + mem(rn);
        if (post) {
            ops += postIndex(w, regs * (q ? 16 : 8));
        }
        return op(m, ops);
    }

    private static String singleStructure(int w) {
        boolean q = bit(w, 30);
        boolean l = bit(w, 22);
        boolean post = bit(w, 23);
        boolean r = bit(w, 21);
        int opcode = bits(w, 15, 13);
        boolean s = bit(w, 12);
        int size = bits(w, 11, 10);
        int rn = bits(w, 9, 5);
        int rt = w & 31;
        int selem = ((opcode & 1) << 1 | (r ? 1 : 0)) + 1;
        int scale = opcode >>> 1;
        String m;
        String list;
        int bytes;
        if (scale == 3) { // replicate
            if (!l || s) {
                return null;
            }
            m = "ld" + selem + "r";
            list = vlist(rt, selem, ARRANGEMENT[size << 1 | (q ? 1 : 0)]);
            bytes = selem << size;
        } else {
            int index;
            char t;
            switch (scale) {
                case 0:
                    index = (q ? 8 : 0) | (s ? 4 : 0) | size;
                    t = 'b';
                    break;
                case 1:
                    if ((size & 1) != 0) {
                        return null;
                    }
                    index = (q ? 4 : 0) | (s ? 2 : 0) | (size >>> 1);
                    t = 'h';
                    break;
                default:
                    if (size == 0) {
                        index = (q ? 2 : 0) | (s ? 1 : 0);
                        t = 's';
                        scale = 2;
                    } else if (size == 1 && !s) {
                        index = q ? 1 : 0;
                        t = 'd';
                        scale = 3;
                    } else {
                        return null;
                    }
                    break;
            }
            m = (l ? "ld" : "st") + selem;
            list = vlist(rt, selem, String.valueOf(t)) + "[" + index + "]";
            bytes = selem << scale;
        }
        String ops = list + ", " + mem(rn);
        if (post) {
            ops += postIndex(w, bytes);
        }
        return op(m, ops);
    }
}
