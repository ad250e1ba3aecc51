package io.armtrace.trace;

/**
 * Instruction set state of the traced core: A32 and T32 (AArch32), Jazelle and ThumbEE (ARMv7 and
 * earlier), A64 (AArch64, Armv8 and later).
 */
public enum Isa {
    A32, T32, JAZELLE, THUMB_EE, A64;

    /** Alignment of instruction addresses in this state, in bytes. */
    public int alignment() {
        return switch (this) {
            case A32, A64 -> 4;
            case T32, THUMB_EE -> 2;
            case JAZELLE -> 1;
        };
    }
}
