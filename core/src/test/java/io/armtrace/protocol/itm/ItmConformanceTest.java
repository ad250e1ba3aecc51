package io.armtrace.protocol.itm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.testdata.OpenCsdReference;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The ITM captures of OpenCSD's test set and TC2's ITM source. Debian's OpenCSD (1.3.3) has no ITM decoder, so
 * the packets and elements are checked against a decode by hand (itm_only_raw.expected.txt, from the ARMv7-M
 * ARM's Appendix D4), and OpenCSD's frame deformatter is the reference for the bytes of the ITM source that
 * CoreSight frames (a buffer, a TPIU capture) hold.
 */
class ItmConformanceTest {
    private static final Path EXPECTED = Path.of("core/src/test/resources/swtrace/itm_only_raw.expected.txt");

    record Line(long offset, int length, String packet, String element) {
    }

    static List<Line> expected() throws IOException {
        List<Line> out = new ArrayList<>();
        for (String l : Files.readAllLines(EXPECTED, StandardCharsets.UTF_8)) {
            int hash = l.indexOf('#');
            String body = (hash >= 0 ? l.substring(0, hash) : l).trim();
            if (body.isEmpty()) {
                continue;
            }
            String[] f = body.split("\\s+", 4);
            out.add(new Line(Long.decode(f[0]), Integer.parseInt(f[1]), f[2], f[3].trim()));
        }
        return out;
    }

    static List<TraceElement> decode(SnapshotSource src) throws IOException {
        ElementCollector c = new ElementCollector();
        new ItmProtocol().decode(DecodeInput.of(src), c);
        return c.elements();
    }

    @Test
    void rawCapturePacketsAreTheHandDecode() throws IOException {
        SnapshotSource src = Snapshot.load(SharedData.dir("swtrace/itm_only_raw")).sources().get(0);
        List<String> packets = new ArrayList<>();
        ItmPacketReader reader = new ItmPacketReader(p -> packets.add(String.format("0x%03x %d %s", p.offset, p.length,
                name(p.kind))));
        byte[] bytes = read(src.data());
        reader.push(bytes, 0, bytes.length);
        reader.end();
        List<String> want = new ArrayList<>();
        for (Line l : expected()) {
            want.add(String.format("0x%03x %d %s", l.offset(), l.length(), l.packet()));
        }
        assertThat(packets).containsExactlyElementsOf(want);
    }

    @Test
    void rawCaptureElementsAreTheHandDecode() throws IOException {
        SnapshotSource src = Snapshot.load(SharedData.dir("swtrace/itm_only_raw")).sources().get(0);
        assertThat(src.type()).isEqualTo("ITM");
        List<String> want = new ArrayList<>();
        for (Line l : expected()) {
            if (!l.element().equals("-")) {
                want.add(l.element());
            }
        }
        assertThat(forms(decode(src))).containsExactlyElementsOf(want);
    }

    /** The ITM source in CoreSight frames is the same stream: OpenCSD's deformatter takes the same bytes out. */
    @Test
    void formattedCaptureHoldsTheRawStreamAsOpenCsdDeformatsIt() throws IOException {
        Path dir = SharedData.dir("swtrace/itm_only_csformat");
        SnapshotSource src = Snapshot.load(dir).sources().get(0);
        assertThat(src.traceId()).isEqualTo(0x14); // ITMTCR TraceBusID, bits 22:16
        byte[] raw = Files.readAllBytes(SharedData.dir("swtrace/itm_only_raw").resolve("itm_testdata.bin"));
        byte[] openCsd = OpenCsdReference.rawUnpacked(
                OpenCsdReference.lines(OpenCsdReference.swtrace("itm_only_csformat.raw.ppl")), 0x14);
        assertThat(openCsd).isEqualTo(raw);
        assertThat(read(src.data())).isEqualTo(raw);
        SnapshotSource rawSrc = Snapshot.load(SharedData.dir("swtrace/itm_only_raw")).sources().get(0);
        assertThat(forms(decode(src))).isEqualTo(forms(decode(rawSrc)));
    }

    /** A TPIU port capture of it (full-frame and half-word syncs): the same bytes again, as OpenCSD finds them. */
    @Test
    void tpiuCaptureHoldsTheRawStreamAsOpenCsdDeformatsIt() throws IOException {
        Path tpiu = Path.of("core/src/test/resources/swtrace/itm-tpiu.bin");
        byte[] raw = Files.readAllBytes(SharedData.dir("swtrace/itm_only_raw").resolve("itm_testdata.bin"));
        byte[] openCsd = OpenCsdReference.rawUnpacked(OpenCsdReference.lines(OpenCsdReference.swtrace("itm-tpiu.raw.ppl")), 0x14);
        assertThat(openCsd).isEqualTo(raw);
        byte[] capture = Files.readAllBytes(tpiu);
        assertThat(FrameDeformatter.demultiplex(capture, true).get(0x14)).isEqualTo(raw);
        assertThat(read(TraceData.formatted(tpiu, 0x14, true))).isEqualTo(raw);
    }

    /**
     * TC2's ITM source (trace ID 0x20) put nothing into the buffer: OpenCSD's deformatter finds no byte of it, nor
     * does armtrace's, and its decode is empty (one element for one with OpenCSD's nothing).
     */
    @Test
    void tc2ItmSourceIsSilentAsOpenCsdSays() throws IOException {
        Map<String, Long> openCsd = new TreeMap<>();
        for (String l : Files.readAllLines(OpenCsdReference.swtrace("TC2.bytes-per-id.txt"))) {
            String[] f = l.trim().split(" ");
            openCsd.put(f[0], Long.parseLong(f[1]));
        }
        Map<String, Long> ours = new TreeMap<>();
        try (InputStream in = Files.newInputStream(SharedData.tc2().resolve("cstrace.bin"))) {
            FrameDeformatter.bytesPerSource(in, false).forEach((id, n) -> ours.put(String.format("0x%02x", id), n));
        }
        openCsd.remove("0x00"); // ID 0 is the formatter's null source: its bytes are padding, dropped by both
        assertThat(ours).isEqualTo(openCsd).doesNotContainKey("0x20");
        SnapshotSource itm = Snapshot.load(SharedData.tc2()).source(0x20).orElseThrow();
        assertThat(itm.type()).isEqualTo("ITM");
        assertThat(decode(itm)).isEmpty();
    }

    static byte[] read(TraceData data) throws IOException {
        try (InputStream in = data.open()) {
            return in.readAllBytes();
        }
    }

    static String name(ItmPacket.Kind k) {
        return switch (k) {
            case SYNCHRONIZATION -> "SYNC";
            case INSTRUMENTATION -> "SWIT";
            case LOCAL_TIMESTAMP_1 -> "LTS1";
            case LOCAL_TIMESTAMP_2 -> "LTS2";
            case GLOBAL_TIMESTAMP_1 -> "GTS1";
            case GLOBAL_TIMESTAMP_2 -> "GTS2";
            case EXCEPTION_TRACE -> "EXCEPTION";
            case PERIODIC_PC_SAMPLE -> "PC_SAMPLE";
            case PERIODIC_PC_SLEEP -> "PC_SLEEP";
            case DATA_TRACE_PC_VALUE -> "DATA_PC";
            case DATA_TRACE_ADDRESS -> "DATA_ADDRESS";
            case DATA_TRACE_DATA_VALUE -> "DATA_VALUE";
            case RESERVED_HARDWARE_SOURCE -> "HW_RESERVED";
            default -> k.name();
        };
    }

    /** The elements in the hand decode's words. */
    static List<String> forms(List<TraceElement> elements) {
        List<String> out = new ArrayList<>();
        for (TraceElement e : elements) {
            out.add(form(e));
        }
        return out;
    }

    static String form(TraceElement e) {
        if (e instanceof Gap) {
            return "gap";
        } else if (e instanceof TraceOn t) {
            return t.reason().name().toLowerCase(Locale.ROOT);
        } else if (e instanceof DecodeError) {
            return "error";
        } else if (e instanceof SoftwareMessage m) {
            return "port " + m.channel() + " " + m.bits() + " 0x" + Long.toHexString(m.value());
        } else if (e instanceof LocalTimestamp l) {
            return "lts " + l.ticks() + " " + l.relation().name().toLowerCase(Locale.ROOT).replace('_', '-')
                    ;
        } else if (e instanceof Timestamp t) {
            return "ts " + t.value();
        } else if (e instanceof EventCounterWrap w) {
            StringBuilder sb = new StringBuilder("counters");
            for (int i = 0; i < 6; i++) {
                if ((w.counters() >> i & 1) != 0) {
                    sb.append(' ').append(EventCounterWrap.NAMES[i]);
                }
            }
            return sb.toString();
        } else if (e instanceof ExceptionTrace x) {
            return "exception " + x.function().name().toLowerCase(Locale.ROOT) + " " + x.number();
        } else if (e instanceof PcSample s) {
            return s.sleep() ? "pc sleep" : "pc 0x" + Long.toHexString(s.address());
        } else if (e instanceof DataTrace d) {
            String k = switch (d.kind()) {
                case PC_VALUE -> "pc";
                case ADDRESS -> "address";
                case DATA_VALUE -> d.write() ? "write" : "read";
            };
            return "data " + d.comparator() + " " + k + " " + d.bytes() + " 0x" + Long.toHexString(d.value());
        }
        return e.toString();
    }
}
