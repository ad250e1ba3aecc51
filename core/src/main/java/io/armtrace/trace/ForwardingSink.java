package io.armtrace.trace;

/**
 * A stage that hands ranges and cycle counts on to the sink after it unchanged, as their fields: it has no use for
 * them and sees them nowhere else (the rule of {@link ElementSink} for such a stage), so they cost it one call and no
 * element. Its own work is in {@link #accept} (and {@link #end}), where it also sees trace-ons: a
 * {@link ElementSink#traceOn} call reaches it through the default, as the element (a stage that moves offsets, as a
 * segmented decode's, must see them).
 */
public interface ForwardingSink extends ElementSink {
    /** The sink that ranges and cycle counts go on to. */
    ElementSink next();

    @Override
    default void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                       boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        next().range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
    }

    @Override
    default void cycles(int source, long cycles) {
        next().cycles(source, cycles);
    }
}
