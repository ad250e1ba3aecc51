package io.armtrace.trace;

/**
 * The core took an exception. {@code number} is the protocol's exception number (-1 when unknown) and
 * {@code name} its name; {@code preferredReturn} is the address the exception returns to (-1 when the
 * trace does not say): the exception's address in the trace. {@code cancelled} is true when the last
 * traced instruction did not complete because of this exception (and was withdrawn from the stream).
 * {@code exceptionLevel} is the level the exception was taken to, -1 when the protocol does not trace
 * it (all but ETMv4 and ETE).
 */
public record ExceptionEntry(int source, int number, String name, long preferredReturn, boolean cancelled,
                             int exceptionLevel) implements TraceElement {

    /** An exception whose target exception level is not traced. */
    public ExceptionEntry(int source, int number, String name, long preferredReturn, boolean cancelled) {
        this(source, number, name, preferredReturn, cancelled, -1);
    }

    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
