package io.armtrace.trace;

/**
 * Receives the element stream. Decoders push; views consume.
 *
 * <p>The elements decoders make most of, instruction ranges and cycle counts, and the trace-on of a PTM or ETMv3
 * trace's every I-sync after a gap in tracing (and of ETMv4's trace-on packets), may also be handed over as their
 * fields: {@link #range}, {@link #cycles} and {@link #traceOn}. By default each makes the element and passes it to
 * {@link #accept}, so a sink that overrides none of them sees every element there; a sink that overrides them (a
 * listing writer, which formats the fields and has no use for the object) must treat the call exactly as the
 * element, in its place in the stream. A stage between a decoder and another sink that overrides them only to
 * pass them on unchanged (and sees the element nowhere else) may do so.
 */
@FunctionalInterface
public interface ElementSink {
    void accept(TraceElement element);

    /** The stream is complete: flush. */
    default void end() {
    }

    /**
     * The same as {@code accept(new InstructionRange(source, start, end, count, isa, lastKind, lastCall,
     * lastExecuted, sizes, (short) sizesIndex))}, without the element where the sink has no use for it;
     * {@code sizesIndex} is at most {@link Short#MAX_VALUE}, as the element's.
     */
    default void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                       boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        accept(new InstructionRange(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes,
                (short) sizesIndex));
    }

    /** The same as {@code accept(new CycleCount(source, cycles))}. */
    default void cycles(int source, long cycles) {
        accept(new CycleCount(source, cycles));
    }

    /** The same as {@code accept(new TraceOn(source, reason, offset))}. */
    default void traceOn(int source, TraceOn.Reason reason, long offset) {
        accept(new TraceOn(source, reason, offset));
    }
}
