package io.armtrace.protocol.itm;

import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;

/**
 * One ITM/DWT packet (ARMv7-M ARM Appendix D4, ARMv8-M ARM "ITM and DWT packet protocol"), as
 * {@link ItmPacketReader} decoded it. Mutable and reused for every packet: a listener copies out what it
 * keeps. {@link #toString} is the packet's listing text, made here and nowhere else.
 */
public final class ItmPacket {

    /** Packet kinds, named as the specification names them, plus the reader's NOT_SYNC, BAD and INCOMPLETE. */
    public enum Kind {
        /** Bytes before the first synchronization packet (or the next, after an error): not decodable. */
        NOT_SYNC,
        /** At least 47 zero bits, then a one (D4.2.1). */
        SYNCHRONIZATION,
        /** 0x70: packets were lost, a FIFO was full or the local timestamp counter overflowed (D4.2.3). */
        OVERFLOW,
        /** 0b11TC0000 and 1 to 4 payload bytes: a local timestamp with its TC relation (D4.2.4). */
        LOCAL_TIMESTAMP_1,
        /** 0b0TTT0000, TTT 1 to 6: a small local timestamp, synchronous with its packet. */
        LOCAL_TIMESTAMP_2,
        /** 0x94: global timestamp bits [25:0], with the ClkCh and Wrap bits (D4.2.5). */
        GLOBAL_TIMESTAMP_1,
        /** 0xB4: global timestamp bits [47:26] or [63:26]. */
        GLOBAL_TIMESTAMP_2,
        /** 0bCEEE1S00: extension; with SH 0 and no payload, the stimulus port page (D4.2.6). */
        EXTENSION,
        /** 0bAAAAA0SS: a write of 1, 2 or 4 bytes to stimulus port A (D4.2.8). */
        INSTRUMENTATION,
        /** Discriminator 0: DWT event counters wrapped (D4.3.1). */
        EVENT_COUNTER,
        /** Discriminator 1: exception entered, exited or returned to (D4.3.2). */
        EXCEPTION_TRACE,
        /** Discriminator 2, 4-byte payload: a periodic PC sample (D4.3.3). */
        PERIODIC_PC_SAMPLE,
        /** Discriminator 2, 1-byte payload 0: the core was sleeping when the PC was sampled. */
        PERIODIC_PC_SLEEP,
        /** Discriminators 8, 10, 12, 14, 4-byte payload: the PC of a data trace match (D4.3.4). */
        DATA_TRACE_PC_VALUE,
        /** Discriminators 9, 11, 13, 15, 2-byte payload: the low half of the matching data address. */
        DATA_TRACE_ADDRESS,
        /** Discriminators 16 to 23: the data value read (even) or written (odd). */
        DATA_TRACE_DATA_VALUE,
        /** A hardware source packet with a reserved discriminator, or a payload size its discriminator does not have. */
        RESERVED_HARDWARE_SOURCE,
        /** A reserved header (0bxxxx0100 other than the global timestamps, 0b10xx0000): sync is lost. */
        RESERVED,
        /** A packet that breaks the protocol (a payload too long, a broken synchronization packet): sync is lost. */
        BAD,
        /** The trace ended inside a packet. */
        INCOMPLETE
    }

    /** Local timestamp relations in TC order (D4.2.4). */
    static final String[] RELATIONS = {"synchronous", "timestamp delayed", "packet delayed", "timestamp and packet delayed"};
    /** Exception trace functions in FN order (D4.3.2); 0 is reserved. */
    static final String[] FUNCTIONS = {"reserved function 0", "entered", "exited", "returned to"};

    public Kind kind = Kind.NOT_SYNC;
    /** Byte offset of the packet's first byte in the source's stream, and its length in bytes. */
    public long offset;
    public int length;
    /** Payload value (little-endian payload bytes, or a continuation value without its C bits). */
    public long value;
    /** Payload bytes (the SS field of a source packet; the continuation bytes of the others). */
    public int size;
    /**
     * Instrumentation: the stimulus port, page included (page * 32 + A). Hardware source: the discriminator.
     * Data trace: the comparator. Exception trace: the exception number. Local timestamp: TC. Extension: SH.
     */
    public int id;
    /** Exception trace FN; global timestamp 1: bit 0 ClkCh, bit 1 Wrap; data value: 1 for a write. */
    public int flags;
    /** Why a packet is BAD or RESERVED. */
    public String error;

    void set(Kind k, long off, int len) {
        kind = k;
        offset = off;
        length = len;
        value = 0;
        size = 0;
        id = 0;
        flags = 0;
        error = null;
    }

    /** The global timestamp 1 packet's ClkCh bit: the timestamp clock frequency changed. */
    public boolean clockChange() {
        return (flags & 1) != 0;
    }

    /** The global timestamp 1 packet's Wrap bit: the high-order bits changed since the last GTS2. */
    public boolean wrap() {
        return (flags & 2) != 0;
    }

    /** The name of this packet's kind in listings and statistics. */
    public String kindName() {
        return switch (kind) {
            case SYNCHRONIZATION -> "SYNC";
            case LOCAL_TIMESTAMP_1 -> "LTS1";
            case LOCAL_TIMESTAMP_2 -> "LTS2";
            case GLOBAL_TIMESTAMP_1 -> "GTS1";
            case GLOBAL_TIMESTAMP_2 -> "GTS2";
            case INSTRUMENTATION -> "SWIT";
            case EXCEPTION_TRACE -> "EXCEPTION";
            case PERIODIC_PC_SAMPLE, PERIODIC_PC_SLEEP -> "PC_SAMPLE";
            case DATA_TRACE_PC_VALUE -> "DATA_PC";
            case DATA_TRACE_ADDRESS -> "DATA_ADDRESS";
            case DATA_TRACE_DATA_VALUE -> "DATA_VALUE";
            case RESERVED_HARDWARE_SOURCE -> "HW_RESERVED";
            default -> kind.name();
        };
    }

    /** This packet as a protocol-independent record (for listings, not for the decode path). */
    public io.armtrace.protocol.Packet toPacket() {
        return io.armtrace.protocol.Packet.ofText(kindName(), offset, length, toString());
    }

    /** The listing text of this packet: kind first, then its fields in words. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(64);
        switch (kind) {
            case NOT_SYNC -> sb.append("NOT_SYNC ").append(length).append(" bytes before a synchronization packet");
            case SYNCHRONIZATION -> sb.append("SYNC");
            case OVERFLOW -> sb.append("OVERFLOW");
            case LOCAL_TIMESTAMP_1 -> sb.append("LTS1 ").append(value).append(" (").append(RELATIONS[id & 3]).append(')');
            case LOCAL_TIMESTAMP_2 -> sb.append("LTS2 ").append(value).append(" (synchronous)");
            case GLOBAL_TIMESTAMP_1 -> {
                sb.append("GTS1 bits [").append(new int[] {6, 13, 20, 25}[Math.max(0, Math.min(3, size - 1))])
                        .append(":0] = ").append(hex(value));
                if (clockChange()) {
                    sb.append(", clock changed");
                }
                if (wrap()) {
                    sb.append(", wrapped");
                }
            }
            case GLOBAL_TIMESTAMP_2 -> sb.append("GTS2 bits [").append(size > 4 ? 63 : 47).append(":26] = ").append(hex(value));
            case EXTENSION -> {
                if (id == 0 && size == 0) {
                    sb.append("EXTENSION stimulus port page ").append(value);
                } else {
                    sb.append("EXTENSION ").append(id == 0 ? "software" : "hardware").append(" source, ")
                            .append(3 + 7 * size).append(" bits = ").append(hex(value));
                }
            }
            case INSTRUMENTATION -> sb.append("SWIT port ").append(id).append(' ').append(size).append(size == 1 ? " byte " : " bytes ")
                    .append(hex(value, size));
            case EVENT_COUNTER -> {
                sb.append("EVENT_COUNTER ").append(hex(value, 1)).append(" wrapped:");
                for (int i = 0; i < EventCounterWrap.NAMES.length; i++) {
                    if ((value >> i & 1) != 0) {
                        sb.append(' ').append(EventCounterWrap.NAMES[i]);
                    }
                }
            }
            case EXCEPTION_TRACE -> sb.append("EXCEPTION ").append(FUNCTIONS[flags & 3]).append(' ').append(id)
                    .append(" (").append(ExceptionTrace.mProfileName(id)).append(')');
            case PERIODIC_PC_SAMPLE -> sb.append("PC_SAMPLE ").append(hex(value, 4));
            case PERIODIC_PC_SLEEP -> sb.append("PC_SAMPLE sleeping");
            case DATA_TRACE_PC_VALUE -> sb.append("DATA_PC comparator ").append(id).append(' ').append(hex(value, 4));
            case DATA_TRACE_ADDRESS -> sb.append("DATA_ADDRESS comparator ").append(id).append(" address bits [15:0] ")
                    .append(hex(value, 2));
            case DATA_TRACE_DATA_VALUE -> sb.append("DATA_VALUE comparator ").append(id).append(flags == 1 ? " write " : " read ")
                    .append(hex(value, size));
            case RESERVED_HARDWARE_SOURCE -> sb.append("HW_RESERVED discriminator ").append(id).append(' ').append(size)
                    .append(size == 1 ? " byte " : " bytes ").append(hex(value, size));
            case RESERVED -> sb.append("RESERVED header: ").append(error);
            case BAD -> sb.append("BAD ").append(error);
            case INCOMPLETE -> sb.append("INCOMPLETE ").append(length).append(" bytes at the end of the trace");
        }
        return sb.toString();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** {@code v} in hex with two digits per payload byte. */
    private static String hex(long v, int bytes) {
        String h = Long.toHexString(v);
        StringBuilder sb = new StringBuilder(2 + 2 * bytes).append("0x");
        for (int i = h.length(); i < 2 * bytes; i++) {
            sb.append('0');
        }
        return sb.append(h).toString();
    }
}
