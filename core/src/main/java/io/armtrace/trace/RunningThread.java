package io.armtrace.trace;


/**
 * Which process and thread ran the elements of a recording's CPU, and when: the stage that knows it sees
 * every element before the writer (as the views' timeline does) and the writer reads it for its pid, tid, cpu
 * and time columns. Unknown values are negative.
 */
public interface RunningThread {
    /** The process ID, or -1. */
    long pid();

    /** The thread ID, or -1. */
    long tid();

    /** The CPU. */
    int cpu();

    /** The time in nanoseconds of the recording's clock (perf's sample time), or -1. */
    long time();

    /** Passes every element to {@code next}, following the running thread on the way. */
    ElementSink feed(ElementSink next);
}
