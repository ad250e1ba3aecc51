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
import java.util.ArrayDeque;

/**
 * Passes on only the end of the stream: the elements that belong to the last {@code limit} instructions
 * (a range that straddles the cut is shortened to its newest instructions), which is what a developer
 * wants after a crash. What is passed on is always one unbroken tail of the stream.
 *
 * <p>Memory is bounded by the limit whatever the trace holds: at most {@link #maxOther(long)} elements
 * that are not instructions (exceptions, gaps, errors, triggers, ...) are kept, and at most
 * {@code limit + maxOther} elements in all. When a corrupt or unusual trace puts more non-instruction
 * elements than that among the last {@code limit} instructions, the tail is cut shorter: the oldest
 * elements go first, so fewer than {@code limit} instructions come out.
 */
public final class LastInstructions implements ElementSink, ElementVisitor {
    private final ElementSink next;
    private final long limit;
    private final ArrayDeque<TraceElement> kept = new ArrayDeque<>();
    private long instructions;
    /** Non-range elements kept at most, so that a stream without instructions stays bounded too. */
    private final int maxOther;
    private int other;
    /** Elements kept at most: ranges of no instructions and non-instruction elements count too. */
    private final long maxElements;

    public LastInstructions(ElementSink next, long limit) {
        this.next = next;
        this.limit = limit;
        this.maxOther = maxOther(limit);
        this.maxElements = Math.min(Integer.MAX_VALUE, limit + maxOther);
    }

    /** Non-instruction elements kept at most for a limit of {@code limit} instructions: 4 per instruction, 1024 to 1,000,000. */
    public static int maxOther(long limit) {
        return (int) Math.min(1_000_000, Math.max(1024, Math.min(limit, 1_000_000) * 4));
    }

    @Override
    public void accept(TraceElement element) {
        element.accept(this);
    }

    @Override
    public void visit(InstructionRange r) {
        kept.addLast(r);
        instructions += r.count();
        trim();
    }

    /**
     * Instructions without a path cannot be shortened to the newest of them: they are kept as one
     * element, as context, like the kinds that are no instructions.
     */
    @Override
    public void visit(InstructionCount c) {
        keep(c);
    }

    @Override
    public void visit(ExceptionEntry e) {
        keep(e);
    }

    @Override
    public void visit(ExceptionReturn e) {
        keep(e);
    }

    @Override
    public void visit(TraceOn t) {
        keep(t);
    }

    @Override
    public void visit(Gap g) {
        keep(g);
    }

    @Override
    public void visit(NoImage n) {
        keep(n);
    }

    @Override
    public void visit(Context c) {
        keep(c);
    }

    @Override
    public void visit(Timestamp t) {
        keep(t);
    }

    @Override
    public void visit(CycleCount c) {
        keep(c);
    }

    @Override
    public void visit(Event e) {
        keep(e);
    }

    @Override
    public void visit(Trigger t) {
        keep(t);
    }

    @Override
    public void visit(DecodeError e) {
        keep(e);
    }

    /* Software trace (ITM, DWT, STM): kept as context like the other kinds that are no instructions. */

    @Override
    public void visit(SoftwareMessage m) {
        keep(m);
    }

    @Override
    public void visit(LocalTimestamp t) {
        keep(t);
    }

    @Override
    public void visit(PcSample s) {
        keep(s);
    }

    @Override
    public void visit(ExceptionTrace x) {
        keep(x);
    }

    @Override
    public void visit(DataTrace d) {
        keep(d);
    }

    @Override
    public void visit(EventCounterWrap w) {
        keep(w);
    }

    private void keep(TraceElement e) {
        kept.addLast(e);
        other++;
        trim();
    }

    private void trim() {
        while (kept.size() > maxElements || other > maxOther) {
            if (kept.removeFirst() instanceof InstructionRange r) {
                instructions -= r.count();
            } else {
                other--;
            }
        }
        while (!kept.isEmpty()) {
            TraceElement first = kept.peekFirst();
            if (first instanceof InstructionRange r) {
                long excess = instructions - limit;
                if (excess <= 0) {
                    return;
                }
                kept.removeFirst();
                if (excess < r.count()) {
                    kept.addFirst(dropOldest(r, (int) excess));
                    instructions -= excess;
                    return;
                }
                instructions -= r.count();
            } else {
                // an element before the oldest kept instruction stays as context until the window moves past it
                if (instructions <= limit && other <= maxOther) {
                    return;
                }
                kept.removeFirst();
                other--;
            }
        }
    }

    /** {@code r} without its first {@code n} instructions. */
    private static InstructionRange dropOldest(InstructionRange r, int n) {
        return r.slice(n, r.count() - n);
    }

    @Override
    public void end() {
        for (TraceElement e : kept) {
            next.accept(e);
        }
        kept.clear();
        next.end();
    }
}
