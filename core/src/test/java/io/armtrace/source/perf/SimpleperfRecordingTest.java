package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.cli.Main;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording shaped as Android's simpleperf writes one ({@code simpleperf.data} of {@link EncodedRecording}:
 * simpleperf's meta_info and file2 features, its auxtrace index without perf's count, a simpleperf record),
 * carrying the ETMv4 encoder's trace of a program QEMU ran: decoded exactly, with the binary found in
 * simpleperf's {@code binary_cache} layout (the device path below the directory) and in perf's
 * {@code .build-id} layout alike; {@code info} says what simpleperf recorded; {@code autofdo} gives the
 * profile that the same trace in a Linux perf recording gives.
 */
class SimpleperfRecordingTest {
    @TempDir
    Path dir;

    private List<Long> decode(Path recording, Path symdir) throws Exception {
        List<String> warnings = new ArrayList<>();
        Decoder d = Decoder.openRecording(recording, List.of(symdir), DecodeOptions.builder().warnings(warnings::add).build());
        assertThat(warnings).as("the binary is found").isEmpty();
        List<Long> out = new ArrayList<>();
        d.decode(e -> {
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    out.add(r.addressOf(i));
                }
            } else if (e instanceof NoImage n) {
                throw new AssertionError("no image at " + n);
            }
        });
        return out;
    }

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    void decodesExactlyWithTheBinaryInEitherLayout() throws Exception {
        EncodedRecording.Cpu c = EncodedRecording.write("simpleperf", dir).get(0);
        Path rec = dir.resolve("simpleperf.data");
        PerfData data = PerfData.read(rec);
        assertThat(data.metaInfo()).containsEntry("simpleperf_version", "1.build.test");
        assertThat(data.files()).extracting(PerfData.FileEntry::path).containsExactly(EncodedRecording.ANDROID_PATH);
        assertThat(data.auxtraceIndex()).hasSize(2);
        assertThat(data.recordCounts()).containsEntry("simpleperf EVENT_ID", 1L);
        assertThat(data.unknownRecords()).isZero();

        // simpleperf's binary_cache: binary_cache/data/local/tmp/linux-a64
        Path cache = dir.resolve("symbols").resolve("binary_cache");
        assertThat(cache.resolve("linux-a64")).doesNotExist();
        assertThat(decode(rec, cache)).isEqualTo(c.truth());

        // perf's ~/.debug: .build-id/xx/rest
        String id = data.buildIds().get(0).id();
        Path debug = dir.resolve("debug");
        Path byId = debug.resolve(".build-id").resolve(id.substring(0, 2)).resolve(id.substring(2));
        Files.createDirectories(byId.getParent());
        Files.copy(cache.resolve(EncodedRecording.ANDROID_PATH.substring(1)), byId);
        assertThat(decode(rec, debug)).isEqualTo(c.truth());

        // a symbol directory that holds neither: named once, with the flag that supplies it
        StringWriter err = new StringWriter();
        Main.run(new String[] {"decode", rec.toString(), "--symdir", dir.resolve("symbols").toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(err.toString()).contains("the mapped binary " + EncodedRecording.ANDROID_PATH + " was not found", "--symdir");
    }

    @Test
    void infoSaysWhatSimpleperfRecorded() throws Exception {
        EncodedRecording.write("simpleperf", dir);
        String out = run("info", dir.resolve("simpleperf.data").toString())[0];
        assertThat(out).contains("command line: /data/local/tmp/simpleperf record -e cs-etm /data/local/tmp/linux-a64",
                "osrelease: 5.10.107-android13", "simpleperf simpleperf_version: 1.build.test", "simpleperf clockid: monotonic",
                "simpleperf file2", "CPU 3: ETMv4, trace ID 0x16", EncodedRecording.ANDROID_PATH);
    }

    @Test
    void autofdoGivesWhatTheSameTraceInAPerfRecordingGives() throws Exception {
        EncodedRecording.Cpu c = EncodedRecording.write("simpleperf", dir).get(0);
        Path cache = dir.resolve("symbols").resolve("binary_cache");
        Path ours = dir.resolve("simpleperf.afdo");
        run("autofdo", dir.resolve("simpleperf.data").toString(), "--symdir", cache.toString(), "-o", ours.toString());

        // the same pieces of the same trace, as Linux perf records them (per-CPU AUX records, perf's index)
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        byte[] elf = Files.readAllBytes(cache.resolve(EncodedRecording.ANDROID_PATH.substring(1)));
        w.comm(EncodedRecording.PID, EncodedRecording.PID, "linux-a64", true, 100, c.cpu);
        EncodedRecording.mapSegments(w, elf, EncodedRecording.PID, EncodedRecording.ANDROID_PATH, null, 101, c.cpu);
        long[] cuts = c.cut(2);
        long aux = 0;
        for (int i = 0; i + 1 < cuts.length; i++) {
            byte[] piece = c.aux(cuts[i], cuts[i + 1], true);
            w.aux(aux, piece.length, 0, EncodedRecording.PID, EncodedRecording.PID, 1000 + 10 * i, c.cpu)
                    .auxtrace(aux, piece, 0, c.cpu, EncodedRecording.PID, c.cpu);
            aux += piece.length;
        }
        w.write(dir.resolve("perf.data"));
        Path theirs = dir.resolve("perf.afdo");
        run("autofdo", dir.resolve("perf.data").toString(), "--symdir", cache.toString(), "-o", theirs.toString());

        List<String> a = Files.readAllLines(ours);
        assertThat(a.stream().filter(l -> !l.startsWith("//")).count()).isGreaterThan(100);
        assertThat(a).isEqualTo(Files.readAllLines(theirs));
    }
}
