package io.armtrace.trace;

/**
 * A global timestamp value, applying to the elements that follow it. {@code cycles} is the cycle count
 * that an ETMv4 timestamp packet may carry (IHI 0064, Timestamp packet: the cycles from the last
 * cycle count to the timestamp), -1 when it has none (every other protocol).
 */
public record Timestamp(int source, long value, long cycles) implements TraceElement {

    /** A timestamp without a cycle count. */
    public Timestamp(int source, long value) {
        this(source, value, -1);
    }

    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
