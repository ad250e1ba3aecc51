package io.armtrace.protocol.stm;

import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The STPv2 stream an STM would emit for a run of software events (the elements {@link StmFlow} gives back):
 * ASYNC and VERSION first, then per message the M8/M16 and C8/C16 packets that change master and channel, and
 * the message's packet with its timestamp. A timestamp takes the fewest nibbles that change the decoder's
 * timestamp to the new value, in natural binary (VERSION 3) or Gray code (VERSION 4), as an STM sends it.
 */
public final class StmEncoder {
    private final int version;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int pending = -1; // a nibble waiting for the high half of its byte
    private int master;
    private int channel;
    private long timestamp;
    private long pendingTs = -1;
    private int event;

    /** {@code version} 3 (natural binary timestamps) or 4 (Gray-coded). */
    public StmEncoder(int version) {
        if (version != 3 && version != 4) {
            throw new IllegalArgumentException("--version is 3 (binary timestamps) or 4 (Gray-coded), not " + version + ".");
        }
        this.version = version;
    }

    public byte[] encode(List<TraceElement> events) {
        if (events.isEmpty() || !(events.get(0) instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC)) {
            async();
        }
        for (TraceElement e : events) {
            event++;
            if (e instanceof Timestamp t) {
                flushTimestamp();
                pendingTs = t.value();
                continue;
            }
            if (!(e instanceof SoftwareMessage m && m.timestamped())) {
                flushTimestamp();
            }
            if (e instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC) {
                async();
            } else if (e instanceof SoftwareMessage m && m.master() != SoftwareMessage.NO_MASTER) {
                message(m);
            } else {
                throw new IllegalArgumentException("event " + event + " (" + e.getClass().getSimpleName()
                        + ") is not an STM event.");
            }
        }
        flushTimestamp();
        if (pending >= 0) {
            nibble(0); // a NULL packet fills the last byte
        }
        return out.toByteArray();
    }

    /** A timestamp no message took: a NULL_TS packet. */
    private void flushTimestamp() {
        if (pendingTs >= 0) {
            long ts = pendingTs;
            pendingTs = -1;
            opcode(0xF01, 3);
            timestamp(ts);
        }
    }

    /** ASYNC (21 F nibbles and a 0) and VERSION, which resets master and channel to 0. */
    private void async() {
        for (int i = 0; i < StmPacketReader.ASYNC_F_NIBBLES; i++) {
            nibble(0xF);
        }
        nibble(0);
        opcode(0xF00, 3);
        nibble(version);
        master = 0;
        channel = 0;
    }

    private void message(SoftwareMessage m) {
        boolean ts = m.timestamped();
        if (ts && pendingTs < 0) {
            throw new IllegalArgumentException("event " + event + ": a timestamped message needs its timestamp just before it.");
        }
        if (m.kind() == SoftwareMessage.Kind.GLOBAL_ERROR) {
            check(m.master() == 0 && m.channel() == 0 && !ts, "a global error resets master and channel to 0 and has no timestamp");
            opcode(0xF2, 2);
            value(m.value(), 2);
            master = 0;
            channel = 0;
            return;
        }
        if (m.master() != master) {
            check(m.master() >= 0 && m.master() <= 0xFFFF, "masters are 0 to 0xffff");
            if (m.master() <= 0xFF) {
                opcode(0x1, 1);
                value(m.master(), 2);
            } else {
                opcode(0xF1, 2);
                value(m.master(), 4);
            }
            master = m.master();
            channel = 0;
        }
        if (m.kind() == SoftwareMessage.Kind.MASTER_ERROR) {
            check(m.channel() == 0 && !ts, "a master error resets the channel to 0 and has no timestamp");
            opcode(0x2, 1);
            value(m.value(), 2);
            channel = 0;
            return;
        }
        if (m.channel() != channel) {
            check(m.channel() >= 0 && m.channel() <= 0xFFFF, "channels are 0 to 0xffff");
            if ((m.channel() & 0xFF00) == (channel & 0xFF00)) {
                opcode(0x3, 1);
                value(m.channel() & 0xFF, 2);
            } else {
                opcode(0xF3, 2);
                value(m.channel(), 4);
            }
            channel = m.channel();
        }
        switch (m.kind()) {
            case DATA -> {
                int i = switch (m.bits()) {
                    case 4 -> 0;
                    case 8 -> 1;
                    case 16 -> 2;
                    case 32 -> 3;
                    case 64 -> 4;
                    default -> -1;
                };
                check(i >= 0, "data is 4, 8, 16, 32 or 64 bits");
                // opcodes of D4, D8, D16, D32, D64 in STPv2: plain, with marker, with timestamp, with both
                int[] plain = {0xC, 0x4, 0x5, 0x6, 0x7};
                int[] marker = {0xFD, 0xF8, 0xF9, 0xFA, 0xFB};
                int[] stamped = {0xFC, 0xF4, 0xF5, 0xF6, 0xF7};
                int[] both = {0xD, 0x8, 0x9, 0xA, 0xB};
                int op = m.marker() ? (ts ? both[i] : marker[i]) : (ts ? stamped[i] : plain[i]);
                opcode(op, op > 0xF ? 2 : 1);
                value(m.value(), m.bits() / 4);
            }
            case FLAG -> opcode(ts ? 0xE : 0xFE, ts ? 1 : 2);
            case TRIGGER -> {
                opcode(ts ? 0xF07 : 0xF06, 3);
                value(m.value(), 2);
            }
            case FREQUENCY -> {
                opcode(ts ? 0xF09 : 0xF08, 3);
                value(m.value(), 8);
            }
            case XSYNC -> {
                opcode(ts ? 0xF0B : 0xF0A, 3);
                value(m.value(), 2);
            }
            case USER -> {
                int nibbles = m.bits() / 4;
                check(m.bits() % 4 == 0 && nibbles >= 1 && nibbles <= 16, "user data is 4 to 64 bits, whole nibbles");
                opcode(ts ? 0xF03 : 0xF02, 3);
                nibble(nibbles - 1);
                value(m.value(), nibbles);
            }
            case TIME -> {
                int nibbles = m.bits() / 4;
                int code = nibbles <= 12 ? nibbles : nibbles == 14 ? 13 : nibbles == 16 ? 14 : -1;
                check(m.bits() % 4 == 0 && code >= 0, "a time value is 0 to 48, 56 or 64 bits");
                opcode(ts ? 0xF05 : 0xF04, 3);
                nibble(0); // clock index
                nibble(version); // the value's coding
                nibble(code);
                value(m.value(), nibbles);
            }
            default -> throw new IllegalArgumentException("event " + event + ": " + m.kind() + " is not an STM message.");
        }
        if (ts) {
            long t = pendingTs;
            pendingTs = -1;
            timestamp(t);
        }
    }

    /** A timestamp field: the size code, then the fewest low nibbles that make the decoder's timestamp {@code ts}. */
    private void timestamp(long ts) {
        long now = version == 4 ? gray(timestamp) : timestamp;
        long target = version == 4 ? gray(ts) : ts;
        int[] sizes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16};
        int nibbles = 16;
        for (int n : sizes) {
            if (n == 16 || (now >>> (4 * n)) == (target >>> (4 * n))) {
                nibbles = n;
                break;
            }
        }
        nibble(nibbles <= 12 ? nibbles : nibbles == 14 ? 13 : 14);
        value(target, nibbles);
        timestamp = ts;
    }

    private static long gray(long v) {
        return v ^ (v >>> 1);
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException("event " + event + ": " + what + ".");
        }
    }

    /** The opcode's {@code nibbles} nibbles, first nibble first (it is the most significant of {@code op}). */
    private void opcode(int op, int nibbles) {
        value(op, nibbles);
    }

    /** The low {@code nibbles} nibbles of {@code v}, most significant first. */
    private void value(long v, int nibbles) {
        for (int i = nibbles - 1; i >= 0; i--) {
            nibble((int) (v >>> (4 * i)) & 0xF);
        }
    }

    /** Nibbles fill a byte low half first. */
    private void nibble(int n) {
        if (pending < 0) {
            pending = n & 0xF;
        } else {
            out.write(pending | (n & 0xF) << 4);
            pending = -1;
        }
    }
}
