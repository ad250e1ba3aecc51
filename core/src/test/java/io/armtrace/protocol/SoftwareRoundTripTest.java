package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.SoftwareEventFormat;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * decode(encode(events)) == events for ITM and STM, on seeded random runs of every kind of event, through the
 * events text format: the encoders and decoders are each other's inverse on everything the format can say.
 * (That they agree with each other proves little alone: the decoders are also checked against OpenCSD and the
 * ARMv7-M ARM, and the STM encoder's output against OpenCSD, see StmOpenCsdTest.)
 */
class SoftwareRoundTripTest {
    static final int SRC = 0x21;

    static List<TraceElement> roundTrip(String protocol, List<TraceElement> events, Map<String, String> options)
            throws IOException {
        String text = SoftwareEventFormat.write(events, protocol);
        List<TraceElement> parsed = SoftwareEventFormat.parse(List.of(text.split("\n")), "events", protocol, SRC);
        assertThat(parsed).as("the text format reads back what it wrote").isEqualTo(events);
        TraceProtocol p = Protocols.byName(protocol).orElseThrow();
        EncodeOutput enc = p.encodeSoftware(parsed, options);
        ElementCollector c = new ElementCollector();
        p.decode(new DecodeInput(SRC, enc.registers(), null, TraceData.of("encoded", enc.trace()), DecodeOptions.DEFAULT), c);
        return c.elements();
    }

    /** Sync elements are where the stream starts: the decoder reports the first only, and offsets are its own. */
    static List<TraceElement> comparable(List<TraceElement> elements) {
        List<TraceElement> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof TraceOn t) {
                if (t.reason() != TraceOn.Reason.SYNC) {
                    out.add(new TraceOn(t.source(), t.reason(), -1));
                }
            } else {
                out.add(e);
            }
        }
        return out;
    }

    static List<TraceElement> randomItm(Random r, int n) {
        List<TraceElement> out = new ArrayList<>();
        long gts = r.nextLong() >>> r.nextInt(64);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(11)) {
                case 0 -> out.add(new TraceOn(SRC, r.nextInt(3) == 0 ? TraceOn.Reason.SYNC : TraceOn.Reason.OVERFLOW, -1));
                case 1, 2 -> {
                    int bits = 8 << r.nextInt(3);
                    out.add(new SoftwareMessage(SRC, SoftwareMessage.Kind.DATA, -1, r.nextInt(r.nextBoolean() ? 32 : 256), bits,
                            r.nextLong() & (bits == 32 ? 0xFFFFFFFFL : (1L << bits) - 1), false, false));
                }
                case 3 -> out.add(new LocalTimestamp(SRC, r.nextInt(4) == 0 ? 1 + r.nextInt(6) : r.nextInt(1 << 28),
                        LocalTimestamp.Relation.values()[r.nextInt(4)]));
                case 4 -> {
                    // nearby and faraway timestamps: GTS1 alone, and GTS1 + GTS2 when the high bits change
                    gts = r.nextInt(3) == 0 ? r.nextLong() >>> 1 : gts + r.nextInt(1 << (1 + r.nextInt(30)));
                    out.add(new Timestamp(SRC, gts));
                }
                case 5 -> out.add(new ExceptionTrace(SRC, ExceptionTrace.Function.values()[r.nextInt(3)], r.nextInt(512)));
                case 6 -> out.add(r.nextInt(4) == 0 ? new PcSample(SRC, -1, true) : new PcSample(SRC, r.nextLong() & 0xFFFFFFFFL, false));
                case 7 -> out.add(new EventCounterWrap(SRC, r.nextInt(64)));
                case 8 -> out.add(new DataTrace(SRC, r.nextInt(4), DataTrace.Kind.PC_VALUE, r.nextLong() & 0xFFFFFFFFL, 4, false));
                case 9 -> out.add(new DataTrace(SRC, r.nextInt(4), DataTrace.Kind.ADDRESS, r.nextInt(1 << 16), 2, false));
                default -> {
                    int bytes = 1 << r.nextInt(3);
                    out.add(new DataTrace(SRC, r.nextInt(4), DataTrace.Kind.DATA_VALUE,
                            r.nextLong() & (bytes == 4 ? 0xFFFFFFFFL : (1L << (8 * bytes)) - 1), bytes, r.nextBoolean()));
                }
            }
        }
        return out;
    }

    static List<TraceElement> randomStm(Random r, int n) {
        List<TraceElement> out = new ArrayList<>();
        int master = 0;
        int channel = 0;
        long ts = 0;
        SoftwareMessage.Kind[] kinds = SoftwareMessage.Kind.values();
        for (int i = 0; i < n; i++) {
            if (r.nextInt(40) == 0) {
                out.add(new TraceOn(SRC, TraceOn.Reason.SYNC, -1));
                master = 0;
                channel = 0;
                continue;
            }
            if (r.nextInt(4) == 0) {
                master = r.nextInt(8) == 0 ? r.nextInt(1 << 16) : r.nextInt(256);
                channel = 0;
            }
            if (r.nextInt(3) == 0) {
                channel = r.nextInt(4) == 0 ? r.nextInt(1 << 16) : (channel & 0xFF00) | r.nextInt(256);
            }
            SoftwareMessage.Kind k = kinds[r.nextInt(kinds.length)];
            boolean stamped = r.nextBoolean() && k != SoftwareMessage.Kind.MASTER_ERROR && k != SoftwareMessage.Kind.GLOBAL_ERROR;
            if (stamped || r.nextInt(30) == 0) {
                ts = r.nextInt(4) == 0 ? r.nextLong() >>> 1 : ts + r.nextInt(1 << (1 + r.nextInt(30)));
                out.add(new Timestamp(SRC, ts));
            }
            int bits;
            long value;
            boolean marker = false;
            switch (k) {
                case DATA -> {
                    bits = 4 << r.nextInt(5);
                    value = bits == 64 ? r.nextLong() : r.nextLong() & ((1L << bits) - 1);
                    marker = r.nextBoolean();
                }
                case FLAG -> {
                    bits = 0;
                    value = 0;
                }
                case FREQUENCY -> {
                    bits = 32;
                    value = r.nextLong() & 0xFFFFFFFFL;
                }
                case USER -> {
                    bits = 4 * (1 + r.nextInt(16));
                    value = bits == 64 ? r.nextLong() : r.nextLong() & ((1L << bits) - 1);
                }
                case TIME -> {
                    int[] sizes = {0, 1, 2, 5, 8, 12, 14, 16};
                    bits = 4 * sizes[r.nextInt(sizes.length)];
                    value = bits == 64 ? r.nextLong() : r.nextLong() & ((1L << bits) - 1);
                }
                default -> {
                    bits = 8;
                    value = r.nextInt(256);
                }
            }
            if (k == SoftwareMessage.Kind.MASTER_ERROR) {
                channel = 0;
            } else if (k == SoftwareMessage.Kind.GLOBAL_ERROR) {
                master = 0;
                channel = 0;
            }
            out.add(new SoftwareMessage(SRC, k, master, channel, bits, value, marker, stamped));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16, 64})
    void itmEventsComeBackWithEveryPrescaler(int prescale) throws IOException {
        Random r = new Random(2100 + prescale);
        for (int round = 0; round < 60; round++) {
            List<TraceElement> events = randomItm(r, 1 + r.nextInt(200));
            List<TraceElement> scaled = new ArrayList<>();
            for (TraceElement e : events) {
                scaled.add(e instanceof LocalTimestamp l ? new LocalTimestamp(SRC, l.ticks() * prescale, l.relation()) : e);
            }
            List<TraceElement> back = roundTrip("itm", scaled, Map.of("ts-prescale", String.valueOf(prescale)));
            assertThat(comparable(back)).isEqualTo(comparable(scaled));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4})
    void stmEventsComeBackInBothTimestampCodings(int version) throws IOException {
        Random r = new Random(2200 + version);
        for (int round = 0; round < 60; round++) {
            List<TraceElement> events = randomStm(r, 1 + r.nextInt(200));
            List<TraceElement> back = roundTrip("stm", events, Map.of("version", String.valueOf(version)));
            assertThat(comparable(back)).isEqualTo(comparable(events));
        }
    }

    @Test
    void eventsALineCannotSayAreRefusedWithTheirLine() {
        assertThatThrownBy(() -> SoftwareEventFormat.parse(List.of("port 0 u8 1", "flag"), "ev.txt", "itm", 0))
                .hasMessageStartingWith("ev.txt line 2: 'flag' is not an ITM event");
        assertThatThrownBy(() -> SoftwareEventFormat.parse(List.of("port 256 u8 1"), "ev.txt", "itm", 0))
                .hasMessage("ev.txt line 1: 256 is larger than 255.");
        assertThatThrownBy(() -> SoftwareEventFormat.parse(List.of("d8 0x100"), "ev.txt", "stm", 0))
                .hasMessage("ev.txt line 1: 0x100 is larger than 255.");
        assertThatThrownBy(() -> SoftwareEventFormat.parse(List.of("port 0 \"open"), "ev.txt", "itm", 0))
                .hasMessage("ev.txt line 1: the string has no closing quote.");
        assertThatThrownBy(() -> Protocols.byName("itm").orElseThrow().encodeSoftware(
                List.of(new LocalTimestamp(0, 5, LocalTimestamp.Relation.SYNCHRONOUS)), Map.of("ts-prescale", "4")))
                .hasMessage("event 1: 5 ticks is not a multiple of the local timestamp prescaler 4.");
    }

    @Test
    void textOfPortWritesIsOneByteAWrite() {
        List<TraceElement> e = SoftwareEventFormat.parse(List.of("port 2 \"Hi\\n\"  # greeting"), "ev", "itm", 5);
        assertThat(e).containsExactly(
                new SoftwareMessage(5, SoftwareMessage.Kind.DATA, -1, 2, 8, 'H', false, false),
                new SoftwareMessage(5, SoftwareMessage.Kind.DATA, -1, 2, 8, 'i', false, false),
                new SoftwareMessage(5, SoftwareMessage.Kind.DATA, -1, 2, 8, '\n', false, false));
        assertThat(new Registers().put("ITMTCR", 0).has("itmtcr")).isTrue();
    }
}
