package io.armtrace.trace;

/**
 * Execution reached code that is not in the program image; the decoder cannot walk it and waits for
 * the next address it can trust.
 */
public record NoImage(int source, long address, Isa isa) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
