package io.armtrace.protocol.etm4;

/** Receives the packets of an ETMv4/ETE stream in order. The packet object is reused after the call returns. */
@FunctionalInterface
public interface Etm4PacketListener {
    void packet(Etm4Packet packet);
}
