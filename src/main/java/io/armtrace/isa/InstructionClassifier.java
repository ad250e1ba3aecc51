package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;

/**
 * Classifies A32 and T32 instructions for program-flow decoding: size, waypoint kind, direct target,
 * link, ISA change, condition and IT state. Not a disassembler.
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
        throw new UnsupportedOperationException("classifier not implemented yet");
    }
}
