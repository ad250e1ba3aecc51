package io.armtrace.view;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One pass over the element stream that gathers what the analysis views show: how often each distinct
 * instruction range ran (and how often its last instruction failed its condition), cycles, a call
 * stack tracked through calls, returns and exceptions, call edges with inclusive costs, the tree of
 * call paths for folded stacks, and a summary of the capture (gaps, exceptions, errors).
 *
 * <p>Cycles: a {@link CycleCount} covers the time up to the element before it; its cycles go to the
 * instruction range just before it (the decoders put one after each range in cycle-accurate trace),
 * and are not given to any code when tracing had just been off.
 *
 * <p>Memory grows with the program (distinct ranges, functions, call edges, call paths), not with the
 * trace: counters are keyed by code, and the tracked stack is bounded by {@link #MAX_DEPTH}.
 *
 * <p>The call stack: a range ending with an executed branch with link ({@link CallSites}) is a call;
 * the function called is where the next range starts, and the return address is the instruction after
 * the call. A range that starts at the return address of a frame on the stack is a return to that
 * frame (a plain return, or a longjmp past several frames). An exception pushes a frame returning to
 * its preferred return address; an exception return pops to it. A gap or overflow empties the stack,
 * since what happened in between is unknown; when tracing restarts after being off, the trace goes on
 * in the innermost frame of the function it picks up in, or with a fresh stack. A branch without link to another function (a tail call)
 * changes the function of the top frame.
 */
public final class TraceAnalysis implements ElementSink {
    /** Frames kept; deeper calls drop the outermost frame. */
    static final int MAX_DEPTH = 256;
    /** How many frames from the top a return address is searched for. */
    private static final int RETURN_SEARCH = 64;
    /** Messages of gaps and errors kept for the report; the rest are only counted. */
    private static final int MAX_MESSAGES = 20;

    private static final byte FRAME_ROOT = 0;
    private static final byte FRAME_CALL = 1;
    private static final byte FRAME_EXCEPTION = 2;

    final ProgramImage image;
    final MemoryImage memory;
    final FunctionMap functions;

    // ---- distinct ranges: (start, end, isa) -> slot
    private final LongIntMap rangeSlots = new LongIntMap(1024);
    long[] rangeStart = new long[256];
    long[] rangeEnd = new long[256];
    int[] rangeCount = new int[256];
    Isa[] rangeIsa = new Isa[256];
    /** Function the range ran in when no symbol covers it (the tracked frame's). */
    int[] rangeFunction = new int[256];
    /** Function of the symbol at the range's start, or -1. */
    int[] rangeSymbol = new int[256];
    long[] rangeTimes = new long[256];
    long[] rangeLastFailed = new long[256];
    long[] rangeCycles = new long[256];
    int ranges;

    // ---- per function (indexed by FunctionMap number)
    long[] fnInclusive = new long[64];
    long[] fnInclusiveCycles = new long[64];
    long[] fnCalls = new long[64];
    private int[] fnActive = new int[64];

    // ---- call edges: caller << 32 | callee -> edge
    private final LongIntMap edgeSlots = new LongIntMap(256);
    int[] edgeCaller = new int[64];
    int[] edgeCallee = new int[64];
    long[] edgeCalls = new long[64];
    long[] edgeInclusive = new long[64];
    long[] edgeInclusiveCycles = new long[64];
    /** A call site of the edge (the last one seen), for positions in callgrind output. */
    long[] edgeSite = new long[64];
    int edges;

    // ---- call paths: parent << 32 | function -> node; node 0 is the root
    private final LongIntMap nodeSlots = new LongIntMap(256);
    int[] nodeParent = new int[64];
    int[] nodeFunction = new int[64];
    long[] nodeInstructions = new long[64];
    long[] nodeCycles = new long[64];
    int nodes = 1;

    // ---- the tracked stack
    private final int[] frameFunction = new int[MAX_DEPTH];
    private final int[] frameEntry = new int[MAX_DEPTH];
    private final long[] frameReturn = new long[MAX_DEPTH];
    private final byte[] frameKind = new byte[MAX_DEPTH];
    private final int[] frameEdge = new int[MAX_DEPTH];
    private final int[] frameNode = new int[MAX_DEPTH];
    private final long[] frameStartInsn = new long[MAX_DEPTH];
    private final long[] frameStartCycles = new long[MAX_DEPTH];
    private int depth;

    private boolean pendingCall;
    /** Tracing restarted: the stack may hold frames that returned while it was off. */
    private boolean resync;
    private long pendingCallReturn;
    private long pendingCallSite;
    private boolean pendingException;
    private long pendingExceptionReturn;
    private int lastSlot = -1;
    private int lastNode;

    // ---- capture summary
    long instructions;
    long rangeElements;
    long cycles;
    long callCount;
    long gaps;
    long noImage;
    long errors;
    long traceOns;
    long exceptionReturns;
    long contexts;
    long timestamps;
    long triggers;
    long elements;
    final Map<String, Long> exceptionsByName = new LinkedHashMap<>();
    final List<String> gapMessages = new ArrayList<>();
    final List<String> errorMessages = new ArrayList<>();
    final TreeSet<Integer> sources = new TreeSet<>();

    public TraceAnalysis(ProgramImage image) {
        this.image = image;
        this.memory = image.memory().copy();
        this.functions = new FunctionMap(image.symbols());
        nodeParent[0] = -1;
        nodeFunction[0] = -1;
    }

    @Override
    public void accept(TraceElement e) {
        if (e instanceof io.armtrace.trace.SoftwareTrace) {
            // Software trace (ITM, DWT, STM) says nothing about program flow: the one place the analysis views
            // pass it by. It is not counted, so a capture's profile is the same with its ITM source or without.
            return;
        }
        elements++;
        int src = e.source();
        if (src != lastSource) {
            sources.add(src);
            lastSource = src;
        }
        if (e instanceof InstructionRange r) {
            range(r);
            return;
        }
        if (!(e instanceof CycleCount || e instanceof Timestamp || e instanceof Context)) {
            lastEnd = -1;
        }
        if (e instanceof CycleCount c) {
            cycles += c.cycles();
            if (lastSlot >= 0) {
                rangeCycles[lastSlot] += c.cycles();
                nodeCycles[lastNode] += c.cycles();
            }
        } else if (e instanceof ExceptionEntry x) {
            exceptionEntry(x);
        } else if (e instanceof ExceptionReturn x) {
            exceptionReturns++;
            pendingException = false;
            for (int i = depth - 1; i >= 0; i--) {
                if (frameKind[i] == FRAME_EXCEPTION) {
                    popTo(i);
                    break;
                }
            }
        } else if (e instanceof Gap g) {
            gaps++;
            if (gapMessages.size() < MAX_MESSAGES) {
                gapMessages.add(String.format("source %s, byte %d: %s", sourceText(g.source()), g.offset(), g.reason()));
            }
            lostTrack();
        } else if (e instanceof TraceOn t) {
            traceOns++;
            if (t.reason() == TraceOn.Reason.OVERFLOW) {
                lostTrack();
            } else if (t.reason() != TraceOn.Reason.PERIODIC) {
                lastSlot = -1; // cycles counted up to here passed while tracing was off: no code's
                resync = depth > 0;
            }
        } else if (e instanceof NoImage) {
            noImage++;
        } else if (e instanceof DecodeError d) {
            errors++;
            if (errorMessages.size() < MAX_MESSAGES) {
                errorMessages.add(String.format("source %s%s%s: %s", sourceText(d.source()),
                        d.offset() >= 0 ? ", byte " + d.offset() : "",
                        d.address() >= 0 ? String.format(", address 0x%08x", d.address()) : "", d.message()));
            }
        } else if (e instanceof Context) {
            contexts++;
        } else if (e instanceof Timestamp) {
            timestamps++;
        } else if (e instanceof Trigger) {
            triggers++;
        }
    }

    private void range(InstructionRange r) {
        long start = r.start();
        int slot = slot(r);
        int sym = rangeSymbol[slot];
        if (pendingCall) {
            pendingCall = false;
            int callee = sym >= 0 ? sym : functions.entry(start);
            call(callee, pendingCallReturn, pendingCallSite);
        } else if (pendingException) {
            pendingException = false;
            int handler = sym >= 0 ? sym : functions.entry(start);
            push(FRAME_EXCEPTION, handler, pendingExceptionReturn, -1);
        } else if (resync) {
            // Tracing was off: returns may have gone by unseen. Continue in the innermost frame of the
            // function the trace picks up in; if none (or no symbols say), start a fresh stack.
            int keep = -1;
            if (sym >= 0) {
                for (int i = depth - 1; i >= 0; i--) {
                    if (frameFunction[i] == sym) {
                        keep = i;
                        break;
                    }
                }
            }
            popTo(keep + 1);
            pendingException = false;
        } else if (start != lastEnd) {
            // a return: the trace jumped to where a frame on the stack returns to (falling through to
            // that address, after a call that failed its condition, is no return)
            int lowest = Math.max(0, depth - RETURN_SEARCH);
            for (int i = depth - 1; i >= lowest; i--) {
                if (frameReturn[i] == start && frameKind[i] != FRAME_ROOT) {
                    popTo(i);
                    break;
                }
            }
        }
        resync = false;
        if (depth == 0) {
            push(FRAME_ROOT, sym >= 0 ? sym : functions.entry(start), -1, -1);
        }
        int top = depth - 1;
        int fn = sym >= 0 ? sym : frameFunction[top];
        if (fn != frameFunction[top] && frameKind[top] == FRAME_ROOT) {
            // the function the trace started in returned to its caller, which the trace never showed:
            // that caller is the new outermost frame
            popTo(0);
            push(FRAME_ROOT, fn, -1, -1);
            top = 0;
        } else if (fn != frameFunction[top]) {
            // a branch into another function without a call: the frame now runs there
            frameFunction[top] = fn;
            int parent = top > 0 ? frameNode[top - 1] : 0;
            frameNode[top] = node(parent, fn);
        }

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
        instructions += count;
        rangeElements++;
        lastNode = frameNode[top];
        nodeInstructions[lastNode] += count;

        int size = CallSites.callSize(r, memory);
        if (size > 0) {
            pendingCall = true;
            pendingCallReturn = r.lastAddress() + size;
            pendingCallSite = r.lastAddress();
        }
    }

    private int lastSource = -1;
    /** End of the previous range: a range starting there continues it; -1 after anything else. */
    private long lastEnd = -1;

    private void exceptionEntry(ExceptionEntry x) {
        String name = x.name() != null ? x.name() : "exception " + x.number();
        exceptionsByName.merge(name, 1L, Long::sum);
        if (pendingCall) {
            // the call was taken, the exception came before its first instruction: the preferred
            // return address is the call's target
            pendingCall = false;
            int callee = x.preferredReturn() >= 0 ? functions.atOrEntry(x.preferredReturn()) : functions.unknown();
            call(callee, pendingCallReturn, pendingCallSite);
        }
        pendingException = true;
        pendingExceptionReturn = x.preferredReturn();
    }

    private void lostTrack() {
        if (pendingCall) {
            pendingCall = false;
            call(functions.unknown(), pendingCallReturn, pendingCallSite);
        }
        pendingException = false;
        popTo(0);
        lastSlot = -1;
    }

    private void call(int callee, long returnAddress, long site) {
        callCount++;
        int caller = depth > 0 ? frameFunction[depth - 1] : functions.unknown();
        long key = (long) caller << 32 | callee;
        int edge = edgeSlots.get(key);
        if (edge < 0) {
            edge = edges++;
            if (edge == edgeCaller.length) {
                int n = edge * 2;
                edgeCaller = Arrays.copyOf(edgeCaller, n);
                edgeCallee = Arrays.copyOf(edgeCallee, n);
                edgeCalls = Arrays.copyOf(edgeCalls, n);
                edgeInclusive = Arrays.copyOf(edgeInclusive, n);
                edgeInclusiveCycles = Arrays.copyOf(edgeInclusiveCycles, n);
                edgeSite = Arrays.copyOf(edgeSite, n);
            }
            edgeCaller[edge] = caller;
            edgeCallee[edge] = callee;
            edgeSlots.put(key, edge);
        }
        edgeCalls[edge]++;
        edgeSite[edge] = site;
        growFunctions(callee);
        fnCalls[callee]++;
        push(FRAME_CALL, callee, returnAddress, edge);
    }

    private void push(byte kind, int fn, long returnAddress, int edge) {
        if (depth == MAX_DEPTH) {
            // too deep (or calls that never return): forget the outermost frame
            retire(0);
            System.arraycopy(frameFunction, 1, frameFunction, 0, depth - 1);
            System.arraycopy(frameEntry, 1, frameEntry, 0, depth - 1);
            System.arraycopy(frameReturn, 1, frameReturn, 0, depth - 1);
            System.arraycopy(frameKind, 1, frameKind, 0, depth - 1);
            System.arraycopy(frameEdge, 1, frameEdge, 0, depth - 1);
            System.arraycopy(frameNode, 1, frameNode, 0, depth - 1);
            System.arraycopy(frameStartInsn, 1, frameStartInsn, 0, depth - 1);
            System.arraycopy(frameStartCycles, 1, frameStartCycles, 0, depth - 1);
            depth--;
            // the call paths of the frames left start one frame later now
            for (int i = 0; i < depth; i++) {
                frameNode[i] = node(i > 0 ? frameNode[i - 1] : 0, frameFunction[i]);
            }
        }
        growFunctions(fn);
        int d = depth++;
        frameFunction[d] = fn;
        frameEntry[d] = fn;
        frameReturn[d] = returnAddress;
        frameKind[d] = kind;
        frameEdge[d] = edge;
        frameNode[d] = node(d > 0 ? frameNode[d - 1] : 0, fn);
        frameStartInsn[d] = instructions;
        frameStartCycles[d] = cycles;
        fnActive[fn]++;
    }

    /** Pops frames {@code level} and above, crediting their inclusive costs. */
    private void popTo(int level) {
        while (depth > level) {
            retire(--depth);
        }
    }

    private void retire(int d) {
        long incl = instructions - frameStartInsn[d];
        long inclCycles = cycles - frameStartCycles[d];
        int edge = frameEdge[d];
        if (edge >= 0) {
            edgeInclusive[edge] += incl;
            edgeInclusiveCycles[edge] += inclCycles;
        }
        int fn = frameEntry[d];
        if (--fnActive[fn] == 0) {
            // only the outermost activation of a recursive function counts
            fnInclusive[fn] += incl;
            fnInclusiveCycles[fn] += inclCycles;
        }
    }

    private void growFunctions(int fn) {
        if (fn >= fnActive.length) {
            int n = Math.max(fn + 1, fnActive.length * 2);
            fnActive = Arrays.copyOf(fnActive, n);
            fnInclusive = Arrays.copyOf(fnInclusive, n);
            fnInclusiveCycles = Arrays.copyOf(fnInclusiveCycles, n);
            fnCalls = Arrays.copyOf(fnCalls, n);
        }
    }

    private int node(int parent, int fn) {
        long key = (long) parent << 32 | fn;
        int n = nodeSlots.get(key);
        if (n < 0) {
            n = nodes++;
            if (n == nodeParent.length) {
                int m = n * 2;
                nodeParent = Arrays.copyOf(nodeParent, m);
                nodeFunction = Arrays.copyOf(nodeFunction, m);
                nodeInstructions = Arrays.copyOf(nodeInstructions, m);
                nodeCycles = Arrays.copyOf(nodeCycles, m);
            }
            nodeParent[n] = parent;
            nodeFunction[n] = fn;
            nodeSlots.put(key, n);
        }
        return n;
    }

    private int slot(InstructionRange r) {
        // start and end are 32-bit addresses; a key shared by another range (another ISA) probes on
        long key = r.start() << 32 ^ r.end();
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
        if (pendingCall) {
            pendingCall = false;
            call(functions.unknown(), pendingCallReturn, pendingCallSite);
        }
        popTo(0);
    }

    private boolean finished;

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
            double cyclesEach = n == 0 ? 0 : (double) rangeCycles[s] / n;
            for (int i = 0; i < n; i++) {
                int size = InstructionWalk.size(memory, a, isa);
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

    public long instructions() {
        return instructions;
    }

    public long cycles() {
        return cycles;
    }

    public long calls() {
        return callCount;
    }

    public long gaps() {
        return gaps;
    }

    public long elements() {
        return elements;
    }

    FunctionMap functions() {
        return functions;
    }

    long inclusive(int fn) {
        return fn < fnInclusive.length ? fnInclusive[fn] : 0;
    }

    long callsInto(int fn) {
        return fn < fnCalls.length ? fnCalls[fn] : 0;
    }

    /** A trace ID as people read it: 0x10, or "none" for a source that has none (-1, e.g. MTB). */
    static String sourceText(int id) {
        return id < 0 ? "none" : String.format("0x%02x", id);
    }
}
