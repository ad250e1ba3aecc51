package io.armtrace.view;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.WaypointKind;
import java.util.List;

/**
 * Chooses what a view shows of the element stream, never what is decoded: instructions inside address
 * ranges (from {@code --from/--to} or a function's bounds), and a window of the trace from a start to a
 * stop position counted in instructions, cycles or timestamp.
 *
 * <p>An instruction range that crosses a bound is split exactly there: the pieces before the last keep
 * the range's ISA, end with no waypoint and passed their condition (every instruction of a range but the
 * last did); the piece holding the range's last instruction keeps its waypoint kind and condition.
 * Elements other than instructions are shown while the window is open, whatever the address ranges; a
 * {@link CycleCount} that follows a range is shown with the range (it counts the range's cycles).
 */
public final class ElementFilter implements ElementSink {
    /** What a window bound counts. */
    public enum Measure {
        /** instructions decoded before, from 0 */
        INSN,
        /** running cycle count (see {@link Timeline#cycles()}) */
        CYCLE,
        /** the latest timestamp value */
        TS
    }

    /** A window bound: {@code start} shows positions at or after it, {@code stop} positions before it. */
    public record Bound(Measure measure, long value) {
    }

    /** An address range, {@code from} inclusive and {@code to} exclusive. */
    public record AddressRange(long from, long to) {
        boolean contains(long a) {
            return a >= from && a < to;
        }
    }

    private final ElementSink next;
    private final MemoryImage memory;
    private final AddressRange[] ranges;
    private final Bound start;
    private final Bound stop;
    private final Timeline timeline;
    private long instructions;
    private boolean previousWasRange;
    private boolean previousRangeShown;

    /**
     * @param ranges   instructions shown are those inside one of these (empty: every address)
     * @param start    the window's start, or null
     * @param stop     the window's stop (exclusive), or null
     * @param timeline the stage upstream that counts cycles and timestamps; needed for those measures
     */
    public ElementFilter(ElementSink next, MemoryImage memory, List<AddressRange> ranges, Bound start, Bound stop,
                         Timeline timeline) {
        this.next = next;
        this.memory = memory;
        this.ranges = ranges.toArray(AddressRange[]::new);
        this.start = start;
        this.stop = stop;
        this.timeline = timeline;
        if (timeline == null && (needsTime(start) || needsTime(stop))) {
            throw new IllegalArgumentException("a cycle or timestamp bound needs the timeline stage");
        }
    }

    private static boolean needsTime(Bound b) {
        return b != null && b.measure() != Measure.INSN;
    }

    private long position(Measure m, long insnIndex) {
        return switch (m) {
            case INSN -> insnIndex;
            case CYCLE -> timeline.cycles();
            case TS -> timeline.timestamp();
        };
    }

    private boolean inWindow(long insnIndex) {
        return (start == null || position(start.measure(), insnIndex) >= start.value())
                && (stop == null || position(stop.measure(), insnIndex) < stop.value());
    }

    private boolean inRanges(long a) {
        if (ranges.length == 0) {
            return true;
        }
        for (AddressRange r : ranges) {
            if (r.contains(a)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void accept(TraceElement element) {
        if (element instanceof InstructionRange r) {
            previousRangeShown = range(r);
            previousWasRange = true;
            instructions += r.count();
            return;
        }
        boolean show = element instanceof CycleCount && previousWasRange ? previousRangeShown : inWindow(instructions);
        previousWasRange = false;
        if (show) {
            next.accept(element);
        }
    }

    /** Shows the parts of {@code r} that pass; true if any did. */
    private boolean range(InstructionRange r) {
        if (whole(r)) {
            next.accept(r);
            return true;
        }
        if (!overlapsRanges(r)) {
            return false;
        }
        boolean any = false;
        long a = r.start();
        long runStart = -1;
        long runLast = 0;
        int runCount = 0;
        for (int i = 0; i < r.count(); i++) {
            int size = InstructionWalk.size(memory, a, r.isa());
            boolean last = i == r.count() - 1;
            if (inRanges(a) && inWindow(instructions + i)) {
                if (runCount == 0) {
                    runStart = a;
                }
                runCount++;
                runLast = a;
            } else if (runCount > 0) {
                emit(r, runStart, runLast, runLast + lastSize(runLast, r), runCount, false);
                any = true;
                runCount = 0;
            }
            if (last && runCount > 0) {
                emit(r, runStart, runLast, a + size, runCount, true);
                any = true;
            }
            a += size;
        }
        return any;
    }

    private int lastSize(long address, InstructionRange r) {
        return InstructionWalk.size(memory, address, r.isa());
    }

    private void emit(InstructionRange r, long from, long lastAddress, long end, int count, boolean endsRange) {
        next.accept(new InstructionRange(r.source(), from, end, count, r.isa(), lastAddress,
                endsRange ? r.lastKind() : WaypointKind.NONE, !endsRange || r.lastExecuted()));
    }

    private boolean overlapsRanges(InstructionRange r) {
        if (ranges.length == 0) {
            return true;
        }
        for (AddressRange x : ranges) {
            if (r.start() < x.to() && r.lastAddress() >= x.from()) {
                return true;
            }
        }
        return false;
    }

    /** True when every instruction of {@code r} passes (the common case, decided without walking it). */
    private boolean whole(InstructionRange r) {
        if (!inWindow(instructions) || !inWindow(instructions + r.count() - 1)) {
            return false;
        }
        if (ranges.length == 0) {
            return true;
        }
        for (AddressRange x : ranges) {
            if (r.start() >= x.from() && r.lastAddress() < x.to()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void end() {
        next.end();
    }
}
