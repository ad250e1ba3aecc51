package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * Classifies A32 and T32 instructions for program-flow decoding: size, waypoint kind, direct target,
 * link, ISA change, condition and IT state; A64 instructions through {@link A64Classifier} (which
 * says what each A64 instruction counts as). Not a disassembler: it recognises exactly the encodings
 * that can write the PC (and ISB), everything else is "steps to the next instruction".
 *
 * <p>Encodings follow the ARMv7-A/R Architecture Reference Manual (DDI 0406C), chapters A5 (A32) and
 * A6 (T32), and the ARMv7-M manual (DDI 0403E) chapter A5. Older cores (ARMv4T/v5/v6) use a subset of
 * the same encodings; the ARMv4T/v5 Thumb BL/BLX prefix+suffix pair is classified as one 32-bit
 * instruction, which gives the same target as the Thumb-2 reading of those bits.
 *
 * <p>What counts as what:
 * <ul>
 *   <li>{@link WaypointKind#DIRECT_BRANCH}: B, BL, BLX imm, CBZ, CBNZ (target in the encoding).
 *   <li>{@link WaypointKind#INDIRECT_BRANCH}: BX, BLX reg, BXJ, LDR pc, LDM/POP with pc, TBB/TBH,
 *       data processing with Rd = pc (A32, and T16 MOV/ADD pc). On the M profile the loads and BX
 *       that write the PC may turn out to be exception returns at run time (EXC_RETURN); they are
 *       still classified INDIRECT_BRANCH, the trace says what happened.
 *   <li>{@link WaypointKind#EXCEPTION_CALL}: SVC, BKPT, UDF, SMC, HVC.
 *   <li>{@link WaypointKind#EXCEPTION_RETURN}: A/R profile only: A32 data processing with S and Rd = pc
 *       (SUBS pc,lr / MOVS pc,lr), A32 LDM with pc and ^, RFE, T32 SUBS pc,lr,#imm and ERET.
 *   <li>{@link WaypointKind#BARRIER}: ISB, and its ARMv6 CP15 form MCR p15, 0, Rt, c7, c5, 4. Whether
 *       that is a waypoint depends on the trace protocol
 *       (see {@link CodeWalker}); use {@link Insn#writesPc()} for "can change the flow".
 *   <li>DMB and DSB (and their CP15 forms) keep kind NONE and set {@link Insn#dataBarrier}.
 * </ul>
 *
 * <p>UNPREDICTABLE encodings: data processing into the pc in 32-bit T32, LDRB/LDRH/LDRD into the pc
 * and the like are not waypoints here. Where an encoding has should-be-one/zero fields, the branch
 * and barrier forms are matched with them (other values are UNPREDICTABLE; GNU objdump decodes them
 * as other instructions), except SMC, whose should-be-zero bits objdump ignores too. The classifier
 * is checked against objdump on about 600,000 instructions of compiled code and on encoding-space
 * samples (InstructionOracleTest).
 *
 * <p>ThumbEE is classified as T32 (its handler branches HB/HBL/HBLP/HBP and CHKA are not recognised).
 * Jazelle bytecode cannot be classified: {@link Insn#undefined} is set and the size is 1. On the M
 * profile, A32 and A64 state cannot be executed: every A32 and A64 instruction is reported undefined.
 *
 * <p>Instances are stateless apart from the profile and can be shared between threads.
 */
public final class InstructionClassifier {
    private final Profile profile;

    public InstructionClassifier(Profile profile) {
        this.profile = profile;
    }

    public Profile profile() {
        return profile;
    }

    /**
     * Reads and classifies the instruction at {@code address} in state {@code isa}, with the IT state
     * {@code itState} in force before it (0 outside an IT block). Returns false, leaving {@code out}
     * undefined, when the instruction's bytes are not in the image.
     */
    public boolean classify(MemoryImage memory, long address, Isa isa, int itState, Insn out) {
        switch (isa) {
            case A32: {
                long w = memory.u32(address);
                if (w < 0) {
                    return false;
                }
                classifyA32((int) w, address, out);
                return true;
            }
            case A64: {
                long w = memory.u32(address);
                if (w < 0) {
                    return false;
                }
                if (profile == Profile.M) {
                    out.reset(address, isa);
                    out.opcode = (int) w;
                    out.returnAddress = address + 4;
                    out.undefined = true;
                } else {
                    A64Classifier.classify((int) w, address, out);
                }
                return true;
            }
            case T32:
            case THUMB_EE: {
                int hw1 = memory.u16(address);
                if (hw1 < 0) {
                    return false;
                }
                if (isT32Wide(hw1)) {
                    int hw2 = memory.u16(address + 2);
                    if (hw2 < 0) {
                        return false;
                    }
                    classifyT32(hw1, hw2, address, isa, itState, out);
                } else {
                    classifyT16(hw1, address, isa, itState, out);
                }
                return true;
            }
            default: {
                if (memory.u8(address) < 0) {
                    return false;
                }
                out.reset(address, isa);
                out.size = 1;
                out.undefined = true;
                out.returnAddress = address + 1;
                return true;
            }
        }
    }

    /**
     * True if a T32 instruction whose first halfword is {@code hw1} is 32 bits long: bits [15:11] are
     * 0b11101, 0b11110 or 0b11111 (DDI 0406C A6.1).
     */
    public static boolean isT32Wide(int hw1) {
        return (hw1 & 0xE000) == 0xE000 && (hw1 & 0x1800) != 0;
    }

    /** Size in bytes of the T32 instruction whose first halfword is {@code hw1}. */
    public static int t32Size(int hw1) {
        return isT32Wide(hw1) ? 4 : 2;
    }

    // ---------------------------------------------------------------- IT state (DDI 0406C A2.5.2)

    /** True if the IT state {@code it} (ITSTATE<7:0>) says the next instruction is in an IT block. */
    public static boolean inItBlock(int it) {
        return (it & 0x0F) != 0;
    }

    /** Condition of the next instruction under IT state {@code it}: ITSTATE<7:4>, or 14 outside a block. */
    public static int itCondition(int it) {
        return inItBlock(it) ? (it >>> 4) & 0xF : 14;
    }

    /** ITAdvance(): the IT state after one instruction of the block has executed (or been skipped). */
    public static int itAdvance(int it) {
        if ((it & 0x07) == 0) {
            return 0;
        }
        return (it & 0xE0) | ((it << 1) & 0x1F);
    }

    /**
     * A branch target computed from {@code address}: the AArch32 PC is 32 bits, so the target wraps
     * modulo 2^32, within the 4 GiB window of the branch. Real AArch32 code lies below 4 GiB, where this
     * is the plain 32-bit wrap; the window keeps a walk of code placed higher (a test image, the
     * AArch32 part of a 64-bit image) in its own window instead of truncating its addresses.
     */
    private static long aarch32(long address, long target) {
        return (address & 0xFFFF_FFFF_0000_0000L) | (target & 0xFFFF_FFFFL);
    }

    // ---------------------------------------------------------------- A32 (DDI 0406C A5)

    private void classifyA32(int w, long address, Insn out) {
        out.reset(address, Isa.A32);
        out.opcode = w;
        out.size = 4;
        out.returnAddress = address + 4;
        if (profile == Profile.M) {
            out.undefined = true;
            return;
        }
        int cond = w >>> 28;
        if (cond == 0xF) {
            classifyA32Unconditional(w, address, out);
            return;
        }
        out.cond = cond;
        out.conditional = cond != 14;
        int op1 = (w >>> 25) & 7;
        switch (op1) {
            case 0: // data processing (register / register-shifted), misc, multiply, extra load/store
                if ((w & 0x90) == 0x90) {
                    return; // multiply, extra load/store: Rd/Rt = pc is UNPREDICTABLE (A5.2.7, A5.2.8)
                }
                if ((w & 0x01900000) == 0x01000000) {
                    if ((w & 0x80) == 0) {
                        classifyA32Misc(w, out); // A5.2.12: op 10xx0, bit 7 clear
                    }
                    return; // bit 7 set: halfword multiply (SMLA<x><y> etc.), A5.2.7
                }
                dataProcessingA32(w, out);
                return;
            case 1: // data processing immediate; op 10xx0 is MOVW/MOVT/MSR imm/hints (A5.2.3)
                if ((w & 0x01900000) == 0x01000000) {
                    return;
                }
                dataProcessingA32(w, out);
                return;
            case 2: // load/store word and unsigned byte, immediate (A5.3)
                loadA32(w, out);
                return;
            case 3:
                if ((w & 0x10) == 0) {
                    loadA32(w, out); // register offset
                } else if ((w & 0x0FF000F0) == 0x07F000F0) {
                    out.kind = WaypointKind.EXCEPTION_CALL; // UDF, permanently undefined (A5.4)
                }
                return;
            case 4: // LDM/STM (A5.5); S bit with pc in the list: LDM (exception return) B9.3.6
                if ((w & 0x00108000) == 0x00108000) {
                    out.kind = (w & 0x00400000) != 0 ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
                    out.ret = (w & 0x0FFF8000) == 0x08BD8000; // POP {..., pc}: LDMIA sp!, A8.8.131
                }
                return;
            case 5: { // B, BL (A8.8.18, A8.8.25)
                out.kind = WaypointKind.DIRECT_BRANCH;
                out.link = (w & 0x01000000) != 0;
                out.target = aarch32(address, address + 8 + ((long) (w << 8) >> 6));
                out.targetIsa = Isa.A32;
                return;
            }
            case 7:
                if ((w & 0x0F000000) == 0x0F000000) {
                    out.kind = WaypointKind.EXCEPTION_CALL; // SVC (A8.8.228)
                } else if ((w & 0x0FFF0FFF) == 0x0E070F95) {
                    out.kind = WaypointKind.BARRIER; // MCR p15, 0, Rt, c7, c5, 4: the CP15 ISB (B4.2.3)
                } else if ((w & 0x0FFF0FDF) == 0x0E070F9A) {
                    out.dataBarrier = true; // MCR p15, 0, Rt, c7, c10, 4 / 5: CP15 DSB / DMB
                }
                return;
            default: // 6: coprocessor load/store, MCRR/MRRC
                return;
        }
    }

    /** A32 data processing with Rd = pc writes the PC; with S it is an exception return (B9.3.20). */
    private static void dataProcessingA32(int w, Insn out) {
        int opcode = (w >>> 21) & 0xF;
        if ((opcode & 0xC) == 0x8) {
            return; // TST/TEQ/CMP/CMN: no destination register
        }
        if (((w >>> 12) & 0xF) != 15) {
            return;
        }
        out.kind = (w & 0x00100000) != 0 ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH;
        out.ret = (w & 0x0FFFFFFF) == 0x01A0F00E; // MOV pc, lr (A8.8.103, encoding A1)
    }

    /** LDR (not LDRB) with Rt = pc: A8.8.62-A8.8.66, A8.8.92 (LDRT). */
    private static void loadA32(int w, Insn out) {
        if ((w & 0x00500000) == 0x00100000 && ((w >>> 12) & 0xF) == 15) {
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.ret = (w & 0x0FFFFFFF) == 0x049DF004; // POP {pc}: LDR pc, [sp], #4 (A8.8.131, encoding A2)
        }
    }

    /**
     * Miscellaneous instructions, A5.2.12. The branch forms are matched with their should-be-one and
     * should-be-zero bits: an encoding that differs there is UNPREDICTABLE, and GNU objdump decodes it
     * as something else (MSR), so compiled code never holds it.
     */
    private static void classifyA32Misc(int w, Insn out) {
        int x = w & 0x0FFFFFF0;
        if (x == 0x012FFF10 || x == 0x012FFF20) { // BX, BXJ (BXJ may enter Jazelle or behave as BX)
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.ret = (w & 0x0FFFFFFF) == 0x012FFF1E; // BX lr
        } else if (x == 0x012FFF30) { // BLX (register)
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.link = true;
        } else if ((w & 0x0FFFFFFF) == 0x0160006E) { // ERET
            out.kind = WaypointKind.EXCEPTION_RETURN;
        } else if ((w & 0x0FF000F0) == 0x01200070) { // BKPT: unconditional (cond other than AL UNPREDICTABLE)
            out.kind = WaypointKind.EXCEPTION_CALL;
            out.cond = 14;
            out.conditional = false;
        } else if ((w & 0x0FF000F0) == 0x01400070 || (w & 0x0FF000F0) == 0x01600070) {
            // HVC, SMC (SMC's should-be-zero bits are not checked: GNU objdump does not either)
            out.kind = WaypointKind.EXCEPTION_CALL;
        }
    }

    /** cond = 0b1111: unconditional instructions, A5.7. */
    private static void classifyA32Unconditional(int w, long address, Insn out) {
        out.cond = 14;
        if ((w & 0x0E000000) == 0x0A000000) { // BLX (immediate), A8.8.25 encoding A2
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.link = true;
            long imm = ((long) (w << 8) >> 6) | ((w >>> 23) & 2);
            out.target = aarch32(address, address + 8 + imm);
            out.targetIsa = Isa.T32;
        } else if ((w & 0xFE50FFFF) == 0xF8100A00) { // RFE, B9.3.13
            out.kind = WaypointKind.EXCEPTION_RETURN;
        } else if ((w & 0xFFFFFFF0) == 0xF57FF060) { // ISB, A8.8.54
            out.kind = WaypointKind.BARRIER;
        } else if ((w & 0xFFFFFFE0) == 0xF57FF040) { // DSB (0100), DMB (0101), A8.8.43/A8.8.44
            out.dataBarrier = true;
        }
    }

    // ---------------------------------------------------------------- T32 16-bit (DDI 0406C A6.2)

    private void classifyT16(int hw, long address, Isa isa, int itState, Insn out) {
        out.reset(address, isa);
        out.opcode = hw;
        out.size = 2;
        out.returnAddress = address + 2;
        applyIt(itState, out);
        int top = hw >>> 12;
        switch (top) {
            case 0x4:
                if ((hw & 0xFC00) == 0x4400) { // special data processing and branch/exchange, A6.2.3
                    int op = (hw >>> 8) & 3;
                    if (op == 3) {
                        out.kind = WaypointKind.INDIRECT_BRANCH; // BX, BLX (and v8-M BXNS/BLXNS)
                        out.link = (hw & 0x80) != 0;
                        out.ret = (hw & 0xFFF8) == 0x4770; // BX lr
                    } else if (op != 1 && (((hw >>> 4) & 8) | (hw & 7)) == 15) {
                        out.kind = WaypointKind.INDIRECT_BRANCH; // ADD pc, Rm / MOV pc, Rm
                        out.ret = hw == 0x46F7; // MOV pc, lr
                    }
                }
                return;
            case 0xB: // miscellaneous 16-bit, A6.2.5
                if ((hw & 0x0500) == 0x0100) { // CBZ, CBNZ (A8.8.29)
                    out.kind = WaypointKind.DIRECT_BRANCH;
                    out.conditional = true; // taken or not depending on the register
                    int imm = ((hw >>> 2) & 0x3E) | ((hw >>> 3) & 0x40); // i:imm5:'0'
                    out.target = aarch32(address, address + 4 + imm);
                } else if ((hw & 0x0F00) == 0x0D00) { // POP with pc
                    out.kind = WaypointKind.INDIRECT_BRANCH;
                    out.ret = true;
                } else if ((hw & 0x0F00) == 0x0E00) { // BKPT
                    out.kind = WaypointKind.EXCEPTION_CALL;
                    out.cond = 14; // BKPT executes regardless of an IT condition
                    out.conditional = false;
                } else if ((hw & 0x0F00) == 0x0F00 && (hw & 0xF) != 0) { // IT
                    out.itStateAfter = hw & 0xFF;
                }
                return;
            case 0xD: { // conditional branch, UDF, SVC (A6.2.6)
                int c = (hw >>> 8) & 0xF;
                if (c == 0xE) {
                    out.kind = WaypointKind.EXCEPTION_CALL; // UDF
                } else if (c == 0xF) {
                    out.kind = WaypointKind.EXCEPTION_CALL; // SVC
                } else {
                    out.kind = WaypointKind.DIRECT_BRANCH;
                    out.cond = c;
                    out.conditional = true;
                    out.target = aarch32(address, address + 4 + ((long) (byte) hw << 1));
                }
                return;
            }
            case 0xE: // B T2 (11100); 11101 is a 32-bit prefix and never reaches here
                out.kind = WaypointKind.DIRECT_BRANCH;
                out.target = aarch32(address, address + 4 + ((long) (hw << 21) >> 20));
                return;
            default:
                return;
        }
    }

    /** Sets the condition from the IT state and the IT state after this (non-IT) instruction. */
    private static void applyIt(int itState, Insn out) {
        if (inItBlock(itState)) {
            int c = (itState >>> 4) & 0xF;
            out.cond = c;
            out.conditional = c != 14;
            out.itStateAfter = itAdvance(itState);
        }
    }

    // ---------------------------------------------------------------- T32 32-bit (DDI 0406C A6.3)

    private void classifyT32(int hw1, int hw2, long address, Isa isa, int itState, Insn out) {
        out.reset(address, isa);
        out.opcode = hw1 << 16 | hw2;
        out.size = 4;
        out.returnAddress = address + 4;
        applyIt(itState, out);
        boolean m = profile == Profile.M;
        int op1 = (hw1 >>> 11) & 3;
        if (op1 == 2) {
            if ((hw2 & 0x8000) != 0) {
                branchesAndMiscT32(hw1, hw2, address, m, out);
            }
            return;
        }
        if (op1 == 1) {
            if ((hw1 & 0xFE40) == 0xE800) { // load/store multiple, A6.3.5
                if ((hw1 & 0x10) == 0) {
                    return; // STM, SRS
                }
                int op = (hw1 >>> 7) & 3;
                if (op == 1 || op == 2) {
                    if ((hw2 & 0x8000) != 0) {
                        out.kind = WaypointKind.INDIRECT_BRANCH; // LDM/LDMDB/POP.W with pc
                        out.ret = hw1 == 0xE8BD; // POP.W {..., pc}: LDMIA sp! (A8.8.131, encoding T2)
                    }
                } else if (m) {
                    out.undefined = true;
                } else if (hw2 == 0xC000) {
                    out.kind = WaypointKind.EXCEPTION_RETURN; // RFE (A8.8.139: hw2 is 11(0)...(0))
                }
            } else if ((hw1 & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) {
                out.kind = WaypointKind.INDIRECT_BRANCH; // TBB, TBH (A8.8.239)
            } else if (hw1 == 0xEE07 && (hw2 & 0x0FFF) == 0x0F95 && !m) {
                out.kind = WaypointKind.BARRIER; // MCR p15, 0, Rt, c7, c5, 4: the CP15 ISB (B4.2.3)
            } else if (hw1 == 0xEE07 && (hw2 & 0x0FDF) == 0x0F9A && !m) {
                out.dataBarrier = true; // MCR p15, 0, Rt, c7, c10, 4 / 5: CP15 DSB / DMB
            }
            return;
        }
        // op1 == 3: load word, A6.3.7: LDR (imm/literal/register/T) with Rt = pc
        if ((hw1 & 0xFF70) == 0xF850 && (hw2 >>> 12) == 15) {
            out.kind = WaypointKind.INDIRECT_BRANCH;
            out.ret = hw1 == 0xF85D && hw2 == 0xFB04; // POP.W {pc}: LDR pc, [sp], #4 (A8.8.131, encoding T3)
        }
    }

    /** Branches and miscellaneous control, A6.3.4. */
    private static void branchesAndMiscT32(int hw1, int hw2, long address, boolean m, Insn out) {
        int op = (hw1 >>> 4) & 0x7F;
        int op1 = (hw2 >>> 12) & 7;
        int s = (hw1 >>> 10) & 1;
        int j1 = (hw2 >>> 13) & 1;
        int j2 = (hw2 >>> 11) & 1;
        if (m && (hw1 & 0xFF80) == 0xF000 && (hw2 & 0xF001) == 0xC001) {
            // Armv8.1-M low-overhead loops (DDI 0553, LE, LETP, WLS, WLSTP): branches whose offset is
            // imm10:imm1:'0' (imm10 in bits 10:1, imm1 in bit 11 of the second halfword). LE and LETP
            // (Rn field 0b1111) branch back to the loop start; WLS and WLSTP forward past the loop.
            long imm = ((hw2 >>> 1) & 0x3FF) << 2 | ((hw2 >>> 11) & 1) << 1;
            boolean loopEnd = (hw1 & 0x4F) == 0x0F;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.conditional = true;
            out.target = aarch32(address, loopEnd ? address + 4 - imm : address + 4 + imm);
            return;
        }
        if (m && (hw1 & 0xF800) == 0xF000 && ((hw2 & 0xF001) == 0xE001 || (hw2 & 0xF001) == 0xC001)) {
            // Armv8.1-M DLS, DLSTP, LCTP (branch-point field hw1[10:7] zero, second halfword 0xE001) and the
            // branch-future instructions BF, BFX, BFL, BFLX, BFCSEL (field non-zero): they set up a loop or a
            // branch to happen later and do not branch themselves, so they are not P0 instructions; in Armv7-M
            // and Armv8-M mainline the same encodings are BLX (immediate) with H = 1, UNDEFINED.
            return;
        }
        if ((op1 & 5) == 0) {
            if ((op & 0x38) != 0x38) { // B T3, conditional
                int imm = s << 20 | j2 << 19 | j1 << 18 | (hw1 & 0x3F) << 12 | (hw2 & 0x7FF) << 1;
                out.kind = WaypointKind.DIRECT_BRANCH;
                out.cond = (hw1 >>> 6) & 0xF;
                out.conditional = true;
                out.target = aarch32(address, address + 4 + ((long) (imm << 11) >> 11));
                return;
            }
            switch (op) {
                // Below, the should-be-one/zero bits are part of the match: other values are
                // UNPREDICTABLE, never in compiled code, and GNU objdump does not decode them as these.
                case 0x3B: // misc control, A6.3.4 Table A6-15: op2 0100 DSB, 0101 DMB, 0110 ISB
                    if (hw1 == 0xF3BF && (hw2 & 0xFFF0) == 0x8F60) {
                        out.kind = WaypointKind.BARRIER;
                    } else if (hw1 == 0xF3BF && (hw2 & 0xFFE0) == 0x8F40) {
                        out.dataBarrier = true;
                    }
                    return;
                case 0x3C: // BXJ
                    if (hw2 != 0x8F00) {
                        return;
                    }
                    if (m) {
                        out.undefined = true;
                    } else {
                        out.kind = WaypointKind.INDIRECT_BRANCH;
                    }
                    return;
                case 0x3D: // SUBS PC, LR, #imm8 (ERET is SUBS PC, LR, #0), B9.3.19
                    if (hw1 != 0xF3DE || (hw2 & 0xFF00) != 0x8F00) {
                        return;
                    }
                    if (m) {
                        out.undefined = true;
                    } else {
                        out.kind = WaypointKind.EXCEPTION_RETURN;
                    }
                    return;
                case 0x7E: // HVC (op1 000)
                case 0x7F: // SMC (op1 000), UDF (op1 010)
                    if (op1 == 2 && op == 0x7F) {
                        out.kind = WaypointKind.EXCEPTION_CALL;
                        out.cond = 14;
                        out.conditional = false;
                    } else if (op1 == 0) { // HVC, SMC (whose should-be-zero bits are not checked)
                        if (m) {
                            out.undefined = true;
                        } else {
                            out.kind = WaypointKind.EXCEPTION_CALL;
                        }
                    }
                    return;
                default:
                    return; // MSR, MRS, hints, CPS
            }
        }
        int i1 = ~(j1 ^ s) & 1;
        int i2 = ~(j2 ^ s) & 1;
        if ((op1 & 5) == 1) { // B T4
            int imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3FF) << 12 | (hw2 & 0x7FF) << 1;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.target = aarch32(address, address + 4 + ((long) (imm << 7) >> 7));
            return;
        }
        if ((op1 & 5) == 5) { // BL
            int imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3FF) << 12 | (hw2 & 0x7FF) << 1;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.link = true;
            out.target = aarch32(address, address + 4 + ((long) (imm << 7) >> 7));
            return;
        }
        // BLX (immediate) T2: to A32, target Align(PC, 4) + imm32; H = 1 is UNDEFINED
        if (m || (hw2 & 1) != 0) {
            out.undefined = true;
            return;
        }
        int imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3FF) << 12 | (hw2 & 0x7FE) << 1;
        out.kind = WaypointKind.DIRECT_BRANCH;
        out.link = true;
        out.target = aarch32(address, ((address + 4) & ~3L) + ((long) (imm << 7) >> 7));
        out.targetIsa = Isa.A32;
    }
}
