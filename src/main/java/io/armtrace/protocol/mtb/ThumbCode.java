package io.armtrace.protocol.mtb;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;

/** Reads T32 instructions of an M-profile program for the MTB walk. */
final class ThumbCode {
    private final MemoryImage memory;
    private final InstructionClassifier classifier = new InstructionClassifier(Profile.M);

    ThumbCode(MemoryImage memory) {
        this.memory = memory;
    }

    /** Classifies the instruction at {@code address}; false if its bytes are not in the image. */
    boolean read(long address, int itState, Insn out) {
        return classifier.classify(memory, address, Isa.T32, itState, out);
    }
}
