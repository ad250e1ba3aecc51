package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.WaypointKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class ElementFilterTest {
    /**
     * T32 code at 0x1000: 16-bit, 32-bit (first halfword 0xF000: bits 15:11 = 0b11110, ARM ARM A6.1),
     * 16-bit, 32-bit, 16-bit: instructions at 0x1000, 0x1002, 0x1006, 0x1008, 0x100c; the range ends at 0x100e.
     */
    private static MemoryImage thumb() {
        byte[] code = {0x00, 0x46, 0x00, (byte) 0xF0, 0x00, (byte) 0xF8, 0x00, 0x46, 0x00, (byte) 0xF0, 0x00,
                (byte) 0xF8, 0x70, 0x47};
        return new MemoryImage().add(0x1000, code, "code");
    }

    private static final InstructionRange RANGE = new InstructionRange(3, 0x1000, 0x100e, 5, Isa.T32, 0x100c,
            WaypointKind.INDIRECT_BRANCH, false);

    private static List<InstructionRange> filter(List<ElementFilter.AddressRange> ranges, ElementFilter.Bound start,
                                                 ElementFilter.Bound stop) {
        ElementCollector c = new ElementCollector();
        ElementFilter f = new ElementFilter(c, thumb(), ranges, start, stop, null);
        f.accept(RANGE);
        f.end();
        return c.ofType(InstructionRange.class);
    }

    @Test
    void rangesSplitAtAddressBoundsBetweenInstructionsOfBothSizes() {
        // [0x1002, 0x1009): the 32-bit instruction at 0x1002, 0x1006 and the 32-bit one at 0x1008
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1002, 0x1009)), null, null)).containsExactly(
                new InstructionRange(3, 0x1002, 0x100c, 3, Isa.T32, 0x1008, WaypointKind.NONE, true));
        // the piece with the range's last instruction keeps its kind and condition
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1008, 0x2000)), null, null)).containsExactly(
                new InstructionRange(3, 0x1008, 0x100e, 2, Isa.T32, 0x100c, WaypointKind.INDIRECT_BRANCH, false));
        // a hole in the middle: two pieces
        assertThat(filter(List.of(new ElementFilter.AddressRange(0, 0x1006), new ElementFilter.AddressRange(0x1008, 0x2000)),
                null, null)).containsExactly(
                new InstructionRange(3, 0x1000, 0x1006, 2, Isa.T32, 0x1002, WaypointKind.NONE, true),
                new InstructionRange(3, 0x1008, 0x100e, 2, Isa.T32, 0x100c, WaypointKind.INDIRECT_BRANCH, false));
        // all inside: the range itself
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1000, 0x100e)), null, null)).containsExactly(RANGE);
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x2000, 0x3000)), null, null)).isEmpty();
    }

    @Test
    void instructionWindowCountsDecodedInstructions() {
        ElementFilter.Bound start = new ElementFilter.Bound(ElementFilter.Measure.INSN, 1);
        ElementFilter.Bound stop = new ElementFilter.Bound(ElementFilter.Measure.INSN, 3);
        assertThat(filter(List.of(), start, stop)).containsExactly(
                new InstructionRange(3, 0x1002, 0x1008, 2, Isa.T32, 0x1006, WaypointKind.NONE, true));
    }

    @Test
    void otherElementsFollowTheWindowAndCyclesFollowTheirRange() {
        ElementCollector c = new ElementCollector();
        Timeline t = new Timeline();
        t.feed(new ElementFilter(c, thumb(), List.of(new ElementFilter.AddressRange(0x5000, 0x6000)), null,
                new ElementFilter.Bound(ElementFilter.Measure.TS, 100), t));
        t.accept(new Timestamp(3, 50));
        t.accept(RANGE);
        t.accept(new CycleCount(3, 7));       // the range's cycles: the range is not shown, nor are they
        t.accept(new Gap(3, "lost", 12));     // shown: the window (ts < 100) is open
        t.accept(new Timestamp(3, 100));      // from here on the window is closed
        t.accept(new Gap(3, "lost", 20));
        t.end();
        assertThat(c.elements()).containsExactly(new Timestamp(3, 50), new Gap(3, "lost", 12));
        assertThat(t.cycles()).isEqualTo(7);
    }
}
