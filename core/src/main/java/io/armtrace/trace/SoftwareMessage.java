package io.armtrace.trace;

/**
 * A message of software trace: a write to an ITM stimulus port ({@code master} is {@link #NO_MASTER} and
 * {@code channel} the port, 0-255 with its page), or an STM packet of a master and channel. {@code bits} is
 * the payload size (4 to 64; 0 when the packet has none) and {@code value} the payload. {@code marker}: the
 * STM data packet carried a marker (a message boundary). {@code timestamped}: the packet carried a
 * timestamp, given by the {@link Timestamp} element just before this one.
 */
public record SoftwareMessage(int source, Kind kind, int master, int channel, int bits, long value,
                              boolean marker, boolean timestamped) implements SoftwareTrace {

    /** {@code master} of a message that has none: ITM stimulus ports have no masters. */
    public static final int NO_MASTER = -1;

    /** What the packet said; the STM names are STPv2's. */
    public enum Kind {
        /** Payload data: ITM instrumentation packet, STM D4/D8/D16/D32/D64. */
        DATA,
        /** STM FLAG: a marker without data. */
        FLAG,
        /** STM TRIG: a trigger event; the value is its 8-bit payload. */
        TRIGGER,
        /** STM FREQ: the timestamp clock runs at {@code value} Hz. */
        FREQUENCY,
        /** STM MERR: stimulus of the current master was lost; the value is the error code. */
        MASTER_ERROR,
        /** STM GERR: stimulus of several masters was lost; master and channel are reset to 0. */
        GLOBAL_ERROR,
        /** STM USER: implementation-defined data. */
        USER,
        /** STM TIME: the value of a time counter. */
        TIME,
        /** STM XSYNC: cross-synchronization with another trace source. */
        XSYNC
    }
}
