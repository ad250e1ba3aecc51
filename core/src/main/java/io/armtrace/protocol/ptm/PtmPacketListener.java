package io.armtrace.protocol.ptm;

/** Receives the packets of a PFT stream in order. The packet object is reused after the call returns. */
@FunctionalInterface
public interface PtmPacketListener {
    void packet(PtmPacket packet);
}
