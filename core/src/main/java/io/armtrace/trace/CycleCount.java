package io.armtrace.trace;

/** Processor cycles counted since the previous cycle count, ending with the preceding element. */
public record CycleCount(int source, long cycles) implements TraceElement {
}
