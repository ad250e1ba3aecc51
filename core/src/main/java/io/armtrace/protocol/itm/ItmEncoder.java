package io.armtrace.protocol.itm;

import io.armtrace.trace.DataTrace;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The ITM/DWT byte stream an ITM would emit for a run of software events (the elements {@link ItmFlow} gives
 * back): a synchronization packet first, then one packet per event, with the packets an ITM adds on its own
 * (a stimulus port page extension before a write to a port on another page, a GTS1/GTS2 pair where the high
 * bits of the global timestamp change). Each packet takes the fewest bytes its value allows.
 */
public final class ItmEncoder {
    private final ItmConfig config;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int page;
    private boolean haveGts2;
    private long gtsLow;
    private long gtsHigh;

    public ItmEncoder(ItmConfig config) {
        this.config = config;
    }

    /** The trace for {@code events}; an event ITM cannot express is a mistake, said in one sentence. */
    public byte[] encode(List<TraceElement> events) {
        if (events.isEmpty() || !(events.get(0) instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC)) {
            sync();
        }
        int n = 0;
        for (TraceElement e : events) {
            n++;
            event(e, n);
        }
        return out.toByteArray();
    }

    private void event(TraceElement e, int n) {
        if (e instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC) {
            sync();
        } else if (e instanceof TraceOn t && t.reason() == TraceOn.Reason.OVERFLOW) {
            out.write(0x70);
        } else if (e instanceof SoftwareMessage m && m.master() == SoftwareMessage.NO_MASTER
                && m.kind() == SoftwareMessage.Kind.DATA) {
            instrumentation(m, n);
        } else if (e instanceof LocalTimestamp l) {
            localTimestamp(l, n);
        } else if (e instanceof Timestamp t) {
            globalTimestamp(t.value());
        } else if (e instanceof ExceptionTrace x) {
            int fn = x.function().ordinal() + 1; // FN: 1 entered, 2 exited, 3 returned to (D4.3.2)
            out.write(0x0E);
            out.write(x.number() & 0xFF);
            out.write(((x.number() >> 8) & 1) | (fn << 4));
        } else if (e instanceof PcSample s) {
            if (s.sleep()) {
                out.write(0x15);
                out.write(0);
            } else {
                out.write(0x17);
                little(s.address(), 4);
            }
        } else if (e instanceof EventCounterWrap w) {
            out.write(0x05);
            out.write(w.counters() & 0x3F);
        } else if (e instanceof DataTrace d) {
            dataTrace(d, n);
        } else {
            throw new IllegalArgumentException("event " + n + " (" + e.getClass().getSimpleName()
                    + ") is not an ITM event.");
        }
    }

    /** D4.2.1: 47 zeros and a one, as five zero bytes and 0x80. */
    private void sync() {
        for (int i = 0; i < ItmPacketReader.SYNC_ZEROS; i++) {
            out.write(0);
        }
        out.write(0x80);
    }

    private void instrumentation(SoftwareMessage m, int n) {
        int size = m.bits() / 8;
        if (m.bits() != 8 && m.bits() != 16 && m.bits() != 32) {
            throw new IllegalArgumentException("event " + n + ": stimulus port writes are 8, 16 or 32 bits, not " + m.bits() + ".");
        }
        if (m.channel() < 0 || m.channel() > 255) {
            throw new IllegalArgumentException("event " + n + ": stimulus ports are 0 to 255, not " + m.channel() + ".");
        }
        int p = m.channel() >> 5;
        if (p != page) {
            out.write((p << 4) | 0x08); // extension packet, SH 0, EX = the page (D4.2.6)
            page = p;
        }
        out.write(((m.channel() & 0x1F) << 3) | (size == 4 ? 3 : size));
        little(m.value(), size);
    }

    private void localTimestamp(LocalTimestamp l, int n) {
        long prescale = config.tsPrescale();
        if (l.ticks() % prescale != 0) {
            throw new IllegalArgumentException("event " + n + ": " + l.ticks() + " ticks is not a multiple of the local "
                    + "timestamp prescaler " + prescale + ".");
        }
        long count = l.ticks() / prescale;
        if (count >= 1L << 28) {
            throw new IllegalArgumentException("event " + n + ": a local timestamp counts at most 2^28 - 1, not " + count + ".");
        }
        int tc = l.relation().ordinal();
        if (tc == 0 && count >= 1 && count <= 6) {
            out.write((int) count << 4); // local timestamp 2: the value in the header
            return;
        }
        out.write(0xC0 | (tc << 4));
        continuation(count, 1);
    }

    private void globalTimestamp(long value) {
        long low = value & ((1L << 26) - 1);
        long high = value >>> 26;
        if (!haveGts2 || high != gtsHigh) {
            // all of bits [25:0], with Wrap when the decoder knew high bits that now change, then bits [63:26]
            out.write(0x94);
            out.write((int) (low & 0x7F) | 0x80);
            out.write((int) (low >> 7 & 0x7F) | 0x80);
            out.write((int) (low >> 14 & 0x7F) | 0x80);
            out.write((int) (low >> 21 & 0x1F) | (haveGts2 ? 0x40 : 0));
            out.write(0xB4);
            continuation(high, high < 1L << 22 ? 4 : 6);
            haveGts2 = true;
            gtsHigh = high;
        } else {
            // GTS1 replaces bits [6:0], [13:0], [20:0] or [25:0]: as few as cover every bit that changed
            int bytes = 1;
            while (bytes < 4 && (gtsLow >> (7 * bytes)) != (low >> (7 * bytes))) {
                bytes++;
            }
            out.write(0x94);
            for (int i = 0; i < bytes; i++) {
                int b = (int) (low >> (7 * i) & 0x7F);
                if (i == 3) {
                    b &= 0x1F;
                }
                out.write(i < bytes - 1 ? b | 0x80 : b);
            }
        }
        gtsLow = low;
    }

    private void dataTrace(DataTrace d, int n) {
        if (d.comparator() < 0 || d.comparator() > 3) {
            throw new IllegalArgumentException("event " + n + ": data trace comparators are 0 to 3, not " + d.comparator() + ".");
        }
        int discriminator;
        int size;
        switch (d.kind()) {
            case PC_VALUE -> {
                discriminator = 8 + 2 * d.comparator();
                size = 4;
            }
            case ADDRESS -> {
                discriminator = 9 + 2 * d.comparator();
                size = 2;
            }
            default -> {
                discriminator = 16 + 2 * d.comparator() + (d.write() ? 1 : 0);
                size = d.bytes();
                if (size != 1 && size != 2 && size != 4) {
                    throw new IllegalArgumentException("event " + n + ": data values are 1, 2 or 4 bytes, not " + size + ".");
                }
            }
        }
        out.write((discriminator << 3) | 0x04 | (size == 4 ? 3 : size));
        little(d.value(), size);
    }

    /** {@code v} in 7-bit groups, low first, bit 7 set on all but the last; at least {@code min} bytes. */
    private void continuation(long v, int min) {
        int bytes = 1;
        while (bytes < 9 && (v >>> (7 * bytes)) != 0) {
            bytes++;
        }
        bytes = Math.max(bytes, min);
        for (int i = 0; i < bytes; i++) {
            int b = (int) (v >>> (7 * i) & 0x7F);
            out.write(i < bytes - 1 ? b | 0x80 : b);
        }
    }

    private void little(long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}
