package io.armtrace.trace;

/**
 * An ITM local timestamp: {@code ticks} cycles of the timestamp clock (the prescaled count times the
 * prescaler) passed since the previous local timestamp. {@code relation} says how its time relates to the
 * packet it stamps (ARMv7-M ARM D4.2.4, the TC field).
 */
public record LocalTimestamp(int source, long ticks, Relation relation) implements SoftwareTrace {

    /** TC[1:0] of a local timestamp packet. */
    public enum Relation {
        /** 0b00: emitted synchronously with the packet it stamps. */
        SYNCHRONOUS,
        /** 0b01: the timestamp is delayed relative to its packet. */
        TIMESTAMP_DELAYED,
        /** 0b10: the packet is delayed relative to its event. */
        PACKET_DELAYED,
        /** 0b11: both are delayed. */
        BOTH_DELAYED
    }
}
