package io.armtrace.isa.disasm;


import static io.armtrace.isa.disasm.Asm.r;

/**
 * VFP instructions (coprocessors 10 and 11): data processing (DDI 0406C A7.5), extension register
 * loads and stores (A7.6) and transfers between core and extension registers (A7.8, A7.9). The
 * word is A32-shaped; T32 uses the same bits.
 */
final class Vfp {
    private Vfp() {
    }

    static String s(int v, int bit) {
        return "s" + ((v << 1) | bit);
    }

    static String d(int v, int bit) {
        return "d" + ((bit << 4) | v);
    }

    /** Vd, Vn, Vm of a VFP data-processing instruction for size double or single. */
    private static String vd(int w, boolean dbl) {
        return dbl ? d((w >>> 12) & 15, (w >>> 22) & 1) : s((w >>> 12) & 15, (w >>> 22) & 1);
    }

    private static String vn(int w, boolean dbl) {
        return dbl ? d((w >>> 16) & 15, (w >>> 7) & 1) : s((w >>> 16) & 15, (w >>> 7) & 1);
    }

    private static String vm(int w, boolean dbl) {
        return dbl ? d(w & 15, (w >>> 5) & 1) : s(w & 15, (w >>> 5) & 1);
    }

    static String disassemble(int w, String c) {
        if ((w & 0x0E000000) == 0x0C000000) {
            return loadStore(w, c);
        }
        if ((w & 0x0F000010) == 0x0E000000) {
            return dataProcessing(w, c);
        }
        if ((w & 0x0F000010) == 0x0E000010) {
            return transfer(w, c);
        }
        return null;
    }

    private static String dataProcessing(int w, String c) {
        boolean dbl = (w & 0x100) != 0;
        String t = dbl ? ".f64" : ".f32";
        int opc1 = ((w >>> 20) & 0xB);
        boolean op = (w & 0x40) != 0;
        String three = "\t" + vd(w, dbl) + ", " + vn(w, dbl) + ", " + vm(w, dbl);
        switch (opc1) {
            case 0x0:
                return (op ? "vmls" : "vmla") + c + t + three;
            case 0x1:
                return (op ? "vnmla" : "vnmls") + c + t + three;
            case 0x2:
                return (op ? "vnmul" : "vmul") + c + t + three;
            case 0x3:
                return (op ? "vsub" : "vadd") + c + t + three;
            case 0x8:
                return op ? null : "vdiv" + c + t + three;
            case 0x9:
                return (op ? "vfnma" : "vfnms") + c + t + three;
            case 0xA:
                return (op ? "vfms" : "vfma") + c + t + three;
            case 0xB:
                break;
            default:
                return null;
        }
        if (!op) {
            // VMOV immediate (A8.8.339): objdump prints the encoded imm8 (with the value as a comment)
            int imm8 = ((w >>> 12) & 0xF0) | (w & 0xF);
            return "vmov" + c + t + "\t" + vd(w, dbl) + ", #" + imm8;
        }
        int opc2 = (w >>> 16) & 15;
        boolean b7 = (w & 0x80) != 0;
        String two = "\t" + vd(w, dbl) + ", " + vm(w, dbl);
        switch (opc2) {
            case 0:
                return (b7 ? "vabs" : "vmov") + c + t + two;
            case 1:
                return (b7 ? "vsqrt" : "vneg") + c + t + two;
            case 2:
                return "vcvt" + (b7 ? "t" : "b") + c + ".f32.f16\t" + vd(w, false) + ", " + vm(w, false);
            case 3:
                return "vcvt" + (b7 ? "t" : "b") + c + ".f16.f32\t" + vd(w, false) + ", " + vm(w, false);
            case 4:
                return "vcmp" + (b7 ? "e" : "") + c + t + two;
            case 5:
                return "vcmp" + (b7 ? "e" : "") + c + t + "\t" + vd(w, dbl) + ", #0.0";
            case 7:
                if (!b7) {
                    return null;
                }
                return "vcvt" + c + (dbl ? ".f32.f64\t" + vd(w, false) + ", " + vm(w, true)
                        : ".f64.f32\t" + vd(w, true) + ", " + vm(w, false));
            case 8:
                return "vcvt" + c + t + (b7 ? ".s32\t" : ".u32\t") + vd(w, dbl) + ", " + vm(w, false);
            case 12:
            case 13:
                return "vcvt" + (b7 ? "" : "r") + c + (opc2 == 13 ? ".s32" : ".u32") + t + "\t" + vd(w, false) + ", "
                        + vm(w, dbl);
            case 10:
            case 11:
            case 14:
            case 15: {
                // fixed point (A8.8.309): Vd is both source and destination
                boolean unsigned = (opc2 & 1) != 0;
                boolean sx = b7;
                int size = sx ? 32 : 16;
                int imm = ((w & 0xF) << 1) | ((w >>> 5) & 1);
                int fbits = size - imm;
                String fx = (unsigned ? ".u" : ".s") + size;
                String conv = (opc2 & 4) != 0 ? fx + t : t + fx;
                return "vcvt" + c + conv + "\t" + vd(w, dbl) + ", " + vd(w, dbl) + ", #" + fbits;
            }
            default:
                return null;
        }
    }

    private static String loadStore(int w, String c) {
        int op = (w >>> 20) & 0x1F;
        boolean dbl = (w & 0x100) != 0;
        String rn = r(w >>> 16);
        if ((op & 0x1E) == 0x04) {
            // 64-bit transfers between core and extension registers (A7.9); other bits: MCRR/MRRC
            if ((w & 0xD0) != 0x10) {
                return null;
            }
            boolean toCore = (w & 0x00100000) != 0;
            String rt = r(w >>> 12);
            String rt2 = r(w >>> 16);
            if (dbl) {
                String dm = d(w & 15, (w >>> 5) & 1);
                return "vmov" + c + "\t" + (toCore ? rt + ", " + rt2 + ", " + dm : dm + ", " + rt + ", " + rt2);
            }
            int m = ((w & 15) << 1) | ((w >>> 5) & 1);
            String pair = "s" + m + ", s" + (m + 1);
            return "vmov" + c + "\t" + (toCore ? rt + ", " + rt2 + ", " + pair : pair + ", " + rt + ", " + rt2);
        }
        if ((op & 0x13) == 0x10 || (op & 0x13) == 0x11) {
            // VSTR/VLDR (A8.8.413, A8.8.333)
            int imm = (w & 0xFF) * 4;
            boolean u = (w & 0x00800000) != 0;
            String reg = dbl ? d((w >>> 12) & 15, (w >>> 22) & 1) : s((w >>> 12) & 15, (w >>> 22) & 1);
            String addr = imm == 0 && u ? "[" + rn + "]" : "[" + rn + ", #" + (u ? "" : "-") + imm + "]";
            return ((op & 1) != 0 ? "vldr" : "vstr") + c + "\t" + reg + ", " + addr;
        }
        // VLDM/VSTM/VPUSH/VPOP (A8.8.332, A8.8.412)
        boolean p = (w & 0x01000000) != 0;
        boolean u = (w & 0x00800000) != 0;
        boolean wb = (w & 0x00200000) != 0;
        boolean load = (w & 0x00100000) != 0;
        if (p == u || (p && !wb)) {
            return null;
        }
        int imm8 = w & 0xFF;
        String list;
        boolean fx = false;
        if (dbl) {
            int first = (((w >>> 22) & 1) << 4) | ((w >>> 12) & 15);
            int n = imm8 / 2;
            fx = (imm8 & 1) != 0;
            list = n <= 1 ? "{d" + first + "}" : "{d" + first + "-d" + (first + n - 1) + "}";
        } else {
            int first = (((w >>> 12) & 15) << 1) | ((w >>> 22) & 1);
            list = imm8 <= 1 ? "{s" + first + "}" : "{s" + first + "-s" + (first + imm8 - 1) + "}";
        }
        if (fx) {
            return (load ? "fldm" : "fstm") + (p ? "db" : "ia") + "x" + c + "\t" + rn + (wb ? "!" : "") + ", " + list;
        }
        if (((w >>> 16) & 15) == 13 && wb) {
            if (load && !p) {
                return "vpop" + c + "\t" + list;
            }
            if (!load && p) {
                return "vpush" + c + "\t" + list;
            }
        }
        return (load ? "vldm" : "vstm") + (p ? "db" : "ia") + c + "\t" + rn + (wb ? "!" : "") + ", " + list;
    }

    private static String transfer(int w, String c) {
        boolean toCore = (w & 0x00100000) != 0;
        int a = (w >>> 21) & 7;
        String rt = r(w >>> 12);
        if ((w & 0x100) == 0) {
            if ((w & 0x6F) != 0) {
                return null;
            }
            if (a == 0) {
                String sn = s((w >>> 16) & 15, (w >>> 7) & 1);
                return "vmov" + c + "\t" + (toCore ? rt + ", " + sn : sn + ", " + rt);
            }
            if (a == 7) {
                String reg = switch ((w >>> 16) & 15) {
                    case 0 -> "fpsid";
                    case 1 -> "fpscr";
                    case 5 -> "mvfr2";
                    case 6 -> "mvfr1";
                    case 7 -> "mvfr0";
                    case 8 -> "fpexc";
                    case 9 -> "fpinst";
                    case 10 -> "fpinst2";
                    default -> "<impl def 0x" + Integer.toHexString((w >>> 16) & 15) + ">";
                };
                if (toCore) {
                    return "vmrs" + c + "\t" + (((w >>> 12) & 15) == 15 ? "APSR_nzcv" : rt) + ", " + reg;
                }
                return "vmsr" + c + "\t" + reg + ", " + rt;
            }
            return null;
        }
        // scalar transfers (A8.8.341, A8.8.342) and VDUP (A8.8.318)
        int opc1 = (w >>> 21) & 3;
        int opc2 = (w >>> 5) & 3;
        String dn = d((w >>> 16) & 15, (w >>> 7) & 1);
        if (!toCore && (w & 0x00800000) != 0) {
            int be = ((w >>> 21) & 2) | ((w >>> 5) & 1);
            String size = be == 2 ? ".8" : be == 1 ? ".16" : be == 0 ? ".32" : null;
            if (size == null) {
                return null;
            }
            String dst = (w & 0x00200000) != 0 ? "q" + (((w >>> 16) & 15) >>> 1 | (((w >>> 7) & 1) << 3)) : dn;
            return "vdup" + c + size + "\t" + dst + ", " + rt;
        }
        int u = (w >>> 23) & 1;
        String size;
        int index;
        int o = (opc1 << 2) | opc2;
        if ((o & 8) != 0) {
            size = ".8";
            index = o & 7;
        } else if ((o & 1) != 0) {
            size = ".16";
            index = (o >>> 1) & 3;
        } else if ((o & 3) == 0) {
            size = ".32";
            index = (o >>> 2) & 1;
        } else {
            return null;
        }
        if (toCore) {
            if (size.equals(".32") && u == 1) {
                return null;
            }
            String t = size.equals(".32") ? size : (u == 1 ? ".u" : ".s") + size.substring(1);
            return "vmov" + c + t + "\t" + rt + ", " + dn + "[" + index + "]";
        }
        return "vmov" + c + size + "\t" + dn + "[" + index + "], " + rt;
    }
}
