package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.TestRanges;
import io.armtrace.trace.CallKind;
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

    private static final InstructionRange RANGE = TestRanges.range(thumb(), 3, 0x1000, 5, Isa.T32,
            WaypointKind.INDIRECT_BRANCH, CallKind.RETURN, false);

    /** {@code count} instructions of {@link #thumb()} from {@code start}, ending as given. */
    private static InstructionRange piece(long start, int count, WaypointKind kind, CallKind call, boolean executed) {
        return TestRanges.range(thumb(), 3, start, count, Isa.T32, kind, call, executed);
    }

    private static List<InstructionRange> filter(List<ElementFilter.AddressRange> ranges, ElementFilter.Bound start,
                                                 ElementFilter.Bound stop) {
        ElementCollector c = new ElementCollector();
        ElementFilter f = new ElementFilter(c, ranges, start, stop, null);
        f.accept(RANGE);
        f.end();
        return c.ofType(InstructionRange.class);
    }

    @Test
    void rangesSplitAtAddressBoundsBetweenInstructionsOfBothSizes() {
        // [0x1002, 0x1009): the 32-bit instruction at 0x1002, 0x1006 and the 32-bit one at 0x1008
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1002, 0x1009)), null, null)).containsExactly(
                piece(0x1002, 3, WaypointKind.NONE, CallKind.NONE, true));
        // the piece with the range's last instruction keeps its kind and condition
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1008, 0x2000)), null, null)).containsExactly(
                piece(0x1008, 2, WaypointKind.INDIRECT_BRANCH, CallKind.RETURN, false));
        // a hole in the middle: two pieces
        assertThat(filter(List.of(new ElementFilter.AddressRange(0, 0x1006), new ElementFilter.AddressRange(0x1008, 0x2000)),
                null, null)).containsExactly(
                piece(0x1000, 2, WaypointKind.NONE, CallKind.NONE, true),
                piece(0x1008, 2, WaypointKind.INDIRECT_BRANCH, CallKind.RETURN, false));
        // all inside: the range itself
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x1000, 0x100e)), null, null)).containsExactly(RANGE);
        assertThat(filter(List.of(new ElementFilter.AddressRange(0x2000, 0x3000)), null, null)).isEmpty();
    }

    /** One instruction as a listing shows it. */
    record Shown(long address, boolean executed, boolean last, WaypointKind kind) {
    }

    /** Expands ranges to instructions; {@code last}/{@code kind} only on the last instruction of a range. */
    private static List<Shown> expand(List<InstructionRange> ranges, MemoryImage m) {
        List<Shown> out = new java.util.ArrayList<>();
        for (InstructionRange r : ranges) {
            for (int i = 0; i < r.count(); i++) {
                long a = r.addressOf(i);
                boolean executed = i < r.count() - 1 || r.lastExecuted();
                out.add(new Shown(a, executed, a == r.lastAddress(), a == r.lastAddress() ? r.lastKind() : null));
            }
        }
        return out;
    }

    @Test
    void randomWindowsAndAddressRangesKeepExactlyTheInstructionsInside() {
        java.util.Random rnd = new java.util.Random(0x11b);
        // random T32 code: 16- and 32-bit instructions mixed
        byte[] code = new byte[4096];
        for (int i = 0; i < code.length; i += 2) {
            int hw = rnd.nextInt(3) == 0 ? 0xF000 : 0x4600;
            code[i] = (byte) hw;
            code[i + 1] = (byte) (hw >> 8);
        }
        MemoryImage m = new MemoryImage().add(0x8000, code, "code");
        for (int round = 0; round < 200; round++) {
            List<InstructionRange> input = new java.util.ArrayList<>();
            for (int k = 0; k < 20; k++) {
                long a = 0x8000 + 2L * rnd.nextInt(1500);
                int count = 1 + rnd.nextInt(30);
                input.add(TestRanges.range(m, 1, a, count, Isa.T32,
                        WaypointKind.values()[rnd.nextInt(WaypointKind.values().length)], CallKind.NONE, rnd.nextBoolean()));
            }
            List<ElementFilter.AddressRange> ranges = new java.util.ArrayList<>();
            for (int k = rnd.nextInt(3); k > 0; k--) {
                long from = 0x8000 + rnd.nextInt(3200);
                ranges.add(new ElementFilter.AddressRange(from, from + rnd.nextInt(800)));
            }
            long total = input.stream().mapToLong(InstructionRange::count).sum();
            long startAt = rnd.nextInt((int) total);
            long stopAt = startAt + rnd.nextInt((int) total);
            ElementFilter.Bound start = rnd.nextBoolean() ? new ElementFilter.Bound(ElementFilter.Measure.INSN, startAt) : null;
            ElementFilter.Bound stop = rnd.nextBoolean() ? new ElementFilter.Bound(ElementFilter.Measure.INSN, stopAt) : null;

            ElementCollector c = new ElementCollector();
            ElementFilter f = new ElementFilter(c, ranges, start, stop, null);
            input.forEach(f::accept);
            f.end();

            List<Shown> all = expand(input, m);
            List<Shown> expected = new java.util.ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                Shown s = all.get(i);
                boolean inside = ranges.isEmpty() || ranges.stream().anyMatch(r -> s.address() >= r.from() && s.address() < r.to());
                boolean window = (start == null || i >= startAt) && (stop == null || i < stopAt);
                if (inside && window) {
                    expected.add(s);
                }
            }
            List<Shown> shown = expand(c.ofType(InstructionRange.class), m);
            // a piece ends wherever the filter cut; compare address, condition, and the kind where a range ended
            assertThat(shown.stream().map(s -> s.address() + "/" + s.executed()).toList())
                    .isEqualTo(expected.stream().map(s -> s.address() + "/" + s.executed()).toList());
            for (InstructionRange piece : c.ofType(InstructionRange.class)) {
                boolean endsAnInputRange = input.stream().anyMatch(r -> r.lastAddress() == piece.lastAddress());
                if (!endsAnInputRange) {
                    assertThat(piece.lastKind()).isEqualTo(WaypointKind.NONE);
                    assertThat(piece.lastExecuted()).isTrue();
                }
            }
        }
    }

    @Test
    void instructionWindowCountsDecodedInstructions() {
        ElementFilter.Bound start = new ElementFilter.Bound(ElementFilter.Measure.INSN, 1);
        ElementFilter.Bound stop = new ElementFilter.Bound(ElementFilter.Measure.INSN, 3);
        assertThat(filter(List.of(), start, stop)).containsExactly(
                piece(0x1002, 2, WaypointKind.NONE, CallKind.NONE, true));
    }

    @Test
    void otherElementsFollowTheWindowAndCyclesFollowTheirRange() {
        ElementCollector c = new ElementCollector();
        Timeline t = new Timeline();
        t.feed(new ElementFilter(c, List.of(new ElementFilter.AddressRange(0x5000, 0x6000)), null,
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
