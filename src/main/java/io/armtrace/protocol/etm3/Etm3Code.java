package io.armtrace.protocol.etm3;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * What the ETMv3 flow needs to know of one instruction (size, waypoint kind, direct target), looked up
 * through a direct-mapped cache so that each atom costs one probe. ETMv3 traces one atom per
 * instruction, so it needs no IT-state or condition tracking: the trace says which instructions
 * passed their condition.
 */
final class Etm3Code {
    private static final int BITS = 12;
    private static final int SIZE = 1 << BITS;
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();

    private final MemoryImage memory;
    private final long[] tag = new long[SIZE];
    private final byte[] info = new byte[SIZE]; // size | kind << 3 | targetIsa << 6 (ordinal)
    private final long[] target = new long[SIZE];

    // result of the last lookup
    int size;
    WaypointKind kind;
    long directTarget;
    Isa targetIsa;

    Etm3Code(MemoryImage memory) {
        this.memory = memory;
        java.util.Arrays.fill(tag, -1L);
    }

    /** Looks up the instruction at {@code address}; false if its bytes are not in the image. */
    boolean lookup(long address, Isa isa) {
        long key = address << 2 | isa.ordinal();
        int slot = (int) ((address >>> 1) ^ (address >>> (BITS + 1))) & (SIZE - 1);
        if (tag[slot] == key) {
            int i = info[slot];
            size = i & 7;
            kind = KINDS[(i >> 3) & 7];
            targetIsa = ISAS[(i >> 6) & 3];
            directTarget = target[slot];
            return true;
        }
        if (!classify(address, isa)) {
            return false;
        }
        tag[slot] = key;
        info[slot] = (byte) (size | kind.ordinal() << 3 | targetIsa.ordinal() << 6);
        target[slot] = directTarget;
        return true;
    }

    private boolean classify(long a, Isa isa) {
        kind = WaypointKind.NONE;
        directTarget = -1;
        targetIsa = isa;
        if (isa == Isa.A32) {
            long w = memory.u32(a);
            if (w < 0) {
                return false;
            }
            size = 4;
            classifyA32((int) w, a);
            return true;
        }
        int hw = memory.u16(a);
        if (hw < 0) {
            return false;
        }
        if ((hw >> 11) >= 0x1D) {
            int hw2 = memory.u16(a + 2);
            if (hw2 < 0) {
                return false;
            }
            size = 4;
            classifyT32(hw, hw2, a);
        } else {
            size = 2;
            classifyT16(hw, a);
        }
        return true;
    }

    // ARM ARM (DDI 0406C) A5: A32 encodings that write the PC.
    private void classifyA32(int w, long a) {
        int cond = w >>> 28;
        int op = (w >>> 25) & 7;
        if (cond == 0xF) {
            if (op == 5) { // BLX imm
                kind = WaypointKind.DIRECT_BRANCH;
                directTarget = (a + 8 + ((long) (w << 8 >> 6)) + ((w >>> 23) & 2)) & 0xFFFFFFFFL;
                targetIsa = Isa.T32;
            } else if ((w & 0x0E500000) == 0x08100000) { // RFE
                kind = WaypointKind.EXCEPTION_RETURN;
            }
            return;
        }
        if (op == 5) { // B, BL
            kind = WaypointKind.DIRECT_BRANCH;
            directTarget = (a + 8 + ((long) (w << 8 >> 6))) & 0xFFFFFFFFL;
            return;
        }
        if ((w & 0x0FFFFFD0) == 0x012FFF10 || (w & 0x0FFFFFF0) == 0x012FFF20) { // BX, BLX reg, BXJ
            kind = WaypointKind.INDIRECT_BRANCH;
            return;
        }
        if (w == (w & 0xF0000000 | 0x0160006E)) { // ERET
            kind = WaypointKind.EXCEPTION_RETURN;
            return;
        }
        if ((w & 0x0F000000) == 0x0F000000 || (w & 0x0FF000F0) == 0x01200070 || (w & 0x0FF000F0) == 0x01600070
                || (w & 0x0FF000F0) == 0x01400070 || (w & 0x0FF000F0) == 0x07F000F0) { // SVC BKPT SMC HVC UDF
            kind = WaypointKind.EXCEPTION_CALL;
            return;
        }
        int rd = (w >>> 12) & 0xF;
        boolean load = (w & (1 << 20)) != 0;
        if (op == 4) { // LDM/STM
            if (load && (w & 0x8000) != 0) {
                kind = (w & (1 << 22)) != 0 ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if (op == 2 || (op == 3 && (w & 0x10) == 0)) { // LDR/STR
            if (load && rd == 15 && (w & (1 << 22)) == 0) {
                kind = WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if (op == 0 || op == 1) {
            if (op == 0 && (w & 0x90) == 0x90) {
                return; // multiplies and extra load/stores
            }
            int opc = (w >>> 21) & 0xF;
            boolean s = (w & (1 << 20)) != 0;
            if (opc >= 8 && opc <= 11 && !s) {
                return; // miscellaneous, MSR, MOVW/MOVT
            }
            if (opc >= 8 && opc <= 11) {
                return; // TST/TEQ/CMP/CMN: no destination
            }
            if (rd == 15) {
                kind = s ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
            }
        }
    }

    private void classifyT16(int hw, long a) {
        if ((hw & 0xF000) == 0xD000) {
            int c = (hw >> 8) & 0xF;
            if (c == 0xF || c == 0xE) {
                kind = WaypointKind.EXCEPTION_CALL; // SVC, UDF
                return;
            }
            kind = WaypointKind.DIRECT_BRANCH;
            directTarget = (a + 4 + ((long) ((hw << 24) >> 23))) & 0xFFFFFFFFL;
        } else if ((hw & 0xF800) == 0xE000) {
            kind = WaypointKind.DIRECT_BRANCH;
            directTarget = (a + 4 + ((long) ((hw << 21) >> 20))) & 0xFFFFFFFFL;
        } else if ((hw & 0xF500) == 0xB100) { // CBZ, CBNZ
            kind = WaypointKind.DIRECT_BRANCH;
            directTarget = a + 4 + (((hw >> 2) & 0x3E) | ((hw >> 3) & 0x40));
        } else if ((hw & 0xFF00) == 0x4700) { // BX, BLX
            kind = WaypointKind.INDIRECT_BRANCH;
        } else if ((hw & 0xFF00) == 0xBD00) { // POP {..., pc}
            kind = WaypointKind.INDIRECT_BRANCH;
        } else if ((hw & 0xFD87) == 0x4487) { // ADD/MOV pc, Rm
            kind = WaypointKind.INDIRECT_BRANCH;
        } else if ((hw & 0xFF00) == 0xBE00) { // BKPT
            kind = WaypointKind.EXCEPTION_CALL;
        }
    }

    private void classifyT32(int hw1, int hw2, long a) {
        if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0x8000) != 0) {
            int op1 = (hw2 >> 12) & 5;
            int s = (hw1 >> 10) & 1;
            int j1 = (hw2 >> 13) & 1;
            int j2 = (hw2 >> 11) & 1;
            if (op1 == 0) {
                if ((hw1 & 0x0380) != 0x0380) { // B<c>.W (T3)
                    int imm = s << 20 | j2 << 19 | j1 << 18 | (hw1 & 0x3F) << 12 | (hw2 & 0x7FF) << 1;
                    kind = WaypointKind.DIRECT_BRANCH;
                    directTarget = (a + 4 + ((imm << 11) >> 11)) & 0xFFFFFFFFL;
                } else if ((hw1 & 0xFFF0) == 0xF3D0 && (hw2 & 0xFF00) == 0x8F00) { // SUBS pc, lr (ERET)
                    kind = WaypointKind.EXCEPTION_RETURN;
                } else if ((hw1 & 0xFFF0) == 0xF3C0 && (hw2 & 0xFF00) == 0x8F00) { // BXJ
                    kind = WaypointKind.INDIRECT_BRANCH;
                } else if ((hw1 & 0xFFE0) == 0xF7E0 && (hw2 & 0xF000) == 0x8000) { // SMC, HVC
                    kind = WaypointKind.EXCEPTION_CALL;
                } else if ((hw1 & 0xFFF0) == 0xF7F0 && (hw2 & 0xF000) == 0xA000) { // UDF.W
                    kind = WaypointKind.EXCEPTION_CALL;
                }
                return;
            }
            int i1 = 1 - (j1 ^ s);
            int i2 = 1 - (j2 ^ s);
            int imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3FF) << 12 | (hw2 & 0x7FF) << 1;
            long off = (imm << 7) >> 7;
            kind = WaypointKind.DIRECT_BRANCH;
            if (op1 == 4) { // BLX imm: to A32, from Align(PC, 4)
                directTarget = (((a + 4) & ~3L) + (off & ~3L)) & 0xFFFFFFFFL;
                targetIsa = Isa.A32;
            } else { // B.W (T4), BL
                directTarget = (a + 4 + off) & 0xFFFFFFFFL;
            }
            return;
        }
        if ((hw1 & 0xFE50) == 0xE810) { // LDM/LDMDB/POP.W, RFE
            if ((hw1 & 0x0180) == 0x0000 || (hw1 & 0x0180) == 0x0180) {
                kind = WaypointKind.EXCEPTION_RETURN; // RFEDB / RFEIA
            } else if ((hw2 & 0x8000) != 0) {
                kind = WaypointKind.INDIRECT_BRANCH;
            }
            return;
        }
        if ((hw1 & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) { // TBB, TBH
            kind = WaypointKind.INDIRECT_BRANCH;
            return;
        }
        if ((hw1 & 0xFF70) == 0xF850 && (hw2 >> 12) == 0xF) { // LDR pc
            kind = WaypointKind.INDIRECT_BRANCH;
        }
    }
}
