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
import java.util.Arrays;

/**
 * One pass over the element stream that gathers what the analysis views show: how often each distinct
 * instruction range ran (and how often its last instruction failed its condition) and its cycles, here;
 * the call stack in a {@link CallStack}, whose calls add up in {@link CallTables} (call edges with
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

    // ---- distinct ranges: (start, end, isa) -> slot
    private final LongIntMap rangeSlots = new LongIntMap(1024);
    long[] rangeStart = new long[256];
    long[] rangeEnd = new long[256];
    int[] rangeCount = new int[256];
    Isa[] rangeIsa = new Isa[256];
    /** The sizes of the range's instructions: instruction i is {@code rangeSizesIndex[s] + i} of these. */
    InstructionSizes[] rangeSizes = new InstructionSizes[256];
    int[] rangeSizesIndex = new int[256];
    /** Function the range ran in when no symbol covers it (the tracked frame's). */
    int[] rangeFunction = new int[256];
    /** Function of the symbol at the range's start, or -1. */
    int[] rangeSymbol = new int[256];
    long[] rangeTimes = new long[256];
    long[] rangeLastFailed = new long[256];
    long[] rangeCycles = new long[256];
    int ranges;

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
        long start = r.start();
        int slot = slot(r);
        int sym = rangeSymbol[slot];
        int node = stack.enter(start, sym, lastEnd);
        int fn = stack.function();
        if (rangeFunction[slot] < 0) {
            rangeFunction[slot] = fn;
        }
        rangeTimes[slot]++;
        if (!r.lastExecuted()) {
            rangeLastFailed[slot]++;
        }
        lastSlot = slot;
        lastEnd = r.end();
        int count = r.count();
        stack.instructions += count;
        lastNode = node;
        tables.nodeInstructions[node] += count;
        if (r.lastCall() == CallKind.CALL && r.lastExecuted()
                && (r.lastKind() == WaypointKind.DIRECT_BRANCH || r.lastKind() == WaypointKind.INDIRECT_BRANCH)) {
            stack.calling(r.lastAddress(), r.end());
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
            rangeCycles[lastSlot] += c.cycles();
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

    private int slot(InstructionRange r) {
        // a key shared by another range (another ISA, or high address bits that the mix folds together)
        // probes on: slots are compared on the range itself
        long key = r.start() * 0x9E3779B97F4A7C15L ^ r.end();
        int s;
        while ((s = rangeSlots.get(key)) >= 0) {
            if (rangeStart[s] == r.start() && rangeEnd[s] == r.end() && rangeIsa[s] == r.isa()) {
                return s;
            }
            key++;
        }
        s = ranges++;
        if (s == rangeStart.length) {
            int n = s * 2;
            rangeStart = Arrays.copyOf(rangeStart, n);
            rangeEnd = Arrays.copyOf(rangeEnd, n);
            rangeCount = Arrays.copyOf(rangeCount, n);
            rangeIsa = Arrays.copyOf(rangeIsa, n);
            rangeSizes = Arrays.copyOf(rangeSizes, n);
            rangeSizesIndex = Arrays.copyOf(rangeSizesIndex, n);
            rangeFunction = Arrays.copyOf(rangeFunction, n);
            rangeSymbol = Arrays.copyOf(rangeSymbol, n);
            rangeTimes = Arrays.copyOf(rangeTimes, n);
            rangeLastFailed = Arrays.copyOf(rangeLastFailed, n);
            rangeCycles = Arrays.copyOf(rangeCycles, n);
        }
        rangeStart[s] = r.start();
        rangeEnd[s] = r.end();
        rangeCount[s] = r.count();
        rangeIsa[s] = r.isa();
        rangeSizes[s] = r.sizes();
        rangeSizesIndex[s] = r.sizesIndex();
        rangeFunction[s] = -1;
        rangeSymbol[s] = functions.at(r.start());
        rangeSlots.put(key, s);
        return s;
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

    /** Receives each distinct executed instruction once, with its totals. */
    interface InstructionVisitor {
        /**
         * @param function the function it counts for (its symbol's, else the tracked frame's)
         * @param passed   executions that passed their condition (or had none)
         * @param failed   executions that failed their condition
         * @param cycles   cycles attributed to it (a range's cycles shared among its instructions)
         */
        void instruction(long address, Isa isa, int size, int function, long passed, long failed, double cycles);
    }

    /**
     * Expands every distinct range once and calls the visitor per instruction of it; an instruction that
     * is in several distinct ranges is visited once per range.
     */
    void forEachInstruction(InstructionVisitor v) {
        for (int s = 0; s < ranges; s++) {
            long a = rangeStart[s];
            int n = rangeCount[s];
            Isa isa = rangeIsa[s];
            InstructionSizes sizes = rangeSizes[s];
            int first = rangeSizesIndex[s];
            double cyclesEach = n == 0 ? 0 : (double) rangeCycles[s] / n;
            for (int i = 0; i < n; i++) {
                int size = sizes.size(first + i);
                int f = functions.at(a);
                if (f < 0) {
                    f = rangeFunction[s];
                }
                boolean last = i == n - 1;
                long failed = last ? rangeLastFailed[s] : 0;
                v.instruction(a, isa, size, f, rangeTimes[s] - failed, failed, cyclesEach);
                a += size;
            }
        }
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
