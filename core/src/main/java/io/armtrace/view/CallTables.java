package io.armtrace.view;

import java.util.Arrays;

/**
 * What the tracked calls add up to: call edges (caller to callee: calls, inclusive instructions and
 * cycles, a call site), the tree of call paths (for folded stacks: instructions and cycles per path) and
 * per function the calls into it and its inclusive costs. {@link CallStack} fills them in as frames are
 * pushed and retired; the views read them. Memory grows with the program's functions, edges and paths,
 * not with the trace.
 */
final class CallTables {
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

    // ---- per function (indexed by FunctionMap number)
    long[] fnInclusive = new long[64];
    long[] fnInclusiveCycles = new long[64];
    long[] fnCalls = new long[64];

    CallTables() {
        nodeParent[0] = -1;
        nodeFunction[0] = -1;
    }

    /** The edge from {@code caller} to {@code callee}, made on first use. */
    int edge(int caller, int callee) {
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
        return edge;
    }

    /** The call path that is {@code parent}'s with {@code fn} called from it, made on first use. */
    int node(int parent, int fn) {
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

    /** Makes room for function number {@code fn}. */
    void growFunctions(int fn) {
        if (fn >= fnInclusive.length) {
            int n = Math.max(fn + 1, fnInclusive.length * 2);
            fnInclusive = Arrays.copyOf(fnInclusive, n);
            fnInclusiveCycles = Arrays.copyOf(fnInclusiveCycles, n);
            fnCalls = Arrays.copyOf(fnCalls, n);
        }
    }

    long inclusive(int fn) {
        return fn < fnInclusive.length ? fnInclusive[fn] : 0;
    }

    long callsInto(int fn) {
        return fn < fnCalls.length ? fnCalls[fn] : 0;
    }
}
