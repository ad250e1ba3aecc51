package io.armtrace.trace;

/**
 * What the last instruction of an instruction range is, as far as program flow is concerned.
 * {@link #NONE} means the range ended for another reason (a condition-failed instruction in the middle
 * of straight-line code, an exception, the end of the trace).
 */
public enum WaypointKind {
    NONE,
    /** Branch whose target is encoded in the instruction (B, BL, BLX imm, CBZ, CBNZ). */
    DIRECT_BRANCH,
    /** Any other write of the PC: BX, BLX reg, LDR/LDM/POP pc, data processing into pc, TBB/TBH. */
    INDIRECT_BRANCH,
    /** Exception-generating instruction: SVC, BKPT, UDF, SMC, HVC. */
    EXCEPTION_CALL,
    /** Exception return: SUBS pc,lr / MOVS pc / LDM ^ / RFE / ERET, or an M-profile EXC_RETURN load. */
    EXCEPTION_RETURN,
    /** Instruction synchronization barrier (a waypoint in PFT). */
    BARRIER
}
