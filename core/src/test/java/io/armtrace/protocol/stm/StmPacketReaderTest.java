package io.armtrace.protocol.stm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** STPv2 packets built nibble by nibble (first nibble in the low half of a byte, values most significant first). */
class StmPacketReaderTest {

    /** Packs nibbles into bytes, low half first; an odd count is padded with a NULL (0). */
    static byte[] nibbles(String hex) {
        String h = hex.replace(" ", "");
        if (h.length() % 2 == 1) {
            h += "0";
        }
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int lo = Character.digit(h.charAt(2 * i), 16);
            int hi = Character.digit(h.charAt(2 * i + 1), 16);
            b[i] = (byte) (lo | hi << 4);
        }
        return b;
    }

    static final String ASYNC = "FFFFFFFFFFFFFFFFFFFFF0";
    static final String VERSION3 = "F003";

    static List<String> packets(byte[] b, int chunk) {
        List<String> out = new ArrayList<>();
        StmPacketReader r = new StmPacketReader(p -> out.add(p.toString()));
        for (int i = 0; i < b.length; i += chunk) {
            r.push(b, i, Math.min(chunk, b.length - i));
        }
        r.end();
        return out;
    }

    static List<String> packets(String hex) {
        byte[] b = nibbles(hex);
        return packets(b, Math.max(1, b.length));
    }

    static List<TraceElement> decode(String hex) {
        byte[] b = nibbles(hex);
        ElementCollector c = new ElementCollector();
        StmPacketReader r = new StmPacketReader(new StmFlow(3, c));
        r.push(b, 0, b.length);
        r.end();
        return c.elements();
    }

    @Test
    void nibblesAreReadLowHalfFirst() {
        // the byte 0xF1 0x41 ... : M8 is the nibble 1 then 4, 1: master 0x41
        assertThat(packets(ASYNC + VERSION3 + "141" + "3 07" + "6 12345678"))
                .containsExactly("ASYNC", "VERSION 3 (binary timestamps)", "M8 master 0x41", "C8 channel 0x0007",
                        "D32 0x12345678 (master 0x41 channel 0x0007)", "NULL");
    }

    @Test
    void markersTimestampsAndDataSizes() {
        // D8MTS: header 8, data, then a timestamp: its size nibble and that many nibbles
        assertThat(decode(ASYNC + VERSION3 + "8 5A 3 123" + "FD 7" + "7 0123456789ABCDEF" + "E 1 4")).containsExactly(
                new TraceOn(3, TraceOn.Reason.SYNC, 0),
                new Timestamp(3, 0x123),
                new SoftwareMessage(3, SoftwareMessage.Kind.DATA, 0, 0, 8, 0x5A, true, true),
                new SoftwareMessage(3, SoftwareMessage.Kind.DATA, 0, 0, 4, 0x7, true, false),
                new SoftwareMessage(3, SoftwareMessage.Kind.DATA, 0, 0, 64, 0x0123456789ABCDEFL, false, false),
                new Timestamp(3, 0x124),
                new SoftwareMessage(3, SoftwareMessage.Kind.FLAG, 0, 0, 0, 0, false, true));
    }

    @Test
    void grayCodedTimestampsReplaceLowGrayBits() {
        // VERSION 4: the timestamp nibbles are the low nibbles of the Gray code of the new value
        long t1 = 0x1000;
        long t2 = 0x1005;
        String g1 = String.format("%04X", t1 ^ (t1 >> 1));
        String g2 = String.format("%01X", (t2 ^ (t2 >> 1)) & 0xF);
        List<TraceElement> e = decode(ASYNC + "F004" + "F4 11 4" + g1 + "F4 22 1" + g2);
        assertThat(e).containsSubsequence(new Timestamp(3, t1), new Timestamp(3, t2));
    }

    @Test
    void stpv2PacketsTheCoreSightStmDoesNotSend() {
        // M16, USER (length nibble), TIME (clock, coding, size, value), XSYNC, NULL_TS, FREQ_TS
        assertThat(packets(ASYNC + VERSION3 + "F1 1234" + "F02 2 ABC" + "F04 5 3 2 BE" + "F0A 5A" + "F01 1 9" + "F09 00000064 0"))
                .containsExactly("ASYNC", "VERSION 3 (binary timestamps)", "M16 master 0x1234",
                        "USER 0xabc (master 0x1234 channel 0x0000)", "TIME clock 5 0xbe", "XSYNC 0x5a",
                        "NULL_TS ts=9 (4 bits)", "FREQ_TS 100 Hz ts=9 (0 bits)", "NULL");
    }

    @Test
    void reservedOpcodesAndBadVersionsLoseSync() {
        List<TraceElement> e = decode(ASYNC + VERSION3 + "4 11" + "F0C" + "4 22" + ASYNC + VERSION3 + "4 33");
        assertThat(e).containsExactly(new TraceOn(3, TraceOn.Reason.SYNC, 0),
                new SoftwareMessage(3, SoftwareMessage.Kind.DATA, 0, 0, 8, 0x11, false, false),
                new Gap(3, "opcode 0xF0C is reserved", 14), // nibble 29: the high half of byte 14
                new TraceOn(3, TraceOn.Reason.SYNC, 17),
                new SoftwareMessage(3, SoftwareMessage.Kind.DATA, 0, 0, 8, 0x33, false, false));
        assertThat(packets(ASYNC + "F005")).contains("BAD VERSION 5 is not a version of STPv2 armtrace reads (3 or 4)");
        assertThat(packets(ASYNC + VERSION3 + "F4 12 F")).contains("BAD timestamp of size code 0xF");
    }

    @Test
    void channelsAndMastersAsStpv2Sets() {
        // C8 replaces the low byte only; M8 resets the channel; MERR resets the channel; GERR both
        assertThat(packets(ASYNC + VERSION3 + "F3 0102" + "3 FF" + "1 07" + "3 05" + "2 00" + "F2 01"))
                .containsExactly("ASYNC", "VERSION 3 (binary timestamps)", "C16 channel 0x0102", "C8 channel 0x01ff",
                        "M8 master 0x07", "C8 channel 0x0005", "MERR error 0x00 (master 0x07 channel 0x0000)",
                        "GERR error 0x01");
    }

    @Test
    void asyncIsFoundAtEitherHalfOfAByte() {
        assertThat(packets("7" + ASYNC + VERSION3)).containsExactly("NOT_SYNC 1 nibbles before an ASYNC", "ASYNC",
                "VERSION 3 (binary timestamps)", "NULL");
        assertThat(packets("77" + ASYNC + VERSION3)).containsExactly("NOT_SYNC 2 nibbles before an ASYNC", "ASYNC",
                "VERSION 3 (binary timestamps)");
    }

    @Test
    void chunksDoNotMatter() {
        Random r = new Random(27);
        for (int round = 0; round < 200; round++) {
            StringBuilder h = new StringBuilder(ASYNC + VERSION3);
            int n = r.nextInt(300);
            for (int i = 0; i < n; i++) {
                h.append(Character.forDigit(r.nextInt(16), 16));
            }
            byte[] b = nibbles(h.toString());
            assertThat(packets(b, 1 + r.nextInt(5))).isEqualTo(packets(b, b.length));
        }
    }
}
