package io.armtrace.trace;

/**
 * A DWT data trace packet of comparator {@code comparator}: the PC of the instruction that matched
 * ({@link Kind#PC_VALUE}), the low 16 bits of the data address that matched ({@link Kind#ADDRESS}) or the data
 * value read or written ({@link Kind#DATA_VALUE}, {@code write} tells which). {@code bytes} is the payload size.
 */
public record DataTrace(int source, int comparator, Kind kind, long value, int bytes, boolean write)
        implements SoftwareTrace {

    public enum Kind { PC_VALUE, ADDRESS, DATA_VALUE }
}
