package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reader gives atom packets and address packets without a context to {@link Etm4Speculation} as arguments
 * ({@link Etm4PacketListener#atom}, {@link Etm4PacketListener#address}), not in the packet object. The speculation
 * layer must make of them exactly the elements it makes of the same packets as objects (what a listener that only
 * has {@code packet} receives, through the interface's defaults): compared element by element, with offsets, on
 * every ETMv4 capture of the conformance data and on damaged trace. That the arguments are the packet's fields as
 * the reader's general path decodes them is {@link Etm4PacketReaderTest#packetsDoNotDependOnHowTheStreamIsCut}:
 * pushed byte by byte, no address packet takes the fast path.
 */
class Etm4PacketFastPathTest {

    /** The committed elements, each as its offset and its text. */
    private static List<String> elements(Etm4Config c, byte[] data, boolean asObjects) {
        List<String> out = new ArrayList<>();
        Etm4Speculation spec = new Etm4Speculation(c, e -> out.add(e.offset + " " + e));
        Etm4PacketListener in = asObjects ? spec::packet : spec;
        Etm4PacketReader r = new Etm4PacketReader(c, in);
        for (int i = 0; i < data.length; i += 4096) {
            r.push(data, i, Math.min(4096, data.length - i));
        }
        r.end();
        spec.end();
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"juno_r1_1", "juno-uname-001", "juno-uname-002", "bugfix-exact-match", "a55-test-tpiu",
            "a57_single_step", "armv8_1m_branches", "init-short-addr", "test-file-mem-offsets"})
    void argumentsAndObjectsGiveTheSameElements(String name) throws IOException {
        Snapshot snap = Snapshot.load(SharedData.dir("etm4/" + name));
        int sources = 0;
        long atoms = 0;
        long addresses = 0;
        for (SnapshotSource src : snap.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            if (!(p instanceof Etm4Protocol etm4) || src.bufferFile() == null) {
                continue;
            }
            sources++;
            Etm4Config c = etm4.config(Etm4FlowConformanceTest.registers(p, src, snap), src.traceId());
            byte[] data;
            try (InputStream s = src.data().open()) {
                data = s.readAllBytes();
            }
            List<String> fast = elements(c, data, false);
            List<String> objects = elements(c, data, true);
            assertThat(fast).as(name + " 0x%02x", src.traceId()).isEqualTo(objects);
            atoms += fast.stream().filter(e -> e.contains(" ATOM ")).count();
            addresses += fast.stream().filter(e -> e.contains(" ADDRESS ")).count();
        }
        assertThat(sources).as(name + ": ETMv4 sources").isPositive();
        if (!name.equals("init-short-addr") && !name.equals("a57_single_step")) {
            // (these two captures have none)
            assertThat(atoms).as(name + ": atoms").isPositive();
        }
        assertThat(addresses).as(name + ": addresses").isPositive();
    }

    /** The reader's {@code syncState} at every packet, as its listener sees it (arguments where the reader gives them). */
    private static List<Object> statesAtEachPacket(Etm4Config c, byte[] data, int chunk) {
        List<Object> out = new ArrayList<>();
        Etm4PacketReader[] reader = {null};
        Etm4PacketListener l = new Etm4PacketListener() {
            @Override
            public void packet(Etm4Packet p) {
                out.add(p.offset + " " + reader[0].syncState());
            }

            @Override
            public void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
                out.add(offset + " " + reader[0].syncState());
            }

            @Override
            public void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address, int is) {
                out.add(offset + " " + reader[0].syncState());
            }
        };
        reader[0] = new Etm4PacketReader(c, l);
        for (int i = 0; i < data.length; i += chunk) {
            reader[0].push(data, i, Math.min(chunk, data.length - i));
        }
        reader[0].end();
        return out;
    }

    /**
     * The chunked decode compares the reader's whole state ({@code syncState}) from within a listener call; the
     * packet loop keeps the address history in locals, so it must keep the fields current whenever it calls out:
     * the states seen at each packet are those of a reader fed byte by byte, whose packets all take the general
     * path.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"juno_r1_1", "bugfix-exact-match", "juno-uname-002"})
    void theReadersStateIsCurrentAtEveryPacket(String name) throws IOException {
        Snapshot snap = Snapshot.load(SharedData.dir("etm4/" + name));
        // the source with the most trace, its first 200,000 bytes
        byte[] data = new byte[0];
        Etm4Config c = null;
        for (SnapshotSource src : snap.sources()) {
            if (!(Protocols.forDeviceType(src.type()).orElse(null) instanceof Etm4Protocol etm4) || src.bufferFile() == null) {
                continue;
            }
            byte[] d;
            try (InputStream s = src.data().open()) {
                d = s.readNBytes(200_000);
            }
            if (d.length > data.length) {
                data = d;
                c = etm4.config(Etm4FlowConformanceTest.registers(etm4, src, snap), src.traceId());
            }
        }
        List<Object> whole = statesAtEachPacket(c, data, data.length);
        assertThat(whole).hasSizeGreaterThan(1000);
        assertThat(whole).isEqualTo(statesAtEachPacket(c, data, 1));
    }

    @Test
    void damagedTraceGivesTheSameElementsBothWays() {
        Random rnd = new Random(0xFA57);
        // A-sync, trace info with speculation depth 2, then addresses of every fast kind, atoms, commits, cancels
        int[] base = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x05, 0x00, 0x02, 0x9A, 0x01, 0x02, 0x03, 0x04, 0xF7,
            0xDB, 0x95, 0x12, 0xFB, 0x96, 0x85, 0x01, 0x2D, 0x02, 0x91, 0x9B, 0x40, 0x00, 0x10, 0x00, 0xF4, 0x90, 0xD5,
            0x92, 0x2E, 0x01, 0x95, 0xC2, 0x03, 0xDC, 0x04};
        for (int round = 0; round < 300; round++) {
            Etm4Config c = Etm4FuzzTest.config(rnd.nextInt(256), rnd.nextInt(256));
            byte[] data = new byte[1 + rnd.nextInt(2000)];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) base[i % base.length];
            }
            for (int k = rnd.nextInt(6); k > 0; k--) {
                data[rnd.nextInt(data.length)] = (byte) rnd.nextInt(256);
            }
            assertThat(elements(c, data, false)).as("round %d", round).isEqualTo(elements(c, data, true));
        }
    }
}
