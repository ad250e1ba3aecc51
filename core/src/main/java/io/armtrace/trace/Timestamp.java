package io.armtrace.trace;

/** A global timestamp value, applying to the elements that follow it. */
public record Timestamp(int source, long value) implements TraceElement {
}
