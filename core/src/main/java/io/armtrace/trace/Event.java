package io.armtrace.trace;

/**
 * A numbered event of the trace unit's event tracing fired (an ETMv4 Event element, IHI 0064: one of
 * the events that TRCEVENTCTL selects, number 0 to 3). The trigger is an element of its own,
 * {@link Trigger}.
 */
public record Event(int source, int number) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
