package io.armtrace.protocol.stm;

import io.armtrace.protocol.PacketListener;

/**
 * Turns an STPv2 stream into packets. STPv2 is a stream of 4-bit nibbles, the low nibble of each byte first;
 * an opcode is one to three nibbles and multi-nibble values come most significant nibble first. Streaming:
 * {@link #push} takes chunks of any size; one {@link StmPacket} is reused, so nothing is allocated per packet.
 *
 * <p>The reader keeps what STPv2 makes state: the current master and channel (VERSION resets both to 0, M8
 * and M16 set the master and reset the channel, C8 replaces the channel's low byte, C16 all of it, MERR resets
 * the channel and GERR both), the timestamp (each timestamped packet replaces its low bits) and its coding
 * (VERSION 3: natural binary, 4: Gray code). Before the first ASYNC (21 F nibbles and a 0) nothing can be
 * decoded; a reserved opcode or a broken packet loses sync until the next ASYNC.
 */
public final class StmPacketReader {
    /** An ASYNC is at least 21 F nibbles and a 0 nibble (STPv2; the CoreSight STM sends exactly that). */
    static final int ASYNC_F_NIBBLES = 21;

    private static final StmPacket.Kind[] OPS_1 = new StmPacket.Kind[16];
    private static final StmPacket.Kind[] OPS_2 = new StmPacket.Kind[16];
    private static final StmPacket.Kind[] OPS_3 = new StmPacket.Kind[16];

    static {
        for (StmPacket.Kind k : StmPacket.Kind.values()) {
            int op = k.opcode;
            if (op < 0) {
                continue;
            }
            if (op <= 0xE) {
                OPS_1[op] = k;
            } else if (op <= 0xFF) {
                OPS_2[op & 0xF] = k;
            } else {
                OPS_3[op & 0xF] = k;
            }
        }
    }

    private static final int HUNT = 0;
    private static final int OP1 = 1;
    private static final int OP2 = 2;
    private static final int OP3 = 3;
    private static final int ASYNC = 4;
    private static final int PAYLOAD = 5;
    private static final int USER_LENGTH = 6;
    private static final int TIME_CLOCK = 7;
    private static final int TIME_FORMAT = 8;
    private static final int TIME_SIZE = 9;
    private static final int TS_SIZE = 10;
    private static final int TS_VALUE = 11;

    private final PacketListener<StmPacket> out;
    private final StmPacket p = new StmPacket();
    /** Index of the next nibble in the stream: byte offset * 2, plus 1 for a high nibble. */
    private long nibble;
    private int state = HUNT;
    private long unsyncedStart = -1;
    private long runStart;
    private int fRun;
    /** The packet being read. */
    private StmPacket.Kind kind;
    private long start;
    private int left;
    private long value;
    private int bits;
    private int clock;
    private long tsUpdate;
    private int tsBits;
    private int tsLeft;
    /** Decoder state that lasts across packets. */
    private int master;
    private int channel;
    private long timestamp;
    private boolean gray;
    private long packets;

    public StmPacketReader(PacketListener<StmPacket> out) {
        this.out = out;
    }

    public long packets() {
        return packets;
    }

    public void push(byte[] buf, int off, int len) {
        int end = off + len;
        for (int i = off; i < end; i++) {
            int b = buf[i];
            nibble(b & 0xF);
            nibble((b >> 4) & 0xF);
        }
    }

    /** The trace has ended: reports nibbles that never synchronized, or a packet cut short. */
    public void end() {
        if (state == HUNT) {
            if (unsyncedStart >= 0) {
                emitSpan(StmPacket.Kind.NOT_SYNC, unsyncedStart, nibble - 1);
                p.value = nibble - unsyncedStart;
                out.packet(p);
                unsyncedStart = -1;
            }
        } else if (state != OP1) {
            emitSpan(StmPacket.Kind.INCOMPLETE, start, nibble - 1);
            p.error = "the trace ends inside a packet";
            out.packet(p);
            loseSync();
        }
        fRun = 0;
    }

    private void nibble(int n) {
        switch (state) {
            case HUNT -> hunt(n);
            case OP1 -> {
                start = nibble;
                if (n == 0xF) {
                    state = OP2;
                } else {
                    begin(OPS_1[n]);
                }
            }
            case OP2 -> {
                if (n == 0xF) {
                    fRun = 2;
                    state = ASYNC;
                } else if (n == 0) {
                    state = OP3;
                } else {
                    begin(OPS_2[n]);
                }
            }
            case OP3 -> {
                if (OPS_3[n] == null) {
                    fail(StmPacket.Kind.RESERVED, String.format("opcode 0xF0%X is reserved", n));
                } else {
                    begin(OPS_3[n]);
                }
            }
            case ASYNC -> {
                if (n == 0xF) {
                    fRun = Math.min(fRun + 1, Integer.MAX_VALUE - 1);
                } else if (n == 0 && fRun >= ASYNC_F_NIBBLES) {
                    async(start);
                } else {
                    fail(StmPacket.Kind.BAD, String.format("ASYNC broken by nibble 0x%X after %d F nibbles", n, fRun));
                }
            }
            case PAYLOAD -> {
                value = (value << 4) | n;
                if (--left == 0) {
                    payloadDone();
                }
            }
            case USER_LENGTH -> {
                // USER: the first nibble gives the payload length, 1 to 16 nibbles
                left = n + 1;
                bits = 4 * left;
                state = PAYLOAD;
            }
            case TIME_CLOCK -> {
                clock = n;
                state = TIME_FORMAT;
            }
            case TIME_FORMAT -> state = TIME_SIZE; // the time value's coding, as a VERSION's; kept as read
            case TIME_SIZE -> {
                int size = sizeNibbles(n);
                if (size < 0) {
                    fail(StmPacket.Kind.BAD, "TIME value of size code 0xF");
                } else if (size == 0) {
                    payloadDone();
                } else {
                    bits = 4 * size;
                    left = size;
                    state = PAYLOAD;
                }
            }
            case TS_SIZE -> {
                int size = sizeNibbles(n);
                if (size < 0) {
                    fail(StmPacket.Kind.BAD, "timestamp of size code 0xF");
                } else {
                    tsBits = 4 * size;
                    tsLeft = size;
                    tsUpdate = 0;
                    if (size == 0) {
                        finish();
                    } else {
                        state = TS_VALUE;
                    }
                }
            }
            default -> {
                tsUpdate = (tsUpdate << 4) | n;
                if (--tsLeft == 0) {
                    finish();
                }
            }
        }
        nibble++;
    }

    /**
     * The number of nibbles a timestamp (or TIME value) size code announces: 0 to 12 as given, 13 means 14 and
     * 14 means 16; -1 for the invalid 15.
     */
    static int sizeNibbles(int code) {
        return code <= 12 ? code : code == 13 ? 14 : code == 14 ? 16 : -1;
    }

    private void hunt(int n) {
        if (unsyncedStart < 0) {
            unsyncedStart = nibble;
        }
        if (n == 0xF) {
            if (fRun == 0) {
                runStart = nibble;
            }
            fRun = Math.min(fRun + 1, Integer.MAX_VALUE - 1);
            return;
        }
        if (n == 0 && fRun >= ASYNC_F_NIBBLES) {
            if (runStart > unsyncedStart) {
                emitSpan(StmPacket.Kind.NOT_SYNC, unsyncedStart, runStart - 1);
                p.value = runStart - unsyncedStart;
                out.packet(p);
            }
            unsyncedStart = -1;
            async(runStart);
            return;
        }
        fRun = 0;
    }

    private void async(long from) {
        emitSpan(StmPacket.Kind.ASYNC, from, nibble);
        out.packet(p);
        fRun = 0;
        state = OP1;
    }

    private void begin(StmPacket.Kind k) {
        kind = k;
        value = 0;
        bits = 0;
        clock = 0;
        tsBits = -1;
        switch (k) {
            case USER, USER_TS -> state = USER_LENGTH;
            case TIME, TIME_TS -> state = TIME_CLOCK;
            default -> {
                if (k.payloadNibbles > 0) {
                    left = k.payloadNibbles;
                    bits = 4 * left;
                    state = PAYLOAD;
                } else {
                    payloadDone();
                }
            }
        }
    }

    private void payloadDone() {
        if (kind == StmPacket.Kind.VERSION && value != 3 && value != 4) {
            // STPv2 as the CoreSight STM sends it: 3 (natural binary timestamps) or 4 (Gray-coded ones)
            fail(StmPacket.Kind.BAD, "VERSION " + value + " is not a version of STPv2 armtrace reads (3 or 4)");
            return;
        }
        if (kind.timestamped) {
            state = TS_SIZE;
        } else {
            finish();
        }
    }

    private void finish() {
        switch (kind) {
            case VERSION -> {
                master = 0;
                channel = 0;
                gray = value == 4;
            }
            case M8, M16 -> {
                master = (int) value;
                channel = 0;
            }
            case C8 -> channel = (channel & 0xFF00) | (int) value;
            case C16 -> channel = (int) value;
            case MERR -> channel = 0;
            case GERR -> {
                master = 0;
                channel = 0;
            }
            default -> {
            }
        }
        if (tsBits >= 0) {
            timestamp = merge(timestamp, tsUpdate, tsBits, gray);
        }
        emitSpan(kind, start, nibble);
        p.value = value;
        p.bits = bits;
        p.clock = clock;
        if (tsBits >= 0) {
            p.timestampBits = tsBits;
        }
        out.packet(p);
        state = OP1;
    }

    /** The timestamp after a packet gave the low {@code bits} bits {@code update}, in binary or Gray code. */
    static long merge(long current, long update, int bits, boolean gray) {
        if (bits == 0) {
            return current;
        }
        long mask = bits >= 64 ? -1L : (1L << bits) - 1;
        if (!gray) {
            return (current & ~mask) | (update & mask);
        }
        long g = current ^ (current >>> 1);
        g = (g & ~mask) | (update & mask);
        return grayToBinary(g);
    }

    static long grayToBinary(long g) {
        long b = g;
        for (int shift = 1; shift < 64; shift <<= 1) {
            b ^= b >>> shift;
        }
        return b;
    }

    private void fail(StmPacket.Kind k, String why) {
        emitSpan(k, start, nibble);
        p.error = why;
        out.packet(p);
        loseSync();
    }

    private void loseSync() {
        state = HUNT;
        fRun = 0;
        unsyncedStart = -1;
    }

    /** Fills the shared packet for the nibbles {@code from} to {@code to} (inclusive) and the current state. */
    private void emitSpan(StmPacket.Kind k, long from, long to) {
        long first = from >> 1;
        long last = Math.max(to, from) >> 1;
        p.set(k, first, (int) Math.min(last - first + 1, Integer.MAX_VALUE), (from & 1) != 0);
        p.master = master;
        p.channel = channel;
        p.timestamp = timestamp;
        packets++;
    }
}
