package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/** Expected ranges for tests, their instruction sizes read from the image by the classifier. */
public final class TestRanges {
    private TestRanges() {
    }

    /** The sizes of {@code count} instructions from {@code start}, as the classifier reads them. */
    public static InstructionSizes sizes(MemoryImage m, long start, int count, Isa isa) {
        InstructionClassifier c = new InstructionClassifier(Profile.AR);
        Insn insn = new Insn();
        int[] offsets = new int[count + 1];
        long a = start;
        for (int i = 0; i < count; i++) {
            if (!c.classify(m, a, isa, 0, insn)) {
                throw new IllegalArgumentException(String.format("no instruction at 0x%x", a));
            }
            offsets[i + 1] = offsets[i] + insn.size;
            a += insn.size;
        }
        return InstructionSizes.ofOffsets(offsets);
    }

    /** A range of {@code count} instructions from {@code start}, its end and last address from their sizes. */
    public static InstructionRange range(MemoryImage m, int source, long start, int count, Isa isa, WaypointKind kind,
                                         CallKind call, boolean executed) {
        InstructionSizes s = sizes(m, start, count, isa);
        return new InstructionRange(source, start, start + s.offset(count), count, isa, kind, call, executed, s);
    }
}
