package io.armtrace.view;

import java.util.Arrays;

/**
 * The call stack tracked through the element stream, as {@link TraceAnalysis} feeds it.
 *
 * <p>A range whose last instruction is an executed branch with link ({@link io.armtrace.trace.CallKind#CALL})
 * is a call; the function called is where the next range starts, and the return address is the
 * instruction after the call. A range that starts at the return address of a frame on the stack is a
 * return to that frame (a plain return, or a longjmp past several frames). An exception pushes a frame
 * returning to its preferred return address; an exception return pops to it. A gap or overflow empties
 * the stack, since what happened in between is unknown; when tracing restarts after being off (or
 * instructions ran whose path is not traced), the trace goes on in the innermost frame of the function
 * it picks up in, or with a fresh stack. A branch without link to another function (a tail call)
 * changes the function of the top frame.
 *
 * <p>Frames credit their inclusive costs to {@link CallTables} when they are retired. The stack is
 * bounded by {@link #MAX_DEPTH}; deeper calls drop the outermost frame.
 */
final class CallStack {
    /** Frames kept; deeper calls drop the outermost frame. */
    static final int MAX_DEPTH = 256;
    /** How many frames from the top a return address is searched for. */
    private static final int RETURN_SEARCH = 64;

    /** Frame kinds: the outermost frame the trace started in, a call, an exception. */
    static final byte FRAME_ROOT = 0;
    static final byte FRAME_CALL = 1;
    static final byte FRAME_EXCEPTION = 2;

    private final FunctionMap functions;
    private final CallTables tables;

    private final int[] frameFunction = new int[MAX_DEPTH];
    private final int[] frameEntry = new int[MAX_DEPTH];
    private final long[] frameReturn = new long[MAX_DEPTH];
    private final byte[] frameKind = new byte[MAX_DEPTH];
    private final int[] frameEdge = new int[MAX_DEPTH];
    private final int[] frameNode = new int[MAX_DEPTH];
    private final long[] frameStartInsn = new long[MAX_DEPTH];
    private final long[] frameStartCycles = new long[MAX_DEPTH];
    private int depth;
    /** Activations per function: only the outermost activation of a recursive function counts. */
    private int[] fnActive = new int[64];

    /** The running totals the frames' inclusive costs are measured with. */
    long instructions;
    long cycles;
    /** Calls tracked. */
    long calls;

    private boolean pendingCall;
    /** Tracing restarted: the stack may hold frames that returned while it was off. */
    private boolean resync;
    private long pendingCallReturn;
    private long pendingCallSite;
    private boolean pendingException;
    private long pendingExceptionReturn;

    CallStack(FunctionMap functions, CallTables tables) {
        this.functions = functions;
        this.tables = tables;
    }

    /**
     * Told of every change of the stack as it happens, for views that draw frames over time (the
     * timeline). Levels count from the outermost frame, 0.
     */
    interface Frames {
        /** A frame of {@code kind} ({@link #FRAME_CALL}, {@link #FRAME_EXCEPTION}, {@link #FRAME_ROOT}) was pushed at {@code level}. */
        void opened(int level, int function, byte kind);

        /** The frame at {@code level} returned (or was abandoned). Frames above it were closed first. */
        void closed(int level);

        /** The frame at {@code level} went on in another function without a call (a tail call). */
        void moved(int level, int function);

        /** The stack was full: the outermost frame is forgotten, every other frame is one level lower. */
        void outermostDropped();
    }

    private Frames frames;

    /** Tells {@code f} of every change from now on (null: nobody). */
    void frames(Frames f) {
        this.frames = f;
    }

    /**
     * A range starts at {@code start}, which a symbol covers as function {@code sym} (-1 if none), after
     * the previous range ended at {@code lastEnd} (-1 when other elements came between). Returns the
     * call-path node the range runs in; {@link #function()} is then its function.
     */
    int enter(long start, int sym, long lastEnd) {
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
            if (frames != null) {
                frames.moved(top, fn);
            }
            int parent = top > 0 ? frameNode[top - 1] : 0;
            frameNode[top] = tables.node(parent, fn);
        }
        return frameNode[top];
    }

    /** The function of the top frame. */
    int function() {
        return frameFunction[depth - 1];
    }

    /** The range just entered ended with an executed call at {@code site}, returning to {@code returnAddress}. */
    void calling(long site, long returnAddress) {
        pendingCall = true;
        pendingCallReturn = returnAddress;
        pendingCallSite = site;
    }

    /** The core took an exception that returns to {@code preferredReturn} (-1 when not known). */
    void exception(long preferredReturn) {
        if (pendingCall) {
            // the call was taken, the exception came before its first instruction: the preferred
            // return address is the call's target
            pendingCall = false;
            int callee = preferredReturn != -1 ? functions.atOrEntry(preferredReturn) : functions.unknown();
            call(callee, pendingCallReturn, pendingCallSite);
        }
        pendingException = true;
        pendingExceptionReturn = preferredReturn;
    }

    /** An exception return: back to the frame the innermost exception interrupted. */
    void exceptionReturn() {
        pendingException = false;
        for (int i = depth - 1; i >= 0; i--) {
            if (frameKind[i] == FRAME_EXCEPTION) {
                popTo(i);
                break;
            }
        }
    }

    /** Tracing restarted after being off: frames may have returned unseen (see {@link #enter}). */
    void restarted() {
        resync = depth > 0;
    }

    /** What happened is unknown (a gap, an overflow): a pending call goes to an unknown function, the stack empties. */
    void lostTrack() {
        if (pendingCall) {
            pendingCall = false;
            call(functions.unknown(), pendingCallReturn, pendingCallSite);
        }
        pendingException = false;
        popTo(0);
    }

    /** The stream ended: calls still open are closed at the last instruction. */
    void end() {
        if (pendingCall) {
            pendingCall = false;
            call(functions.unknown(), pendingCallReturn, pendingCallSite);
        }
        popTo(0);
    }

    private void call(int callee, long returnAddress, long site) {
        calls++;
        int caller = depth > 0 ? frameFunction[depth - 1] : functions.unknown();
        int edge = tables.edge(caller, callee);
        tables.edgeCalls[edge]++;
        tables.edgeSite[edge] = site;
        tables.growFunctions(callee);
        tables.fnCalls[callee]++;
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
            if (frames != null) {
                frames.outermostDropped();
            }
            // the call paths of the frames left start one frame later now
            for (int i = 0; i < depth; i++) {
                frameNode[i] = tables.node(i > 0 ? frameNode[i - 1] : 0, frameFunction[i]);
            }
        }
        growFunctions(fn);
        int d = depth++;
        frameFunction[d] = fn;
        frameEntry[d] = fn;
        frameReturn[d] = returnAddress;
        frameKind[d] = kind;
        frameEdge[d] = edge;
        frameNode[d] = tables.node(d > 0 ? frameNode[d - 1] : 0, fn);
        frameStartInsn[d] = instructions;
        frameStartCycles[d] = cycles;
        fnActive[fn]++;
        if (frames != null) {
            frames.opened(d, fn, kind);
        }
    }

    /** Pops frames {@code level} and above, crediting their inclusive costs. */
    private void popTo(int level) {
        while (depth > level) {
            retire(--depth);
            if (frames != null) {
                frames.closed(depth);
            }
        }
    }

    private void retire(int d) {
        long incl = instructions - frameStartInsn[d];
        long inclCycles = cycles - frameStartCycles[d];
        int edge = frameEdge[d];
        if (edge >= 0) {
            tables.edgeInclusive[edge] += incl;
            tables.edgeInclusiveCycles[edge] += inclCycles;
        }
        int fn = frameEntry[d];
        if (--fnActive[fn] == 0) {
            // only the outermost activation of a recursive function counts
            tables.fnInclusive[fn] += incl;
            tables.fnInclusiveCycles[fn] += inclCycles;
        }
    }

    private void growFunctions(int fn) {
        if (fn >= fnActive.length) {
            fnActive = Arrays.copyOf(fnActive, Math.max(fn + 1, fnActive.length * 2));
        }
        tables.growFunctions(fn);
    }
}
