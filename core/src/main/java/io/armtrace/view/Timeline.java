package io.armtrace.view;

import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;

/**
 * Running time of the element stream: the cycle count since the start of the trace and the latest
 * timestamp, as a stage between decoder and views that read them ({@link #cycles()}, {@link #timestamp()})
 * while they handle an element.
 *
 * <p>A decoder reports the cycles of a range in the {@link CycleCount} that follows it ("cycles counted
 * since the previous cycle count, ending with the preceding element"), so this stage holds each
 * instruction range back by one element: when the range goes on, {@link #cycles()} already includes its
 * own cycles, i.e. it is the cycle count at the end of the range. A timestamp applies to what follows it.
 */
public final class Timeline implements ElementSink {
    private ElementSink next;
    private InstructionRange held;
    private long cycles = -1;
    private long timestamp = -1;

    public Timeline(ElementSink next) {
        this.next = next;
    }

    /** A stage whose downstream is set later with {@link #feed}: the views after it read it while they are built. */
    public Timeline() {
    }

    /** Sets the stage this one feeds; returns this. */
    public Timeline feed(ElementSink next) {
        this.next = next;
        return this;
    }

    /** Cycles counted from the start of the trace to the end of the current element's range; -1 before any count. */
    public long cycles() {
        return cycles;
    }

    /** The latest timestamp value before the current element; -1 before any. */
    public long timestamp() {
        return timestamp;
    }

    @Override
    public void accept(TraceElement element) {
        if (element instanceof CycleCount c) {
            cycles = (cycles < 0 ? 0 : cycles) + c.cycles();
            release();
            next.accept(c);
            return;
        }
        release();
        if (element instanceof InstructionRange r) {
            held = r;
            return;
        }
        if (element instanceof Timestamp t) {
            timestamp = t.value();
        }
        next.accept(element);
    }

    private void release() {
        if (held != null) {
            InstructionRange r = held;
            held = null;
            next.accept(r);
        }
    }

    @Override
    public void end() {
        release();
        next.end();
    }
}
