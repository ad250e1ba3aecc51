package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.Asm.COND;
import static io.armtrace.isa.disasm.Asm.r;

/**
 * The Armv8.1-M low-overhead loop and branch-future instructions (DDI 0553, the LOB extension) in objdump's
 * syntax: WLS, WLSTP, DLS, DLSTP, LE, LETP, LCTP, BF, BFX, BFL, BFLX and BFCSEL. They reuse 32-bit T32 encodings
 * that are BLX (immediate) with H = 1 in Armv7-M and Armv8-M mainline, so only the M profile decodes them.
 *
 * <p>A branch-future instruction names a branch point {@code boff} bytes after the instruction's PC (its address
 * plus 4), printed in hex as objdump does, and a target (BF, BFL, BFCSEL: an address; BFX, BFLX: a register).
 * BFCSEL also names the else point, 2 or 4 bytes after the branch point, and a condition.
 */
final class LowOverheadBranches {

    private LowOverheadBranches() {
    }

    /** Whether {@code hw1:hw2} is one of these instructions (on an M-profile core). */
    static boolean matches(int hw1, int hw2) {
        return (hw1 & 0xF800) == 0xF000 && ((hw2 & 0xF001) == 0xC001 || (hw2 & 0xF001) == 0xE001);
    }

    /** The instruction's text ("mnemonic\toperands"), or null when the encoding is none of them. */
    static String text(int hw1, int hw2, long address, String c, Disassembler.Names names) {
        if (!matches(hw1, hw2)) {
            return null;
        }
        int boff = (hw1 >>> 7) & 0xF;
        boolean e = (hw2 & 0xF001) == 0xE001;
        if (boff == 0) {
            return loop(hw1, hw2, address, e, c, names);
        }
        long pc = address + 4;
        String point = Long.toHexString(boff << 1);
        if (!e) { // BFL: 19-bit offset immh:imml:immL:'0'
            long imm = (long) (hw1 & 0x7F) << 12 | (long) ((hw2 >>> 1) & 0x3FF) << 2 | (long) ((hw2 >>> 11) & 1) << 1;
            long off = imm << 45 >> 45;
            return "bfl" + c + "\t" + point + ", " + names.target((pc + off) & 0xFFFFFFFFL);
        }
        int op = (hw1 >>> 4) & 7;
        if ((hw1 & 0x40) != 0 && (op == 6 || op == 7)) { // BFX, BFLX: register target
            return (op == 6 ? "bfx" : "bflx") + c + "\t" + point + ", " + r(hw1 & 0xF);
        }
        if ((hw1 & 0x60) == 0x40) { // BF: 17-bit offset immh:imml:immL:'0'
            long imm = (long) (hw1 & 0x1F) << 12 | (long) ((hw2 >>> 1) & 0x3FF) << 2 | (long) ((hw2 >>> 11) & 1) << 1;
            long off = imm << 47 >> 47;
            return "bf" + c + "\t" + point + ", " + names.target((pc + off) & 0xFFFFFFFFL);
        }
        if ((hw1 & 0x40) == 0) { // BFCSEL: 13-bit offset, else point 2 or 4 bytes after the branch point
            long imm = (long) (hw1 & 1) << 12 | (long) ((hw2 >>> 1) & 0x3FF) << 2 | (long) ((hw2 >>> 11) & 1) << 1;
            long off = imm << 51 >> 51;
            int elseOff = (boff << 1) + ((hw1 & 2) != 0 ? 4 : 2);
            return "bfcsel\t" + point + ", " + names.target((pc + off) & 0xFFFFFFFFL) + ", " + Long.toHexString(elseOff)
                    + ", " + COND[(hw1 >>> 2) & 0xF];
        }
        return null;
    }

    /** WLS, WLSTP, DLS, DLSTP, LE, LETP, LCTP (branch-point field zero). */
    private static String loop(int hw1, int hw2, long address, boolean e, String c, Disassembler.Names names) {
        long imm = ((hw2 >>> 1) & 0x3FF) << 2 | ((hw2 >>> 11) & 1) << 1;
        String size = "." + (8 << ((hw1 >>> 4) & 3));
        int rn = hw1 & 0xF;
        if (e) {
            if (hw1 == 0xF00F && hw2 == 0xE001) {
                return "lctp" + c;
            }
            if (hw2 != 0xE001 || rn == 15) {
                return null;
            }
            if ((hw1 & 0xFFF0) == 0xF040) {
                return "dls\tlr, " + r(rn);
            }
            if ((hw1 & 0xFFC0) == 0xF000) {
                return "dlstp" + size + "\tlr, " + r(rn);
            }
            return null;
        }
        switch (hw1) {
            case 0xF00F:
                return "le\tlr, " + names.target((address + 4 - imm) & 0xFFFFFFFFL);
            case 0xF01F:
                return "letp\tlr, " + names.target((address + 4 - imm) & 0xFFFFFFFFL);
            case 0xF02F:
                return "le\t" + names.target((address + 4 - imm) & 0xFFFFFFFFL);
            default:
                break;
        }
        if (rn == 15) {
            return null;
        }
        if ((hw1 & 0xFFF0) == 0xF040) {
            return "wls\tlr, " + r(rn) + ", " + names.target((address + 4 + imm) & 0xFFFFFFFFL);
        }
        if ((hw1 & 0xFFC0) == 0xF000) {
            return "wlstp" + size + "\tlr, " + r(rn) + ", " + names.target((address + 4 + imm) & 0xFFFFFFFFL);
        }
        return null;
    }
}
