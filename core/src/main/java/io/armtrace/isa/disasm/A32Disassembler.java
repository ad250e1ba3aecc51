package io.armtrace.isa.disasm;


import static io.armtrace.isa.disasm.Asm.COND;
import static io.armtrace.isa.disasm.Asm.SHIFT;
import static io.armtrace.isa.disasm.Asm.r;
import static io.armtrace.isa.disasm.Asm.regList;
import static io.armtrace.isa.disasm.Asm.shiftImm;

/**
 * A32 instructions as text (DDI 0406C chapter A5 for the encodings, GNU objdump's unified syntax for
 * the spelling). Returns "mnemonic\toperands".
 */
final class A32Disassembler {
    private static final String[] DP = {"and", "eor", "sub", "rsb", "add", "adc", "sbc", "rsc", "tst", "teq", "cmp",
        "cmn", "orr", "mov", "bic", "mvn"};

    private A32Disassembler() {
    }

    static String disassemble(int w, long address, Disassembler.Names names) {
        int cond = w >>> 28;
        if (cond == 15) {
            return unconditional(w, address, names);
        }
        String c = COND[cond];
        switch ((w >>> 25) & 7) {
            case 0:
                return group0(w, c);
            case 1:
                if ((w & 0x01900000) == 0x01000000) {
                    return group1Special(w, c);
                }
                return dataProcessing(w, c);
            case 2:
                return loadStore(w, c);
            case 3:
                if ((w & 0x10) == 0) {
                    return loadStore(w, c);
                }
                return Media.a32(w, c);
            case 4:
                return blockTransfer(w, c);
            case 5: {
                long target = (address + 8 + ((long) (w << 8) >> 6)) & 0xFFFFFFFFL;
                return ((w & 0x01000000) != 0 ? "bl" : "b") + c + "\t" + names.target(target);
            }
            case 6:
            default:
                if ((w & 0x0F000000) == 0x0F000000) {
                    return "svc" + c + "\t" + Asm.hex8(w & 0xFFFFFF);
                }
                return Coprocessor.a32(w, c, false, address, names);
        }
    }

    // ------------------------------------------------------------------ data processing

    static String shifterOperand(int w) {
        if ((w & 0x02000000) != 0) {
            return immediate(w);
        }
        String rm = r(w);
        int type = (w >>> 5) & 3;
        if ((w & 0x10) != 0) {
            if ((w & 0x80) != 0) {
                return rm; // bit 7 set is not a register shift; objdump prints the register alone
            }
            return rm + ", " + SHIFT[type] + " " + r(w >>> 8);
        }
        return rm + shiftImm(type, (w >>> 7) & 31);
    }

    /** A modified immediate: "#value", or "#imm8, rot" when a smaller rotation would give the same value. */
    static String immediate(int w) {
        int rot = (w >>> 7) & 0x1E;
        int imm = w & 0xFF;
        int a = Asm.rotr(imm, rot);
        int i = 0;
        for (; i < 32; i += 2) {
            if ((Integer.rotateLeft(a, i) & 0xFFFFFFFFL) <= 0xFF) {
                break;
            }
        }
        if (i != rot) {
            return "#" + imm + ", " + rot;
        }
        return "#" + a;
    }

    private static String dataProcessing(int w, String c) {
        int op = (w >>> 21) & 15;
        boolean s = (w & 0x00100000) != 0;
        String rd = r(w >>> 12);
        String rn = r(w >>> 16);
        if (op >= 8 && op <= 11) {
            String m = DP[op];
            if (((w >>> 12) & 15) == 15) {
                m += "p"; // TSTP/TEQP/CMPP/CMNP: the 26-bit PSR-writing forms objdump still names
            }
            return m + c + "\t" + rn + ", " + shifterOperand(w);
        }
        String ss = s ? "s" : "";
        if (op == 13 || op == 15) {
            if (op == 13 && (w & 0x02000000) == 0) {
                int type = (w >>> 5) & 3;
                if ((w & 0x10) != 0) {
                    return SHIFT[type] + ss + c + "\t" + rd + ", " + r(w) + ((w & 0x80) != 0 ? "" : ", " + r(w >>> 8));
                }
                int amount = (w >>> 7) & 31;
                if (type == 0 && amount == 0) {
                    if (w == 0xE1A00000) {
                        return "nop";
                    }
                    return "mov" + ss + c + "\t" + rd + ", " + r(w);
                }
                if (type == 3 && amount == 0) {
                    return "rrx" + ss + c + "\t" + rd + ", " + r(w);
                }
                if (amount == 0) {
                    amount = 32;
                }
                return SHIFT[type] + ss + c + "\t" + rd + ", " + r(w) + ", #" + amount;
            }
            return DP[op] + ss + c + "\t" + rd + ", " + shifterOperand(w);
        }
        return DP[op] + ss + c + "\t" + rd + ", " + rn + ", " + shifterOperand(w);
    }

    private static String group1Special(int w, String c) {
        switch ((w >>> 20) & 0x1F) {
            case 0x10:
                return "movw" + c + "\t" + r(w >>> 12) + ", #" + (((w >>> 4) & 0xF000) | (w & 0xFFF));
            case 0x14:
                return "movt" + c + "\t" + r(w >>> 12) + ", #" + (((w >>> 4) & 0xF000) | (w & 0xFFF));
            default:
                break;
        }
        // MSR immediate and hints (A5.2.11)
        if ((w & 0x004F0000) == 0 && (w & 0xFF00) == 0xF000) { // op = 0, op1 = 0000: hints
            int hint = w & 0xFF;
            switch (hint) {
                case 0:
                    return "nop" + c + "\t{0}";
                case 1:
                    return "yield" + c;
                case 2:
                    return "wfe" + c;
                case 3:
                    return "wfi" + c;
                case 4:
                    return "sev" + c;
                default:
                    if ((hint & 0xF0) == 0xF0) {
                        return "dbg" + c + "\t#" + (hint & 15);
                    }
                    return "nop" + c + "\t{" + hint + "}";
            }
        }
        if ((w & 0xF000) != 0xF000) {
            return dataProcessing(w, c);
        }
        return "msr" + c + "\t" + psrFields(w) + ", " + immediate(w);
    }

    static String psrFields(int w) {
        StringBuilder b = new StringBuilder((w & 0x00400000) != 0 ? "SPSR_" : "CPSR_");
        if ((w & 0x80000) != 0) {
            b.append('f');
        }
        if ((w & 0x40000) != 0) {
            b.append('s');
        }
        if ((w & 0x20000) != 0) {
            b.append('x');
        }
        if ((w & 0x10000) != 0) {
            b.append('c');
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ group 000: misc, multiply, extra loads

    private static String group0(int w, String c) {
        if ((w & 0x90) == 0x90) {
            if ((w & 0x60) == 0) {
                String m = (w & 0x01000000) == 0 ? multiply(w, c) : synchronization(w, c);
                return m != null ? m : dataProcessing(w, c);
            }
            if ((w & 0x00400F00) != 0 && (w & 0x00400000) == 0 && (w & 0x01900000) == 0x01100000) {
                // register offset with should-be-zero bits 11:8 set, in the data-processing test/compare
                // space: objdump reads the TST/TEQ/CMP/CMN (DDI 0406C A5.2.8 leaves it UNPREDICTABLE)
                return dataProcessing(w, c);
            }
            return extraLoadStore(w, c);
        }
        if ((w & 0x01900000) == 0x01000000) {
            String m = (w & 0x80) == 0 ? misc(w, c) : halfwordMultiply(w, c);
            return m != null ? m : dataProcessing(w, c);
        }
        return dataProcessing(w, c);
    }

    private static String multiply(int w, String c) {
        String s = (w & 0x00100000) != 0 ? "s" : "";
        String a = r(w >>> 12);
        String b = r(w >>> 16);
        String m = r(w);
        String n = r(w >>> 8);
        switch ((w >>> 21) & 7) {
            case 0:
                return "mul" + s + c + "\t" + b + ", " + m + ", " + n;
            case 1:
                return "mla" + s + c + "\t" + b + ", " + m + ", " + n + ", " + a;
            case 2:
                return "umaal" + c + "\t" + a + ", " + b + ", " + m + ", " + n;
            case 3:
                return "mls" + c + "\t" + b + ", " + m + ", " + n + ", " + a;
            case 4:
                return "umull" + s + c + "\t" + a + ", " + b + ", " + m + ", " + n;
            case 5:
                return "umlal" + s + c + "\t" + a + ", " + b + ", " + m + ", " + n;
            case 6:
                return "smull" + s + c + "\t" + a + ", " + b + ", " + m + ", " + n;
            default:
                return "smlal" + s + c + "\t" + a + ", " + b + ", " + m + ", " + n;
        }
    }

    private static String synchronization(int w, String c) {
        int op = (w >>> 20) & 15;
        String rn = r(w >>> 16);
        String rt = r(w >>> 12);
        String rm = r(w);
        switch (op) {
            case 0:
                return "swp" + c + "\t" + rt + ", " + rm + ", [" + rn + "]";
            case 4:
                return "swpb" + c + "\t" + rt + ", " + rm + ", [" + rn + "]";
            case 8:
                return "strex" + c + "\t" + rt + ", " + rm + ", [" + rn + "]";
            case 9:
                return "ldrex" + c + "\t" + rt + ", [" + rn + "]";
            case 10:
                return "strexd" + c + "\t" + rt + ", " + rm + ", " + r(w + 1) + ", [" + rn + "]";
            case 11:
                return "ldrexd" + c + "\t" + rt + ", " + r((w >>> 12) + 1) + ", [" + rn + "]";
            case 12:
                return "strexb" + c + "\t" + rt + ", " + rm + ", [" + rn + "]";
            case 13:
                return "ldrexb" + c + "\t" + rt + ", [" + rn + "]";
            case 14:
                return "strexh" + c + "\t" + rt + ", " + rm + ", [" + rn + "]";
            case 15:
                return "ldrexh" + c + "\t" + rt + ", [" + rn + "]";
            default:
                return null;
        }
    }

    private static String extraLoadStore(int w, String c) {
        boolean p = (w & 0x01000000) != 0;
        boolean wb = (w & 0x00200000) != 0;
        boolean load = (w & 0x00100000) != 0;
        int op2 = (w >>> 5) & 3;
        String m;
        boolean dual = false;
        if (op2 == 1) {
            m = load ? "ldrh" : "strh";
        } else if (op2 == 2) {
            m = load ? "ldrsb" : "ldrd";
            dual = !load;
        } else {
            m = load ? "ldrsh" : "strd";
            dual = !load;
        }
        boolean t = !p && wb;
        if (t) {
            m += "t";
        }
        StringBuilder b = new StringBuilder(m).append(c).append('\t').append(r(w >>> 12));
        b.append(", ");
        String rn = r(w >>> 16);
        boolean u = (w & 0x00800000) != 0;
        if ((w & 0x00400000) != 0) {
            int imm = ((w >>> 4) & 0xF0) | (w & 0xF);
            String off = "#" + (u ? "" : "-") + imm;
            if (p) {
                b.append('[').append(rn);
                if (imm != 0 || !u) {
                    b.append(", ").append(off);
                }
                b.append(']').append(wb ? "!" : "");
            } else {
                b.append('[').append(rn).append("], ").append(off);
            }
        } else {
            String off = (u ? "" : "-") + r(w);
            if (p) {
                b.append('[').append(rn).append(", ").append(off).append(']').append(wb ? "!" : "");
            } else {
                b.append('[').append(rn).append("], ").append(off);
            }
        }
        return b.toString();
    }

    private static String misc(int w, String c) {
        int op2 = (w >>> 4) & 7;
        int op = (w >>> 21) & 3;
        if (!miscFieldsHold(w, op2, op)) {
            return null;
        }
        switch (op2) {
            case 0:
                if ((op & 1) == 0) {
                    if ((w & 0x200) != 0) { // banked register (ARMv7 virtualization)
                        return "mrs" + c + "\t" + r(w >>> 12) + ", " + banked(w, (w & 0x00400000) != 0);
                    }
                    return "mrs" + c + "\t" + r(w >>> 12) + ", " + ((w & 0x00400000) != 0 ? "SPSR" : "CPSR");
                }
                if ((w & 0x200) != 0) {
                    return "msr" + c + "\t" + banked(w, (w & 0x00400000) != 0) + ", " + r(w);
                }
                return "msr" + c + "\t" + psrFields(w) + ", " + r(w);
            case 1:
                if (op == 1) {
                    return "bx" + c + "\t" + r(w);
                }
                if (op == 3) {
                    return "clz" + c + "\t" + r(w >>> 12) + ", " + r(w);
                }
                return null;
            case 2:
                return op == 1 ? "bxj" + c + "\t" + r(w) : null;
            case 3:
                return op == 1 ? "blx" + c + "\t" + r(w) : null;
            case 5: {
                String[] q = {"qadd", "qsub", "qdadd", "qdsub"};
                return q[op] + c + "\t" + r(w >>> 12) + ", " + r(w) + ", " + r(w >>> 16);
            }
            case 6:
                return op == 3 ? "eret" + c : null;
            case 7:
                switch (op) {
                    case 1:
                        return "bkpt" + c + "\t" + pad4(((w >>> 4) & 0xFFF0) | (w & 0xF));
                    case 2:
                        return "hvc" + c + "\t" + (((w >>> 4) & 0xFFF0) | (w & 0xF));
                    case 3:
                        return "smc" + c + "\t" + (w & 0xF);
                    default:
                        return null;
                }
            default:
                return null;
        }
    }

    /** The should-be-one/zero fields objdump checks before it takes a miscellaneous encoding (A5.2.12). */
    private static boolean miscFieldsHold(int w, int op2, int op) {
        switch (op2) {
            case 0:
                if ((w & 0x200) != 0) {
                    return (op & 1) == 0 ? (w & 0xC0F) == 0 : (w & 0xFC00) == 0xF000 ? (w & 0xC00) == 0 : false;
                }
                return (op & 1) == 0 ? (w & 0x000F0D0F) == 0x000F0000 : (w & 0xFD00) == 0xF000;
            case 1:
            case 2:
            case 3:
                return op == 3 ? (w & 0x000F0F00) == 0x000F0F00 : (w & 0x000FFF00) == 0x000FFF00;
            case 5:
                return (w & 0xF00) == 0;
            case 6:
                return (w & 0x000FFF0F) == 0x0000000E;
            default:
                return true;
        }
    }

    /** objdump's "0x%04x". */
    private static String pad4(int v) {
        String digits = Integer.toHexString(v);
        return "0x" + "0000".substring(Math.min(4, digits.length())) + digits;
    }

    private static String banked(int w, boolean r) {
        return bankedName(((w >>> 16) & 15) | ((w >>> 4) & 0x10), r);
    }

    /** Banked register names of MRS/MSR (banked register), DDI 0406C B9.2.3, as objdump writes them. */
    static String bankedName(int sysm, boolean r) {
        if (r) {
            String[] spsr = {null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                "SPSR_fiq", null, "SPSR_irq", null, "SPSR_svc", null, "SPSR_abt", null, "SPSR_und", null, null, null,
                null, null, "SPSR_mon", null, "SPSR_hyp", null};
            String s = spsr[sysm];
            return s == null ? "SPSR" : s;
        }
        String[] names = {"R8_usr", "R9_usr", "R10_usr", "R11_usr", "R12_usr", "SP_usr", "LR_usr", null, "R8_fiq",
            "R9_fiq", "R10_fiq", "R11_fiq", "R12_fiq", "SP_fiq", "LR_fiq", null, "LR_irq", "SP_irq", "LR_svc", "SP_svc",
            "LR_abt", "SP_abt", "LR_und", "SP_und", null, null, null, null, "LR_mon", "SP_mon", "ELR_hyp", "SP_hyp"};
        String s = names[sysm];
        return s == null ? "APSR" : s;
    }

    private static String halfwordMultiply(int w, String c) {
        String xy = ((w & 0x20) != 0 ? "t" : "b") + ((w & 0x40) != 0 ? "t" : "b");
        String y = (w & 0x40) != 0 ? "t" : "b";
        String d = r(w >>> 16);
        String a = r(w >>> 12);
        String m = r(w);
        String s = r(w >>> 8);
        switch ((w >>> 21) & 3) {
            case 0:
                return "smla" + xy + c + "\t" + d + ", " + m + ", " + s + ", " + a;
            case 1:
                if ((w & 0x20) == 0) {
                    return "smlaw" + y + c + "\t" + d + ", " + m + ", " + s + ", " + a;
                }
                return (w & 0xF000) != 0 ? null : "smulw" + y + c + "\t" + d + ", " + m + ", " + s;
            case 2:
                return "smlal" + xy + c + "\t" + a + ", " + d + ", " + m + ", " + s;
            default:
                // Ra (15:12) should be zero; objdump reads other values as CMN (A5.2.7)
                return (w & 0xF000) != 0 ? null : "smul" + xy + c + "\t" + d + ", " + m + ", " + s;
        }
    }

    // ------------------------------------------------------------------ loads and stores

    private static String loadStore(int w, String c) {
        boolean p = (w & 0x01000000) != 0;
        boolean u = (w & 0x00800000) != 0;
        boolean byt = (w & 0x00400000) != 0;
        boolean wb = (w & 0x00200000) != 0;
        boolean load = (w & 0x00100000) != 0;
        boolean reg = (w & 0x02000000) != 0;
        int rn = (w >>> 16) & 15;
        int imm = w & 0xFFF;
        // PUSH/POP of one register (A8.8.132, A8.8.134)
        if (!reg && !byt && rn == 13) {
            if (load && !p && u && !wb && imm == 4) {
                return "pop" + c + "\t{" + r(w >>> 12) + "}";
            }
            if (!load && p && !u && wb && imm == 4) {
                return "push" + c + "\t{" + r(w >>> 12) + "}";
            }
        }
        String m = (load ? "ldr" : "str") + (byt ? "b" : "") + (!p && wb ? "t" : "");
        StringBuilder b = new StringBuilder(m).append(c).append('\t').append(r(w >>> 12)).append(", [").append(r(rn));
        String off;
        if (reg) {
            off = (u ? "" : "-") + r(w) + shiftImm((w >>> 5) & 3, (w >>> 7) & 31);
        } else {
            if (p && imm == 0 && u) {
                return b.append(']').append(wb ? "!" : "").toString();
            }
            off = "#" + (u ? "" : "-") + imm;
        }
        if (p) {
            b.append(", ").append(off).append(']').append(wb ? "!" : "");
        } else {
            b.append("], ").append(off);
        }
        return b.toString();
    }

    private static String blockTransfer(int w, String c) {
        boolean load = (w & 0x00100000) != 0;
        boolean wb = (w & 0x00200000) != 0;
        int rn = (w >>> 16) & 15;
        int mode = (w >>> 23) & 3; // 0 DA, 1 IA, 2 DB, 3 IB
        boolean user = (w & 0x00400000) != 0;
        int list = w & 0xFFFF;
        if (rn == 13 && wb && !user && Integer.bitCount(list) > 1) {
            if (load && mode == 1) {
                return "pop" + c + "\t" + regList(list);
            }
            if (!load && mode == 2) {
                return "push" + c + "\t" + regList(list);
            }
        }
        if (rn == 13 && wb && !user && Integer.bitCount(list) == 1) {
            // one register: PUSH/POP are the aliases of the LDR/STR encodings then (DDI 0406C A8.8.132,
            // A8.8.134), and objdump spells these block transfers with the full-descending stack names
            if (load && mode == 1) {
                return "ldmfd" + c + "\tsp!, " + regList(list);
            }
            if (!load && mode == 2) {
                return "stmfd" + c + "\tsp!, " + regList(list);
            }
        }
        String[] modes = {"da", "", "db", "ib"};
        String ia = !load && mode == 1 && (wb || user) ? "ia" : modes[mode];
        return (load ? "ldm" : "stm") + (mode == 1 ? ia : modes[mode]) + c + "\t" + r(rn) + (wb ? "!" : "") + ", " + regList(list)
                + (user ? "^" : "");
    }

    // ------------------------------------------------------------------ cond = 1111 (A5.7)

    private static String unconditional(int w, long address, Disassembler.Names names) {
        int op1 = (w >>> 20) & 0xFF;
        if ((op1 & 0x80) == 0) {
            return memoryHintsSimd(w);
        }
        if ((op1 & 0xE5) == 0x84) {
            String[] modes = {"da", "ia", "db", "ib"};
            return "srs" + modes[(w >>> 23) & 3] + "\tsp" + ((w & 0x00200000) != 0 ? "!" : "") + ", #" + (w & 0x1F);
        }
        if ((op1 & 0xE5) == 0x81) {
            String[] modes = {"da", "ia", "db", "ib"};
            return "rfe" + modes[(w >>> 23) & 3] + "\t" + r(w >>> 16) + ((w & 0x00200000) != 0 ? "!" : "");
        }
        if ((op1 & 0xE0) == 0xA0) {
            long target = (address + 8 + ((long) (w << 8) >> 6) + ((w >>> 23) & 2)) & 0xFFFFFFFFL;
            return "blx\t" + names.target(target);
        }
        if ((op1 & 0xE0) == 0xC0 || (op1 & 0xE0) == 0xE0) {
            return Coprocessor.a32(w, "", true, address, names);
        }
        return null;
    }

    private static String memoryHintsSimd(int w) {
        int op1 = (w >>> 20) & 0x7F;
        if ((w & 0xFFF10020) == 0xF1000000) {
            return cps(w);
        }
        if ((w & 0xFFFF00F0) == 0xF1010000 && (w & 0x000FFD0F) == 0) {
            return "setend\t" + ((w & 0x200) != 0 ? "be" : "le");
        }
        if ((op1 & 0x60) == 0x20) {
            return Simd.dataProcessing(w, false);
        }
        if ((op1 & 0x71) == 0x40) {
            return Simd.loadStore(w, false);
        }
        if ((w & 0xFFFFFFFF) == 0xF57FF01F) {
            return "clrex";
        }
        if ((w & 0xFFFFFFF0) == 0xF57FF040) {
            return "dsb\t" + Barriers.option(w & 15);
        }
        if ((w & 0xFFFFFFF0) == 0xF57FF050) {
            return "dmb\t" + Barriers.option(w & 15);
        }
        if ((w & 0xFFFFFFF0) == 0xF57FF060) {
            return "isb\t" + Barriers.isbOption(w & 15);
        }
        if ((op1 & 0x77) == 0x45 || (op1 & 0x77) == 0x55 || (op1 & 0x77) == 0x51 || (op1 & 0x77) == 0x61
                || (op1 & 0x77) == 0x65 || (op1 & 0x77) == 0x71 || (op1 & 0x77) == 0x75) {
            boolean reg = (w & 0x02000000) != 0;
            if (reg && (w & 0x10) != 0) {
                return null;
            }
            String m = (op1 & 0x10) == 0 ? "pli" : ((w & 0x00400000) != 0 ? "pld" : "pldw");
            StringBuilder b = new StringBuilder(m).append("\t[").append(r(w >>> 16));
            boolean u = (w & 0x00800000) != 0;
            if (reg) {
                b.append(", ").append(u ? "" : "-").append(r(w)).append(shiftImm((w >>> 5) & 3, (w >>> 7) & 31));
            } else {
                int imm = w & 0xFFF;
                if (imm != 0 || !u) {
                    b.append(", #").append(u ? "" : "-").append(imm);
                }
            }
            return b.append(']').toString();
        }
        return null;
    }

    private static String cps(int w) {
        int imod = (w >>> 18) & 3;
        boolean m = (w & 0x00020000) != 0;
        StringBuilder b = new StringBuilder(imod == 2 ? "cpsie" : imod == 3 ? "cpsid" : "cps");
        if (imod >= 2) {
            b.append('\t');
            if ((w & 0x100) != 0) {
                b.append('a');
            }
            if ((w & 0x80) != 0) {
                b.append('i');
            }
            if ((w & 0x40) != 0) {
                b.append('f');
            }
            if ((w & 0x1C0) == 0) {
                b.append("none");
            }
            if (m) {
                b.append(",#").append(w & 0x1F);
            }
        } else if (m) {
            b.append("\t#").append(w & 0x1F);
        }
        return b.toString();
    }
}
