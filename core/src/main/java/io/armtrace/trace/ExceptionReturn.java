package io.armtrace.trace;

/** The core returned from an exception; {@code target} is where execution resumed, -1 if unknown. */
public record ExceptionReturn(int source, long target) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
