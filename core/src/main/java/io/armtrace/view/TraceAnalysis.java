package io.armtrace.view;

import io.armtrace.image.ProgramImage;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Event;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.SoftwareTrace;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;

/**
 * One pass over the element stream that gathers what the analysis views show, each in its own table: how
 * often each distinct instruction range ran (and how often its last instruction failed its condition) and
 * its cycles in a {@link RangeTable}; the call stack in a {@link CallStack}, whose calls add up in {@link CallTables} (call edges with
 * inclusive costs, the tree of call paths for folded stacks); and the {@link CaptureSummary} of the
 * capture (gaps, exceptions, errors).
 *
 * <p>Cycles: a {@link CycleCount} covers the time up to the element before it; its cycles go to the
 * instruction range just before it (the decoders put one after each range in cycle-accurate trace),
 * and are not given to any code when tracing had just been off.
 *
 * <p>Memory grows with the program (distinct ranges, functions, call edges, call paths), not with the
 * trace: counters are keyed by code, and the tracked stack is bounded by {@link CallStack#MAX_DEPTH}.
 */
public final class TraceAnalysis extends ProgramFlowVisitor implements ElementSink {
    final ProgramImage image;
    final FunctionMap functions;
    final CaptureSummary summary = new CaptureSummary();
    final CallTables tables = new CallTables();
    private final CallStack stack;

    /** The distinct instruction ranges that ran, with their counts and cycles. */
    final RangeTable ranges;

    /** The range the next cycle count is for, and its call path; -1 when none. */
    private int lastSlot = -1;
    private int lastNode;
    /** End of the previous range: a range starting there continues it; -1 after anything else. */
    private long lastEnd = -1;
    private boolean finished;

    public TraceAnalysis(ProgramImage image) {
        this.image = image;
        this.functions = new FunctionMap(image.symbols());
        this.stack = new CallStack(functions, tables);
        this.ranges = new RangeTable(functions);
    }

    @Override
    public void accept(TraceElement e) {
        if (e instanceof InstructionRange r) { // nearly every element: no dispatch
            summary.source(r.source());
            summary.visit(r);
            visit(r);
            return;
        }
        if (e instanceof SoftwareTrace) {
            // software trace (ITM, DWT, STM) says nothing about program flow: the one place the analysis views
            // pass it by (see ProgramFlowVisitor), before it is counted
            return;
        }
        summary.source(e.source());
        e.accept(summary);
        e.accept(this);
    }

    @Override
    public void visit(InstructionRange r) {
        ran(r.start(), r.end(), r.count(), r.isa(), r.sizes(), r.sizesIndex(), r.lastExecuted(),
                calls(r.lastKind(), r.lastCall(), r.lastExecuted()) ? r.lastAddress() : -1);
    }

    /** A range straight from the decoder: the same as {@link #accept} of the element, without making it. */
    @Override
    public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                      boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        summary.source(source);
        summary.range(count);
        long site = calls(lastKind, lastCall, lastExecuted)
                ? InstructionRange.lastAddress(start, count, sizes, sizesIndex) : -1;
        ran(start, end, count, isa, sizes, sizesIndex, lastExecuted, site);
    }

    /** A range whose last instruction is an executed branch with link: a call. */
    private static boolean calls(WaypointKind lastKind, CallKind lastCall, boolean lastExecuted) {
        return lastCall == CallKind.CALL && lastExecuted
                && (lastKind == WaypointKind.DIRECT_BRANCH || lastKind == WaypointKind.INDIRECT_BRANCH);
    }

    /** {@code callSite}: the address of the call the range ends with, or -1 when it does not end with one. */
    private void ran(long start, long end, int count, Isa isa, InstructionSizes sizes, int sizesIndex,
                     boolean lastExecuted, long callSite) {
        int slot = ranges.slot(start, end, count, isa, sizes, sizesIndex);
        int node = stack.enter(start, ranges.symbol(slot), lastEnd);
        ranges.ran(slot, stack.function(), lastExecuted);
        lastSlot = slot;
        lastEnd = end;
        stack.instructions += count;
        lastNode = node;
        tables.nodeInstructions[node] += count;
        if (callSite != -1) {
            stack.calling(callSite, end);
        }
    }

    /**
     * Instructions ran whose path is not traced: calls and returns may have gone by unseen, so the stack
     * resynchronizes as after tracing was off; they are counted in the summary only (no code to credit).
     */
    @Override
    public void visit(InstructionCount c) {
        lastEnd = -1;
        lastSlot = -1;
        stack.restarted();
    }

    @Override
    public void visit(CycleCount c) {
        stack.cycles += c.cycles();
        if (lastSlot >= 0) {
            ranges.cycles(lastSlot, c.cycles());
            tables.nodeCycles[lastNode] += c.cycles();
        }
    }

    @Override
    public void visit(ExceptionEntry x) {
        lastEnd = -1;
        stack.exception(x.preferredReturn());
    }

    @Override
    public void visit(ExceptionReturn x) {
        lastEnd = -1;
        stack.exceptionReturn();
    }

    @Override
    public void visit(Gap g) {
        lastEnd = -1;
        lostTrack();
    }

    @Override
    public void visit(TraceOn t) {
        lastEnd = -1;
        if (t.reason() == TraceOn.Reason.OVERFLOW) {
            lostTrack();
        } else if (t.reason() != TraceOn.Reason.PERIODIC) {
            lastSlot = -1; // cycles counted up to here passed while tracing was off: no code's
            stack.restarted();
        }
    }

    @Override
    public void visit(NoImage n) {
        lastEnd = -1;
    }

    @Override
    public void visit(DecodeError d) {
        lastEnd = -1;
    }

    /** A context change does not break a run of code: the next range may continue the previous one. */
    @Override
    public void visit(Context c) {
    }

    /** A timestamp does not break a run of code either. */
    @Override
    public void visit(Timestamp t) {
    }

    @Override
    public void visit(Event e) {
        lastEnd = -1;
    }

    @Override
    public void visit(Trigger t) {
        lastEnd = -1;
    }

    private void lostTrack() {
        stack.lostTrack();
        lastSlot = -1;
    }

    /** The stream ended: calls still open are closed at the last instruction. */
    @Override
    public void end() {
        if (finished) {
            return;
        }
        finished = true;
        stack.end();
    }

    // ---------------------------------------------------------------- per-instruction results

    /**
     * Expands every distinct range once and calls the visitor per instruction of it; an instruction that
     * is in several distinct ranges is visited once per range.
     */
    void forEachInstruction(RangeTable.InstructionVisitor v) {
        ranges.forEachInstruction(v);
    }

    /** Instructions executed per function (passed or failed), indexed by function number. */
    long[] selfInstructions() {
        long[] self = new long[functions.count()];
        forEachInstruction((address, isa, size, function, passed, failed, c) -> {
            self[function] += passed + failed;
        });
        return self;
    }

    /** Cycles per function, indexed by function number. */
    double[] selfCycles() {
        double[] self = new double[functions.count()];
        forEachInstruction((address, isa, size, function, passed, failed, c) -> {
            self[function] += c;
        });
        return self;
    }

    /** Tells {@code f} of every change of the tracked call stack (see {@link CallStack.Frames}). */
    void frames(CallStack.Frames f) {
        stack.frames(f);
    }

    private TimelineSketch sketch;

    /** Keeps a {@link TimelineSketch} of the outer call-stack levels for the report; before the stream starts. */
    public TraceAnalysis sketch() {
        sketch = new TimelineSketch(stack, functions);
        stack.frames(sketch);
        return this;
    }

    /** The sketch kept, or null. */
    TimelineSketch timelineSketch() {
        return sketch;
    }

    public long instructions() {
        return summary.instructions;
    }

    public long cycles() {
        return summary.cycles;
    }

    public long calls() {
        return stack.calls;
    }

    public long gaps() {
        return summary.gaps;
    }

    public long elements() {
        return summary.elements;
    }

    FunctionMap functions() {
        return functions;
    }

    long inclusive(int fn) {
        return tables.inclusive(fn);
    }

    long callsInto(int fn) {
        return tables.callsInto(fn);
    }
}
