package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.etm4.Etm4Packet.Kind;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The packet reader on its own: bit-level cases from IHI 0064's packet descriptions, and properties that must hold for
 * any input: the packets do not depend on how the bytes are cut into chunks, and every byte is in exactly
 * one packet.
 */
class Etm4PacketReaderTest {

    static List<String> packets(Etm4Config c, byte[] data, int... chunks) {
        List<String> out = new ArrayList<>();
        Etm4PacketReader r = new Etm4PacketReader(c, p -> out.add(p.offset + "+" + p.length + " " + p.text(false)));
        int pos = 0;
        int i = 0;
        while (pos < data.length) {
            int n = chunks.length == 0 ? data.length : Math.min(chunks[i++ % chunks.length], data.length - pos);
            r.push(data, pos, n);
            pos += n;
        }
        r.end();
        return out;
    }

    static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    static final int[] ASYNC = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80};

    static byte[] synced(int... v) {
        byte[] b = new byte[ASYNC.length + v.length];
        for (int i = 0; i < ASYNC.length; i++) {
            b[i] = (byte) ASYNC[i];
        }
        for (int i = 0; i < v.length; i++) {
            b[ASYNC.length + i] = (byte) v[i];
        }
        return b;
    }

    static final Etm4Config DEFAULT = Etm4Config.of(new Registers(), false);

    @Test
    void atomFormatsReadAsTheSpecificationTablesSay() {
        // IHI 0064, Atom packets: format 1 b1111011A; format 2 b110110AA; format 3 b11111AAA (bit 0 the oldest atom,
        // 1 = E); format 4 b110111AA (EEEN, NNNN, ENEN, NENE, newest first); format 5 (NEEEE ...); format 6
        // b11A0xxxx: xxxx+3 E atoms then E (A = 0) or N
        assertThat(packets(DEFAULT, synced(0xF6, 0xF7, 0xD9, 0xFC, 0xDC, 0xDE, 0xF5, 0xD5, 0xC0, 0xF4)))
                .containsSubsequence("12+1 ATOM_F1 N", "13+1 ATOM_F1 E", "14+1 ATOM_F2 EN", "15+1 ATOM_F3 NNE",
                        "16+1 ATOM_F4 NEEE", "17+1 ATOM_F4 NENE", "18+1 ATOM_F5 NEEEE", "19+1 ATOM_F5 NNNNN",
                        "20+1 ATOM_F6 EEEE", "21+1 ATOM_F6 EEEEEEEEEEEEEEEEEEEEEEEN");
    }

    @Test
    void addressesAreCompressedAgainstTheHistoryAndExactMatchesPickAnEntry() {
        // long 64-bit IS0 0x1000, short IS0 (bits [8:2] only), long 32-bit IS1, exact match entries 1 and 2
        List<String> p = packets(DEFAULT, synced(0x01, 0x00,
                0x9D, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x95, 0x21,
                0x9B, 0x01, 0x20, 0x00, 0x80,
                0x91, 0x92));
        assertThat(p).containsSubsequence("14+9 ADDR_LONG_64_IS0 addr=0x1000 IS0", "23+2 ADDR_SHORT_IS0 addr=0x1084 IS0 (9 bits)",
                "25+5 ADDR_LONG_32_IS1 addr=0x80002002 IS1 (32 bits)", "30+1 ADDR_EXACT_MATCH [1] addr=0x1084 IS0",
                // the exact match pushed 0x1084 again: the history is 0x1084, 0x80002002, 0x1084
                "31+1 ADDR_EXACT_MATCH [2] addr=0x1084 IS0");
    }

    @Test
    void aTraceInfoResetsTheAddressHistory() {
        List<String> p = packets(DEFAULT, synced(0x9D, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x01, 0x01, 0x00, 0x95, 0x21));
        assertThat(p).containsSubsequence("12+9 ADDR_LONG_64_IS0 addr=0xff00000000001000 IS0",
                "24+2 ADDR_SHORT_IS0 addr=0x84 IS0 (9 bits)");
    }

    @Test
    void timestampsAndCycleCountsUseTheWholeField() {
        // 20-bit cycle counter, commit mode 0 (the cycle count format 1 packet has a commit field)
        Etm4Config c = Etm4Config.of(new Registers().put("TRCIDR2", 0x488 | 8L << 25).put("TRCIDR0", 0x08000EA1L), false);
        // timestamp with count: 9-byte value field (the 9th byte has 8 bits), then a count
        assertThat(packets(c, synced(0x01, 0x01, 0x01, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x85, 0x01)))
                .last().isEqualTo("15+12 TIMESTAMP ts=0xffffffffffffffff (64 bits) cc=133");
        // trace info with threshold 0x10, cycle count format 1: commit 2, count 0x21 (+ threshold)
        assertThat(packets(c, synced(0x01, 0x09, 0x01, 0x10, 0x0E, 0x02, 0x21)))
                .last().isEqualTo("16+3 CYCLE_COUNT_F1 count=49 commit=2");
    }

    @Test
    void packetsDoNotDependOnHowTheStreamIsCut() throws IOException {
        for (String[] s : new String[][] {{"juno_r1_1", "16"}, {"bugfix-exact-match", "18"}, {"a55-test-tpiu", "1"}}) {
            byte[] data = stream(s[0], Integer.parseInt(s[1]));
            Etm4Config c = Etm4Config.of(Snapshot.load(SharedData.dir("etm4/" + s[0])).sources().stream()
                    .filter(x -> x.traceId() == Integer.parseInt(s[1])).findFirst().orElseThrow().registers(), false);
            List<String> whole = packets(c, data);
            assertThat(whole).hasSizeGreaterThan(1000);
            assertThat(packets(c, data, 1)).as(s[0] + " byte by byte").isEqualTo(whole);
            assertThat(packets(c, data, 7, 3, 64, 1, 2, 13)).as(s[0] + " in odd pieces").isEqualTo(whole);
        }
    }

    @Test
    void anyBytesAreCutIntoPacketsTheSameWayInAnyChunks() {
        Random rnd = new Random(0xE7A4);
        for (int round = 0; round < 300; round++) {
            Etm4Config c = Etm4FuzzTest.config(rnd.nextInt(256), rnd.nextInt(256));
            byte[] data = new byte[1 + rnd.nextInt(600)];
            if (round % 2 == 0) {
                rnd.nextBytes(data);
            } else {
                // mostly valid trace, damaged here and there
                byte[] base = synced(0x01, 0x01, 0x00, 0x04, 0x85, 0x10, 0, 0x40, 0, 0, 0, 0, 0, 0x30, 0xF7, 0xDB, 0x95,
                        0x12, 0xFB, 0x06, 0x1D, 0x95, 0x20, 0x2D, 0x02, 0x9A, 0x01, 0x02, 0x03, 0x04, 0xF4);
                for (int i = 0; i < data.length; i++) {
                    data[i] = base[i % base.length];
                }
                for (int k = rnd.nextInt(4); k > 0; k--) {
                    data[rnd.nextInt(data.length)] = (byte) rnd.nextInt(256);
                }
            }
            List<String> whole = packets(c, data);
            assertThat(packets(c, data, 1 + rnd.nextInt(5), 1 + rnd.nextInt(40))).isEqualTo(whole);
            long covered = 0;
            for (String p : whole) {
                int plus = p.indexOf('+');
                assertThat(Long.parseLong(p.substring(0, plus))).as("packets follow each other").isEqualTo(covered);
                covered += Long.parseLong(p.substring(plus + 1, p.indexOf(' ')));
            }
            assertThat(covered).as("every byte in one packet").isEqualTo(data.length);
        }
    }

    @Test
    void errorsAreReportedAndTheReaderWaitsForTheNextASync() {
        Etm4Config c = DEFAULT;
        // reserved header 0x08, then bytes until an A-sync; the A-sync has extra zeros before it
        List<String> p = packets(c, synced(0xF7, 0x08, 0xF7, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xF6));
        assertThat(p).containsExactly("0+12 A_SYNC", "12+1 ATOM_F1 E", "13+1 RESERVED reserved header",
                "14+2 NOT_SYNC 2 bytes before a synchronization point", "16+12 A_SYNC", "28+1 ATOM_F1 N");
        // a packet cut off by the end of the trace
        assertThat(packets(c, synced(0x9D, 0x01, 0x02))).last().isEqualTo("12+3 INCOMPLETE trace ended inside a packet");
        // Q packets are reserved on a unit without Q elements
        assertThat(packets(c, synced(0xA0, 0x01))).contains("12+1 RESERVED header reserved in this configuration");
    }

    static byte[] stream(String snapshot, int id) throws IOException {
        var src = Snapshot.load(SharedData.dir("etm4/" + snapshot)).source(id).orElseThrow();
        try (InputStream in = src.data().open()) {
            return in.readAllBytes();
        }
    }

    @Test
    void eteInstrumentationPacketsCarryAnExceptionLevelAndA64BitValue() {
        // ETE v1.3 (FEAT_ITE): header 0x09, the EL byte, 8 value bytes, least significant first
        Etm4Config ete13 = Etm4Config.of(new Registers().put("TRCDEVARCH", 0x47735A13L), true);
        assertThat(packets(ete13, synced(0x09, 0x02, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11)))
                .last().isEqualTo("12+10 INSTRUMENTATION el=2 value=0x1122334455667788");
        List<String> elements = new ArrayList<>();
        Etm4Speculation s = new Etm4Speculation(ete13, e -> elements.add(e.toString()));
        Etm4PacketReader r = new Etm4PacketReader(ete13, s);
        byte[] b = synced(0x01, 0x01, 0x00, 0x09, 0x01, 0x05, 0, 0, 0, 0, 0, 0, 0);
        r.push(b, 0, b.length);
        assertThat(elements).containsExactly("TRACE_INFO", "INSTRUMENTATION el=1 0x5");
        // before ETE v1.3 the header is reserved
        Etm4Config ete11 = Etm4Config.of(new Registers().put("TRCDEVARCH", 0x47715A13L), true);
        assertThat(packets(ete11, synced(0x09))).contains("12+1 RESERVED reserved header");
    }

    @Test
    void kindsHaveTheirPlaces() {
        assertThat(Kind.ADDR_CTXT_64_IS1.isAddress()).isTrue();
        assertThat(Kind.ADDR_CTXT_64_IS1.hasContext()).isTrue();
        assertThat(Kind.ADDR_EXACT_MATCH.hasContext()).isFalse();
        assertThat(Kind.SRC_ADDR_SHORT_IS0.isSourceAddress()).isTrue();
        assertThat(Kind.SRC_ADDR_SHORT_IS0.isAddress()).isFalse();
        assertThat(Kind.ATOM_F6.isAtom()).isTrue();
        assertThat(Kind.Q.isAtom()).isFalse();
    }
}
