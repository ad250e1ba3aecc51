package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.source.perf.AuxQueue;
import io.armtrace.source.perf.AuxSegment;
import io.armtrace.source.perf.PerfData;
import io.armtrace.source.perf.TraceUnit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code armtrace convert}: the snapshot of a recording holds the recording's trace. The packets of each
 * CPU are read twice: from the recording's AUX segments (each deformatted and parsed on its own, as perf
 * resets its decoder at every AUX record), and from the written snapshot through armtrace's snapshot
 * reader; they must be the same packets.
 */
class ConvertCommandTest {
    @TempDir
    Path dir;

    private static List<String> packets(TraceProtocol p, int id, Registers regs, TraceData data) throws IOException {
        List<String> out = new ArrayList<>();
        p.packets(new DecodeInput(id, regs, ProgramImage.of(new MemoryImage()), data, DecodeOptions.DEFAULT), packet -> {
            if (!packet.kind().equals("NOT_SYNC")) { // unsynchronised bytes: one line however many there are
                out.add(packet.text());
            }
        });
        return out;
    }

    /** Per trace ID, the packets of the recording's AUX data, segment by segment. */
    private static Map<Integer, List<String>> fromRecording(Path file) throws IOException {
        PerfData d = PerfData.read(file);
        Map<Integer, List<String>> out = new TreeMap<>();
        for (AuxQueue q : d.auxQueues()) {
            TraceUnit u = d.coreSight().units().stream().filter(t -> t.cpu() == q.cpu()).findFirst().orElseThrow();
            Registers regs = new Registers();
            u.registers().forEach(regs::put);
            TraceProtocol p = Protocols.byName("etm4").orElseThrow();
            List<String> all = out.computeIfAbsent(u.traceId(), k -> new ArrayList<>());
            for (AuxSegment s : d.auxSegments(q)) {
                assertThat(s.formatted()).isTrue();
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                FrameDeformatter f = new FrameDeformatter((src, b, off, len) -> {
                    if (src == u.traceId()) {
                        bytes.write(b, off, len);
                    }
                }, false);
                try (InputStream in = d.openAux(s)) {
                    byte[] raw = in.readAllBytes();
                    f.push(raw, 0, raw.length);
                }
                all.addAll(packets(p, u.traceId(), regs, TraceData.of("segment", bytes.toByteArray())));
            }
        }
        return out;
    }

    @Test
    void theSnapshotOfARecordingHoldsItsPackets() throws IOException {
        Path snap = dir.resolve("snap");
        CliTest.Result r = CliTest.run("convert", PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata", "--snapshot-out", snap.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("CPU 0: trace ID 0x10, 16368 bytes of trace", "CPU 6: trace ID 0x1c, 22832 bytes of trace",
                "memory dumps of 1 mapped files");

        Map<Integer, List<String>> expected = fromRecording(Path.of(PerfDataCliTest.KERNEL));
        Snapshot s = Snapshot.load(snap, true);
        Map<Integer, List<String>> actual = new TreeMap<>();
        for (SnapshotSource src : s.sources()) {
            assertThat(src.type()).isEqualTo("ETM4");
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElseThrow();
            actual.put(src.traceId(), packets(p, src.traceId(), src.registers(), src.data()));
        }
        assertThat(actual.keySet()).containsExactly(0x10, 0x1c);
        assertThat(actual.get(0x10)).hasSize(11194); // trc_pkt_lister's count of the same snapshot (tools/opencsd-check/perfdata.sh)
        assertThat(actual.get(0x1c)).hasSize(12413);
        assertThat(actual).isEqualTo(expected);
        // the kernel module's code, placed where the module loader puts it, is a memory dump of every core
        assertThat(Files.readString(snap.resolve("cpu_6.ini"))).contains("; /vendor/lib/modules/rq_stats.ko");
    }

    @Test
    void theSameSafetyAsEveryDirectoryOutput() throws IOException {
        Path snap = dir.resolve("snap");
        Files.createDirectories(snap);
        Files.writeString(snap.resolve("keep.txt"), "mine");
        UserErrorsTest.assertMistake(CliTest.run("convert", PerfDataCliTest.KERNEL, "--snapshot-out", snap.toString()), "--snapshot-out");
        assertThat(snap.resolve("keep.txt")).hasContent("mine");
        CliTest.Result r = CliTest.run("convert", PerfDataCliTest.KERNEL, "--snapshot-out", snap.toString(), "--force");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(snap.resolve("snapshot.ini")).exists();
        assertThat(snap.resolve("keep.txt")).doesNotExist();
    }

    @Test
    void whatCannotBeConvertedIsSaidInOneSentence() {
        UserErrorsTest.assertMistake(CliTest.run("convert", "conformance/perfdata/perf_with_missing_aux_data.data", "--snapshot-out",
                dir.resolve("a").toString()), "holds no AUX trace data");
        UserErrorsTest.assertMistake(CliTest.run("convert", "examples/etm3-a9-thumb/trace_0.bin", "--snapshot-out",
                dir.resolve("b").toString()), "not a perf.data recording");
        UserErrorsTest.assertMistake(CliTest.run("convert", PerfDataCliTest.KERNEL, "--symdir", "no-such-dir", "--snapshot-out",
                dir.resolve("c").toString()), "--symdir no-such-dir");
    }
}
