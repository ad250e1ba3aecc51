package io.armtrace.isa;

import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * Classifies A64 instructions for program-flow decoding (Arm ARM DDI 0487, chapter C4 for the
 * encodings, C6 for the instructions). Reached through {@link InstructionClassifier#classify} with
 * {@link Isa#A64}. Every A64 instruction is 4 bytes and unconditional except the branches that test
 * a condition or a register.
 *
 * <p>What counts as what, following what ETMv4 and ETE trace as P0 instructions (IHI 0064, "P0
 * instructions"; OpenCSD classifies the same way):
 * <ul>
 *   <li>{@link WaypointKind#DIRECT_BRANCH}: B, BL, B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ.
 *   <li>{@link WaypointKind#INDIRECT_BRANCH}: BR, BLR, RET and the pointer-authenticated BRAA, BRAB,
 *       BRAAZ, BRABZ, BLRAA, BLRAB, BLRAAZ, BLRABZ, RETAA, RETAB. The RET forms set
 *       {@link Insn#returns}; BL and the BLR forms set {@link Insn#link}.
 *   <li>{@link WaypointKind#EXCEPTION_RETURN}: ERET, ERETAA, ERETAB.
 *   <li>{@link WaypointKind#EXCEPTION_CALL}: SVC, HVC, SMC, BRK, HLT, UDF. ETMv4 traces the
 *       exception they raise with an exception packet; the flow decoder accounts for them.
 *   <li>{@link WaypointKind#BARRIER}: ISB, a P0 instruction in ETMv4 and ETE.
 *   <li>DMB and DSB keep kind NONE and set {@link Insn#dataBarrier}; WFI, WFE, WFIT and WFET keep
 *       kind NONE and set {@link Insn#waitForInterruptOrEvent}: ETMv4.3 and later trace them as P0
 *       instructions when TRCIDR2.WFXMODE is 1 (see {@link CodeWalker}).
 * </ul>
 * Loads and stores are P0 instructions only when TRCCONFIGR.INSTP0 asks for it, which needs data
 * tracing; A-profile trace units implement none (TRCIDR0.INSTP0 is 0b00, and ETE has no such field),
 * so they are not marked.
 * DRPS and DCPS1-3 exist only in Debug state, where the trace unit traces nothing; they are
 * {@link Insn#undefined}.
 */
final class A64Classifier {
    private A64Classifier() {
    }

    static void classify(int w, long address, Insn out) {
        out.reset(address, Isa.A64);
        out.opcode = w;
        out.returnAddress = address + 4;
        int op0 = (w >>> 25) & 0xF;
        if ((op0 & 0xE) == 0xA) { // C4.1: branches, exception generating and system instructions
            branchesExceptionsSystem(w, address, out);
        } else if ((w & 0xFFFF0000) == 0) {
            out.kind = WaypointKind.EXCEPTION_CALL; // UDF #imm16 (C6.2.388): permanently undefined
        }
    }

    private static void branchesExceptionsSystem(int w, long address, Insn out) {
        if ((w & 0x7C000000) == 0x14000000) { // B, BL: imm26 (C6.2.26, C6.2.34)
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.link = w < 0;
            out.target = address + ((long) (w << 6) >> 4);
        } else if ((w & 0xFF000000) == 0x54000000) { // B.cond (o0 = 0), BC.cond (o0 = 1): imm19 (C6.2.27, C6.2.35)
            int cond = w & 0xF;
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.target = address + ((long) (w << 8) >> 13 << 2);
            // AL and NV both mean always in A64 (C1.2.4)
            out.cond = cond == 15 ? 14 : cond;
            out.conditional = cond < 14;
        } else if ((w & 0x7C000000) == 0x34000000) { // CBZ, CBNZ (imm19), TBZ, TBNZ (imm14)
            out.kind = WaypointKind.DIRECT_BRANCH;
            out.conditional = true;
            out.target = (w & 0x02000000) == 0 ? address + ((long) (w << 8) >> 13 << 2)
                    : address + ((long) (w << 13) >> 18 << 2);
        } else if ((w & 0xFE000000) == 0xD6000000) {
            branchRegister(w, out);
        } else if ((w & 0xFF000000) == 0xD4000000) { // exception generation (C4.1.3): opc, imm16, op2, LL
            int opc = (w >>> 21) & 7;
            int ll = w & 3;
            if ((w & 0x1C) != 0) {
                out.undefined = true;
            } else if ((opc == 0 && ll != 0) || (opc == 1 && ll == 0) || (opc == 2 && ll == 0)) {
                out.kind = WaypointKind.EXCEPTION_CALL; // SVC, HVC, SMC; BRK; HLT
            } else if (opc == 3 && ll == 0) {
                // TCANCEL (FEAT_TME): ends a transaction, which ETE traces with its own elements; no waypoint
            } else {
                out.undefined = true; // DCPS1-3 (opc 101): Debug state only; the rest is unallocated
            }
        } else if ((w & 0xFFFFF01F) == 0xD503301F) { // barriers (C4.1.3, CRn = 3): op2 in bits 7:5
            int op2 = (w >>> 5) & 7;
            int crm = (w >>> 8) & 0xF;
            if (op2 == 6) {
                out.kind = WaypointKind.BARRIER; // ISB (C6.2.125)
            } else if (op2 == 5 || (op2 == 4 && crm != 0 && crm != 4) || (op2 == 1 && (crm & 3) == 2)) {
                out.dataBarrier = true; // DMB, DSB, DSB with nXS (C6.2.82); DSB #0 and #4 are SSBB and PSSBB
            }
        } else if ((w & 0xFFFFFFDF) == 0xD503205F) {
            out.waitForInterruptOrEvent = true; // WFE (op2 = 2), WFI (op2 = 3) hints
        } else if ((w & 0xFFFFFFC0) == 0xD5031000) {
            out.waitForInterruptOrEvent = true; // WFET (op2 = 0), WFIT (op2 = 1), FEAT_WFxT
        }
    }

    /** Unconditional branch (register), C4.1.3: 1101011 opc op2 op3 Rn op4. */
    private static void branchRegister(int w, Insn out) {
        int opc = (w >>> 21) & 0xF;
        int op2 = (w >>> 16) & 0x1F;
        int op3 = (w >>> 10) & 0x3F;
        int rn = (w >>> 5) & 0x1F;
        int op4 = w & 0x1F;
        if (op2 != 0x1F) {
            return;
        }
        boolean plain = op3 == 0 && op4 == 0;
        // pointer authentication, key A (M = 0) or B (M = 1): op3 = 00001M
        boolean zeroModifier = (op3 & 0x3E) == 2 && op4 == 0x1F;
        boolean withModifier = (op3 & 0x3E) == 2;
        switch (opc) {
            case 0: // BR, BRAAZ, BRABZ
            case 1: // BLR, BLRAAZ, BLRABZ
                if (plain || zeroModifier) {
                    out.kind = WaypointKind.INDIRECT_BRANCH;
                    out.link = opc == 1;
                }
                return;
            case 2: // RET, RETAA, RETAB
                if (plain || (zeroModifier && rn == 0x1F)) {
                    out.kind = WaypointKind.INDIRECT_BRANCH;
                    out.returns = true;
                }
                return;
            case 4: // ERET, ERETAA, ERETAB
                if ((plain || zeroModifier) && rn == 0x1F) {
                    out.kind = WaypointKind.EXCEPTION_RETURN;
                }
                return;
            case 5: // DRPS
                if (plain && rn == 0x1F) {
                    out.undefined = true;
                }
                return;
            case 8: // BRAA, BRAB (register modifier)
            case 9: // BLRAA, BLRAB
                if (withModifier) {
                    out.kind = WaypointKind.INDIRECT_BRANCH;
                    out.link = opc == 9;
                }
                return;
            default:
                return;
        }
    }
}
