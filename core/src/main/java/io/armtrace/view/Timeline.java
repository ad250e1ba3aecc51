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
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.WaypointKind;
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
 *
 * <p>Ranges and cycle counts given as their fields ({@link #range}, {@link #cycles}) are held and passed on as fields,
 * so this stage makes no object for them; a range given as an element is passed on as its fields too.
 */
public final class Timeline implements ElementSink, ElementVisitor {
    private ElementSink next;
    /** Whether a range is held back, and its fields. */
    private boolean held;
    private int heldSource;
    private long heldStart;
    private long heldEnd;
    private int heldCount;
    private Isa heldIsa;
    private WaypointKind heldLastKind;
    private CallKind heldLastCall;
    private boolean heldLastExecuted;
    private InstructionSizes heldSizes;
    private int heldSizesIndex;
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
        cycles(c.source(), c.cycles());
    }

    @Override
    public void cycles(int source, long cycles) {
        this.cycles = (this.cycles < 0 ? 0 : this.cycles) + cycles;
        release();
        next.cycles(source, cycles);
    }

    @Override
    public void visit(InstructionRange r) {
        range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(), r.lastExecuted(), r.sizes(),
                r.sizesIndex());
    }

    @Override
    public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                      boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        release();
        held = true;
        heldSource = source;
        heldStart = start;
        heldEnd = end;
        heldCount = count;
        heldIsa = isa;
        heldLastKind = lastKind;
        heldLastCall = lastCall;
        heldLastExecuted = lastExecuted;
        heldSizes = sizes;
        heldSizesIndex = sizesIndex;
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
        if (held) {
            held = false;
            InstructionSizes sizes = heldSizes;
            heldSizes = null;
            next.range(heldSource, heldStart, heldEnd, heldCount, heldIsa, heldLastKind, heldLastCall, heldLastExecuted,
                    sizes, heldSizesIndex);
        }
    }

    @Override
    public void end() {
        release();
        next.end();
    }
}
