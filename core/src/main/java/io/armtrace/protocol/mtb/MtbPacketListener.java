package io.armtrace.protocol.mtb;

/**
 * Receives MTB packets in the order they were written (oldest first), as primitives: no object per
 * packet. {@code source} is the first (even) word: bits 31:1 of the branch source, bit 0 the A bit;
 * {@code destination} the second (odd) word: bits 31:1 of the destination, bit 0 the S bit.
 * {@code offset} is the byte offset of the packet in the dump.
 */
@FunctionalInterface
public interface MtbPacketListener {
    void packet(long offset, int source, int destination);
}
