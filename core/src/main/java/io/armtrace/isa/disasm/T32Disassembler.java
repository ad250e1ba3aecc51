package io.armtrace.isa.disasm;

import io.armtrace.isa.InstructionClassifier;

import static io.armtrace.isa.disasm.Asm.COND;
import static io.armtrace.isa.disasm.Asm.SHIFT;
import static io.armtrace.isa.disasm.Asm.r;
import static io.armtrace.isa.disasm.Asm.regList;
import static io.armtrace.isa.disasm.Asm.shiftImm;

/**
 * T32 instructions as text: the 16-bit encodings (DDI 0406C A6.2) and the 32-bit ones (A6.3), in
 * objdump's unified syntax. Inside an IT block the condition of the block is appended and the 16-bit
 * data-processing forms lose their S (they do not set the flags there, A6.2). Returns
 * "mnemonic\toperands".
 */
final class T32Disassembler {
    private static final String[] DP16 = {"and", "eor", "lsl", "lsr", "asr", "adc", "sbc", "ror", "tst", "neg", "cmp",
        "cmn", "orr", "mul", "bic", "mvn"};

    private T32Disassembler() {
    }

    /** The condition suffix inside an IT block: objdump writes "al" for an always condition there. */
    private static String itCond(int itState) {
        int cond = (itState >>> 4) & 15;
        return cond == 14 ? "al" : COND[cond];
    }

    // ================================================================== 16-bit

    static String t16(int hw, long address, int itState, Disassembler.Names names) {
        boolean inIt = InstructionClassifier.inItBlock(itState);
        String c = inIt ? itCond(itState) : "";
        String s = inIt ? "" : "s";
        int op = hw >>> 10;
        switch (hw >>> 13) {
            case 0: {
                int rd = hw & 7;
                int rm = (hw >>> 3) & 7;
                int type = (hw >>> 11) & 3;
                if (type == 3) {
                    String m = (hw & 0x200) != 0 ? "sub" : "add";
                    if ((hw & 0x400) != 0) {
                        return m + s + c + "\t" + r(rd) + ", " + r(rm) + ", #" + ((hw >>> 6) & 7);
                    }
                    return m + s + c + "\t" + r(rd) + ", " + r(rm) + ", " + r(hw >>> 6 & 7);
                }
                int imm = (hw >>> 6) & 31;
                if (type == 0 && imm == 0) {
                    return "mov" + s + c + "\t" + r(rd) + ", " + r(rm);
                }
                return SHIFT[type] + s + c + "\t" + r(rd) + ", " + r(rm) + ", #" + (imm == 0 ? 32 : imm);
            }
            case 1: {
                String[] m = {"mov", "cmp", "add", "sub"};
                int o = (hw >>> 11) & 3;
                return m[o] + (o == 1 ? "" : s) + c + "\t" + r((hw >>> 8) & 7) + ", #" + (hw & 0xFF);
            }
            default:
                break;
        }
        if (op == 0x10) {
            int o = (hw >>> 6) & 15;
            String rd = r(hw & 7);
            String rm = r((hw >>> 3) & 7);
            String m = DP16[o];
            boolean flags = o == 8 || o == 10 || o == 11;
            String ss = flags ? "" : s;
            if (o == 9) {
                return "neg" + ss + c + "\t" + rd + ", " + rm;
            }
            if (o == 13) {
                return "mul" + ss + c + "\t" + rd + ", " + rm;
            }
            return m + ss + c + "\t" + rd + ", " + rm;
        }
        if (op == 0x11) {
            int o = (hw >>> 8) & 3;
            int rdn = (hw & 7) | ((hw >>> 4) & 8);
            int rm = (hw >>> 3) & 15;
            switch (o) {
                case 0:
                    return "add" + c + "\t" + r(rdn) + ", " + r(rm);
                case 1:
                    return "cmp" + c + "\t" + r(rdn) + ", " + r(rm);
                case 2:
                    if (rdn == 8 && rm == 8) {
                        return "nop" + c;
                    }
                    return "mov" + c + "\t" + r(rdn) + ", " + r(rm);
                default:
                    // bits 2:0 = 100: the ARMv8-M non-secure forms, which objdump decodes for every architecture
                    return ((hw & 0x80) != 0 ? "blx" : "bx") + ((hw & 7) == 4 ? "ns" : "") + c + "\t" + r(rm);
            }
        }
        if ((hw >>> 11) == 9) {
            return "ldr" + c + "\t" + r((hw >>> 8) & 7) + ", [pc, #" + ((hw & 0xFF) * 4) + "]";
        }
        if ((hw >>> 12) == 5) {
            String[] m = {"str", "strh", "strb", "ldrsb", "ldr", "ldrh", "ldrb", "ldrsh"};
            return m[(hw >>> 9) & 7] + c + "\t" + r(hw & 7) + ", [" + r((hw >>> 3) & 7) + ", " + r((hw >>> 6) & 7) + "]";
        }
        if ((hw >>> 13) == 3 || (hw >>> 12) == 8) {
            boolean load = (hw & 0x800) != 0;
            int imm = (hw >>> 6) & 31;
            String m;
            if ((hw >>> 12) == 8) {
                m = load ? "ldrh" : "strh";
                imm *= 2;
            } else if ((hw & 0x1000) != 0) {
                m = load ? "ldrb" : "strb";
            } else {
                m = load ? "ldr" : "str";
                imm *= 4;
            }
            return m + c + "\t" + r(hw & 7) + ", [" + r((hw >>> 3) & 7) + ", #" + imm + "]";
        }
        if ((hw >>> 12) == 9) {
            return ((hw & 0x800) != 0 ? "ldr" : "str") + c + "\t" + r((hw >>> 8) & 7) + ", [sp, #" + ((hw & 0xFF) * 4) + "]";
        }
        if ((hw >>> 12) == 0xA) {
            return "add" + c + "\t" + r((hw >>> 8) & 7) + ", " + ((hw & 0x800) != 0 ? "sp" : "pc") + ", #" + ((hw & 0xFF) * 4);
        }
        if ((hw >>> 12) == 0xB) {
            return misc16(hw, address, c, itState, names);
        }
        if ((hw >>> 12) == 0xC) {
            boolean load = (hw & 0x800) != 0;
            int rn = (hw >>> 8) & 7;
            int list = hw & 0xFF;
            boolean wb = !load || (list & (1 << rn)) == 0;
            return (load ? "ldmia" : "stmia") + c + "\t" + r(rn) + (wb ? "!" : "") + ", " + regList(list);
        }
        if ((hw >>> 12) == 0xD) {
            int cond = (hw >>> 8) & 15;
            if (cond == 14) {
                return "udf" + c + "\t#" + (hw & 0xFF);
            }
            if (cond == 15) {
                return "svc" + c + "\t" + (hw & 0xFF);
            }
            long target = (address + 4 + ((long) (byte) hw << 1)) & 0xFFFFFFFFL;
            return "b" + COND[cond] + ".n\t" + names.target(target);
        }
        if ((hw >>> 11) == 0x1C) {
            long target = (address + 4 + ((long) ((hw << 21) >> 20))) & 0xFFFFFFFFL;
            return "b" + c + ".n\t" + names.target(target);
        }
        return null;
    }

    private static String misc16(int hw, long address, String c, int itState, Disassembler.Names names) {
        int op = (hw >>> 5) & 0x7F;
        if ((op & 0x7C) == 0x00) {
            return "add" + c + "\tsp, #" + ((hw & 0x7F) * 4);
        }
        if ((op & 0x7C) == 0x04) {
            return "sub" + c + "\tsp, #" + ((hw & 0x7F) * 4);
        }
        if ((hw & 0x0500) == 0x0100) {
            int imm = ((hw >>> 2) & 0x3E) | ((hw >>> 3) & 0x40);
            long target = (address + 4 + imm) & 0xFFFFFFFFL;
            return ((hw & 0x800) != 0 ? "cbnz" : "cbz") + "\t" + r(hw & 7) + ", " + names.target(target);
        }
        if ((op & 0x78) == 0x10) {
            String[] m = {"sxth", "sxtb", "uxth", "uxtb"};
            return m[(hw >>> 6) & 3] + c + "\t" + r(hw & 7) + ", " + r((hw >>> 3) & 7);
        }
        if ((op & 0x70) == 0x20) {
            int list = (hw & 0xFF) | ((hw & 0x100) << 6);
            return "push" + c + "\t" + regList(list);
        }
        if ((op & 0x70) == 0x60) {
            int list = (hw & 0xFF) | ((hw & 0x100) << 7);
            return "pop" + c + "\t" + regList(list);
        }
        if ((hw & 0xFFC0) == 0xBA80) {
            return "hlt\t" + hex4(hw & 0x3F);
        }
        if ((hw & 0xFFF7) == 0xB610) {
            return "setpan\t#" + ((hw >>> 3) & 1);
        }
        if (op == 0x32) {
            return "setend\t" + ((hw & 8) != 0 ? "be" : "le");
        }
        if (op == 0x33) {
            StringBuilder b = new StringBuilder((hw & 0x10) != 0 ? "cpsid\t" : "cpsie\t");
            if ((hw & 4) != 0) {
                b.append('a');
            }
            if ((hw & 2) != 0) {
                b.append('i');
            }
            if ((hw & 1) != 0) {
                b.append('f');
            }
            return b.toString();
        }
        if ((op & 0x78) == 0x50) {
            String[] m = {"rev", "rev16", null, "revsh"};
            String mm = m[(hw >>> 6) & 3];
            return mm == null ? null : mm + c + "\t" + r(hw & 7) + ", " + r((hw >>> 3) & 7);
        }
        if ((op & 0x78) == 0x70) {
            return "bkpt\t" + hex4(hw & 0xFF);
        }
        if ((op & 0x78) == 0x78) {
            int mask = hw & 15;
            if (mask == 0) {
                String[] hints = {"nop", "yield", "wfe", "wfi", "sev", "sevl"};
                int h = (hw >>> 4) & 15;
                return h < 6 ? hints[h] + c : "nop" + c + "\t{" + h + "}";
            }
            return it(hw);
        }
        return null;
    }

    private static String hex4(int v) {
        String h = Integer.toHexString(v);
        return "0x" + "0000".substring(h.length()) + h;
    }

    /** IT{x{y{z}}} firstcond: each later slot is t when its mask bit equals firstcond[0] (A8.8.54). */
    static String it(int hw) {
        int firstcond = (hw >>> 4) & 15;
        int mask = hw & 15;
        StringBuilder b = new StringBuilder("it");
        int bit0 = firstcond & 1;
        int n = Integer.numberOfTrailingZeros(mask);
        for (int i = 3; i > n; i--) {
            b.append(((mask >>> i) & 1) == bit0 ? 't' : 'e');
        }
        return b.append('\t').append(COND[firstcond].isEmpty() ? "al" : COND[firstcond]).toString();
    }

    // ================================================================== 32-bit

    static String t32(int op, long address, int itState, Disassembler.Names names, boolean mProfile) {
        if (mProfile && ((op & 0xFFE0D000) == 0xF3808000 || (op & 0xFFE0D000) == 0xF3E08000)) {
            String special = mSpecial(op, itState);
            if (special != null) {
                return special;
            }
        }
        boolean inIt = InstructionClassifier.inItBlock(itState);
        String c = inIt ? itCond(itState) : "";
        int hw1 = op >>> 16;
        int hw2 = op & 0xFFFF;
        if (mProfile && LowOverheadBranches.matches(hw1, hw2)) {
            String lob = LowOverheadBranches.text(hw1, hw2, address, c, names);
            if (lob != null) {
                return lob;
            }
        }
        int op1 = (hw1 >>> 11) & 3;
        int op2 = (hw1 >>> 4) & 0x7F;
        if (op1 == 1) {
            if ((op2 & 0x64) == 0x00) {
                return loadStoreMultiple(hw1, hw2, c);
            }
            if ((op2 & 0x64) == 0x04) {
                return loadStoreDualExclusive(hw1, hw2, c);
            }
            if ((op2 & 0x60) == 0x20) {
                return dataProcessingShifted(hw1, hw2, c);
            }
            return coprocessor(hw1, hw2, c, address, names);
        }
        if (op1 == 2) {
            if ((hw2 & 0x8000) == 0) {
                return (op2 & 0x20) == 0 ? dataProcessingModified(hw1, hw2, c) : dataProcessingPlain(hw1, hw2, c);
            }
            return branchesMisc(hw1, hw2, address, c, names);
        }
        // op1 == 3
        if ((op2 & 0x71) == 0x00) {
            String s = storeSingle(hw1, hw2, c);
            return s != null ? s : genericLoadStore(hw1, hw2, c);
        }
        if ((op2 & 0x61) == 0x01) {
            String s = (op2 & 0x67) == 0x07 ? null : loadSingle(hw1, hw2, c);
            return s != null ? s : genericLoadStore(hw1, hw2, c);
        }
        if ((op2 & 0x71) == 0x10) {
            return Simd.loadStore(toA32Simd(hw1, hw2), true);
        }
        if ((op2 & 0x70) == 0x20) {
            return dataProcessingRegister(hw1, hw2, c);
        }
        if ((op2 & 0x78) == 0x30) {
            return multiply(hw1, hw2, c);
        }
        if ((op2 & 0x78) == 0x38) {
            return longMultiply(hw1, hw2, c);
        }
        if ((op2 & 0x40) == 0x40) {
            return coprocessor(hw1, hw2, c, address, names);
        }
        return null;
    }

    /** The A32 form of a T32 Advanced SIMD instruction (A7.4: T32 0xEF/0xFF become A32 0xF2/0xF3, 0xF9 0xF4). */
    private static int toA32Simd(int hw1, int hw2) {
        int w = hw1 << 16 | hw2;
        if ((hw1 & 0xEF00) == 0xEF00) {
            return (w & 0x00FFFFFF) | 0xF2000000 | ((hw1 & 0x1000) << 12);
        }
        return (w & 0x00FFFFFF) | 0xF4000000;
    }

    private static String coprocessor(int hw1, int hw2, String c, long address, Disassembler.Names names) {
        int w = hw1 << 16 | hw2;
        if ((hw1 & 0xEF00) == 0xEF00) {
            return Simd.dataProcessing(toA32Simd(hw1, hw2), true);
        }
        boolean two = (hw1 & 0x1000) != 0;
        int a32 = (w & 0x0FFFFFFF) | (two ? 0xF0000000 : 0xE0000000);
        return Coprocessor.a32(a32, c, two, address, names);
    }

    private static String loadStoreMultiple(int hw1, int hw2, String c) {
        int op = (hw1 >>> 7) & 3;
        boolean load = (hw1 & 0x10) != 0;
        boolean wb = (hw1 & 0x20) != 0;
        int rn = hw1 & 15;
        if (op == 0 || op == 3) {
            if (load) {
                return "rfe" + (op == 0 ? "db" : "ia") + c + "\t" + r(rn) + (wb ? "!" : "");
            }
            return "srs" + (op == 0 ? "db" : "ia") + c + "\tsp" + (wb ? "!" : "") + ", #" + (hw2 & 31);
        }
        if (op == 1) {
            return (load ? "ldmia" : "stmia") + c + ".w\t" + r(rn) + (wb ? "!" : "") + ", " + regList(hw2);
        }
        return (load ? "ldmdb" : "stmdb") + c + "\t" + r(rn) + (wb ? "!" : "") + ", " + regList(hw2);
    }

    private static String loadStoreDualExclusive(int hw1, int hw2, String c) {
        int op1 = (hw1 >>> 7) & 3;
        int op2 = (hw1 >>> 4) & 3;
        int op3 = (hw2 >>> 4) & 15;
        String rn = r(hw1);
        String rt = r(hw2 >>> 12);
        String rd = r(hw2 >>> 8);
        if (op1 == 0 && op2 == 0) {
            int imm = (hw2 & 0xFF) * 4;
            return "strex" + c + "\t" + rd + ", " + rt + ", [" + rn + (imm != 0 ? ", #" + imm : "") + "]";
        }
        if (op1 == 0 && op2 == 1) {
            int imm = (hw2 & 0xFF) * 4;
            return "ldrex" + c + "\t" + rt + ", [" + rn + (imm != 0 ? ", #" + imm : "") + "]";
        }
        if ((op1 & 2) == 0 && op2 == 2 || (op1 & 2) != 0 && (op2 & 1) == 0) {
            return dual("strd", hw1, hw2, c);
        }
        if ((op1 & 2) == 0 && op2 == 3 || (op1 & 2) != 0 && (op2 & 1) == 1) {
            return dual("ldrd", hw1, hw2, c);
        }
        if (op1 == 1 && op2 == 0) {
            String rm = r(hw2);
            switch (op3) {
                case 4: return "strexb" + c + "\t" + r(hw2) + ", " + rt + ", [" + rn + "]";
                case 5: return "strexh" + c + "\t" + r(hw2) + ", " + rt + ", [" + rn + "]";
                case 7: return "strexd" + c + "\t" + rm + ", " + rt + ", " + rd + ", [" + rn + "]";
                default: return null;
            }
        }
        if (op1 == 1 && op2 == 1) {
            switch (op3) {
                case 0: return "tbb" + c + "\t[" + rn + ", " + r(hw2) + "]";
                case 1: return "tbh" + c + "\t[" + rn + ", " + r(hw2) + ", lsl #1]";
                case 4: return "ldrexb" + c + "\t" + rt + ", [" + rn + "]";
                case 5: return "ldrexh" + c + "\t" + rt + ", [" + rn + "]";
                case 7: return "ldrexd" + c + "\t" + rt + ", " + rd + ", [" + rn + "]";
                default: return null;
            }
        }
        return null;
    }

    private static String dual(String m, int hw1, int hw2, String c) {
        boolean p = (hw1 & 0x100) != 0;
        boolean u = (hw1 & 0x80) != 0;
        boolean wb = (hw1 & 0x20) != 0;
        int imm = (hw2 & 0xFF) * 4;
        String rn = r(hw1);
        String off = "#" + (u ? "" : "-") + imm;
        String a;
        if (p) {
            a = "[" + rn + (imm == 0 && u ? "" : ", " + off) + "]" + (wb ? "!" : "");
        } else {
            a = "[" + rn + "], " + off;
        }
        return m + c + "\t" + r(hw2 >>> 12) + ", " + r(hw2 >>> 8) + ", " + a;
    }

    private static final String[] DP32 = {"and", "bic", "orr", "orn", "eor", null, null, null, "add", null, "adc", "sbc",
        null, "sub", "rsb", null};

    private static String shiftedOperand(int hw2) {
        int type = (hw2 >>> 4) & 3;
        int imm = ((hw2 >>> 10) & 0x1C) | ((hw2 >>> 6) & 3);
        return r(hw2) + shiftImm(type, imm);
    }

    private static String dataProcessingShifted(int hw1, int hw2, String c) {
        int op = (hw1 >>> 5) & 15;
        boolean s = (hw1 & 0x10) != 0;
        int rn = hw1 & 15;
        int rd = (hw2 >>> 8) & 15;
        String ss = s ? "s" : "";
        String operand = shiftedOperand(hw2);
        if (op == 6) { // PKHBT/PKHTB
            int imm = ((hw2 >>> 10) & 0x1C) | ((hw2 >>> 6) & 3);
            if ((hw2 & 0x20) == 0) {
                return "pkhbt" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(hw2) + (imm == 0 ? "" : ", lsl #" + imm);
            }
            return "pkhtb" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(hw2) + ", asr #" + (imm == 0 ? 32 : imm);
        }
        if (rd == 15 && s) {
            switch (op) {
                case 0: return "tst" + c + ".w\t" + r(rn) + ", " + operand;
                case 4: return "teq" + c + "\t" + r(rn) + ", " + operand;
                case 8: return "cmn" + c + ".w\t" + r(rn) + ", " + operand;
                case 13: return "cmp" + c + ".w\t" + r(rn) + ", " + operand;
                default: break;
            }
        }
        if (rn == 15 && (op == 2 || op == 3)) {
            if (op == 2) {
                int type = (hw2 >>> 4) & 3;
                int imm = ((hw2 >>> 10) & 0x1C) | ((hw2 >>> 6) & 3);
                return "mov" + ss + c + ".w\t" + r(rd) + ", " + operand;
            }
            return "mvn" + ss + c + ".w\t" + r(rd) + ", " + operand;
        }
        String m = DP32[op];
        if (m == null) {
            return null;
        }
        String w = op == 3 || op == 14 ? "" : ".w";
        return m + ss + c + w + "\t" + r(rd) + ", " + r(rn) + ", " + operand;
    }

    static int thumbExpandImm(int hw1, int hw2) {
        int imm12 = ((hw1 & 0x400) << 1) | ((hw2 >>> 4) & 0x700) | (hw2 & 0xFF);
        int imm8 = imm12 & 0xFF;
        if ((imm12 & 0xC00) == 0) {
            switch ((imm12 >>> 8) & 3) {
                case 0: return imm8;
                case 1: return imm8 << 16 | imm8;
                case 2: return imm8 << 24 | imm8 << 8;
                default: return imm8 << 24 | imm8 << 16 | imm8 << 8 | imm8;
            }
        }
        return Integer.rotateRight(0x80 | (imm12 & 0x7F), imm12 >>> 7);
    }

    private static String dataProcessingModified(int hw1, int hw2, String c) {
        int op = (hw1 >>> 5) & 15;
        boolean s = (hw1 & 0x10) != 0;
        int rn = hw1 & 15;
        int rd = (hw2 >>> 8) & 15;
        String ss = s ? "s" : "";
        String imm = "#" + Integer.toUnsignedString(thumbExpandImm(hw1, hw2));
        if (rd == 15 && s) {
            switch (op) {
                case 0: return "tst" + c + ".w\t" + r(rn) + ", " + imm;
                case 4: return "teq" + c + "\t" + r(rn) + ", " + imm;
                case 8: return "cmn" + c + ".w\t" + r(rn) + ", " + imm;
                case 13: return "cmp" + c + ".w\t" + r(rn) + ", " + imm;
                default: break;
            }
        }
        if (rn == 15 && op == 2) {
            return "mov" + ss + c + ".w\t" + r(rd) + ", " + imm;
        }
        if (rn == 15 && op == 3) {
            return "mvn" + ss + c + ".w\t" + r(rd) + ", " + imm;
        }
        String m = DP32[op];
        if (m == null) {
            return null;
        }
        String w = op == 3 || op == 14 ? "" : ".w";
        return m + ss + c + w + "\t" + r(rd) + ", " + r(rn) + ", " + imm;
    }

    private static String dataProcessingPlain(int hw1, int hw2, String c) {
        int op = (hw1 >>> 4) & 0x1F;
        int rn = hw1 & 15;
        int rd = (hw2 >>> 8) & 15;
        int imm12 = ((hw1 & 0x400) << 1) | ((hw2 >>> 4) & 0x700) | (hw2 & 0xFF);
        int imm16 = ((hw1 & 15) << 12) | imm12;
        int lsb = ((hw2 >>> 10) & 0x1C) | ((hw2 >>> 6) & 3);
        int sat = hw2 & 31;
        switch (op) {
            case 0x00:
                return "addw" + c + "\t" + r(rd) + ", " + r(rn) + ", #" + imm12;
            case 0x04:
                return "movw" + c + "\t" + r(rd) + ", #" + imm16;
            case 0x0A:
                return "subw" + c + "\t" + r(rd) + ", " + r(rn) + ", #" + imm12;
            case 0x0C:
                return "movt" + c + "\t" + r(rd) + ", #" + imm16;
            case 0x10:
            case 0x12:
            case 0x18:
            case 0x1A: {
                boolean u = op >= 0x18;
                if (op == 0x12 && lsb == 0 && (hw1 & 0x20) != 0) {
                    // sh = 1 with no shift: SSAT16 (A8.8.243)
                    return "ssat16" + c + "\t" + r(rd) + ", #" + ((hw2 & 15) + 1) + ", " + r(rn);
                }
                if (op == 0x1A && lsb == 0 && (hw1 & 0x20) != 0) {
                    return "usat16" + c + "\t" + r(rd) + ", #" + (hw2 & 15) + ", " + r(rn);
                }
                String shift = (hw1 & 0x20) == 0 ? (lsb == 0 ? "" : ", lsl #" + lsb) : ", asr #" + (lsb == 0 ? 32 : lsb);
                return (u ? "usat" : "ssat") + c + "\t" + r(rd) + ", #" + (u ? sat : sat + 1) + ", " + r(rn) + shift;
            }
            case 0x14:
                return "sbfx" + c + "\t" + r(rd) + ", " + r(rn) + ", #" + lsb + ", #" + (sat + 1);
            case 0x16:
                if (rn == 15) {
                    return "bfc" + c + "\t" + r(rd) + ", #" + lsb + ", #" + (sat - lsb + 1);
                }
                return "bfi" + c + "\t" + r(rd) + ", " + r(rn) + ", #" + lsb + ", #" + (sat - lsb + 1);
            case 0x1C:
                return "ubfx" + c + "\t" + r(rd) + ", " + r(rn) + ", #" + lsb + ", #" + (sat + 1);
            default:
                return null;
        }
    }

    private static String branchesMisc(int hw1, int hw2, long address, String c, Disassembler.Names names) {
        int op1 = (hw2 >>> 12) & 7;
        int op = (hw1 >>> 4) & 0x7F;
        if ((op1 & 5) == 0) {
            if ((op & 0x38) != 0x38) {
                int cond = (hw1 >>> 6) & 15;
                int imm = ((hw1 & 0x400) << 10) | ((hw2 & 0x800) << 8) | ((hw2 & 0x2000) << 5) | ((hw1 & 0x3F) << 12)
                        | ((hw2 & 0x7FF) << 1);
                long target = (address + 4 + ((imm << 11) >> 11)) & 0xFFFFFFFFL;
                return "b" + (cond == 14 ? "al" : COND[cond]) + ".w\t" + names.target(target);
            }
            return misc32(hw1, hw2, c);
        }
        int s = (hw1 >>> 10) & 1;
        int j1 = (hw2 >>> 13) & 1;
        int j2 = (hw2 >>> 11) & 1;
        int i1 = (j1 ^ s) ^ 1;
        int i2 = (j2 ^ s) ^ 1;
        int imm = (s << 24) | (i1 << 23) | (i2 << 22) | ((hw1 & 0x3FF) << 12) | ((hw2 & 0x7FF) << 1);
        long offset = (imm << 7) >> 7;
        if ((op1 & 5) == 1) {
            return "b" + c + ".w\t" + names.target((address + 4 + offset) & 0xFFFFFFFFL);
        }
        if ((op1 & 5) == 5) {
            return "bl" + c + "\t" + names.target((address + 4 + offset) & 0xFFFFFFFFL);
        }
        // BLX imm: target is Align(PC, 4) + offset (H bit must be 0)
        long target = (((address + 4) & ~3L) + (offset & ~3L)) & 0xFFFFFFFFL;
        return "blx" + c + "\t" + names.target(target);
    }

    private static String misc32(int hw1, int hw2, String c) {
        int op = (hw1 >>> 4) & 0x7F;
        switch (op) {
            case 0x38:
            case 0x39: {
                if ((hw2 & 0x20) != 0) {
                    return "msr" + c + "\t" + bankedT(hw1, hw2) + ", " + r(hw1);
                }
                int mask = (hw2 >>> 8) & 15;
                if ((hw1 & 0x10) != 0) { // SPSR
                    return "msr" + c + "\t" + psr("SPSR_", mask) + ", " + r(hw1);
                }
                return "msr" + c + "\t" + psr("CPSR_", mask) + ", " + r(hw1);
            }
            case 0x3A:
                return hintsT32(hw2, c);
            case 0x3B:
                switch ((hw2 >>> 4) & 15) {
                    case 2: return "clrex" + c;
                    case 4: return "dsb" + c + "\t" + Barriers.option(hw2 & 15);
                    case 5: return "dmb" + c + "\t" + Barriers.option(hw2 & 15);
                    case 6: return "isb" + c + "\t" + Barriers.isbOption(hw2 & 15);
                    default: return null;
                }
            case 0x3C:
                return "bxj" + c + "\t" + r(hw1);
            case 0x3D:
                return "subs" + c + "\tpc, " + r(hw1) + ", #" + (hw2 & 0xFF);
            case 0x3E:
            case 0x3F:
                if ((hw2 & 0x20) != 0) {
                    return "mrs" + c + "\t" + r(hw2 >>> 8) + ", " + bankedT(hw1, hw2);
                }
                return "mrs" + c + "\t" + r(hw2 >>> 8) + ", " + ((hw1 & 0x10) != 0 ? "SPSR" : "CPSR");
            case 0x7F:
                if ((hw2 & 0x7000) == 0x2000) {
                    return "udf" + c + ".w\t#" + (((hw1 & 15) << 12) | (hw2 & 0xFFF));
                }
                return (hw2 & 0x5000) == 0 ? "smc" + c + "\t#" + (hw1 & 15) : null;
            case 0x7E:
                return (hw2 & 0x5000) == 0 ? "hvc" + c + "\t#" + (((hw1 & 15) << 12) | (hw2 & 0xFFF)) : null;
            default:
                if ((op & 0x7F) == 0x7E || (op & 0x70) == 0x70) {
                    if ((hw2 & 0x7000) == 0) {
                        if (op == 0x7E) {
                            return "hvc" + c + "\t#" + (((hw1 & 15) << 12) | (hw2 & 0xFFF));
                        }
                        if (op == 0x7F) {
                            return "smc" + c + "\t#" + (hw1 & 15);
                        }
                    }
                }
                return null;
        }
    }

    /**
     * MRS/MSR of the M profile name special registers by SYSm (DDI 0403E B5.1.1); MSR to an APSR form
     * carries the mask (_nzcvq, _g, _nzcvqg).
     */
    private static String mSpecial(int op, int itState) {
        String c = InstructionClassifier.inItBlock(itState) ? itCond(itState) : "";
        int hw1 = op >>> 16;
        int hw2 = op & 0xFFFF;
        int sysm = hw2 & 0xFF;
        String name = switch (sysm) {
            case 0 -> "APSR";
            case 1 -> "IAPSR";
            case 2 -> "EAPSR";
            case 3 -> "PSR";
            case 5 -> "IPSR";
            case 6 -> "EPSR";
            case 7 -> "IEPSR";
            case 8 -> "MSP";
            case 9 -> "PSP";
            case 10 -> "MSPLIM";
            case 11 -> "PSPLIM";
            case 16 -> "PRIMASK";
            case 17 -> "BASEPRI";
            case 18 -> "BASEPRI_MAX";
            case 19 -> "FAULTMASK";
            case 20 -> "CONTROL";
            default -> null;
        };
        if (name == null) {
            return null;
        }
        if ((hw1 & 0xFFE0) == 0xF3E0) {
            return "mrs" + c + "\t" + r(hw2 >>> 8) + ", " + name;
        }
        if (sysm < 8) {
            int mask = (hw2 >>> 10) & 3;
            name += mask == 2 ? "_nzcvq" : mask == 1 ? "_g" : mask == 3 ? "_nzcvqg" : "";
        }
        return "msr" + c + "\t" + name + ", " + r(hw1);
    }

    private static String psr(String prefix, int mask) {
        StringBuilder b = new StringBuilder(prefix);
        if ((mask & 8) != 0) {
            b.append('f');
        }
        if ((mask & 4) != 0) {
            b.append('s');
        }
        if ((mask & 2) != 0) {
            b.append('x');
        }
        if ((mask & 1) != 0) {
            b.append('c');
        }
        return b.toString();
    }

    /** MRS/MSR (banked register): SYSm is M:M1, M1 in hw1 3:0 (MRS) or hw2 11:8 (MSR), DDI 0406C A8.8.109. */
    private static String bankedT(int hw1, int hw2) {
        boolean msr = (hw1 & 0xFFE0) == 0xF380;
        int m1 = msr ? (hw2 >>> 8) & 15 : hw1 & 15;
        return A32Disassembler.bankedName(((hw2 >>> 4) & 1) << 4 | m1, (hw1 & 0x10) != 0);
    }

    private static String hintsT32(int hw2, String c) {
        if ((hw2 & 0x700) != 0) {
            StringBuilder b = new StringBuilder();
            int imod = (hw2 >>> 9) & 3;
            b.append(imod == 2 ? "cpsie.w\t" : imod == 3 ? "cpsid.w\t" : "cps\t");
            if (imod >= 2) {
                if ((hw2 & 0x80) != 0) {
                    b.append('a');
                }
                if ((hw2 & 0x40) != 0) {
                    b.append('i');
                }
                if ((hw2 & 0x20) != 0) {
                    b.append('f');
                }
                if ((hw2 & 0x100) != 0) {
                    b.append(", #").append(hw2 & 31);
                }
            } else {
                b.append('#').append(hw2 & 31);
            }
            return b.toString();
        }
        int h = hw2 & 0xFF;
        switch (h) {
            case 0: return "nop" + c + ".w";
            case 1: return "yield" + c + ".w";
            case 2: return "wfe" + c + ".w";
            case 3: return "wfi" + c + ".w";
            case 4: return "sev" + c + ".w";
            default:
                if ((h & 0xF0) == 0xF0) {
                    return "dbg" + c + "\t#" + (h & 15);
                }
                return "nop" + c + ".w\t{" + h + "}";
        }
    }

    private static String storeSingle(int hw1, int hw2, String c) {
        int size = (hw1 >>> 5) & 3;
        String[] m = {"strb", "strh", "str", null};
        if (m[size] == null) {
            return null;
        }
        return loadStoreSingle(m[size], hw1, hw2, c);
    }

    private static String loadSingle(int hw1, int hw2, String c) {
        int size = (hw1 >>> 5) & 3;
        boolean signed = (hw1 & 0x100) != 0;
        int rt = (hw2 >>> 12) & 15;
        if (rt == 15 && size < 2) {
            // preload hints (A6.3.9, A6.3.8)
            String m = size == 0 ? (signed ? "pli" : "pld") : (signed ? null : "pldw");
            if (m == null) {
                return null;
            }
            if (signed && (hw1 & 0x80) == 0 && (hw1 & 15) != 15 && (hw2 & 0x800) == 0 && (hw2 & 0xFC0) != 0) {
                return m + c + "\t[" + r(hw1) + ", <undefined>]";
            }
            int rn = hw1 & 15;
            if (rn != 15 && (hw1 & 0x80) == 0 && (hw2 & 0xF00) == 0 && (hw2 & 0xC0) != 0) {
                return m + c + "\t[" + r(rn) + ", <undefined>]";
            }
            return m + c + "\t" + objdumpAddress(hw1, hw2);
        }
        String[] names = signed ? new String[] {"ldrsb", "ldrsh", null, null} : new String[] {"ldrb", "ldrh", "ldr", null};
        if (names[size] == null) {
            return null;
        }
        return loadStoreSingle(names[size], hw1, hw2, c);
    }

    private static String loadStoreSingle(String m, int hw1, int hw2, String c) {
        int rn = hw1 & 15;
        String rt = r(hw2 >>> 12);
        if (rn == 15) {
            int imm = hw2 & 0xFFF;
            return m + c + ".w\t" + rt + ", [pc, #" + ((hw1 & 0x80) != 0 ? "" : "-") + imm + "]";
        }
        if ((hw1 & 0x80) != 0) {
            int imm = hw2 & 0xFFF;
            return m + c + ".w\t" + rt + ", [" + r(rn) + (imm == 0 ? "" : ", #" + imm) + "]";
        }
        if ((hw2 & 0x800) == 0) {
            if ((hw2 & 0xFC0) != 0) {
                return null;
            }
            int sh = (hw2 >>> 4) & 3;
            return m + c + ".w\t" + rt + ", [" + r(rn) + ", " + r(hw2) + (sh == 0 ? "" : ", lsl #" + sh) + "]";
        }
        int puw = (hw2 >>> 8) & 7;
        int imm = hw2 & 0xFF;
        switch (puw) {
            case 6:
                return m + "t" + c + "\t" + rt + ", [" + r(rn) + (imm == 0 ? "" : ", #" + imm) + "]";
            case 4:
                return m + c + ".w\t" + rt + ", [" + r(rn) + ", #-" + imm + "]";
            case 1:
            case 3:
                return m + c + ".w\t" + rt + ", [" + r(rn) + "], #" + ((puw & 2) != 0 ? "" : "-") + imm;
            case 5:
            case 7:
                return m + c + ".w\t" + rt + ", [" + r(rn) + ", #" + ((puw & 2) != 0 ? "" : "-") + imm + "]!";
            default:
                return null;
        }
    }

    /**
     * What objdump prints for a single load/store encoding that the architecture leaves UNDEFINED or
     * UNPREDICTABLE (size 0b11, a signed store, a reserved offset form): its generic "ldr"/"str" with
     * "??" for the impossible size and "<undefined>" for a reserved offset form. Kept so that a
     * listing of such bytes reads as objdump's does.
     */
    private static String genericLoadStore(int hw1, int hw2, String c) {
        boolean load = (hw1 & 0x10) != 0;
        int type = (hw1 >>> 5) & 3;
        boolean signed = (hw1 & 0x100) != 0;
        String size = switch (type) {
            case 0 -> signed ? "sb" : "b";
            case 1 -> signed ? "sh" : "h";
            case 2 -> signed ? "??" : "";
            default -> "??";
        };
        int rn = hw1 & 15;
        boolean unprivileged = rn != 15 && (hw1 & 0x80) == 0 && (hw2 & 0xF00) == 0xE00;
        String m = (load ? "ldr" : "str") + size + (unprivileged ? "t" + c : c + ".w");
        return m + "\t" + r(hw2 >>> 12) + ", " + objdumpAddress(hw1, hw2);
    }

    /** objdump's rendering of a T32 single load/store address, reserved forms included. */
    private static String objdumpAddress(int hw1, int hw2) {
        int rn = hw1 & 15;
        boolean u = (hw1 & 0x80) != 0;
        int op = (hw2 >>> 8) & 15;
        int i8 = hw2 & 0xFF;
        String base = "[" + r(rn);
        int offset;
        boolean writeback = false;
        boolean post = false;
        if (u) {
            offset = hw2 & 0xFFF;
        } else if (rn == 15) {
            offset = -(hw2 & 0xFFF);
        } else if (op == 0) {
            int sh = (i8 >>> 4) & 3;
            return base + ", " + r(i8) + (sh != 0 ? ", lsl #" + sh : "") + "]";
        } else {
            switch (op) {
                case 0xE: offset = i8; break;
                case 0xC: offset = -i8; break;
                case 0xF: offset = i8; writeback = true; break;
                case 0xD: offset = -i8; writeback = true; break;
                case 0xB: offset = i8; post = true; break;
                case 0x9: offset = -i8; post = true; break;
                default: return base + ", <undefined>]";
            }
        }
        if (post) {
            return base + "], #" + offset;
        }
        return base + (offset != 0 ? ", #" + offset : "") + (writeback ? "]!" : "]");
    }

    private static String dataProcessingRegister(int hw1, int hw2, String c) {
        int op1 = (hw1 >>> 4) & 15;
        int op2 = (hw2 >>> 4) & 15;
        int rn = hw1 & 15;
        int rd = (hw2 >>> 8) & 15;
        int rm = hw2 & 15;
        if ((op1 & 8) == 0 && op2 == 0) {
            String s = (op1 & 1) != 0 ? "s" : "";
            return SHIFT[(op1 >>> 1) & 3] + s + c + ".w\t" + r(rd) + ", " + r(rn) + ", " + r(rm);
        }
        if ((op1 & 8) == 0 && (op2 & 8) != 0) {
            String[] m = {"sxtah", "uxtah", "sxtab16", "uxtab16", "sxtab", "uxtab", null, null};
            String base = m[op1 & 7];
            if (base == null) {
                return null;
            }
            String rot = Media.rotation((hw2 >>> 4) & 3);
            if (rn == 15) {
                String plain = base.substring(0, 3) + base.substring(4);
                boolean narrow = plain.equals("sxth") || plain.equals("uxth") || plain.equals("sxtb") || plain.equals("uxtb");
                return plain + c + (narrow ? ".w" : "") + "\t" + r(rd) + ", " + r(rm) + rot;
            }
            return base + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm) + rot;
        }
        if ((op1 & 8) != 0 && (op2 & 8) == 0) {
            // parallel addition and subtraction (A6.3.13, A6.3.14)
            String[] ops = {"add8", "add16", "asx", null, "sub8", "sub16", "sax", null};
            String[] pre = {"s", "q", "sh", null};
            String o = ops[op1 & 7];
            String p = (op2 & 4) != 0 ? new String[] {"u", "uq", "uh", null}[op2 & 3] : pre[op2 & 3];
            if (o == null || p == null) {
                return null;
            }
            return p + o + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm);
        }
        if ((op1 & 0xC) == 8 && (op2 & 0xC) == 8) {
            int o = ((op1 & 3) << 2) | (op2 & 3);
            switch (o) {
                case 0: return "qadd" + c + "\t" + r(rd) + ", " + r(rm) + ", " + r(rn);
                case 1: return "qdadd" + c + "\t" + r(rd) + ", " + r(rm) + ", " + r(rn);
                case 2: return "qsub" + c + "\t" + r(rd) + ", " + r(rm) + ", " + r(rn);
                case 3: return "qdsub" + c + "\t" + r(rd) + ", " + r(rm) + ", " + r(rn);
                case 4: return "rev" + c + ".w\t" + r(rd) + ", " + r(rm);
                case 5: return "rev16" + c + ".w\t" + r(rd) + ", " + r(rm);
                case 6: return "rbit" + c + "\t" + r(rd) + ", " + r(rm);
                case 7: return "revsh" + c + ".w\t" + r(rd) + ", " + r(rm);
                case 8: return "sel" + c + "\t" + r(rd) + ", " + r(rn) + ", " + r(rm);
                case 12: return "clz" + c + "\t" + r(rd) + ", " + r(rm);
                default: return null;
            }
        }
        return null;
    }

    private static String multiply(int hw1, int hw2, String c) {
        int op1 = (hw1 >>> 4) & 7;
        int op2 = (hw2 >>> 4) & 3;
        String rn = r(hw1);
        int ra = (hw2 >>> 12) & 15;
        String rd = r(hw2 >>> 8);
        String rm = r(hw2);
        String nm = rd + ", " + rn + ", " + rm;
        switch (op1) {
            case 0:
                if (op2 == 0) {
                    return ra == 15 ? "mul" + c + ".w\t" + nm : "mla" + c + "\t" + nm + ", " + r(ra);
                }
                return op2 == 1 ? "mls" + c + "\t" + nm + ", " + r(ra) : null;
            case 1: {
                String xy = ((hw2 & 0x20) != 0 ? "t" : "b") + ((hw2 & 0x10) != 0 ? "t" : "b");
                return ra == 15 ? "smul" + xy + c + "\t" + nm : "smla" + xy + c + "\t" + nm + ", " + r(ra);
            }
            case 2: {
                String x = (op2 & 1) != 0 ? "x" : "";
                return ra == 15 ? "smuad" + x + c + "\t" + nm : "smlad" + x + c + "\t" + nm + ", " + r(ra);
            }
            case 3: {
                String y = (op2 & 1) != 0 ? "t" : "b";
                return ra == 15 ? "smulw" + y + c + "\t" + nm : "smlaw" + y + c + "\t" + nm + ", " + r(ra);
            }
            case 4: {
                String x = (op2 & 1) != 0 ? "x" : "";
                return ra == 15 ? "smusd" + x + c + "\t" + nm : "smlsd" + x + c + "\t" + nm + ", " + r(ra);
            }
            case 5: {
                String rr = (op2 & 1) != 0 ? "r" : "";
                return ra == 15 ? "smmul" + rr + c + "\t" + nm : "smmla" + rr + c + "\t" + nm + ", " + r(ra);
            }
            case 6: {
                String rr = (op2 & 1) != 0 ? "r" : "";
                return "smmls" + rr + c + "\t" + nm + ", " + r(ra);
            }
            default:
                if (op2 == 0) {
                    return ra == 15 ? "usad8" + c + "\t" + nm : "usada8" + c + "\t" + nm + ", " + r(ra);
                }
                return null;
        }
    }

    private static String longMultiply(int hw1, int hw2, String c) {
        int op1 = (hw1 >>> 4) & 7;
        int op2 = (hw2 >>> 4) & 15;
        String rn = r(hw1);
        String lo = r(hw2 >>> 12);
        String hi = r(hw2 >>> 8);
        String rm = r(hw2);
        String four = lo + ", " + hi + ", " + rn + ", " + rm;
        switch (op1) {
            case 0: return op2 == 0 ? "smull" + c + "\t" + four : null;
            case 1: return op2 == 15 ? "sdiv" + c + "\t" + hi + ", " + rn + ", " + rm : null;
            case 2: return op2 == 0 ? "umull" + c + "\t" + four : null;
            case 3: return op2 == 15 ? "udiv" + c + "\t" + hi + ", " + rn + ", " + rm : null;
            case 4:
                if (op2 == 0) {
                    return "smlal" + c + "\t" + four;
                }
                if ((op2 & 0xC) == 8) {
                    return "smlal" + ((op2 & 2) != 0 ? "t" : "b") + ((op2 & 1) != 0 ? "t" : "b") + c + "\t" + four;
                }
                if ((op2 & 0xE) == 0xC) {
                    return "smlald" + ((op2 & 1) != 0 ? "x" : "") + c + "\t" + four;
                }
                return null;
            case 5:
                return (op2 & 0xE) == 0xC ? "smlsld" + ((op2 & 1) != 0 ? "x" : "") + c + "\t" + four : null;
            case 6:
                if (op2 == 0) {
                    return "umlal" + c + "\t" + four;
                }
                return op2 == 6 ? "umaal" + c + "\t" + four : null;
            default:
                return null;
        }
    }
}
