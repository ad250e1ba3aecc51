package io.armtrace.protocol.etm2;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * What the ETMv1/ETMv2 flow needs to know about an instruction of an ARMv4T/ARMv5TE core (ARM7TDMI, ARM9,
 * ARM10): its size, whether it is a direct branch and where to, and whether it writes the PC otherwise.
 * These cores have A32 and 16-bit Thumb only; the Thumb BL/BLX pair is two 16-bit instructions, each with
 * its own PIPESTAT, which the flow reports as one 4-byte instruction.
 */
final class Etm2Code {
    private Etm2Code() {
    }

    /** Vector offset of the exception an exception-generating instruction takes: UDF 0x04, SWI 0x08, BKPT 0x0C. */
    static int exceptionVector(Insn insn) {
        if (insn.undefined) {
            return 0x04;
        }
        boolean bkpt = insn.isa == Isa.A32 ? (insn.opcode & 0x0FF000F0) == 0x01200070 : (insn.opcode & 0xFF00) == 0xBE00;
        return bkpt ? 0x0C : 0x08;
    }

    /** Thumb BL/BLX first half (H=10, bits 15:11 = b11110). */
    static boolean isThumbBlPrefix(int hw) {
        return (hw & 0xF800) == 0xF000;
    }

    /** Thumb BL (b11111) or BLX (b11101) second half. */
    static boolean isThumbBlSuffix(int hw) {
        return (hw & 0xF800) == 0xF800 || (hw & 0xF801) == 0xE800;
    }

    /**
     * Classifies the instruction at {@code address} into {@code out}; false if it is not in the image. For a
     * Thumb BL/BLX prefix followed by its suffix, {@code out} describes the pair (size 4).
     */
    static boolean classify(MemoryImage mem, long address, Isa isa, Insn out) {
        out.address = address;
        out.isa = isa;
        out.kind = WaypointKind.NONE;
        out.target = -1;
        out.targetIsa = isa;
        out.link = false;
        out.cond = 14;
        out.conditional = false;
        out.undefined = false;
        if (isa == Isa.A32) {
            long w = mem.u32(address);
            if (w < 0) {
                return false;
            }
            int op = (int) w;
            out.size = 4;
            out.opcode = op;
            out.returnAddress = address + 4;
            classifyArm(op, address, out);
            return true;
        }
        int hw = mem.u16(address);
        if (hw < 0) {
            return false;
        }
        out.size = 2;
        out.opcode = hw;
        out.returnAddress = address + 2;
        if (isThumbBlPrefix(hw)) {
            int hw2 = mem.u16(address + 2);
            if (hw2 >= 0 && isThumbBlSuffix(hw2)) {
                out.size = 4;
                out.opcode = hw << 16 | hw2;
                long off = (((hw & 0x7FF) << 21) >> 9) | ((hw2 & 0x7FF) << 1);
                long t = (address + 4 + off) & 0xFFFFFFFFL;
                out.kind = WaypointKind.DIRECT_BRANCH;
                out.link = true;
                out.returnAddress = address + 4;
                if ((hw2 & 0xF800) == 0xE800) {
                    out.target = t & ~3L;
                    out.targetIsa = Isa.A32;
                } else {
                    out.target = t;
                }
            }
            return true;
        }
        classifyThumb(hw, address, out);
        return true;
    }

    private static void classifyArm(int op, long address, Insn out) {
        int cond = op >>> 28;
        out.cond = cond;
        out.conditional = cond < 14;
        if (cond == 15) {
            if ((op & 0x0E000000) == 0x0A000000) { // BLX imm
                long off = ((long) (op << 8) >> 6) | ((op >> 23) & 2);
                out.kind = WaypointKind.DIRECT_BRANCH;
                out.target = (address + 8 + off) & 0xFFFFFFFFL;
                out.targetIsa = Isa.T32;
                out.link = true;
            }
            out.conditional = false;
            return;
        }
        if ((op & 0x0E000000) == 0x0A000000) { // B, BL
            long off = (long) (op << 8) >> 6;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.target = (address + 8 + off) & 0xFFFFFFFFL;
            out.link = (op & 0x01000000) != 0;
            return;
        }
        if ((op & 0x0F000000) == 0x0F000000) { // SWI
            out.kind = WaypointKind.EXCEPTION_CALL;
            return;
        }
        if ((op & 0x0FFFFFD0) == 0x012FFF10) { // BX, BLX register
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.link = (op & 0x20) != 0;
            return;
        }
        if ((op & 0x0FF000F0) == 0x01200070) { // BKPT
            out.kind = WaypointKind.EXCEPTION_CALL;
            return;
        }
        int rd = (op >> 12) & 15;
        if ((op & 0x0C000000) == 0x00000000) { // data processing (and misc/multiply space)
            boolean isDp = (op & 0x02000000) != 0 || (op & 0x90) != 0x90;
            int opc = (op >> 21) & 15;
            boolean test = opc >= 8 && opc <= 11;
            if (isDp && !test && rd == 15 && (op & 0x0FB00FF0) != 0x01000090) {
                boolean s = (op & 0x00100000) != 0;
                out.kind = s ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
            } else if (!isDp && rd == 15 && (op & 0x00100000) != 0 && (op & 0x60) != 0) { // LDRH/LDRSB/LDRSH pc
                out.kind = WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if ((op & 0x0C000000) == 0x04000000) { // LDR/STR
            boolean load = (op & 0x00100000) != 0;
            boolean byteAccess = (op & 0x00400000) != 0;
            if (load && rd == 15 && !byteAccess && !((op & 0x02000000) != 0 && (op & 0x10) != 0)) {
                out.kind = WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if ((op & 0x0E000000) == 0x08000000) { // LDM/STM
            boolean load = (op & 0x00100000) != 0;
            if (load && (op & 0x8000) != 0) {
                out.kind = (op & 0x00400000) != 0 ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if ((op & 0x0E000010) == 0x06000010) { // undefined instruction space (ARMv5): takes the exception
            out.kind = WaypointKind.EXCEPTION_CALL;
            out.undefined = true;
        }
    }

    private static void classifyThumb(int hw, long address, Insn out) {
        if ((hw & 0xF000) == 0xD000) {
            int c = (hw >> 8) & 15;
            if (c == 15) { // SWI
                out.kind = WaypointKind.EXCEPTION_CALL;
                return;
            }
            if (c == 14) { // undefined: takes the exception
                out.kind = WaypointKind.EXCEPTION_CALL;
                out.undefined = true;
                return;
            }
            out.cond = c;
            out.conditional = true;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.target = (address + 4 + ((long) (byte) hw << 1)) & 0xFFFFFFFFL;
            return;
        }
        if ((hw & 0xF800) == 0xE000) { // B
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.target = (address + 4 + ((long) (hw << 21) >> 20)) & 0xFFFFFFFFL;
            return;
        }
        if ((hw & 0xFF00) == 0xBE00) { // BKPT
            out.kind = WaypointKind.EXCEPTION_CALL;
            return;
        }
        if ((hw & 0xFF00) == 0x4700) { // BX, BLX register
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.link = (hw & 0x80) != 0;
            return;
        }
        if ((hw & 0xFC00) == 0x4400 && (hw & 0x87) == 0x87 && (hw & 0x0300) != 0x0100) { // ADD/MOV pc, Rm
            out.kind = WaypointKind.INDIRECT_BRANCH;
            return;
        }
        if ((hw & 0xFF00) == 0xBD00) { // POP {.., pc}
            out.kind = WaypointKind.INDIRECT_BRANCH;
        }
    }
}
