package io.armtrace.trace;

/**
 * Trace (re)starts here after a synchronization point. Instructions before it and after the previous
 * element are not known to be contiguous with what follows.
 */
public record TraceOn(int source, Reason reason, long offset) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }

    public enum Reason {
        /** First synchronization in the stream, or a periodic one after a loss of sync. */
        SYNC,
        /** Periodic synchronization while tracing continued: informational. */
        PERIODIC,
        /** Tracing was enabled (filtering, trace start/stop, or start of capture). */
        TRACE_ENABLED,
        /** The trace unit overflowed and dropped trace before this point. */
        OVERFLOW,
        /** The core left debug state. */
        DEBUG_EXIT
    }
}
