package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The raw bytes of {@code armtrace packets} against OpenCSD's trc_pkt_lister on the same capture. */
class PacketBytesTest {
    private static final Pattern OPENCSD = Pattern.compile("^Idx:(\\d+); ID:0; \\[((?:0x[0-9a-f]{2} )+)\\];");
    private static final Pattern OURS = Pattern.compile("^ *(\\d+)  \\[((?:0x[0-9a-f]{2} ?)+)\\] ");

    @Test
    void everyPacketHasTheBytesTrcPktListerShows() throws Exception {
        Map<Long, String> expected = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedData.traceCovA15().resolve("expected/opencsd-1.8.0-decode.ppl"))) {
            Matcher m = OPENCSD.matcher(line);
            if (m.find()) {
                expected.put(Long.parseLong(m.group(1)), m.group(2).trim());
            }
        }
        CliTest.Result r = CliTest.run("packets", SharedData.traceCovA15().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<Long, String> ours = new LinkedHashMap<>();
        for (String line : r.out().split("\n")) {
            Matcher m = OURS.matcher(line);
            if (m.find()) {
                ours.put(Long.parseLong(m.group(1)), m.group(2).trim());
            }
        }
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(ours).isEqualTo(expected);

        CliTest.Result plain = CliTest.run("packets", SharedData.traceCovA15().toString(), "--no-bytes");
        assertThat(plain.out()).doesNotContain("[0x").contains("I_SYNC");
    }

    @Test
    void theJsonlListingHasTheSamePacketsAsTrcPktListerAndTheTextListing() throws Exception {
        Map<Long, String> expected = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedData.traceCovA15().resolve("expected/opencsd-1.8.0-decode.ppl"))) {
            Matcher m = OPENCSD.matcher(line);
            if (m.find()) {
                expected.put(Long.parseLong(m.group(1)), m.group(2).trim().replace("0x", "").replace(" ", ""));
            }
        }
        CliTest.Result r = CliTest.run("packets", SharedData.traceCovA15().toString(), "--format", "jsonl");
        assertThat(r.exit()).as(r.err()).isZero();
        CliTest.Result text = CliTest.run("packets", SharedData.traceCovA15().toString(), "--no-bytes");
        String[] textLines = text.out().split("\n");
        String[] jsonLines = r.out().split("\n");
        assertThat(jsonLines).hasSameSizeAs(textLines);
        Map<Long, String> ours = new LinkedHashMap<>();
        for (int i = 0; i < jsonLines.length; i++) {
            Map<String, String> n = fields(jsonLines[i]);
            long offset = Long.parseLong(n.get("offset"));
            ours.put(offset, n.get("bytes"));
            assertThat(n.get("bytes")).hasSize(2 * Integer.parseInt(n.get("length")));
            assertThat(n.get("text")).startsWith(n.get("kind"));
            // the text listing's line is the offset, then the same text
            assertThat(textLines[i]).isEqualTo(String.format("%8d  ", offset) + n.get("text"));
        }
        assertThat(ours).isEqualTo(expected);
    }

    /** The fields of one flat JSON object, values as text. */
    private static Map<String, String> fields(String line) throws java.io.IOException {
        Map<String, String> m = new LinkedHashMap<>();
        try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(line)) {
            assertThat(p.nextToken()).isEqualTo(com.fasterxml.jackson.core.JsonToken.START_OBJECT);
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.getCurrentName();
                p.nextToken();
                m.put(name, p.getText());
            }
        }
        return m;
    }

    @Test
    void theBytesOfEveryPacketOfAStreamJoinUpToTheStream() throws Exception {
        // TC2 0x11 (ETMv3): the bytes shown, packet after packet, are the deformatted stream itself
        CliTest.Result r = CliTest.run("packets", SharedData.tc2().toString(), "--source", "0x11");
        byte[] stream = io.armtrace.source.FrameDeformatter.demultiplex(
                Files.readAllBytes(SharedData.tc2().resolve("cstrace.bin"))).get(0x11);
        long checked = 0;
        for (String line : r.out().split("\n")) {
            Matcher m = OURS.matcher(line);
            if (!m.find() || line.contains("...]")) {
                continue;
            }
            int offset = Integer.parseInt(m.group(1));
            String[] bytes = m.group(2).trim().split(" ");
            for (int i = 0; i < bytes.length; i++) {
                assertThat(Integer.parseInt(bytes[i].substring(2), 16)).isEqualTo(stream[offset + i] & 0xFF);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(stream.length / 2);
    }
}
