package io.armtrace.isa.disasm;


import static io.armtrace.isa.disasm.Asm.r;

/**
 * Coprocessor instructions (LDC/STC, MCR/MRC, MCRR/MRRC, CDP and their "2" forms) and the VFP
 * instructions that live in coprocessors 10 and 11 (DDI 0406C A7.5-A7.9). The encoding is the same
 * in A32 and T32 (T32 puts 0b1110/0b1111 where A32 has the condition), so both disassemblers call
 * this with an A32-shaped word.
 */
final class Coprocessor {
    private Coprocessor() {
    }

    /**
     * @param w       the instruction as an A32 word (bits 27:24 = 110x or 1110)
     * @param c       condition suffix
     * @param two     the unconditional "2" forms (A32 cond 1111, T32 first halfword 0xFxxx)
     */
    static String a32(int w, String c, boolean two, long address, Disassembler.Names names) {
        int coproc = (w >>> 8) & 15;
        if (!two && (coproc & 0xE) == 0xA) {
            String v = Vfp.disassemble(w, c);
            if (v != null) {
                return v;
            }
        }
        String suffix = two ? "2" : "";
        if ((w & 0x0E000000) == 0x0C000000) {
            if (!two) {
                // objdump reads the FPA and Maverick loads/stores before MCRR/MRRC
                String legacy = legacyLoadStore(w, c, coproc);
                if (legacy != null) {
                    return legacy;
                }
            }
            if ((w & 0x0FE00000) == 0x0C400000) { // MCRR/MRRC (A8.8.108, A8.8.132)
                String m = (w & 0x00100000) != 0 ? "mrrc" : "mcrr";
                return m + suffix + c + "\t" + coproc + ", " + ((w >>> 4) & 15) + ", " + r(w >>> 12) + ", "
                        + r(w >>> 16) + ", cr" + (w & 15);
            }
            String m = ((w & 0x00100000) != 0 ? "ldc" : "stc") + suffix + ((w & 0x00400000) != 0 ? "l" : "");
            return m + c + "\t" + coproc + ", cr" + ((w >>> 12) & 15) + ", " + address(w);
        }
        if ((w & 0x10) == 0 && !two && coproc == 1) {
            String fpa = fpaArithmetic(w, c);
            if (fpa != null) {
                return fpa;
            }
        }
        if ((w & 0x10) == 0) {
            return "cdp" + suffix + c + "\t" + coproc + ", " + ((w >>> 20) & 15) + ", cr" + ((w >>> 12) & 15) + ", cr"
                    + ((w >>> 16) & 15) + ", cr" + (w & 15) + ", {" + ((w >>> 5) & 7) + "}";
        }
        boolean toCore = (w & 0x00100000) != 0;
        String rt = toCore && !two && ((w >>> 12) & 15) == 15 ? "APSR_nzcv" : r(w >>> 12);
        return (toCore ? "mrc" : "mcr") + suffix + c + "\t" + coproc + ", " + ((w >>> 21) & 7) + ", " + rt + ", cr" + ((w >>> 16) & 15)
                + ", cr" + (w & 15) + ", {" + ((w >>> 5) & 7) + "}";
    }

    /**
     * Loads and stores of the FPA (coprocessors 1 and 2: LDF/STF, LFM/SFM) and of the Maverick
     * coprocessor (4 and 5: CFLDRS/D, CFLDR32/64), which objdump decodes whatever the architecture.
     */
    private static String legacyLoadStore(int w, String c, int coproc) {
        boolean load = (w & 0x00100000) != 0;
        int n = (w >>> 22) & 1;
        int crd = (w >>> 12) & 15;
        switch (coproc) {
            case 1: {
                String prec = "sdep".substring(n << 1 | (w >>> 15) & 1, (n << 1 | (w >>> 15) & 1) + 1);
                return (load ? "ldf" : "stf") + c + prec + "\tf" + (crd & 7) + ", " + address(w);
            }
            case 2: {
                int count = n << 1 | (w >>> 15) & 1;
                return (load ? "lfm" : "sfm") + c + "\tf" + (crd & 7) + ", " + (count == 0 ? 4 : count) + ", " + address(w);
            }
            case 4:
                return "cf" + (load ? "ldr" : "str") + (n == 0 ? "s" : "d") + c + "\t" + (n == 0 ? "mvf" : "mvd") + crd + ", "
                        + address(w);
            case 5:
                return "cf" + (load ? "ldr" : "str") + (n == 0 ? "32" : "64") + c + "\t" + (n == 0 ? "mvfx" : "mvdx") + crd
                        + ", " + address(w);
            default:
                return null;
        }
    }

    private static final String[] FPA_DYADIC = {"adf", "muf", "suf", "rsf", "dvf", "rdf", "pow", "rpw", "rmf", "fml",
        "fdv", "frd", "pol", null, null, null};
    private static final String[] FPA_MONADIC = {"mvf", "mnf", "abs", "rnd", "sqt", "log", "lgn", "exp", "sin", "cos",
        "tan", "asn", "acs", "atn", "urd", "nrm"};
    private static final String[] FPA_CONSTANT = {"0.0", "1.0", "2.0", "3.0", "4.0", "5.0", "0.5", "10.0"};

    /**
     * FPA data operations (coprocessor 1 CDP): operation, condition, precision (s, d, e, or objdump's
     * "<illegal precision>"), rounding (p, m, z); the last operand is fm or one of eight constants.
     */
    private static String fpaArithmetic(int w, String c) {
        boolean monadic = (w & 0x8000) != 0;
        String op = (monadic ? FPA_MONADIC : FPA_DYADIC)[(w >>> 20) & 15];
        if (op == null) {
            return null;
        }
        int p = ((w >>> 18) & 2) | ((w >>> 7) & 1);
        String precision = p == 3 ? "<illegal precision>" : "sde".substring(p, p + 1);
        String rounding = new String[] {"", "p", "m", "z"}[(w >>> 5) & 3];
        String fm = (w & 8) != 0 ? "#" + FPA_CONSTANT[w & 7] : "f" + (w & 7);
        String fd = "f" + ((w >>> 12) & 7);
        return op + c + precision + rounding + "\t" + fd + ", " + (monadic ? "" : "f" + ((w >>> 16) & 7) + ", ") + fm;
    }

    /** The addressing mode of LDC/STC: offset, pre-indexed, post-indexed or unindexed with an option. */
    static String address(int w) {
        boolean p = (w & 0x01000000) != 0;
        boolean u = (w & 0x00800000) != 0;
        boolean wb = (w & 0x00200000) != 0;
        int imm = w & 0xFF;
        String rn = r(w >>> 16);
        if (p) {
            if (imm != 0) {
                return "[" + rn + ", #" + (u ? "" : "-") + (imm * 4) + "]" + (wb ? "!" : "");
            }
            return u ? "[" + rn + "]" + (wb ? "!" : "") : "[" + rn + ", #-0]" + (wb ? "!" : "");
        }
        if (wb) {
            return "[" + rn + "], #" + (u ? "" : "-") + (imm * 4);
        }
        return "[" + rn + "], {" + imm + "}";
    }
}
