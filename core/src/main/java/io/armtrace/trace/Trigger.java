package io.armtrace.trace;

/** The trace unit's trigger event fired. */
public record Trigger(int source, long offset) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
