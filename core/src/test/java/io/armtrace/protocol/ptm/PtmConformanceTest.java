package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Real hardware trace against reference decodes made by other decoders (DS-5, OpenCSD). */
class PtmConformanceTest {

    static List<TraceElement> decode(Path dir, int traceId) throws IOException {
        Snapshot s = Snapshot.load(dir);
        SnapshotSource src = traceId < 0 ? s.sources().stream()
                .filter(x -> x.type().toUpperCase().startsWith("P")).findFirst().orElseThrow()
                : s.source(traceId).orElseThrow();
        TraceProtocol p = Protocols.forDeviceType(src.type()).orElseThrow();
        assertThat(p).isInstanceOf(PtmProtocol.class);
        ElementCollector c = new ElementCollector();
        p.decode(DecodeInput.of(src), c);
        return c.elements();
    }

    /** "address flag" per instruction, flag F for a condition-failed one. */
    static List<String> instructions(List<TraceElement> elements, MemoryImage memory) {
        List<String> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    boolean ex = i < r.count() - 1 || r.lastExecuted();
                    out.add(Long.toHexString(r.addressOf(i)) + (ex ? "" : " F"));
                }
            }
        }
        return out;
    }

    @Test
    void tc2Ptm0x13MatchesDs5Instructions() throws IOException {
        Path dir = ConformanceData.dir("TC2");
        List<String> expected = new ArrayList<>();
        for (String l : Files.readAllLines(dir.resolve("ds5-dumps/ptmv1_0x13.txt"), StandardCharsets.ISO_8859_1)) {
            String[] f = l.split("\t", -1);
            if (f.length < 8 || !f[0].equals("Instruction") || f[2].equals("S:?") || f[3].equals("0x?")) {
                continue;
            }
            expected.add(Long.toHexString(Long.parseLong(f[2].substring(4), 16)) + (f[7].equals("fail") ? " F" : ""));
        }
        assertThat(expected).hasSize(9548);
        List<TraceElement> el = decode(dir, 0x13);
        List<String> got = instructions(el, ConformanceData.tc2Image());
        for (int i = 0; i < Math.min(got.size(), expected.size()); i++) {
            if (!got.get(i).equals(expected.get(i))) {
                throw new AssertionError("first difference at instruction " + i + ": expected " + expected.get(i)
                        + " got " + got.get(i) + "\nexpected around: " + expected.subList(Math.max(0, i - 5), Math.min(expected.size(), i + 5))
                        + "\ngot around: " + got.subList(Math.max(0, i - 5), Math.min(got.size(), i + 5)));
            }
        }
        assertThat(got).hasSize(expected.size());
        assertThat(el.stream().filter(e -> e instanceof NoImage).count()).isGreaterThan(0);
    }

    private static final Pattern RANGE = Pattern.compile(
            "exec range=0x([0-9a-f]+):\\[0x([0-9a-f]+)\\] num_i\\((\\d+)\\).* ([EN]) ");

    @Test
    void traceCovA15MatchesOpenCsdRanges() throws IOException {
        Path dir = ConformanceData.dir("trace_cov_a15");
        List<String> expected = new ArrayList<>();
        for (String l : Files.readAllLines(dir.resolve("expected/opencsd-1.8.0-decode.ppl"), StandardCharsets.ISO_8859_1)) {
            Matcher m = RANGE.matcher(l);
            if (m.find()) {
                expected.add(m.group(1) + "-" + m.group(2) + " " + m.group(3) + " " + m.group(4));
            }
        }
        assertThat(expected).hasSize(20);
        List<String> got = new ArrayList<>();
        for (TraceElement e : decode(dir, -1)) {
            if (e instanceof InstructionRange r) {
                got.add(Long.toHexString(r.start()) + "-" + Long.toHexString(r.end()) + " " + r.count() + " "
                        + (r.lastExecuted() ? "E" : "N"));
            }
        }
        assertThat(got).containsExactlyElementsOf(expected);
    }
}
