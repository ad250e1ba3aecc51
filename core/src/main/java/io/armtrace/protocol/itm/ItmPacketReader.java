package io.armtrace.protocol.itm;

import io.armtrace.protocol.PacketListener;

/**
 * Turns an ITM/DWT byte stream (SWO, or one source of a CoreSight formatted stream) into packets
 * (ARMv7-M ARM Appendix D4). Streaming: {@link #push} takes chunks of any size and a packet may span chunks;
 * one {@link ItmPacket} is reused for every packet, so nothing is allocated per packet.
 *
 * <p>Until the first synchronization packet the reader cannot tell headers from payload; those bytes are
 * reported as one NOT_SYNC packet when the synchronization packet is found (or the trace ends). A reserved
 * header or a packet that breaks the protocol is reported as RESERVED or BAD, and the reader waits for the
 * next synchronization packet: ITM packets carry no redundancy that would let it resume earlier.
 */
public final class ItmPacketReader {
    /** D4.2.1: at least 47 zero bits before the one, so five zero bytes before the 0x80 byte. */
    static final int SYNC_ZEROS = 5;

    private static final int HUNT = 0;      // not synchronized: looking for zeros then 0x80
    private static final int HEADER = 1;    // synchronized, the next byte is a header
    private static final int SYNC = 2;      // inside a synchronization packet (zeros so far in zeros)
    private static final int SOURCE = 3;    // the payload of an instrumentation or hardware source packet
    private static final int CONTINUED = 4; // the payload of a packet whose bytes carry a continuation bit

    private final PacketListener<ItmPacket> out;
    private final ItmPacket p = new ItmPacket();
    private long pos;
    private int state = HUNT;
    /** HUNT: where the bytes that cannot be decoded began (-1: none pending), and the zero run at the end. */
    private long unsyncedStart = -1;
    private long zeros;
    /** The packet being read: its first byte's offset, header, payload bytes wanted and read, value so far. */
    private long start;
    private int header;
    private int need;
    private int got;
    private long acc;
    private int lastByte;
    /** The stimulus port page from the last page extension packet (D4.2.6). */
    private int page;
    private long packets;

    public ItmPacketReader(PacketListener<ItmPacket> out) {
        this(out, 0);
    }

    /** A reader whose first byte is byte {@code offset} of the stream. */
    public ItmPacketReader(PacketListener<ItmPacket> out, long offset) {
        this.out = out;
        this.pos = offset;
    }

    public long packets() {
        return packets;
    }

    public void push(byte[] buf, int off, int len) {
        int end = off + len;
        for (int i = off; i < end; i++) {
            int b = buf[i] & 0xFF;
            switch (state) {
                case HUNT -> hunt(b);
                case HEADER -> header(b);
                case SYNC -> sync(b);
                case SOURCE -> source(b);
                default -> continued(b);
            }
            pos++;
        }
    }

    /** The trace has ended: reports what is left (bytes that never synchronized, or a packet cut short). */
    public void end() {
        switch (state) {
            case HUNT -> {
                if (unsyncedStart >= 0) {
                    emit(ItmPacket.Kind.NOT_SYNC, unsyncedStart, pos - unsyncedStart);
                    unsyncedStart = -1;
                }
            }
            case HEADER -> {
            }
            default -> emit(ItmPacket.Kind.INCOMPLETE, start, pos - start);
        }
        state = HUNT;
        zeros = 0;
    }

    private void hunt(int b) {
        if (unsyncedStart < 0) {
            unsyncedStart = pos;
        }
        if (b == 0) {
            zeros++;
            return;
        }
        if (b == 0x80 && zeros >= SYNC_ZEROS) {
            long syncStart = pos - zeros;
            if (syncStart > unsyncedStart) {
                emit(ItmPacket.Kind.NOT_SYNC, unsyncedStart, syncStart - unsyncedStart);
            }
            unsyncedStart = -1;
            zeros = 0;
            emit(ItmPacket.Kind.SYNCHRONIZATION, syncStart, pos + 1 - syncStart);
            state = HEADER;
            return;
        }
        zeros = 0;
    }

    private void header(int b) {
        start = pos;
        header = b;
        got = 0;
        acc = 0;
        if ((b & 0x03) != 0) {
            // 0bAAAAASSS with SS != 00: a source packet of 1, 2 or 4 payload bytes (D4.2.8, D4.3)
            need = (b & 3) == 3 ? 4 : b & 3;
            state = SOURCE;
            return;
        }
        if ((b & 0x0F) == 0) {
            if (b == 0) {
                zeros = 1;
                state = SYNC;
            } else if (b == 0x70) {
                emit(ItmPacket.Kind.OVERFLOW, pos, 1);
            } else if ((b & 0x80) == 0) {
                // 0b0TTT0000, TTT 1 to 6: local timestamp 2, the value in the header (D4.2.4)
                emit(ItmPacket.Kind.LOCAL_TIMESTAMP_2, pos, 1);
                p.value = (b >> 4) & 7;
                p.size = 0;
                out.packet(p);
            } else if ((b & 0x40) != 0) {
                // 0b11TC0000: local timestamp 1, 1 to 4 payload bytes
                need = 4;
                state = CONTINUED;
            } else {
                reserved(b, "0b10xx0000 is neither local timestamp format");
            }
            return;
        }
        if ((b & 0x0B) == 0x08) {
            // 0bCEEE1S00: extension (D4.2.6), with payload bytes while C is set
            if ((b & 0x80) == 0) {
                extension(0);
            } else {
                need = 4;
                state = CONTINUED;
            }
            return;
        }
        if (b == 0x94 || b == 0xB4) {
            // global timestamp 1 (four payload bytes at most) or 2 (six at most, for a 64-bit timestamp)
            need = b == 0x94 ? 4 : 6;
            state = CONTINUED;
            return;
        }
        reserved(b, "0bxxxx0100 is reserved except for the global timestamps");
    }

    private void sync(int b) {
        if (b == 0) {
            zeros++;
            return;
        }
        if (b == 0x80 && zeros >= SYNC_ZEROS) {
            emit(ItmPacket.Kind.SYNCHRONIZATION, start, pos + 1 - start);
            zeros = 0;
            state = HEADER;
            return;
        }
        zeros = 0;
        bad(String.format("synchronization packet broken by 0x%02x after %d zero bytes", b, pos - start), pos + 1 - start);
    }

    private void source(int b) {
        acc |= (long) b << (8 * got);
        got++;
        if (got < need) {
            return;
        }
        state = HEADER;
        int a = header >> 3;
        if ((header & 0x04) == 0) {
            emit(ItmPacket.Kind.INSTRUMENTATION, start, need + 1);
            p.id = page * 32 + a;
            p.value = acc;
            p.size = need;
            out.packet(p);
            return;
        }
        ItmPacket.Kind k = hardwareKind(a, need, acc);
        emit(k, start, need + 1);
        p.value = acc;
        p.size = need;
        switch (k) {
            case EXCEPTION_TRACE -> {
                p.id = (int) (acc & 0x1FF);
                p.flags = (int) (acc >> 12) & 3;
            }
            case DATA_TRACE_PC_VALUE, DATA_TRACE_ADDRESS -> p.id = (a >> 1) & 3;
            case DATA_TRACE_DATA_VALUE -> {
                p.id = (a >> 1) & 3;
                p.flags = a & 1;
            }
            case RESERVED_HARDWARE_SOURCE -> p.id = a;
            default -> {
            }
        }
        out.packet(p);
    }

    /** What a hardware source packet is, from its discriminator and payload size (D4.3). */
    static ItmPacket.Kind hardwareKind(int discriminator, int size, long value) {
        switch (discriminator) {
            case 0:
                return size == 1 ? ItmPacket.Kind.EVENT_COUNTER : ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
            case 1:
                return size == 2 ? ItmPacket.Kind.EXCEPTION_TRACE : ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
            case 2:
                if (size == 4) {
                    return ItmPacket.Kind.PERIODIC_PC_SAMPLE;
                }
                return size == 1 && value == 0 ? ItmPacket.Kind.PERIODIC_PC_SLEEP : ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
            default:
                break;
        }
        if (discriminator >= 8 && discriminator <= 15) {
            if ((discriminator & 1) == 0) {
                return size == 4 ? ItmPacket.Kind.DATA_TRACE_PC_VALUE : ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
            }
            return size == 2 ? ItmPacket.Kind.DATA_TRACE_ADDRESS : ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
        }
        if (discriminator >= 16 && discriminator <= 23) {
            return ItmPacket.Kind.DATA_TRACE_DATA_VALUE;
        }
        return ItmPacket.Kind.RESERVED_HARDWARE_SOURCE;
    }

    private void continued(int b) {
        acc |= (long) (b & 0x7F) << (7 * got);
        got++;
        lastByte = b;
        if ((b & 0x80) != 0) {
            if (got == need) {
                bad(String.format("0x%02x packet with more than %d payload bytes", header, need), got + 1);
            }
            return;
        }
        state = HEADER;
        if ((header & 0x0F) == 0) {
            emit(ItmPacket.Kind.LOCAL_TIMESTAMP_1, start, got + 1);
            p.id = (header >> 4) & 3;
            p.value = acc;
            p.size = got;
            out.packet(p);
        } else if (header == 0x94) {
            emit(ItmPacket.Kind.GLOBAL_TIMESTAMP_1, start, got + 1);
            if (got == 4) {
                // the fourth byte: TS[25:21] in bits 4:0, ClkCh in bit 5, Wrap in bit 6 (D4.2.5)
                acc &= (1L << 26) - 1;
                p.flags = (lastByte >> 5) & 3;
            }
            p.value = acc;
            p.size = got;
            out.packet(p);
        } else if (header == 0xB4) {
            emit(ItmPacket.Kind.GLOBAL_TIMESTAMP_2, start, got + 1);
            p.value = acc;
            p.size = got;
            out.packet(p);
        } else {
            extension(got);
        }
    }

    /** An extension packet with {@code payload} continuation bytes read into {@code acc}. */
    private void extension(int payload) {
        long value = (acc << 3) | ((header >> 4) & 7);
        int sh = (header >> 2) & 1;
        emit(ItmPacket.Kind.EXTENSION, start, payload + 1);
        p.id = sh;
        p.value = value;
        p.size = payload;
        if (sh == 0 && payload == 0) {
            page = (int) value; // the stimulus port page of the instrumentation packets that follow
        }
        out.packet(p);
        state = HEADER;
    }

    private void reserved(int b, String why) {
        emit(ItmPacket.Kind.RESERVED, pos, 1);
        p.error = String.format("0x%02x: %s", b, why);
        out.packet(p);
        loseSync();
    }

    private void bad(String why, long length) {
        emit(ItmPacket.Kind.BAD, start, length);
        p.error = why;
        out.packet(p);
        loseSync();
    }

    private void loseSync() {
        state = HUNT;
        zeros = 0;
        unsyncedStart = -1;
        page = 0;
    }

    /**
     * Fills the shared packet with its kind and span; packets with no fields of their own go out at once, the
     * others are sent by the caller after it sets their fields.
     */
    private void emit(ItmPacket.Kind k, long offset, long length) {
        p.set(k, offset, (int) Math.min(length, Integer.MAX_VALUE));
        packets++;
        switch (k) {
            case NOT_SYNC, SYNCHRONIZATION, OVERFLOW, INCOMPLETE -> out.packet(p);
            default -> {
            }
        }
    }
}
