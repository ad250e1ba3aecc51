package io.armtrace.protocol;

/**
 * Receives packets in stream order, one call each. {@code P} is a protocol's typed packet (the readers
 * reuse one mutable instance on the decode path, so a listener copies out what it keeps) or the
 * protocol-independent {@link Packet} record of listings and statistics.
 */
@FunctionalInterface
public interface PacketListener<P> {
    void packet(P packet);
}
