package io.armtrace.isa.disasm;


import static io.armtrace.isa.disasm.Asm.r;

/**
 * Advanced SIMD (NEON) data-processing and element load/store instructions (DDI 0406C A7.4, A7.7).
 * The word is A32-shaped (T32 encodings are mapped onto it by the caller). A Q register written with
 * an odd D number is UNDEFINED; objdump prints it as {@code <illegal reg ...>}, and so does this.
 */
final class Simd {
    private static final String ILLEGAL = "<illegal reg>";

    private Simd() {
    }

    private static String d(int w, int lo, int hiBit) {
        return "d" + (((w >>> hiBit) & 1) << 4 | ((w >>> lo) & 15));
    }

    private static String reg(int w, int lo, int hiBit, boolean q) {
        int n = ((w >>> hiBit) & 1) << 4 | ((w >>> lo) & 15);
        if (!q) {
            return "d" + n;
        }
        return (n & 1) != 0 ? ILLEGAL : "q" + (n >>> 1);
    }

    private static String vd(int w, boolean q) {
        return reg(w, 12, 22, q);
    }

    private static String vn(int w, boolean q) {
        return reg(w, 16, 7, q);
    }

    private static String vm(int w, boolean q) {
        return reg(w, 0, 5, q);
    }

    static String dataProcessing(int w, boolean thumb) {
        boolean u = (w & 0x01000000) != 0;
        if ((w & 0x00800000) == 0) {
            return threeSame(w, u);
        }
        if ((w & 0x00B80090) == 0x00800010) {
            return oneRegisterImmediate(w, u);
        }
        if ((w & 0x00800010) == 0x00800010) {
            return twoRegistersShift(w, u);
        }
        if ((w & 0x00800050) == 0x00800000 && (w & 0x00300000) != 0x00300000) {
            return threeDifferent(w, u);
        }
        if ((w & 0x00800050) == 0x00800040 && (w & 0x00300000) != 0x00300000) {
            return twoRegistersScalar(w, u);
        }
        if (!u && (w & 0x00B00010) == 0x00B00000) {
            int imm = (w >>> 8) & 15;
            boolean q = (w & 0x40) != 0;
            return "vext.8\t" + vd(w, q) + ", " + vn(w, q) + ", " + vm(w, q) + ", #" + imm;
        }
        if (u && (w & 0x00B00810) == 0x00B00000) {
            return twoRegistersMisc(w);
        }
        if (u && (w & 0x00B00C10) == 0x00B00800) {
            int len = ((w >>> 8) & 3) + 1;
            int n = ((w >>> 7) & 1) << 4 | ((w >>> 16) & 15);
            String list = len == 1 ? "{d" + n + "}" : "{d" + n + "-d" + (n + len - 1) + "}";
            return ((w & 0x40) != 0 ? "vtbx.8\t" : "vtbl.8\t") + d(w, 12, 22) + ", " + list + ", " + d(w, 0, 5);
        }
        if (u && (w & 0x00B00F90) == 0x00B00C00) {
            int imm4 = (w >>> 16) & 15;
            String size;
            int index;
            if ((imm4 & 1) != 0) {
                size = "8";
                index = imm4 >>> 1;
            } else if ((imm4 & 2) != 0) {
                size = "16";
                index = imm4 >>> 2;
            } else if ((imm4 & 4) != 0) {
                size = "32";
                index = imm4 >>> 3;
            } else {
                return null;
            }
            boolean q = (w & 0x40) != 0;
            return "vdup." + size + "\t" + vd(w, q) + ", " + d(w, 0, 5) + "[" + index + "]";
        }
        return null;
    }

    private static String threeSame(int w, boolean u) {
        int a = (w >>> 8) & 15;
        boolean b = (w & 0x10) != 0;
        int c = (w >>> 20) & 3;
        boolean q = (w & 0x40) != 0;
        String su = (u ? ".u" : ".s") + (8 << c);
        String i = ".i" + (8 << c);
        String f = (c & 1) != 0 ? ".f16" : ".f32";
        boolean high = (c & 2) != 0;
        String m;
        String t;
        boolean swapShift = false;
        switch (a) {
            case 0: m = b ? "vqadd" : "vhadd"; t = su; break;
            case 1:
                if (!b) {
                    m = "vrhadd";
                    t = su;
                    break;
                }
                String[] logic = u ? new String[] {"veor", "vbsl", "vbit", "vbif"} : new String[] {"vand", "vbic", "vorr", "vorn"};
                m = logic[c];
                t = "";
                // VORR with identical sources is the VMOV (register) alias of the architecture (DDI 0406C
                // A8.8.340), but binutils 2.40's objdump prints it as vorr, and listings follow objdump
                break;
            case 2: m = b ? "vqsub" : "vhsub"; t = su; break;
            case 3: m = b ? "vcge" : "vcgt"; t = su; break;
            case 4: m = b ? "vqshl" : "vshl"; t = su; swapShift = true; break;
            case 5: m = b ? "vqrshl" : "vrshl"; t = su; swapShift = true; break;
            case 6: m = b ? "vmin" : "vmax"; t = su; break;
            case 7: m = b ? "vaba" : "vabd"; t = su; break;
            case 8:
                if (!b) {
                    m = u ? "vsub" : "vadd";
                    t = i;
                } else {
                    m = u ? "vceq" : "vtst";
                    t = u ? i : "." + (8 << c);
                }
                break;
            case 9:
                if (!b) {
                    m = u ? "vmls" : "vmla";
                    t = i;
                } else {
                    m = "vmul";
                    t = (u ? ".p" : ".i") + (8 << c);
                }
                break;
            case 10: m = b ? "vpmin" : "vpmax"; t = su; break;
            case 11:
                if (!b) {
                    m = u ? "vqrdmulh" : "vqdmulh";
                    t = ".s" + (8 << c);
                } else if (!u) {
                    m = "vpadd";
                    t = i;
                } else {
                    m = "vqrdmlah";
                    t = ".s" + (8 << c);
                }
                break;
            case 12:
                if (b && !u) {
                    m = high ? "vfms" : "vfma";
                    t = f;
                } else if (b) {
                    m = "vqrdmlsh";
                    t = ".s" + (8 << c);
                } else {
                    return null;
                }
                break;
            case 13:
                if (!b) {
                    m = u ? (high ? "vabd" : "vpadd") : (high ? "vsub" : "vadd");
                } else {
                    if (u && high) {
                        return null;
                    }
                    m = u ? "vmul" : (high ? "vmls" : "vmla");
                }
                t = f;
                break;
            case 14:
                if (!b) {
                    if (!u && high) {
                        return null;
                    }
                    m = u ? (high ? "vcgt" : "vcge") : "vceq";
                } else {
                    if (!u) {
                        return null;
                    }
                    m = high ? "vacgt" : "vacge";
                }
                t = f;
                break;
            default:
                if (!b) {
                    m = u ? (high ? "vpmin" : "vpmax") : (high ? "vmin" : "vmax");
                } else {
                    m = u ? (high ? "vminnm" : "vmaxnm") : (high ? "vrsqrts" : "vrecps");
                }
                t = f;
                break;
        }
        // objdump names a size the instruction does not have "<illegal width N>"
        boolean has64 = a == 0 || a == 2 || a == 4 || a == 5 || (a == 8 && !b);
        boolean saturatingDoubling = a == 11 && !(b && !u) || a == 12 && b && u;
        if (!t.isEmpty() && !t.startsWith(".f") && !t.startsWith(".p")
                && (c == 3 && !has64 || c == 0 && saturatingDoubling)) {
            t = t.substring(0, 2) + "<illegal width " + (8 << c) + ">";
        }
        if (t.startsWith(".p") && c == 3) {
            t = ".p<illegal width " + (8 << c) + ">";
        }
        String ops = swapShift ? vd(w, q) + ", " + vm(w, q) + ", " + vn(w, q) : vd(w, q) + ", " + vn(w, q) + ", " + vm(w, q);
        return m + t + "\t" + ops;
    }

    private static String threeDifferent(int w, boolean u) {
        int a = (w >>> 8) & 15;
        int c = (w >>> 20) & 3;
        String su = (u ? ".u" : ".s") + (8 << c);
        String i = ".i" + (16 << c);
        String qd = vd(w, true);
        String qn = vn(w, true);
        String qm = vm(w, true);
        String dd = d(w, 12, 22);
        String dn = d(w, 16, 7);
        String dm = d(w, 0, 5);
        switch (a) {
            case 0: return "vaddl" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 1: return "vaddw" + su + "\t" + qd + ", " + qn + ", " + dm;
            case 2: return "vsubl" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 3: return "vsubw" + su + "\t" + qd + ", " + qn + ", " + dm;
            case 4: return (u ? "vraddhn" : "vaddhn") + i + "\t" + dd + ", " + qn + ", " + qm;
            case 5: return "vabal" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 6: return (u ? "vrsubhn" : "vsubhn") + i + "\t" + dd + ", " + qn + ", " + qm;
            case 7: return "vabdl" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 8: return "vmlal" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 9: return u ? null : "vqdmlal.s" + (8 << c) + "\t" + qd + ", " + dn + ", " + dm;
            case 10: return "vmlsl" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 11: return u ? null : "vqdmlsl.s" + (8 << c) + "\t" + qd + ", " + dn + ", " + dm;
            case 12: return "vmull" + su + "\t" + qd + ", " + dn + ", " + dm;
            case 13: return u ? null : "vqdmull.s" + (8 << c) + "\t" + qd + ", " + dn + ", " + dm;
            case 14: return "vmull.p" + (8 << c) + "\t" + qd + ", " + dn + ", " + dm;
            default: return null;
        }
    }

    private static String twoRegistersScalar(int w, boolean u) {
        int a = (w >>> 8) & 15;
        int c = (w >>> 20) & 3;
        boolean q = u;
        String scalar = c == 1 ? "d" + (w & 7) + "[" + (((w >>> 5) & 1) << 1 | ((w >>> 3) & 1)) + "]"
                : "d" + (w & 15) + "[" + ((w >>> 5) & 1) + "]";
        String i = ".i" + (8 << c);
        String f = c == 1 ? ".f16" : ".f32";
        String s = ".s" + (8 << c);
        String su = (u ? ".u" : ".s") + (8 << c);
        switch (a) {
            case 0: return "vmla" + i + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 1: return "vmla" + f + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 4: return "vmls" + i + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 5: return "vmls" + f + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 2: return "vmlal" + su + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 6: return "vmlsl" + su + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 3: return u ? null : "vqdmlal" + s + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 7: return u ? null : "vqdmlsl" + s + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 8: return "vmul" + i + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 9: return "vmul" + f + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 10: return "vmull" + su + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 11: return u ? null : "vqdmull" + s + "\t" + vd(w, true) + ", " + d(w, 16, 7) + ", " + scalar;
            case 12: return "vqdmulh" + s + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 13: return "vqrdmulh" + s + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            case 14: return "vqrdmlah" + s + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
            default: return "vqrdmlsh" + s + "\t" + vd(w, q) + ", " + vn(w, q) + ", " + scalar;
        }
    }

    private static String twoRegistersShift(int w, boolean u) {
        int a = (w >>> 8) & 15;
        boolean l = (w & 0x80) != 0;
        boolean q = (w & 0x40) != 0;
        int imm6 = (w >>> 16) & 0x3F;
        int esize;
        if (l) {
            esize = 64;
        } else if ((imm6 & 0x20) != 0) {
            esize = 32;
        } else if ((imm6 & 0x10) != 0) {
            esize = 16;
        } else if ((imm6 & 0x08) != 0) {
            esize = 8;
        } else {
            return null;
        }
        int right = (l ? 64 : 2 * esize) - imm6;
        int left = imm6 - (l ? 0 : esize);
        String su = (u ? ".u" : ".s") + esize;
        String two = vd(w, q) + ", " + vm(w, q);
        switch (a) {
            case 0: return "vshr" + su + "\t" + two + ", #" + right;
            case 1: return "vsra" + su + "\t" + two + ", #" + right;
            case 2: return "vrshr" + su + "\t" + two + ", #" + right;
            case 3: return "vrsra" + su + "\t" + two + ", #" + right;
            case 4: return u ? "vsri." + esize + "\t" + two + ", #" + right : null;
            case 5: return u ? "vsli." + esize + "\t" + two + ", #" + left : "vshl.s" + esize + "\t" + two + ", #" + left;
            case 6: return u ? "vqshlu.s" + esize + "\t" + two + ", #" + left : null;
            case 7: return "vqshl" + su + "\t" + two + ", #" + left;
            default:
                break;
        }
        if (l) {
            return null;
        }
        String dd = d(w, 12, 22);
        String qm = vm(w, true);
        // narrowing shifts (A8.8.315 and friends): the source elements are twice esize
        int narrowRight = 2 * esize - imm6;
        switch (a) {
            case 8:
                if (!q) {
                    return (u ? "vqshrun.s" : "vshrn.i") + (2 * esize) + "\t" + dd + ", " + qm + ", #" + narrowRight;
                }
                return (u ? "vqrshrun.s" : "vrshrn.i") + (2 * esize) + "\t" + dd + ", " + qm + ", #" + narrowRight;
            case 9:
                return (q ? "vqrshrn" : "vqshrn") + (u ? ".u" : ".s") + (2 * esize) + "\t" + dd + ", " + qm + ", #"
                        + narrowRight;
            case 10:
                if (q) {
                    return null;
                }
                if (left == 0) {
                    return "vmovl" + su + "\t" + vd(w, true) + ", " + d(w, 0, 5);
                }
                return "vshll" + su + "\t" + vd(w, true) + ", " + d(w, 0, 5) + ", #" + left;
            case 14:
            case 15: {
                int fbits = 64 - imm6;
                String conv = (a & 1) == 0 ? ".f32" + (u ? ".u32" : ".s32") : (u ? ".u32" : ".s32") + ".f32";
                return "vcvt" + conv + "\t" + two + ", #" + fbits;
            }
            default:
                return null;
        }
    }

    private static String oneRegisterImmediate(int w, boolean u) {
        int cmode = (w >>> 8) & 15;
        boolean op = (w & 0x20) != 0;
        boolean q = (w & 0x40) != 0;
        int imm8 = (u ? 0x80 : 0) | ((w >>> 12) & 0x70) | (w & 15);
        String reg = vd(w, q);
        String m;
        String t;
        long value;
        if (cmode < 8) {
            int shift = (cmode >>> 1) * 8;
            value = (long) imm8 << shift;
            t = ".i32";
            m = (cmode & 1) == 0 ? (op ? "vmvn" : "vmov") : (op ? "vbic" : "vorr");
        } else if (cmode < 12) {
            int shift = ((cmode >>> 1) & 1) * 8;
            value = (long) imm8 << shift;
            t = ".i16";
            m = (cmode & 1) == 0 ? (op ? "vmvn" : "vmov") : (op ? "vbic" : "vorr");
        } else if (cmode < 14) {
            value = cmode == 12 ? ((long) imm8 << 8) | 0xFF : ((long) imm8 << 16) | 0xFFFF;
            t = ".i32";
            m = op ? "vmvn" : "vmov";
        } else if (cmode == 14) {
            if (!op) {
                return "vmov.i8\t" + reg + ", #" + imm8;
            }
            long v = 0;
            for (int i = 0; i < 8; i++) {
                if ((imm8 & (1 << i)) != 0) {
                    v |= 0xFFL << (8 * i);
                }
            }
            return "vmov.i64\t" + reg + ", #0x" + String.format("%016x", v);
        } else {
            if (op) {
                return null;
            }
            return "vmov.f32\t" + reg + ", #" + imm8;
        }
        return m + t + "\t" + reg + ", #" + value;
    }

    private static String twoRegistersMisc(int w) {
        int a = (w >>> 16) & 3;
        int b = (w >>> 6) & 0x1F;
        int size = (w >>> 18) & 3;
        boolean q = (w & 0x40) != 0;
        String two = vd(w, q) + ", " + vm(w, q);
        int e = 8 << size;
        int bb = b >>> 1;
        switch (a) {
            case 0:
                switch (bb) {
                    case 0: return "vrev64." + e + "\t" + two;
                    case 1: return "vrev32." + e + "\t" + two;
                    case 2: return "vrev16." + e + "\t" + two;
                    case 4: case 5: return "vpaddl." + ((bb & 1) != 0 ? "u" : "s") + e + "\t" + two;
                    case 8: return "vcls.s" + e + "\t" + two;
                    case 9: return "vclz.i" + e + "\t" + two;
                    case 10: return "vcnt.8\t" + two;
                    case 11: return "vmvn\t" + two;
                    case 12: case 13: return "vpadal." + ((bb & 1) != 0 ? "u" : "s") + e + "\t" + two;
                    case 14: return "vqabs.s" + e + "\t" + two;
                    case 15: return "vqneg.s" + e + "\t" + two;
                    default: return null;
                }
            case 1: {
                // B = F:op:x with F (bit 10) floating point and op (bits 9:7) the operation (DDI 0406C
                // A7.4.5, Table A7-13)
                boolean f = (bb & 8) != 0;
                String t = f ? ".f32" : ".s" + e;
                switch (bb & 7) {
                    case 0: return "vcgt" + t + "\t" + two + ", #0";
                    case 1: return "vcge" + t + "\t" + two + ", #0";
                    case 2: return "vceq" + (f ? ".f32" : ".i" + e) + "\t" + two + ", #0";
                    case 3: return "vcle" + t + "\t" + two + ", #0";
                    case 4: return "vclt" + t + "\t" + two + ", #0";
                    case 6: return "vabs" + t + "\t" + two;
                    case 7: return "vneg" + t + "\t" + two;
                    default: return null;
                }
            }
            case 2:
                switch (bb) {
                    case 0: return "vswp\t" + two;
                    case 1: return "vtrn." + e + "\t" + two;
                    case 2: return "vuzp." + e + "\t" + two;
                    case 3: return "vzip." + e + "\t" + two;
                    case 4:
                        if ((b & 1) == 0) {
                            return "vmovn.i" + (2 * e) + "\t" + d(w, 12, 22) + ", " + vm(w, true);
                        }
                        return "vqmovun.s" + (2 * e) + "\t" + d(w, 12, 22) + ", " + vm(w, true);
                    case 5:
                        return "vqmovn." + ((b & 1) != 0 ? "u" : "s") + (2 * e) + "\t" + d(w, 12, 22) + ", " + vm(w, true);
                    case 6:
                        return (b & 1) == 0 ? "vshll.i" + e + "\t" + vd(w, true) + ", " + d(w, 0, 5) + ", #" + e : null;
                    case 12:
                        return (b & 1) == 0 ? "vcvt.f16.f32\t" + d(w, 12, 22) + ", " + vm(w, true) : null;
                    case 14:
                        return (b & 1) == 0 ? "vcvt.f32.f16\t" + vd(w, true) + ", " + d(w, 0, 5) : null;
                    default:
                        return null;
                }
            default:
                if ((bb & 0xA) == 0x8) {
                    boolean f = (bb & 2) != 0;
                    return ((bb & 1) != 0 ? "vrsqrte" : "vrecpe") + (f ? ".f32" : ".u32") + "\t" + two;
                }
                if ((bb & 0xC) == 0xC) {
                    String[] conv = {".f32.s32", ".f32.u32", ".s32.f32", ".u32.f32"};
                    return "vcvt" + conv[bb & 3] + "\t" + two;
                }
                return null;
        }
    }

    // ------------------------------------------------------------------ element loads and stores (A7.7)

    /** The alignment a single-lane load/store names in index_align (A8.8.323, A8.8.326, A8.8.332). */
    private static int laneAlignment(int n, int size, int ia) {
        switch (n) {
            case 1:
                return size == 1 && (ia & 1) != 0 ? 16 : size == 2 && (ia & 3) == 3 ? 32 : 0;
            case 2:
                return (ia & 1) != 0 ? 16 << size : 0;
            case 4:
                if (size == 2) {
                    return (ia & 3) == 1 ? 64 : (ia & 3) == 2 ? 128 : 0;
                }
                return (ia & 1) != 0 ? 32 << size : 0;
            default:
                return 0;
        }
    }

    static String loadStore(int w, boolean thumb) {
        boolean load = (w & 0x00200000) != 0;
        int rn = (w >>> 16) & 15;
        int rm = w & 15;
        int dn = ((w >>> 22) & 1) << 4 | ((w >>> 12) & 15);
        String post = rm == 15 ? "" : rm == 13 ? "!" : ", " + r(rm);
        if ((w & 0x00800000) == 0) {
            int type = (w >>> 8) & 15;
            int size = (w >>> 6) & 3;
            int align = (w >>> 4) & 3;
            int n;
            int regs;
            int inc;
            switch (type) {
                case 7: n = 1; regs = 1; inc = 1; break;
                case 10: n = 1; regs = 2; inc = 1; break;
                case 6: n = 1; regs = 3; inc = 1; break;
                case 2: n = 1; regs = 4; inc = 1; break;
                case 8: n = 2; regs = 1; inc = 1; break;
                case 9: n = 2; regs = 1; inc = 2; break;
                case 3: n = 2; regs = 2; inc = 2; break;
                case 4: n = 3; regs = 1; inc = 1; break;
                case 5: n = 3; regs = 1; inc = 2; break;
                case 0: n = 4; regs = 1; inc = 1; break;
                case 1: n = 4; regs = 1; inc = 2; break;
                default: return null;
            }
            StringBuilder b = new StringBuilder(load ? "vld" : "vst").append(n).append('.').append(8 << size).append("\t{");
            int count = n == 1 ? regs : (type == 3 ? 4 : n);
            int step = n == 1 ? 1 : (type == 3 ? 1 : inc);
            if (step == 1 && count > 1) {
                b.append('d').append(dn).append("-d").append(dn + count - 1);
            } else {
                for (int i = 0; i < count; i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    b.append('d').append(dn + i * step);
                }
            }
            b.append("}, [").append(r(rn));
            if (align != 0) {
                b.append(" :").append(32 << align);
            }
            return b.append(']').append(post).toString();
        }
        int size = (w >>> 10) & 3;
        int n = ((w >>> 8) & 3) + 1;
        StringBuilder b = new StringBuilder(load ? "vld" : "vst").append(n).append('.');
        if (size == 3) {
            if (!load) {
                return null;
            }
            // all lanes (A8.8.322 and friends)
            int s = (w >>> 6) & 3;
            int t = (w >>> 5) & 1;
            int a = (w >>> 4) & 1;
            b.append(8 << s).append("\t{");
            int count = n == 1 ? t + 1 : n;
            int step = n == 1 ? 1 : t + 1;
            if (step == 1 && count > 1) {
                b.append('d').append(dn).append("[]-d").append(dn + count - 1).append("[]");
            } else {
                for (int i = 0; i < count; i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    b.append('d').append(dn + i * step).append("[]");
                }
            }
            b.append("}, [").append(r(rn));
            if (a != 0) {
                // objdump writes " :" alone where the alignment is UNDEFINED (VLD1.8, VLD3)
                int align = n == 1 ? (s == 0 ? 0 : 8 << s) : n == 2 ? 16 << s : n == 4 ? (s == 2 ? 64 : 32 << s) : 0;
                b.append(" :").append(align == 0 ? "" : Integer.toString(align));
            }
            return b.append(']').append(post).toString();
        }
        int ia = (w >>> 4) & 15;
        int index = ia >>> (size + 1);
        int step = size == 0 ? 1 : ((ia >>> size) & 1) + 1;
        b.append(8 << size).append("\t{");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('d').append(dn + i * step).append('[').append(index).append(']');
        }
        b.append("}, [").append(r(rn));
        int align = laneAlignment(n, size, ia);
        if (align != 0) {
            b.append(" :").append(align);
        }
        return b.append(']').append(post).toString();
    }
}
