package io.armtrace.protocol;

/**
 * Receives the packet listing: one call per packet with its byte offset in the source's stream and, for
 * byte-stream protocols, its length in bytes (the span a listing shows as raw bytes).
 */
@FunctionalInterface
public interface PacketListener {
    void packet(long offset, String text);

    /** A packet that occupies {@code length} bytes from {@code offset}; 0 when it has no byte span of its own. */
    default void packet(long offset, int length, String text) {
        packet(offset, text);
    }
}
