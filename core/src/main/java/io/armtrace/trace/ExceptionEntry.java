package io.armtrace.trace;

/**
 * The core took an exception. {@code preferredReturn} is the address the exception returns to
 * (-1 when the trace does not say). {@code cancelled} is true when the last traced instruction did
 * not complete because of this exception (and was withdrawn from the stream).
 */
public record ExceptionEntry(int source, int number, String name, long preferredReturn, boolean cancelled)
        implements TraceElement {
}
