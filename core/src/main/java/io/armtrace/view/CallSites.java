package io.armtrace.view;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * Which instructions are calls. The element stream says that a range ended with a branch; whether that
 * branch linked (wrote the return address to LR) is read from its opcode in the program image. Only
 * the branch-with-link encodings are recognised, nothing else is decoded:
 * <ul>
 *   <li>A32 BL imm: cond != 0b1111, bits 27:24 = 0b1011 (ARM DDI 0406C A8.8.25, encoding A1);
 *   <li>A32 BLX imm: bits 31:25 = 0b1111101 (A8.8.25, encoding A2);
 *   <li>A32 BLX reg: cond 0001 0010 1111 1111 1111 0011 Rm (A8.8.26, encoding A1);
 *   <li>T32 BL / BLX imm: first halfword 0b11110xxxxxxxxxxx, second 0b11x1xxxxxxxxxxxx (BL, T1) or
 *       0b11x0xxxxxxxxxxxx (BLX, T2) (A8.8.25). The ARMv4T/v5 two-halfword Thumb BL/BLX (prefix
 *       0b11110, suffix 0b11111 or 0b11101) has the same bits and is read the same way;
 *   <li>T16 BLX reg: 0b010001111xxxx000 (A8.8.26, encoding T1).
 * </ul>
 * Returns need no decoding: a return is a branch to the address a call left in LR, which the call
 * tracker remembers.
 */
final class CallSites {
    private CallSites() {
    }

    /**
     * If the last instruction of {@code r} is an executed branch with link, its size in bytes (so that
     * {@code lastAddress + size} is the return address); otherwise 0.
     */
    static int callSize(InstructionRange r, MemoryImage memory) {
        WaypointKind k = r.lastKind();
        if (!r.lastExecuted() || (k != WaypointKind.DIRECT_BRANCH && k != WaypointKind.INDIRECT_BRANCH)) {
            return 0;
        }
        return linkSize(memory, r.lastAddress(), r.isa());
    }

    /** The size of the branch with link at {@code address} in state {@code isa}, or 0 if it is not one. */
    static int linkSize(MemoryImage memory, long address, Isa isa) {
        if (isa == Isa.A32) {
            long w = memory.u32(address);
            if (w < 0) {
                return 0;
            }
            long cond = w >>> 28;
            if (cond != 0xF && ((w >>> 24) & 0xF) == 0xB) {
                return 4; // BL
            }
            if ((w >>> 25) == 0x7D) {
                return 4; // BLX imm
            }
            return cond != 0xF && (w & 0x0FFF_FFF0L) == 0x012F_FF30L ? 4 : 0; // BLX reg
        }
        if (isa == Isa.T32 || isa == Isa.THUMB_EE) {
            int hw1 = memory.u16(address);
            if (hw1 < 0) {
                return 0;
            }
            if ((hw1 & 0xFF87) == 0x4780) {
                return 2; // BLX reg
            }
            if ((hw1 & 0xF800) == 0xF000) {
                int hw2 = memory.u16(address + 2);
                return hw2 >= 0 && (hw2 & 0xC000) == 0xC000 ? 4 : 0; // BL, BLX imm
            }
        }
        return 0;
    }
}
