package io.armtrace.protocol.mtb;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/** Reads T32 instructions of an M-profile program for the MTB walk. */
final class ThumbCode {
    private final MemoryImage memory;
    private final InstructionClassifier classifier = new InstructionClassifier(Profile.M);
    private boolean classifierMissing;

    ThumbCode(MemoryImage memory) {
        this.memory = memory;
    }

    /** True once the classifier has told branch kinds (false while only sizes are known). */
    boolean knowsKinds() {
        return !classifierMissing;
    }

    /** Classifies the instruction at {@code address}; false if its bytes are not in the image. */
    boolean read(long address, int itState, Insn out) {
        if (!classifierMissing) {
            try {
                return classifier.classify(memory, address, Isa.T32, itState, out);
            } catch (UnsupportedOperationException e) {
                classifierMissing = true;
            }
        }
        int hw = memory.u16(address);
        if (hw < 0) {
            return false;
        }
        out.address = address;
        out.isa = Isa.T32;
        // DDI 0403E A5.1: bits 15:11 of the first halfword 0b11101, 0b11110, 0b11111 mean a 32-bit instruction
        out.size = (hw & 0xE000) == 0xE000 && (hw & 0x1800) != 0 ? 4 : 2;
        if (out.size == 4 && memory.u16(address + 2) < 0) {
            return false;
        }
        out.kind = WaypointKind.NONE;
        out.target = -1;
        out.conditional = false;
        out.cond = 14;
        out.itStateAfter = 0;
        out.undefined = false;
        return true;
    }
}
