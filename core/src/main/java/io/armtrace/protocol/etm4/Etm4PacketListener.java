package io.armtrace.protocol.etm4;

import io.armtrace.protocol.PacketListener;

/**
 * Receives the packets of an ETMv4/ETE stream in order. The packet object is reused after the call returns.
 * The ETMv4 name for the protocol-generic {@link PacketListener}.
 *
 * <p>Atom packets and address packets without a context (exact match, short, 32-bit long), nearly all of a
 * trace's packets, may come as {@link #atom} and {@link #address} instead: the packet's fields as arguments, so
 * that a listener that reads them there (the speculation layer) costs the reader no stores to the packet object.
 * The defaults fill the packet and call {@link #packet}, so a listener that only implements {@code packet} sees
 * every packet alike.
 */
@FunctionalInterface
public interface Etm4PacketListener extends PacketListener<Etm4Packet> {

    /**
     * An atom packet (IHI 0064, Atom packets; headers 0xC0-0xFF): its byte offset, its one byte, the number of
     * atoms and their values (bit i, i = 0 oldest: 1 = E, 0 = N). {@code scratch} is the reader's packet object,
     * for the default to fill.
     */
    default void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
        scratch.setAtom(offset, header, count, bits);
        packet(scratch);
    }

    /**
     * An address packet without a context: exact match (0x90-0x92), short (0x95, 0x96) or 32-bit long (0x9A, 0x9B),
     * its bytes b[pos..pos+length), its byte offset, and the full address it gives (IHI 0064, address packets and
     * the address history) with its instruction set (0 = IS0, 1 = IS1).
     */
    default void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address, int is) {
        scratch.setAddress(b, pos, length, offset, address, is);
        packet(scratch);
    }
}
