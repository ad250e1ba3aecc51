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
public final class Timeline implements ElementSink, ElementVisitor {
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
        element.accept(this);
    }

    @Override
    public void visit(CycleCount c) {
        cycles = (cycles < 0 ? 0 : cycles) + c.cycles();
        release();
        next.accept(c);
    }

    @Override
    public void visit(InstructionRange r) {
        release();
        held = r;
    }

    /** A timestamp's own cycle count (ETMv4) is not added: the cycle count elements count every cycle. */
    @Override
    public void visit(Timestamp t) {
        release();
        timestamp = t.value();
        next.accept(t);
    }

    @Override
    public void visit(InstructionCount c) {
        pass(c);
    }

    @Override
    public void visit(ExceptionEntry e) {
        pass(e);
    }

    @Override
    public void visit(ExceptionReturn e) {
        pass(e);
    }

    @Override
    public void visit(TraceOn t) {
        pass(t);
    }

    @Override
    public void visit(Gap g) {
        pass(g);
    }

    @Override
    public void visit(NoImage n) {
        pass(n);
    }

    @Override
    public void visit(Context c) {
        pass(c);
    }

    @Override
    public void visit(Event e) {
        pass(e);
    }

    @Override
    public void visit(Trigger t) {
        pass(t);
    }

    @Override
    public void visit(DecodeError e) {
        pass(e);
    }

    /* Software trace (ITM, DWT, STM) is neither time of the program flow nor a range. */

    @Override
    public void visit(SoftwareMessage m) {
        pass(m);
    }

    @Override
    public void visit(LocalTimestamp t) {
        pass(t);
    }

    @Override
    public void visit(PcSample s) {
        pass(s);
    }

    @Override
    public void visit(ExceptionTrace x) {
        pass(x);
    }

    @Override
    public void visit(DataTrace d) {
        pass(d);
    }

    @Override
    public void visit(EventCounterWrap w) {
        pass(w);
    }

    /** Neither time nor a range: the held range goes first, then this. */
    private void pass(TraceElement e) {
        release();
        next.accept(e);
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
