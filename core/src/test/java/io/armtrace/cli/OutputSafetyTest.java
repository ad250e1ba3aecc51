package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lost output never exits 0, a failed run never clobbers an existing file, and no temporary file outlives a run. */
class OutputSafetyTest {
    static final Path EXAMPLES = Path.of(System.getProperty("user.dir")).resolve("examples");
    static final Path PTM_A15 = EXAMPLES.resolve("ptm-a15");
    static final Path MTB = EXAMPLES.resolve("mtb-m0plus");

    /** A writer that fails like a full disk. */
    static final class FullDisk extends Writer {
        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void flush() throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void close() {
        }
    }

    static CliTest.Result runWithStdout(Writer stdout, String... args) {
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(stdout, true), new PrintWriter(err, true));
        return new CliTest.Result(code, "", err.toString());
    }

    /** Every command's text output, in its usual form, before "-o FILE" is added. */
    static List<String[]> textCommands(Path tmp) {
        String ptm = PTM_A15.toString();
        return List.of(
                new String[] {"decode", ptm},
                new String[] {"decode", ptm, "--format", "jsonl"},
                new String[] {"decode", SharedData.tc2().toString(), "--jobs", "2"},
                new String[] {"packets", ptm},
                new String[] {"info", ptm},
                new String[] {"info", "--protocol", "ptm", "--reg", "ETMCR=0x1000"},
                new String[] {"stats", ptm},
                new String[] {"profile", MTB.toString()},
                new String[] {"callgraph", MTB.toString()},
                new String[] {"coverage", MTB.toString()},
                new String[] {"report", MTB.toString()});
    }

    static String[] plus(String[] a, String... more) {
        return Stream.concat(Stream.of(a), Stream.of(more)).toArray(String[]::new);
    }

    @Test
    void everyCommandFailsWhenStandardOutputCannotBeWritten(@TempDir Path tmp) {
        for (String[] args : textCommands(tmp)) {
            CliTest.Result r = runWithStdout(new FullDisk(), args);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(1);
            // the last line (TC2's sources 0x14 and 0x20 have no synchronization point, which is said first)
            List<String> lines = r.err().lines().toList();
            assertThat(lines.get(lines.size() - 1)).as(String.join(" ", args))
                    .startsWith("armtrace: standard output: writing failed");
            assertThat(r.err()).doesNotContain("Exception");
            assertThat(lines).hasSizeLessThanOrEqualTo(3);
        }
        assertThat(OutputFile.temporaryFiles()).isEmpty();
    }

    /** The real thing: the launcher's standard output is /dev/full (Main.main, System.out). */
    @Test
    void aProcessWhoseStandardOutputIsFullExitsOne() throws Exception {
        Path full = Path.of("/dev/full");
        assertThat(full).as("/dev/full, the full device Linux has").exists();
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), "-cp", System.getProperty("java.class.path"),
                "io.armtrace.cli.Main", "decode", PTM_A15.toString())
                .redirectOutput(full.toFile()).redirectErrorStream(false).start();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isEqualTo(1);
        assertThat(err).startsWith("armtrace: standard output: writing failed");
    }

    @Test
    void everyCommandFailsWhenItsOutputFileCannotBeWritten(@TempDir Path tmp) throws Exception {
        Path full = Path.of("/dev/full");
        assertThat(full).as("/dev/full, the full device Linux has").exists();
        List<String[]> all = new ArrayList<>();
        for (String[] args : textCommands(tmp)) {
            all.add(plus(args, "-o", full.toString()));
        }
        all.add(new String[] {"coverage", MTB.toString(), "--lcov", full.toString()});
        all.add(new String[] {"deformat", SharedData.tc2().resolve("cstrace.bin").toString(), "--source", "0x10",
                "-o", full.toString()});
        Path elf = tmp.resolve("m0plus.elf");
        Files.write(elf, Corpus.elfBytes("m0plus"));
        Path exec = Path.of("core/src/test/resources/groundtruth/m0plus.exec.gz");
        all.add(new String[] {"encode", "--protocol", "mtb", "--execution", exec.toString(), "--image", elf.toString(),
                "-o", full.toString()});
        for (String[] args : all) {
            CliTest.Result r = CliTest.run(args);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(1);
            assertThat(r.err()).as(String.join(" ", args)).contains("armtrace: /dev/full: writing failed")
                    .doesNotContain("Exception");
        }
        assertThat(OutputFile.temporaryFiles()).isEmpty();
    }

    @Test
    void aFailedRunLeavesTheExistingFileAsItWasAndNoTemporaryFile(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out.jsonl");
        Files.writeString(out, "precious\n");
        try (OutputFile f = OutputFile.open(out, new PrintWriter(new StringWriter()), List.of(), "-o")) {
            f.writer().println("{\"type\":\"insn\",\"addr\":\"0x");
            // no commit: as when the decode throws half way
        }
        assertThat(Files.readString(out)).isEqualTo("precious\n");
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("out.jsonl");
        }
        assertThat(OutputFile.temporaryFiles()).isEmpty();
    }

    @Test
    void theShutdownHookDeletesTemporaryFiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out.txt");
        OutputFile f = OutputFile.open(out, new PrintWriter(new StringWriter()), List.of(), "-o");
        f.writer().println("half");
        Path part = OutputFile.temporaryFile("armtrace-test");
        assertThat(OutputFile.temporaryFiles()).hasSize(2);
        OutputFile.discardAll(); // what SIGINT/SIGTERM run
        assertThat(OutputFile.temporaryFiles()).isEmpty();
        assertThat(part).doesNotExist();
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files).isEmpty();
        }
        f.close();
    }

    @Test
    void parallelDecodeWritesTheSequentialOutputAndLeavesNoPartFile(@TempDir Path tmp) throws Exception {
        Path seq = tmp.resolve("seq.txt");
        Path par = tmp.resolve("par.txt");
        assertThat(CliTest.run("decode", SharedData.tc2().toString(), "--jobs", "1", "-o", seq.toString()).exit()).isZero();
        CliTest.Result r = CliTest.run("decode", SharedData.tc2().toString(), "--jobs", "3", "-o", par.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.mismatch(seq, par)).isEqualTo(-1);
        assertThat(OutputFile.temporaryFiles()).isEmpty();
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("seq.txt", "par.txt");
        }
    }

    @Test
    void outputNamingAnInputIsRefused(@TempDir Path tmp) throws Exception {
        // copies: a build without the check would overwrite them
        Path tc2 = copyOf(SharedData.tc2(), tmp.resolve("tc2"));
        Path ptm = copyOf(PTM_A15, tmp.resolve("ptm"));
        Path mtb = copyOf(MTB, tmp.resolve("mtb"));
        Path buffer = tc2.resolve("cstrace.bin");
        long size = Files.size(buffer);
        for (String[] args : List.of(
                new String[] {"decode", tc2.toString(), "--source", "0x10", "-o", buffer.toString()},
                new String[] {"packets", ptm.toString(), "-o", ptm.resolve("snapshot.ini").toString()},
                new String[] {"profile", mtb.toString(), "-o", mtb.resolve("program.elf").toString()},
                new String[] {"coverage", mtb.toString(), "--lcov", mtb.resolve("mtb_sram.bin").toString()},
                new String[] {"deformat", buffer.toString(), "--source", "0x10", "-o", buffer.toString(), "--force"})) {
            CliTest.Result r = CliTest.run(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).contains("is one of the command's own input files");
        }
        assertThat(Files.size(buffer)).isEqualTo(size);
        Path copy = tmp.resolve("trace.bin");
        Files.copy(PTM_A15.resolve("PTM_0_2.bin"), copy);
        CliTest.Result raw = CliTest.run("decode", "--protocol", "ptm", "--trace", copy.toString(), "-o",
                tmp.resolve(".").resolve("trace.bin").toString());
        assertThat(raw.exit()).isEqualTo(2);
        assertThat(raw.err()).contains("own input files");
    }

    static java.util.Set<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        }
    }

    static Path copyOf(Path dir, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path copy = to.resolve(f.getFileName());
                Files.copy(f, copy);
                copy.toFile().setWritable(true);
            }
        }
        return to;
    }

    @Test
    void deformatAndSnapshotOutRefuseToOverwriteWithoutForce(@TempDir Path tmp) throws Exception {
        Path buffer = SharedData.tc2().resolve("cstrace.bin");
        Path out = tmp.resolve("etm.bin");
        Files.writeString(out, "keep");
        CliTest.Result r = CliTest.run("deformat", buffer.toString(), "--source", "0x10", "-o", out.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("already exists").contains("--force");
        assertThat(Files.readString(out)).isEqualTo("keep");
        assertThat(CliTest.run("deformat", buffer.toString(), "--source", "0x10", "-o", out.toString(), "--force").exit())
                .isZero();
        assertThat(Files.size(out)).isGreaterThan(4);

        Path elf = tmp.resolve("m0plus.elf");
        Files.write(elf, Corpus.elfBytes("m0plus"));
        String exec = Path.of("core/src/test/resources/groundtruth/m0plus.exec.gz").toString();
        Path snap = tmp.resolve("snap");
        Files.createDirectories(snap);
        Files.writeString(snap.resolve("snapshot.ini"), "mine");
        CliTest.Result enc = CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(),
                "--snapshot-out", snap.toString());
        assertThat(enc.exit()).isEqualTo(2);
        assertThat(enc.err()).contains("already exists").contains("--force");
        assertThat(Files.readString(snap.resolve("snapshot.ini"))).isEqualTo("mine");
        CliTest.Result forced = CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(),
                "--snapshot-out", snap.toString(), "--force");
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(Files.readString(snap.resolve("snapshot.ini"))).contains("[device_list]");
        assertThat(CliTest.run("decode", snap.toString()).exit()).isZero();
        // a directory that holds no snapshot but other files is not written into without --force: the user's
        // trace_0.bin or trace.ini would be overwritten
        Path mine = Files.createDirectories(tmp.resolve("example"));
        Files.writeString(mine.resolve("trace_0.bin"), "my own trace");
        Files.writeString(mine.resolve("trace.ini"), "my own notes");
        CliTest.Result into = CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(),
                "--snapshot-out", mine.toString());
        assertThat(into.exit()).as(into.err()).isEqualTo(2);
        assertThat(into.err()).contains("is not empty").contains("--force").doesNotContain("Exception");
        assertThat(Files.readString(mine.resolve("trace_0.bin"))).isEqualTo("my own trace");
        assertThat(Files.readString(mine.resolve("trace.ini"))).isEqualTo("my own notes");
        try (Stream<Path> files = Files.list(mine)) {
            assertThat(files).hasSize(2);
        }
        // with --force it is replaced as a whole: the new snapshot and nothing else
        CliTest.Result replaced = CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(),
                "--snapshot-out", mine.toString(), "--force");
        assertThat(replaced.exit()).as(replaced.err()).isZero();
        assertThat(Files.readString(mine.resolve("trace.ini"))).contains("[trace_buffers]");
        assertThat(CliTest.run("decode", mine.toString()).exit()).isZero();
        Path fresh = tmp.resolve("fresh");
        assertThat(CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(),
                "--snapshot-out", fresh.toString()).exit()).isZero();
        assertThat(names(mine)).isEqualTo(names(fresh));
        assertThat(Files.mismatch(mine.resolve("trace.ini"), fresh.resolve("trace.ini"))).isEqualTo(-1);
        OutputFile.discard(fresh);
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("etm.bin", "m0plus.elf", "snap", "example");
        }
    }
}
