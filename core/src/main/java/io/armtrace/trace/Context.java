package io.armtrace.trace;

/**
 * Execution context from now on. Fields the trace did not give are -1 ({@code contextId}, {@code vmid}).
 */
public record Context(int source, long contextId, int vmid, boolean nonSecure, boolean hyp)
        implements TraceElement {
}
