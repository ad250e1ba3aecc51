package io.armtrace.trace;

/** Instruction set state of the traced core. */
public enum Isa {
    A32, T32, JAZELLE, THUMB_EE;

    /** Alignment of instruction addresses in this state, in bytes. */
    public int alignment() {
        return switch (this) {
            case A32 -> 4;
            case T32, THUMB_EE -> 2;
            case JAZELLE -> 1;
        };
    }
}
