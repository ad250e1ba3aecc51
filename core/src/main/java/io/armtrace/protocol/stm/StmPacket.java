package io.armtrace.protocol.stm;

/**
 * One STPv2 packet (MIPI System Trace Protocol version 2, as the CoreSight STM emits it: Arm DDI 0444), as
 * {@link StmPacketReader} decoded it. Mutable and reused for every packet. Besides the packet's own fields it
 * carries the reader's state after the packet: the current master and channel and the timestamp, so that a
 * listener always sees whole values. {@link #toString} is the packet's listing text, made here only.
 */
public final class StmPacket {

    /**
     * Packet kinds, named as STPv2 names them, with their opcode (one, two or three nibbles, first nibble
     * leftmost), payload nibbles, and whether a timestamp follows; plus the reader's own kinds.
     */
    public enum Kind {
        NULL(0x0, 0, false), M8(0x1, 2, false), MERR(0x2, 2, false), C8(0x3, 2, false),
        D8(0x4, 2, false), D16(0x5, 4, false), D32(0x6, 8, false), D64(0x7, 16, false),
        D8MTS(0x8, 2, true), D16MTS(0x9, 4, true), D32MTS(0xA, 8, true), D64MTS(0xB, 16, true),
        D4(0xC, 1, false), D4MTS(0xD, 1, true), FLAG_TS(0xE, 0, true),
        M16(0xF1, 4, false), GERR(0xF2, 2, false), C16(0xF3, 4, false),
        D8TS(0xF4, 2, true), D16TS(0xF5, 4, true), D32TS(0xF6, 8, true), D64TS(0xF7, 16, true),
        D8M(0xF8, 2, false), D16M(0xF9, 4, false), D32M(0xFA, 8, false), D64M(0xFB, 16, false),
        D4TS(0xFC, 1, true), D4M(0xFD, 1, false), FLAG(0xFE, 0, false), ASYNC(0xFF, 0, false),
        VERSION(0xF00, 1, false), NULL_TS(0xF01, 0, true), USER(0xF02, -1, false), USER_TS(0xF03, -1, true),
        TIME(0xF04, -1, false), TIME_TS(0xF05, -1, true), TRIG(0xF06, 2, false), TRIG_TS(0xF07, 2, true),
        FREQ(0xF08, 8, false), FREQ_TS(0xF09, 8, true), XSYNC(0xF0A, 2, false), XSYNC_TS(0xF0B, 2, true),
        /** Nibbles before the first ASYNC (or the next, after an error): not decodable. */
        NOT_SYNC(-1, 0, false),
        /** A reserved opcode: sync is lost until the next ASYNC. */
        RESERVED(-1, 0, false),
        /** A packet that breaks the protocol (a broken ASYNC, an unknown version, timestamp size 0xF). */
        BAD(-1, 0, false),
        /** The trace ended inside a packet. */
        INCOMPLETE(-1, 0, false);

        /** The opcode nibbles as a number, first nibble most significant; -1 for the reader's kinds. */
        public final int opcode;
        /** Payload nibbles; -1 where the packet says its own length (USER, TIME). */
        public final int payloadNibbles;
        public final boolean timestamped;

        Kind(int opcode, int payloadNibbles, boolean timestamped) {
            this.opcode = opcode;
            this.payloadNibbles = payloadNibbles;
            this.timestamped = timestamped;
        }

        /** D4 to D64 with and without M and TS. */
        public boolean data() {
            return opcode >= 0 && (opcode >= 0x4 && opcode <= 0xD || opcode >= 0xF4 && opcode <= 0xFD);
        }

        /** The data packets with a marker: D*M and D*MTS. */
        public boolean marker() {
            return switch (this) {
                case D8MTS, D16MTS, D32MTS, D64MTS, D4MTS, D8M, D16M, D32M, D64M, D4M -> true;
                default -> false;
            };
        }
    }

    public Kind kind = Kind.NOT_SYNC;
    /** Byte offset of the byte holding the packet's first nibble, and the bytes the packet touches. */
    public long offset;
    public int length;
    /** True when the packet's first nibble is the high nibble of its first byte. */
    public boolean highNibble;
    /** Payload and its size in bits (0 when the packet has none); NOT_SYNC: the nibbles skipped. */
    public long value;
    public int bits;
    /** Master and channel after this packet. */
    public int master;
    public int channel;
    /** The timestamp after this packet, and how many of its low bits the packet gave (-1: none). */
    public long timestamp;
    public int timestampBits = -1;
    /** TIME packets: the clock index. */
    public int clock;
    /** Why a packet is BAD or RESERVED. */
    public String error;

    void set(Kind k, long off, int len, boolean high) {
        kind = k;
        offset = off;
        length = len;
        highNibble = high;
        value = 0;
        bits = 0;
        timestampBits = -1;
        clock = 0;
        error = null;
    }

    /** The listing text: the STPv2 packet name, then its fields. */
    @Override
    public String toString() {
        return kind.name() + fields();
    }

    /** This packet as a protocol-independent record (for listings, not for the decode path). */
    public io.armtrace.protocol.Packet toPacket() {
        return new io.armtrace.protocol.Packet(kind.name(), offset, length, fields());
    }

    /** The packet's fields in words, after its kind. */
    private String fields() {
        StringBuilder sb = new StringBuilder(64);
        switch (kind) {
            case NOT_SYNC -> sb.append(' ').append(value).append(" nibbles before an ASYNC");
            case M8, M16 -> sb.append(" master ").append(hex(master, 2));
            case C8, C16 -> sb.append(" channel ").append(hex(channel, 4));
            case MERR, GERR -> sb.append(" error ").append(hex(value, 2));
            case VERSION -> sb.append(' ').append(value).append(value == 4 ? " (Gray-coded timestamps)" : " (binary timestamps)");
            case FREQ, FREQ_TS -> sb.append(' ').append(value).append(" Hz");
            case TRIG, TRIG_TS, XSYNC, XSYNC_TS -> sb.append(' ').append(hex(value, 2));
            case USER, USER_TS -> sb.append(' ').append(hex(value, Math.max(1, bits / 4)));
            case TIME, TIME_TS -> sb.append(" clock ").append(clock).append(' ').append(hex(value, Math.max(1, bits / 4)));
            case RESERVED, BAD -> sb.append(' ').append(error);
            case INCOMPLETE -> sb.append(" packet at the end of the trace");
            default -> {
                if (kind.data()) {
                    sb.append(' ').append(hex(value, bits / 4));
                }
            }
        }
        if (kind.data() || kind == Kind.FLAG || kind == Kind.FLAG_TS || kind == Kind.MERR || kind == Kind.TRIG
                || kind == Kind.TRIG_TS || kind == Kind.USER || kind == Kind.USER_TS) {
            sb.append(" (master ").append(hex(master, 2)).append(" channel ").append(hex(channel, 4)).append(')');
        }
        if (timestampBits >= 0) {
            sb.append(" ts=").append(timestamp).append(" (").append(timestampBits).append(" bits)");
        }
        return sb.toString();
    }

    private static String hex(long v, int digits) {
        String h = Long.toHexString(v);
        StringBuilder sb = new StringBuilder(2 + digits).append("0x");
        for (int i = h.length(); i < digits; i++) {
            sb.append('0');
        }
        return sb.append(h).toString();
    }
}
