package io.armtrace.isa.disasm;


import static io.armtrace.isa.disasm.Asm.r;

/**
 * The ARMv6 media instructions (parallel add/subtract, packing, saturation, reversal, signed
 * multiplies, bit-field operations): A32 encodings of DDI 0406C A5.4 and their T32 counterparts
 * (A6.3.12-A6.3.17), which take the same operands.
 */
final class Media {
    private static final String[] PARALLEL_OP = {"add16", "asx", "sax", "sub16", "add8", null, null, "sub8"};
    private static final String[] PARALLEL_PREFIX = {null, "s", "q", "sh", null, "u", "uq", "uh"};

    private Media() {
    }

    static String rotation(int rot) {
        return rot == 0 ? "" : ", ror #" + (rot * 8);
    }

    static String a32(int w, String c) {
        int op1 = (w >>> 20) & 0x1F;
        int op2 = (w >>> 5) & 7;
        int rd = (w >>> 12) & 15;
        int rn = (w >>> 16) & 15;
        int rm = w & 15;
        int rs = (w >>> 8) & 15;
        if ((op1 & 0x18) == 0) {
            String p = PARALLEL_PREFIX[op1 & 7];
            String o = PARALLEL_OP[op2];
            if (p == null || o == null) {
                return null;
            }
            return p + o + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm);
        }
        if ((op1 & 0x18) == 0x08) {
            if (op1 == 0x08 && (op2 & 1) == 0) {
                int imm = (w >>> 7) & 31;
                if ((w & 0x40) == 0) {
                    return "pkhbt" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm) + (imm == 0 ? "" : ", lsl #" + imm);
                }
                return "pkhtb" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm) + ", asr #" + (imm == 0 ? 32 : imm);
            }
            if ((op1 & 0x1A) == 0x0A && (op2 & 1) == 0) {
                boolean u = (op1 & 4) != 0;
                int sat = (w >>> 16) & 31;
                int imm = (w >>> 7) & 31;
                String shift = (w & 0x40) == 0 ? (imm == 0 ? "" : ", lsl #" + imm) : ", asr #" + (imm == 0 ? 32 : imm);
                return (u ? "usat" : "ssat") + c + "\t" + r(rd) + ", #" + (u ? sat : sat + 1) + ", " + r(rm) + shift;
            }
            if (op1 == 0x0A && op2 == 1) {
                return "ssat16" + c + "\t" + r(rd) + ", #" + (((w >>> 16) & 15) + 1) + ", " + r(rm);
            }
            if (op1 == 0x0E && op2 == 1) {
                return "usat16" + c + "\t" + r(rd) + ", #" + ((w >>> 16) & 15) + ", " + r(rm);
            }
            if (op2 == 3) {
                String base;
                switch (op1 & 7) {
                    case 0: base = "sxtb16"; break;
                    case 2: base = "sxtb"; break;
                    case 3: base = "sxth"; break;
                    case 4: base = "uxtb16"; break;
                    case 6: base = "uxtb"; break;
                    case 7: base = "uxth"; break;
                    default: return null;
                }
                String rot = rotation((w >>> 10) & 3);
                if (rn == 15) {
                    return base + c + "\t" + r(rd) + ", " + r(rm) + rot;
                }
                return base.substring(0, 3) + "a" + base.substring(3) + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm) + rot;
            }
            if (op1 == 0x08 && op2 == 5) {
                return "sel" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm);
            }
            if (op1 == 0x0B && op2 == 1) {
                return "rev" + c + "\t" + r(rd) + ", " + r(rm);
            }
            if (op1 == 0x0B && op2 == 5) {
                return "rev16" + c + "\t" + r(rd) + ", " + r(rm);
            }
            if (op1 == 0x0F && op2 == 1) {
                return "rbit" + c + "\t" + r(rd) + ", " + r(rm);
            }
            if (op1 == 0x0F && op2 == 5) {
                return "revsh" + c + "\t" + r(rd) + ", " + r(rm);
            }
            return null;
        }
        if ((op1 & 0x18) == 0x10) {
            // signed multiplies: Rd = 19:16, Ra = 15:12, Rm = 11:8, Rn = 3:0
            String x = (op2 & 1) != 0 ? "x" : "";
            String d = r(rn);
            String a = r(rd);
            String n = r(rm);
            String m = r(rs);
            switch (op1 & 7) {
                case 0:
                    if (op2 < 2) {
                        return rd == 15 ? "smuad" + x + c + "\t" + d + ", " + n + ", " + m
                                : "smlad" + x + c + "\t" + d + ", " + n + ", " + m + ", " + a;
                    }
                    if (op2 < 4) {
                        return rd == 15 ? "smusd" + x + c + "\t" + d + ", " + n + ", " + m
                                : "smlsd" + x + c + "\t" + d + ", " + n + ", " + m + ", " + a;
                    }
                    return null;
                case 1:
                    return op2 == 0 ? "sdiv" + c + "\t" + d + ", " + n + ", " + m : null;
                case 3:
                    return op2 == 0 ? "udiv" + c + "\t" + d + ", " + n + ", " + m : null;
                case 4:
                    if (op2 < 2) {
                        return "smlald" + x + c + "\t" + a + ", " + d + ", " + n + ", " + m;
                    }
                    if (op2 < 4) {
                        return "smlsld" + x + c + "\t" + a + ", " + d + ", " + n + ", " + m;
                    }
                    return null;
                case 5: {
                    String rr = (op2 & 1) != 0 ? "r" : "";
                    if (op2 < 2) {
                        return rd == 15 ? "smmul" + rr + c + "\t" + d + ", " + n + ", " + m
                                : "smmla" + rr + c + "\t" + d + ", " + n + ", " + m + ", " + a;
                    }
                    if (op2 >= 6) {
                        return "smmls" + rr + c + "\t" + d + ", " + n + ", " + m + ", " + a;
                    }
                    return null;
                }
                default:
                    return null;
            }
        }
        // op1 = 11xxx
        if (op1 == 0x18 && op2 == 0) {
            return rd == 15 ? "usad8" + c + "\t" + r(rn) + ", " + r(rm) + ", " + r(rs)
                    : "usada8" + c + "\t" + r(rn) + ", " + r(rm) + ", " + r(rs) + ", " + r(rd);
        }
        int lsb = (w >>> 7) & 31;
        int msb = (w >>> 16) & 31;
        if ((op1 & 0x1E) == 0x1A && (op2 & 3) == 2) {
            return "sbfx" + c + "\t" + r(rd) + ", " + r(rm) + ", #" + lsb + ", #" + (((w >>> 16) & 31) + 1);
        }
        if ((op1 & 0x1E) == 0x1E && (op2 & 3) == 2) {
            return "ubfx" + c + "\t" + r(rd) + ", " + r(rm) + ", #" + lsb + ", #" + (((w >>> 16) & 31) + 1);
        }
        if ((op1 & 0x1E) == 0x1C && (op2 & 3) == 0) {
            int width = msb - lsb + 1;
            if (width <= 0) {
                return (rm == 15 ? "bfc" + c + "\t" + r(rd) : "bfi" + c + "\t" + r(rd) + ", " + r(rm)) + ", (invalid: "
                        + lsb + ":" + msb + ")";
            }
            if (rm == 15) {
                return "bfc" + c + "\t" + r(rd) + ", #" + lsb + ", #" + width;
            }
            return "bfi" + c + "\t" + r(rd) + ", " + r(rm) + ", #" + lsb + ", #" + width;
        }
        if (op1 == 0x1F && op2 == 7) {
            return "udf" + c + "\t#" + (((w >>> 4) & 0xFFF0) | (w & 0xF));
        }
        return null;
    }
}
