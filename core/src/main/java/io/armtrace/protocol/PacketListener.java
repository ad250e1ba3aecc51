package io.armtrace.protocol;

/** Receives the packet listing: one call per packet with its byte offset in the source's stream. */
@FunctionalInterface
public interface PacketListener {
    void packet(long offset, String text);
}
