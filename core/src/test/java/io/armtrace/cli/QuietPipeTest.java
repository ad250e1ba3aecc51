package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that goes away ({@code armtrace decode ... | head -1}) ends the command at the first failed write,
 * without a word and with exit code 141 (128 + SIGPIPE, as a shell reports objdump killed by SIGPIPE); a full
 * disk stays an error: one sentence, exit code 1. Either way nothing is decoded after the first failed write.
 */
class QuietPipeTest {
    static final String TC2 = SharedData.tc2().toString();

    /** A stream that fails every write with {@code reason}, and counts the writes tried. */
    static final class Failing extends OutputStream {
        final String reason;
        int writes;

        Failing(String reason) {
            this.reason = reason;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes++;
            throw new IOException(reason);
        }
    }

    /**
     * Every command with a listing longer than the output buffer ({@link io.armtrace.view.EncodingWriter#OUTPUT_BUFFER}),
     * so that a write fails mid-way ({@link #theListingsAreLongerThanTheOutputBuffer}).
     */
    static List<String[]> longOutputs() {
        return List.of(
                new String[] {"decode", TC2, "--jobs", "1", "--insn"},
                new String[] {"decode", TC2, "--jobs", "2", "--insn"},
                new String[] {"decode", TC2, "--format", "jsonl", "--jobs", "1"},
                new String[] {"decode", TC2, "--source", "0x13", "--jobs", "2", "--insn"},
                new String[] {"decode", TC2, "--source", "0x11", "--jobs", "2", "--format", "jsonl", "--time"},
                new String[] {"decode", TC2, "--source", "0x13", "--jobs", "2", "--chunk-size", "4K", "--insn"},
                new String[] {"packets", TC2});
    }

    @Test
    void theListingsAreLongerThanTheOutputBuffer() {
        for (String[] args : longOutputs()) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int code = Main.run(args, Main.standardOutput(out, null), new PrintWriter(new StringWriter(), true));
            assertThat(code).as(String.join(" ", args)).isZero();
            assertThat(out.size()).as(String.join(" ", args)).isGreaterThan(io.armtrace.view.EncodingWriter.OUTPUT_BUFFER);
        }
    }

    @Test
    void aReaderThatGoesAwayEndsTheCommandQuietlyAtTheFirstFailedWrite() {
        for (String[] args : longOutputs()) {
            Failing pipe = new Failing("Broken pipe");
            StringWriter err = new StringWriter();
            int code = Main.run(args, Main.standardOutput(pipe, null), new PrintWriter(err, true));
            String what = String.join(" ", args);
            assertThat(code).as(what + ": " + err).isEqualTo(141);
            // nothing about the pipe; what a decode says on its own (a source without a sync point) may come first
            assertThat(err.toString()).as(what).doesNotContain("standard output").doesNotContain("Exception");
            assertThat(pipe.writes).as(what + ": writes after the first failed one").isEqualTo(1);
        }
    }

    @Test
    void aFullDiskIsOneSentenceAndExitOneAtTheFirstFailedWrite() {
        for (String[] args : longOutputs()) {
            Failing disk = new Failing("No space left on device");
            StringWriter err = new StringWriter();
            int code = Main.run(args, Main.standardOutput(disk, null), new PrintWriter(err, true));
            String what = String.join(" ", args);
            assertThat(code).as(what + ": " + err).isEqualTo(1);
            List<String> lines = err.toString().lines().toList();
            assertThat(lines.get(lines.size() - 1)).as(what)
                    .isEqualTo("armtrace: standard output: writing failed (No space left on device); the output is incomplete.");
            assertThat(err.toString()).doesNotContain("Exception");
            assertThat(disk.writes).as(what).isEqualTo(1);
        }
    }

    /** The system's message in another language: a pipe is told from a disk by what descriptor 1 is. */
    @Test
    void aPipeIsKnownByWhatTheDescriptorIsNotByTheMessage(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Failing pipe = new Failing("Daten\u00fcbergabe unterbrochen");
        int code = Main.run(new String[] {"packets", TC2}, Main.standardOutput(pipe, fifo), new PrintWriter(new StringWriter()));
        assertThat(code).isEqualTo(141);
        Failing file = new Failing("Auf dem Ger\u00e4t ist kein Speicherplatz mehr verf\u00fcgbar");
        Path regular = Files.writeString(tmp.resolve("regular"), "");
        StringWriter err = new StringWriter();
        code = Main.run(new String[] {"packets", TC2}, Main.standardOutput(file, regular), new PrintWriter(err));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("kein Speicherplatz");
    }

    /** The real thing: the jar's standard output is a pipe that its reader closes after the first line. */
    @Test
    void aRealPipeClosedAfterOneLine() throws Exception {
        for (String[] args : longOutputs()) {
            List<String> command = new ArrayList<>(List.of(OutputTargetsTest.javaBin(), "-cp",
                    System.getProperty("java.class.path"), "io.armtrace.cli.Main"));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).start();
            String first;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                first = r.readLine();
            } // closed: the reader goes away, as head -1 does
            String what = String.join(" ", args);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(what).isTrue();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(first).as(what).isNotEmpty();
            assertThat(p.exitValue()).as(what + ": " + err).isEqualTo(141);
            assertThat(err).as(what).doesNotContain("standard output").doesNotContain("Exception");
        }
    }

    /** The TC2 snapshot with its formatted buffer {@code copies} times over (whole frames: it stays formatted trace). */
    static Path repeatedTc2(Path dir, int copies) throws IOException {
        Files.createDirectories(dir);
        try (var files = Files.list(SharedData.tc2())) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, dir.resolve(f.getFileName().toString()));
            }
        }
        byte[] buffer = Files.readAllBytes(SharedData.tc2().resolve("cstrace.bin"));
        try (OutputStream out = Files.newOutputStream(dir.resolve("cstrace.bin"))) {
            for (int i = 0; i < copies; i++) {
                out.write(buffer);
            }
        }
        return dir;
    }

    /**
     * A full temporary directory while sources are decoded in parallel (their part files) or one source in pieces
     * (pieces spilled to files): exit 1, naming the directory. A file size limit (ulimit -f) makes every write
     * past it fail with EFBIG, as a full disk fails with ENOSPC; standard output goes to /dev/null, which has none.
     */
    @Test
    void aFullTemporaryDirectoryIsExitOneNamingIt(@TempDir Path tmp) throws Exception {
        // 800 copies: about 14 pieces, so that some piece waits and spills however the two threads are scheduled
        // (with 200, four pieces, a machine that ran them one after another now and then spilled nothing)
        Path big = repeatedTc2(tmp.resolve("big"), 800);
        String[][] cases = {
                {"decode", TC2, "--jobs", "2", "--insn"},
                // at -Xmx64m waiting pieces keep 4 MiB of listing in memory together; a piece of 256 KiB of trace
                // listed per instruction (about 28 MB) passes that a seventh of the way through, so some piece spills
                // however the two threads' pieces are staggered (as a text listing, about 8 MB, it had to be more than
                // half done before the piece before it ended)
                {"decode", big.toString(), "--source", "0x13", "--jobs", "2", "--chunk-size", "256K", "--insn"}};
        for (String[] args : cases) {
            String java = String.join(" ", OutputTargetsTest.javaBin(), "-Xmx64m", "-Djava.io.tmpdir=" + tmp,
                    "-cp", "'" + System.getProperty("java.class.path") + "'", "io.armtrace.cli.Main", String.join(" ", args));
            Process p = new ProcessBuilder("bash", "-c", "ulimit -f 64; exec " + java)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String what = String.join(" ", args);
            assertThat(p.exitValue()).as(what + ": " + err).isEqualTo(1);
            assertThat(err).as(what).contains("armtrace: temporary directory " + tmp + ": writing failed (File too large)")
                    .doesNotContain("Exception");
        }
        try (var left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("big");
        }
    }
}
