package io.armtrace.trace;

/**
 * What the last instruction of an {@link InstructionRange} does to the call stack, beside its
 * {@link WaypointKind}; the sub-type that OpenCSD gives an instruction range's last instruction.
 */
public enum CallKind {
    /** Neither a call nor a return. */
    NONE,
    /**
     * A branch with link, which writes the return address (the next instruction's) to the link register:
     * BL and BLX (immediate or register) in A32/T32 (ARM DDI 0406C A8.8.25, A8.8.26); BL, BLR and the
     * pointer-authenticated BLRAA, BLRAAZ, BLRAB, BLRABZ in A64 (Arm DDI 0487 C6.2).
     */
    CALL,
    /**
     * A return: A64 RET, RETAA or RETAB, or an AArch32 instruction that returns by convention (BX LR; MOV PC, LR; POP or
     * LDM SP! with the PC in its list; LDR PC, [SP], #4), which OpenCSD calls an implied return. The
     * call tracking of the views does not rely on it: a return is recognised by where it goes.
     */
    RETURN
}
