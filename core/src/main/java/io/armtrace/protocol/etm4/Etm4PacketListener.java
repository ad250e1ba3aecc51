package io.armtrace.protocol.etm4;

import io.armtrace.protocol.PacketListener;

/**
 * Receives the packets of an ETMv4/ETE stream in order. The packet object is reused after the call returns.
 * The ETMv4 name for the protocol-generic {@link PacketListener}.
 */
@FunctionalInterface
public interface Etm4PacketListener extends PacketListener<Etm4Packet> {
}
