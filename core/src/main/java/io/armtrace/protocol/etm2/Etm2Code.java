package io.armtrace.protocol.etm2;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;

/**
 * What the ETMv1/ETMv2 flow asks of the instruction classifier for an ARMv4T/ARMv5TE core (ARM7TDMI, ARM9,
 * ARM10): A32 and 16-bit Thumb, no IT blocks. The Thumb BL/BLX prefix+suffix pair is classified as one
 * 4-byte instruction; to the ARM7/ARM9 pipeline it is two instructions with a PIPESTAT each, which the flow
 * and the encoder account for.
 */
final class Etm2Code {
    private static final InstructionClassifier CLASSIFIER = new InstructionClassifier(Profile.AR);

    private Etm2Code() {
    }

    /** Classifies the instruction at {@code address}; false if it is not in the image. */
    static boolean classify(MemoryImage mem, long address, Isa isa, Insn out) {
        return CLASSIFIER.classify(mem, address, isa, 0, out);
    }

    /**
     * Vector offset of the exception an exception-generating instruction takes: SWI 0x08, BKPT 0x0C (prefetch
     * abort), anything else (UDF) 0x04.
     */
    static int exceptionVector(Insn insn) {
        int op = insn.opcode;
        if (insn.isa == Isa.A32) {
            if ((op & 0x0F000000) == 0x0F000000) {
                return 0x08;
            }
            return (op & 0x0FF000F0) == 0x01200070 ? 0x0C : 0x04;
        }
        if (insn.size == 2) {
            if ((op & 0xFF00) == 0xDF00) {
                return 0x08;
            }
            if ((op & 0xFF00) == 0xBE00) {
                return 0x0C;
            }
        }
        return 0x04;
    }
}
