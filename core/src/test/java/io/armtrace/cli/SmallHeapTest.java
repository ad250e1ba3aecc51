package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.FrameDeformatter;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands run in a JVM whose heap (32 MB) is smaller than their input (64 MB): deformat and info
 * stream formatted buffers, and raw memory dumps are mapped rather than read into the heap.
 */
class SmallHeapTest {
    private static final int COPIES = 2048; // 2048 x 32 KiB = 64 MiB

    record Result(int exit, String out, String err) {
    }

    static Result runSmallHeap(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finishes").isTrue();
        return new Result(p.exitValue(), Files.readString(dir.resolve("stdout")), Files.readString(dir.resolve("stderr")));
    }

    /** A copy of the TC2 snapshot; with {@code bigBuffer} its trace buffer repeated to 64 MiB. */
    private static Path tc2Copy(Path dir, boolean bigBuffer, boolean bigDump) throws IOException {
        Path tc2 = SharedData.tc2();
        Path snap = Files.createDirectories(dir.resolve("snap"));
        try (Stream<Path> files = Files.list(tc2)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = f.getFileName().toString().endsWith(".ini") ? Files.readString(f, StandardCharsets.ISO_8859_1) : null;
                if (text != null && bigDump) {
                    text = text.replaceAll("(?m)^length=.*$", ""); // the whole dump
                }
                if (text != null) {
                    Files.writeString(snap.resolve(f.getFileName()), text, StandardCharsets.ISO_8859_1);
                } else {
                    Files.copy(f, snap.resolve(f.getFileName()));
                }
            }
        }
        if (bigBuffer) {
            byte[] buffer = Files.readAllBytes(tc2.resolve("cstrace.bin"));
            try (OutputStream out = Files.newOutputStream(snap.resolve("cstrace.bin"))) {
                for (int i = 0; i < COPIES; i++) {
                    out.write(buffer);
                }
            }
        }
        if (bigDump) {
            try (RandomAccessFile f = new RandomAccessFile(snap.resolve("kernel_dump.bin").toFile(), "rw")) {
                f.setLength(64L << 20); // sparse: the program, then zeros
            }
        }
        return snap;
    }

    @Test
    void deformatAndInfoStreamABufferLargerThanTheHeap(@TempDir Path dir) throws Exception {
        Path snap = tc2Copy(dir, true, false);
        Map<Integer, byte[]> once = FrameDeformatter.demultiplex(Files.readAllBytes(SharedData.tc2().resolve("cstrace.bin")));
        Path out = dir.resolve("etm0.bin");
        Result d = runSmallHeap(dir, "deformat", snap.resolve("cstrace.bin").toString(), "--source", "0x10", "-o", out.toString());
        assertThat(d.exit()).as(d.err()).isZero();
        assertThat(Files.size(out)).isEqualTo((long) once.get(0x10).length * COPIES);

        Result info = runSmallHeap(dir, "info", snap.toString());
        assertThat(info.exit()).as(info.err()).isZero();
        assertThat(info.out()).contains(String.format("0x10: %d", (long) once.get(0x10).length * COPIES))
                .contains(String.format("0x13: %d", (long) once.get(0x13).length * COPIES));
    }

    @Test
    void aRawDumpLargerThanTheHeapIsMappedNotRead(@TempDir Path dir) throws Exception {
        Path snap = tc2Copy(dir, false, true);
        Result info = runSmallHeap(dir, "info", snap.toString());
        assertThat(info.exit()).as(info.err()).isZero();
        assertThat(info.out()).contains("67108864 bytes  kernel_dump.bin");
        Result r = runSmallHeap(dir, "decode", snap.toString(), "--source", "0x10", "--last", "5");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("range");
    }
}
