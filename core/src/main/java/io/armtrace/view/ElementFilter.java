package io.armtrace.view;

import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
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
public final class ElementFilter implements ElementSink, ElementVisitor {
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

    /**
     * An address range, {@code from} inclusive and {@code to} exclusive, compared as unsigned 64-bit
     * numbers (an address of the upper half, such as an AArch64 kernel's, is negative as a Java long).
     */
    public record AddressRange(long from, long to) {
        boolean contains(long a) {
            return Long.compareUnsigned(a, from) >= 0 && Long.compareUnsigned(a, to) < 0;
        }
    }

    private final ElementSink next;
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
    public ElementFilter(ElementSink next, List<AddressRange> ranges, Bound start, Bound stop, Timeline timeline) {
        this.next = next;
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
        element.accept(this);
    }

    @Override
    public void visit(InstructionRange r) {
        previousRangeShown = range(r);
        previousWasRange = true;
        instructions += r.count();
    }

    /** Shown with the range it counts the cycles of, or, after anything else, while the window is open. */
    @Override
    public void visit(CycleCount c) {
        boolean show = previousWasRange ? previousRangeShown : inWindow(instructions);
        previousWasRange = false;
        if (show) {
            next.accept(c);
        }
    }

    /**
     * Instructions without a path have no addresses to filter by: shown while the window is open, like
     * the kinds that are no instructions (they do not move the window: it counts the instructions of ranges).
     */
    @Override
    public void visit(InstructionCount c) {
        other(c);
    }

    @Override
    public void visit(ExceptionEntry e) {
        other(e);
    }

    @Override
    public void visit(ExceptionReturn e) {
        other(e);
    }

    @Override
    public void visit(TraceOn t) {
        other(t);
    }

    @Override
    public void visit(Gap g) {
        other(g);
    }

    @Override
    public void visit(NoImage n) {
        other(n);
    }

    @Override
    public void visit(Context c) {
        other(c);
    }

    @Override
    public void visit(Timestamp t) {
        other(t);
    }

    @Override
    public void visit(Event e) {
        other(e);
    }

    @Override
    public void visit(Trigger t) {
        other(t);
    }

    @Override
    public void visit(DecodeError e) {
        other(e);
    }

    /* Software trace (ITM, DWT, STM): no instructions, shown while the window is open. */

    @Override
    public void visit(SoftwareMessage m) {
        other(m);
    }

    @Override
    public void visit(LocalTimestamp t) {
        other(t);
    }

    @Override
    public void visit(PcSample s) {
        other(s);
    }

    @Override
    public void visit(ExceptionTrace x) {
        other(x);
    }

    @Override
    public void visit(DataTrace d) {
        other(d);
    }

    @Override
    public void visit(EventCounterWrap w) {
        other(w);
    }

    /** An element other than instructions: shown while the window is open, whatever the address ranges. */
    private void other(TraceElement e) {
        previousWasRange = false;
        if (inWindow(instructions)) {
            next.accept(e);
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
        int runFrom = 0;
        int runCount = 0;
        for (int i = 0; i < r.count(); i++) {
            if (inRanges(r.addressOf(i)) && inWindow(instructions + i)) {
                if (runCount == 0) {
                    runFrom = i;
                }
                runCount++;
            } else if (runCount > 0) {
                next.accept(r.slice(runFrom, runCount));
                any = true;
                runCount = 0;
            }
        }
        if (runCount > 0) {
            next.accept(r.slice(runFrom, runCount));
            any = true;
        }
        return any;
    }

    private boolean overlapsRanges(InstructionRange r) {
        if (ranges.length == 0) {
            return true;
        }
        for (AddressRange x : ranges) {
            if (Long.compareUnsigned(r.start(), x.to()) < 0 && Long.compareUnsigned(r.lastAddress(), x.from()) >= 0) {
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
            if (x.contains(r.start()) && x.contains(r.lastAddress())) {
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
