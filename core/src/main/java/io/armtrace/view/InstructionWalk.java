package io.armtrace.view;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;

/**
 * Expands an {@link InstructionRange} into its instructions. A32 and A64 instructions are 4 bytes; a T32
 * instruction is 4 bytes when its first halfword's bits 15:11 are 0b11101, 0b11110 or 0b11111, else 2
 * (ARM ARM A6.1). Views that want one record per instruction use this; decoders never do.
 */
public final class InstructionWalk {
    /** Receives one instruction: its address, size in bytes, and whether it passed its condition. */
    @FunctionalInterface
    public interface Visitor {
        void instruction(long address, int size, boolean executed);
    }

    private InstructionWalk() {
    }

    /** Size of the instruction at {@code address}; for T32 code missing from the image, 2. */
    public static int size(MemoryImage memory, long address, Isa isa) {
        switch (isa) {
            case A32:
            case A64:
                return 4;
            case T32:
            case THUMB_EE: {
                int hw = memory.u16(address);
                return hw >= 0 && (hw >>> 11) >= 0x1D ? 4 : 2;
            }
            default:
                return 1;
        }
    }

    public static void forEach(InstructionRange r, MemoryImage memory, Visitor v) {
        long a = r.start();
        for (int i = 0; i < r.count(); i++) {
            int size = size(memory, a, r.isa());
            boolean last = i == r.count() - 1;
            v.instruction(a, size, !last || r.lastExecuted());
            a += size;
        }
    }
}
