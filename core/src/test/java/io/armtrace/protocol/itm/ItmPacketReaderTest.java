package io.armtrace.protocol.itm;

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

/** Packets of the ARMv7-M ARM's Appendix D4, built bit by bit from its packet formats. */
class ItmPacketReaderTest {
    static final int[] SYNC = {0x00, 0x00, 0x00, 0x00, 0x00, 0x80};

    static List<String> packets(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return packets(b, b.length);
    }

    static List<String> packets(byte[] b, int chunk) {
        List<String> out = new ArrayList<>();
        ItmPacketReader r = new ItmPacketReader(p -> out.add(p.offset + " " + p.length + " " + p));
        for (int i = 0; i < b.length; i += chunk) {
            r.push(b, i, Math.min(chunk, b.length - i));
        }
        r.end();
        return out;
    }

    static int[] cat(int[]... parts) {
        int n = 0;
        for (int[] p : parts) {
            n += p.length;
        }
        int[] out = new int[n];
        int i = 0;
        for (int[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    static List<TraceElement> decode(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        ElementCollector c = new ElementCollector();
        ItmPacketReader r = new ItmPacketReader(new ItmFlow(new ItmConfig(0, 0, false), 7, c));
        r.push(b, 0, b.length);
        r.end();
        return c.elements();
    }

    @Test
    void synchronizationIsFortySevenZeroBitsAndAOne() {
        // D4.2.1: more zeros than 47 are allowed; fewer are not a synchronization packet
        assertThat(packets(0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80)).containsExactly("0 8 SYNC");
        assertThat(packets(0x00, 0x00, 0x00, 0x00, 0x80)).containsExactly("0 5 NOT_SYNC 5 bytes before a synchronization packet");
        assertThat(packets(0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x70))
                .containsExactly("0 1 NOT_SYNC 1 bytes before a synchronization packet", "1 6 SYNC", "7 1 OVERFLOW");
    }

    @Test
    void sourcePacketsCarryOneTwoOrFourBytesLittleEndian() {
        // 0bAAAAA0SS: software source (instrumentation) on port A; SS 01, 10, 11 = 1, 2, 4 bytes (D4.2.8)
        assertThat(packets(cat(SYNC, new int[] {0xF9, 0x41, 0x02, 0x34, 0x12, 0x0B, 0x78, 0x56, 0x34, 0x12}))).containsExactly(
                "0 6 SYNC", "6 2 SWIT port 31 1 byte 0x41", "8 3 SWIT port 0 2 bytes 0x1234", "11 5 SWIT port 1 4 bytes 0x12345678");
    }

    @Test
    void stimulusPortPageExtendsThePortNumber() {
        // extension 0b0 EEE 1 0 00 with SH = 0 selects page EEE: port = page * 32 + A (D4.2.6)
        assertThat(packets(cat(SYNC, new int[] {0x78, 0x09, 0x21, 0x08, 0x09, 0x21}))).containsExactly(
                "0 6 SYNC", "6 1 EXTENSION stimulus port page 7", "7 2 SWIT port 225 1 byte 0x21",
                "9 1 EXTENSION stimulus port page 0", "10 2 SWIT port 1 1 byte 0x21");
    }

    @Test
    void localTimestampsOneAndTwo() {
        // format 2: 0b0TS0000 with TS 1-6; format 1: 0b11TC0000 then 7-bit groups with continuation (D4.2.4)
        assertThat(packets(cat(SYNC, new int[] {0x10, 0x60, 0xC0, 0x05, 0xF0, 0xFF, 0xFF, 0xFF, 0x7F}))).containsExactly(
                "0 6 SYNC", "6 1 LTS2 1 (synchronous)", "7 1 LTS2 6 (synchronous)", "8 2 LTS1 5 (synchronous)",
                "10 5 LTS1 268435455 (timestamp and packet delayed)");
    }

    @Test
    void globalTimestampsNeedTheirHighBitsBeforeTheyAreWhole() {
        // GTS1 gives bits [25:0] (the fourth byte: [25:21], ClkCh, Wrap), GTS2 bits [47:26] (D4.2.5)
        List<TraceElement> e = decode(cat(SYNC, new int[] {0x94, 0x81, 0x80, 0x80, 0x00, // GTS1 = 1: no element yet
            0xB4, 0x81, 0x80, 0x80, 0x00, // GTS2 = 1: timestamp 1 << 26 | 1
            0x94, 0x05, // GTS1 bits [6:0] = 5
            0x94, 0x81, 0x80, 0x80, 0x40, // Wrap: the high bits changed, wait for GTS2
            0xB4, 0x82, 0x80, 0x80, 0x00})); // GTS2 = 2
        assertThat(e).containsExactly(new TraceOn(7, TraceOn.Reason.SYNC, 0), new Timestamp(7, (1L << 26) | 1),
                new Timestamp(7, (1L << 26) | 5), new Timestamp(7, (2L << 26) | 1));
    }

    @Test
    void reservedHeaderLosesSyncUntilTheNextSynchronization() {
        // 0x04 is a reserved header: a gap with its offset, nothing until the next synchronization packet
        List<TraceElement> e = decode(cat(SYNC, new int[] {0x09, 0x41, 0x04, 0x09, 0x42}, SYNC, new int[] {0x09, 0x43}));
        assertThat(e).containsExactly(new TraceOn(7, TraceOn.Reason.SYNC, 0),
                new SoftwareMessage(7, SoftwareMessage.Kind.DATA, -1, 1, 8, 0x41, false, false),
                new Gap(7, "0x04: 0bxxxx0100 is reserved except for the global timestamps", 8),
                new TraceOn(7, TraceOn.Reason.SYNC, 11),
                new SoftwareMessage(7, SoftwareMessage.Kind.DATA, -1, 1, 8, 0x43, false, false));
    }

    @Test
    void tooLongContinuationAndBrokenSyncAreBad() {
        assertThat(packets(cat(SYNC, new int[] {0xC0, 0x80, 0x80, 0x80, 0x80, 0x01})))
                .contains("6 5 BAD 0xc0 packet with more than 4 payload bytes");
        assertThat(packets(cat(SYNC, new int[] {0x00, 0x00, 0x41})))
                .contains("6 3 BAD synchronization packet broken by 0x41 after 2 zero bytes");
        assertThat(packets(cat(SYNC, new int[] {0x0B, 0x01}))).contains("6 2 INCOMPLETE 2 bytes at the end of the trace");
    }

    @Test
    void hardwareSourcePackets() {
        // discriminators 0, 1, 2, 8-23 (D4.3); 3-7 and 24-31 reserved
        assertThat(packets(cat(SYNC, new int[] {0x05, 0x3F, 0x0E, 0x0F, 0x21, 0x17, 0x01, 0x02, 0x03, 0x04, 0x15, 0x00,
            0x47, 0x01, 0x02, 0x03, 0x04, 0x4E, 0x34, 0x12, 0xBD, 0x99, 0x1D, 0x00}))).containsExactly(
                "0 6 SYNC", "6 2 EVENT_COUNTER 0x3f wrapped: cpi exc sleep lsu fold cyc",
                "8 3 EXCEPTION exited 271 (IRQ255)", "11 5 PC_SAMPLE 0x04030201", "16 2 PC_SAMPLE sleeping",
                "18 5 DATA_PC comparator 0 0x04030201", "23 3 DATA_ADDRESS comparator 0 address bits [15:0] 0x1234",
                "26 2 DATA_VALUE comparator 3 write 0x99", "28 2 HW_RESERVED discriminator 3 1 byte 0x00");
    }

    /** Whatever the chunks the stream comes in, the packets are the same. */
    @Test
    void chunksDoNotMatter() {
        Random r = new Random(21);
        for (int round = 0; round < 200; round++) {
            byte[] b = new byte[r.nextInt(400)];
            for (int i = 0; i < b.length; i++) {
                // mostly packet-like bytes, sometimes a sync
                b[i] = (byte) (r.nextInt(8) == 0 ? 0 : r.nextInt(256));
            }
            if (b.length > 20 && r.nextBoolean()) {
                int at = r.nextInt(b.length - 7);
                for (int i = 0; i < 5; i++) {
                    b[at + i] = 0;
                }
                b[at + 5] = (byte) 0x80;
            }
            assertThat(packets(b, 1 + r.nextInt(7))).isEqualTo(packets(b, b.length == 0 ? 1 : b.length));
        }
    }
}
