package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The packet records every protocol hands to listings and statistics, against OpenCSD's trc_pkt_lister. */
class PacketRecordsTest {
    private static final Pattern OPENCSD = Pattern.compile(
            "^Idx:(\\d+); ID:0; \\[((?:0x[0-9a-f]{2} )+)\\];\\t([A-Z_]+) :");
    /** OpenCSD's PTM packet names and ours (IHI 0035B names both, spelled differently). */
    private static final Map<String, String> NAMES = Map.of("ASYNC", "A_SYNC", "ISYNC", "I_SYNC", "ATOM", "ATOM",
            "BRANCH_ADDRESS", "BRANCH_ADDRESS", "TIMESTAMP", "TIMESTAMP", "ERET", "EXCEPTION_RETURN");

    @Test
    void ptmRecordsHaveTheKindsOffsetsAndBytesTrcPktListerShows() throws Exception {
        Map<Long, String> expected = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedData.traceCovA15().resolve("expected/opencsd-1.8.0-decode.ppl"))) {
            Matcher m = OPENCSD.matcher(line);
            if (m.find()) {
                expected.put(Long.parseLong(m.group(1)), NAMES.get(m.group(3)) + " " + m.group(2).trim());
            }
        }
        SnapshotSource src = Snapshot.load(SharedData.traceCovA15()).sources().stream()
                .filter(s -> s.bufferFile() != null).findFirst().orElseThrow();
        TraceProtocol ptm = Protocols.forDeviceType(src.type()).orElseThrow();
        Map<Long, String> ours = new LinkedHashMap<>();
        try (PacketListing listing = new PacketListing(src.data(), true)) {
            ptm.packets(DecodeInput.of(src), p -> {
                try {
                    Packet full = listing.withBytes(p);
                    StringBuilder hex = new StringBuilder();
                    for (byte b : full.bytes()) {
                        hex.append(hex.length() == 0 ? "" : " ").append(String.format("0x%02x", b & 0xFF));
                    }
                    assertThat(full.bytes()).hasSize(Math.min(p.length(), PacketListing.MAX_BYTES));
                    assertThat(full.text()).isEqualTo(p.text()).startsWith(p.kind());
                    ours.put(p.offset(), p.kind() + " " + hex);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(ours).isEqualTo(expected);
    }

    /**
     * Where packets follow each other through the stream, their byte spans tile it (each record's length is
     * the distance to the next record's offset; STPv2's nibble packets may share a byte), so statistics by kind add up to the whole trace. Checked on
     * every byte-stream source of the bundled examples and of TC2.
     */
    @Test
    void byteStreamRecordsTileTheirStream() throws Exception {
        List<Path> snapshots = List.of(Path.of("examples/etm3-a9-thumb"), Path.of("examples/ptm-a15"), SharedData.tc2(),
                SharedData.dir("swtrace/itm_only_raw"), SharedData.dir("swtrace/stm_only"));
        int checked = 0;
        for (Path dir : snapshots) {
            for (SnapshotSource src : Snapshot.load(dir).sources()) {
                TraceProtocol protocol = Protocols.forDeviceType(src.type()).orElse(null);
                if (protocol == null || !protocol.packetsFollowEachOther() || src.bufferFile() == null) {
                    continue;
                }
                long size;
                try (java.io.InputStream in = src.data().open()) {
                    size = in.transferTo(java.io.OutputStream.nullOutputStream());
                }
                List<Packet> records = new ArrayList<>();
                protocol.packets(DecodeInput.of(src), records::add);
                // STPv2 packets are nibbles: two packets may share the byte between them
                int shared = protocol.name().equals("stm") ? 1 : 0;
                long at = 0;
                for (Packet p : records) {
                    assertThat(p.offset()).as("%s %s", dir, p).isBetween(at - shared, at);
                    assertThat(p.kind()).isNotBlank().doesNotContain(" ");
                    at = p.offset() + p.length();
                }
                assertThat(at).as("%s source %s", dir, src.name()).isEqualTo(size);
                checked++;
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(5);
    }

    /**
     * {@code packetKinds} (what {@code armtrace stats} counts) names every packet as {@code packets} does, at the same
     * offset and length: on every source of the bundled examples, TC2, ETMv4 snapshots and software trace.
     */
    @Test
    void packetKindsAreThePacketsKindsOffsetsAndLengths() throws Exception {
        List<Path> snapshots = List.of(Path.of("examples/etm3-a9-thumb"), Path.of("examples/ptm-a15"),
                Path.of("examples/mtb-m0plus"), Path.of("examples/etm2-arm926-thumb"), SharedData.tc2(),
                SharedData.dir("etm4/juno_r1_1"), SharedData.dir("etm4/armv8_1m_branches"),
                SharedData.dir("swtrace/itm_only_raw"), SharedData.dir("swtrace/stm_only"));
        java.util.Set<String> protocols = new java.util.TreeSet<>();
        for (Path dir : snapshots) {
            for (SnapshotSource src : Snapshot.load(dir).sources()) {
                TraceProtocol protocol = Protocols.forDeviceType(src.type()).orElse(null);
                if (protocol == null || src.bufferFile() == null) {
                    continue;
                }
                List<String> records = new ArrayList<>();
                protocol.packets(DecodeInput.of(src), p -> records.add(p.kind() + " " + p.offset() + " " + p.length()));
                List<String> kinds = new ArrayList<>();
                protocol.packetKinds(DecodeInput.of(src), (kind, offset, length) -> kinds.add(kind + " " + offset + " " + length));
                assertThat(kinds).as("%s source %s", dir, src.name()).isEqualTo(records);
                if (!records.isEmpty()) {
                    protocols.add(protocol.name());
                }
            }
        }
        assertThat(protocols).contains("etm3", "ptm", "etm4", "mtb", "itm", "stm");
    }
}
