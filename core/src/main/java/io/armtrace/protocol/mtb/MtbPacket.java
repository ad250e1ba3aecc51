package io.armtrace.protocol.mtb;

/**
 * One MTB packet, for listings and tests (the decoder itself works on primitives, see
 * {@link MtbPacketListener}). Layout, from the MTB execution trace storage format: the even word holds
 * the source address bits 31:1 and the A bit (1: the branch was an exception entry or a PC write in
 * debug state, and the source is the preferred return address); the odd word holds the destination
 * bits 31:1 and the S bit (1: first packet after trace started).
 */
public record MtbPacket(long offset, long source, boolean atom, long destination, boolean start) {

    /** Addresses at and above this are EXC_RETURN (and FNC_RETURN) values, never code. */
    public static final long MAGIC_BASE = 0xF0000000L;

    /** Bytes of one packet: a source word and a destination word. */
    public static final int SIZE = 8;

    public static MtbPacket of(long offset, int sourceWord, int destinationWord) {
        return new MtbPacket(offset, sourceWord & 0xFFFFFFFEL, (sourceWord & 1) != 0,
                destinationWord & 0xFFFFFFFEL, (destinationWord & 1) != 0);
    }

    /** The two words as the MTB writes them. */
    public int sourceWord() {
        return (int) (source | (atom ? 1 : 0));
    }

    public int destinationWord() {
        return (int) (destination | (start ? 1 : 0));
    }

    public static boolean isMagic(long address) {
        return address >= MAGIC_BASE;
    }

    /** What the packet records, in words. */
    public String meaning() {
        if (atom && isMagic(source)) {
            return "exception return (2 of 2): resumes at 0x" + Long.toHexString(destination);
        }
        if (atom) {
            return "exception entry: preferred return 0x" + Long.toHexString(source) + ", handler 0x"
                    + Long.toHexString(destination);
        }
        if (isMagic(destination)) {
            return "exception return (1 of 2): instruction at 0x" + Long.toHexString(source) + " loads EXC_RETURN 0x"
                    + Long.toHexString(destination) + " (bits 31:1)";
        }
        return "branch from 0x" + Long.toHexString(source) + " to 0x" + Long.toHexString(destination);
    }

    /** This packet as a protocol-independent record, of kind {@code MTB}, spanning its {@link #SIZE} bytes. */
    public io.armtrace.protocol.Packet toPacket() {
        return io.armtrace.protocol.Packet.ofText("MTB", offset, SIZE, toString());
    }

    @Override
    public String toString() {
        return String.format("MTB src=0x%08x A=%d dst=0x%08x S=%d  %s%s", source, atom ? 1 : 0, destination,
                start ? 1 : 0, start ? "trace start; " : "", meaning());
    }
}
