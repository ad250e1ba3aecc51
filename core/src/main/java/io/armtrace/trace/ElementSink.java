package io.armtrace.trace;

/** Receives the element stream. Decoders push; views consume. */
@FunctionalInterface
public interface ElementSink {
    void accept(TraceElement element);

    /** The stream is complete: flush. */
    default void end() {
    }
}
