package io.armtrace.trace;

/**
 * Processor cycles counted since the previous cycle count, ending with the preceding element: a decoder
 * puts it right after the range (ETMv3, PFT) or the elements of the commit (ETMv4, whose cycle counts
 * time the commit of the elements before them) that the cycles were spent on.
 */
public record CycleCount(int source, long cycles) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
