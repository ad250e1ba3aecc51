package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where an output goes when its name is not a plain file: a symbolic link (the file it names is written, the
 * link stays), a descriptor such as /dev/stdout (written directly), a hard link to an input (refused), a name
 * near the file-system limit; and the directory that {@code encode --snapshot-out} writes.
 */
class OutputTargetsTest {
    static final Path PTM_A15 = OutputSafetyTest.PTM_A15;
    static final String EXEC = Path.of("core/src/test/resources/groundtruth/m0plus.exec.gz").toString();

    /** What {@code decode examples/ptm-a15} prints to standard output. */
    static String expectedListing() {
        CliTest.Result r = CliTest.run("decode", PTM_A15.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isNotEmpty();
        return r.out();
    }

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Standard output as the command line makes it ({@link Main#standardOutput}): listings make their lines in
     * place in its byte buffer (as with {@code -o}; through a writer that merely refused to close they were made
     * as text and encoded again, 20% to 50% slower), byte for byte what {@code -o} writes, and a listing writer
     * closing the command's output leaves standard output open for what follows.
     */
    @Test
    void listingsToStandardOutputAreMadeInPlaceAsIntoAFile(@TempDir Path tmp) throws Exception {
        String[][] forms = {{}, {"--format", "jsonl", "--ranges"}, {"--format", "jsonl"}, {"--insn"}, {"--last", "20"}};
        for (String[] form : forms) {
            List<String> args = new java.util.ArrayList<>(List.of("decode", PTM_A15.toString()));
            args.addAll(List.of(form));
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            PrintWriter stdout = Main.standardOutput(bytes, null);
            StringWriter err = new StringWriter();
            assertThat(Main.run(args.toArray(String[]::new), stdout, new PrintWriter(err, true))).as(err.toString()).isZero();
            stdout.flush();
            Path file = tmp.resolve("listing-" + String.join("", form).replace("-", ""));
            args.addAll(List.of("-o", file.toString()));
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(bytes.toByteArray()).as(String.join(" ", args)).isNotEmpty().isEqualTo(Files.readAllBytes(file));
        }

        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        PrintWriter stdout = Main.standardOutput(bytes, null);
        try (OutputFile out = OutputFile.stdout(stdout)) {
            assertThat(io.armtrace.view.EncodingWriter.listsInPlace(out.writer())).isTrue();
            out.writer().print("a listing");
            out.writer().close(); // as a listing writer may at its end
            out.commit();
        }
        stdout.println(", then more");
        stdout.flush();
        assertThat(stdout.checkError()).isFalse();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("a listing, then more" + System.lineSeparator());
    }

    /**
     * Several sources on several threads, to standard output as the command line makes it: each source's listing
     * is made as bytes and joined as bytes (part files copied out), byte for byte the listing of one thread.
     */
    @Test
    void severalSourcesOnSeveralThreadsGiveTheBytesOfOne() {
        String[][] forms = {{}, {"--format", "jsonl", "--ranges"}, {"--format", "jsonl"}, {"--insn"}};
        for (String[] form : forms) {
            byte[][] outputs = new byte[2][];
            for (int jobs = 1; jobs <= 2; jobs++) {
                List<String> args = new java.util.ArrayList<>(List.of("decode", SharedData.tc2().toString(), "--jobs",
                        Integer.toString(jobs)));
                args.addAll(List.of(form));
                java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                PrintWriter stdout = Main.standardOutput(bytes, null);
                StringWriter err = new StringWriter();
                assertThat(Main.run(args.toArray(String[]::new), stdout, new PrintWriter(err, true)))
                        .as(String.join(" ", args) + ": " + err).isZero();
                stdout.flush();
                outputs[jobs - 1] = bytes.toByteArray();
            }
            String what = "decode TC2 " + String.join(" ", form);
            assertThat(new String(outputs[0], StandardCharsets.UTF_8)).as(what).contains("0xc0");
            assertThat(outputs[1]).as(what).isEqualTo(outputs[0]);
        }
    }

    @Test
    void aSymbolicLinkIsWrittenThroughToTheFileItNames(@TempDir Path tmp) throws Exception {
        String listing = expectedListing();
        Path real = tmp.resolve("real.txt");
        Files.writeString(real, "old");
        Path link = Files.createSymbolicLink(tmp.resolve("link.txt"), Path.of("real.txt"));
        CliTest.Result r = CliTest.run("decode", PTM_A15.toString(), "-o", link.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).as("the link is still a link").isTrue();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("real.txt"));
        assertThat(Files.readString(real)).isEqualTo(listing);

        // a chain of links, one of them into another directory, and a link whose file does not exist yet
        Path sub = Files.createDirectories(tmp.resolve("sub"));
        Path chain = Files.createSymbolicLink(tmp.resolve("chain"), Path.of("sub/step"));
        Files.createSymbolicLink(sub.resolve("step"), Path.of("../new.txt"));
        CliTest.Result c = CliTest.run("decode", PTM_A15.toString(), "-o", chain.toString());
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(Files.isSymbolicLink(chain)).isTrue();
        assertThat(Files.isSymbolicLink(sub.resolve("step"))).isTrue();
        assertThat(Files.readString(tmp.resolve("new.txt"))).isEqualTo(listing);
        // no temporary file left beside the link or the file
        assertThat(names(tmp)).containsExactly("chain", "link.txt", "new.txt", "real.txt", "sub");
        assertThat(names(sub)).containsExactly("step");

        // a loop is one sentence
        Files.createSymbolicLink(tmp.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(tmp.resolve("loop2"), Path.of("loop1"));
        CliTest.Result loop = CliTest.run("decode", PTM_A15.toString(), "-o", tmp.resolve("loop1").toString());
        assertThat(loop.exit()).isEqualTo(2);
        assertThat(loop.err()).contains("loop1").contains("symbolic links").doesNotContain("Exception");
    }

    /**
     * {@code -o /dev/stdout > f} must put the output into f and leave /dev/stdout a link. The test uses a link of its
     * own to /proc/self/fd/1 (what /dev/stdout is), so that a regression cannot replace the system's /dev/stdout.
     */
    @Test
    void aLinkToTheStandardOutputDescriptorIsWrittenDirectly(@TempDir Path tmp) throws Exception {
        String listing = expectedListing();
        Path stdoutLink = Files.createSymbolicLink(tmp.resolve("stdout"), Path.of("/proc/self/fd/1"));
        Path captured = tmp.resolve("f.txt");
        Process p = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"), "io.armtrace.cli.Main",
                "decode", PTM_A15.toString(), "-o", stdoutLink.toString())
                .redirectOutput(captured.toFile()).redirectError(tmp.resolve("err.txt").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(tmp.resolve("err.txt"));
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(Files.readString(captured)).isEqualTo(listing);
        assertThat(Files.isSymbolicLink(stdoutLink)).isTrue();
        assertThat(Files.readSymbolicLink(stdoutLink)).isEqualTo(Path.of("/proc/self/fd/1"));
        assertThat(names(tmp)).containsExactly("err.txt", "f.txt", "stdout");

        // deformat, which replaces an existing file only with --force, writes to the descriptor without it: the
        // file behind it is the caller's redirection, not a file to replace
        Path raw = tmp.resolve("raw.bin");
        Process d = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"), "io.armtrace.cli.Main",
                "deformat", io.armtrace.testdata.SharedData.tc2().resolve("cstrace.bin").toString(), "--source", "0x10",
                "-o", stdoutLink.toString())
                .redirectOutput(raw.toFile()).redirectError(tmp.resolve("err.txt").toFile()).start();
        assertThat(d.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(d.exitValue()).as(Files.readString(tmp.resolve("err.txt"))).isZero();
        assertThat(Files.readAllBytes(raw)).isEqualTo(io.armtrace.source.FrameDeformatter.demultiplex(
                Files.readAllBytes(io.armtrace.testdata.SharedData.tc2().resolve("cstrace.bin"))).get(0x10));
        assertThat(Files.isSymbolicLink(stdoutLink)).isTrue();
    }

    @Test
    void aNamedPipeIsWrittenDirectly(@TempDir Path tmp) throws Exception {
        String listing = expectedListing();
        Path fifo = tmp.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        java.util.concurrent.CompletableFuture<byte[]> read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CliTest.Result r = CliTest.run("decode", PTM_A15.toString(), "-o", fifo.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(new String(read.get(60, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo(listing);
        assertThat(fifo).satisfies(f -> assertThat(Files.isRegularFile(f)).isFalse());
        assertThat(names(tmp)).containsExactly("fifo");
    }

    @Test
    void aFileNameNearTheLimitGetsAShorterTemporaryName(@TempDir Path tmp) throws Exception {
        String listing = expectedListing();
        for (String name : new String[] {"a".repeat(249), "b".repeat(255), "\u00e9".repeat(127)}) {
            Path out = tmp.resolve(name);
            CliTest.Result r = CliTest.run("decode", PTM_A15.toString(), "-o", out.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(Files.readString(out)).isEqualTo(listing);
        }
        assertThat(names(tmp)).hasSize(3);
        assertThat(OutputFile.temporaryName("x".repeat(300), ".part").getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(255);
        assertThat(OutputFile.temporaryName("\u00e9".repeat(200), ".part").getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(255);
    }

    @Test
    void aHardLinkToAnInputIsRefused(@TempDir Path tmp) throws Exception {
        Path ptm = OutputSafetyTest.copyOf(PTM_A15, tmp.resolve("ptm"));
        Path trace = ptm.resolve("PTM_0_2.bin");
        byte[] before = Files.readAllBytes(trace);
        Path hard = Files.createLink(tmp.resolve("hard.bin"), trace);
        CliTest.Result r = CliTest.run("decode", ptm.toString(), "-o", hard.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("hard.bin").contains("own input files");
        assertThat(Files.readAllBytes(trace)).isEqualTo(before);
        // and a symbolic link to one, and a hard link given to the raw-trace form
        Path soft = Files.createSymbolicLink(tmp.resolve("soft.bin"), trace);
        assertThat(CliTest.run("decode", ptm.toString(), "-o", soft.toString()).err()).contains("own input files");
        CliTest.Result raw = CliTest.run("packets", "--protocol", "ptm", "--trace", trace.toString(), "-o", hard.toString());
        assertThat(raw.exit()).isEqualTo(2);
        assertThat(raw.err()).contains("own input files");
        assertThat(Files.readAllBytes(trace)).isEqualTo(before);
    }

    private Path elf(Path tmp) throws IOException {
        Path elf = tmp.resolve("m0plus.elf");
        if (!Files.exists(elf)) {
            Files.write(elf, Corpus.elfBytes("m0plus"));
        }
        return elf;
    }

    private CliTest.Result encodeSnapshot(Path tmp, Path dir, String... more) throws IOException {
        String[] base = {"encode", "--protocol", "mtb", "--execution", EXEC, "--image", elf(tmp).toString(),
                "--snapshot-out", dir.toString()};
        return CliTest.run(Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new));
    }

    @Test
    void aNewSnapshotDirectoryHasTheModeTheUmaskGives(@TempDir Path tmp) throws Exception {
        // a directory made the ordinary way shows what the umask allows
        Set<PosixFilePermission> ordinary = Files.getPosixFilePermissions(Files.createDirectory(tmp.resolve("ordinary")));
        Path snap = tmp.resolve("snap");
        CliTest.Result r = encodeSnapshot(tmp, snap);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.getPosixFilePermissions(snap)).isEqualTo(ordinary);
        // and one written over an empty directory
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertThat(encodeSnapshot(tmp, empty).exit()).isZero();
        assertThat(Files.getPosixFilePermissions(empty)).isEqualTo(ordinary);
        assertThat(names(tmp)).containsExactly("empty", "m0plus.elf", "ordinary", "snap");
    }

    @Test
    void forceReplacesASnapshotWholeAndALinkedDirectoryStaysLinked(@TempDir Path tmp) throws Exception {
        Path real = tmp.resolve("real");
        assertThat(encodeSnapshot(tmp, real).exit()).isZero();
        Files.writeString(real.resolve("stale.bin"), "from an older run");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), Path.of("real"));
        CliTest.Result again = encodeSnapshot(tmp, link);
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already exists").contains("snapshot.ini").contains("--force");
        CliTest.Result forced = encodeSnapshot(tmp, link, "--force");
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(real.resolve("stale.bin")).doesNotExist();
        assertThat(CliTest.run("decode", link.toString()).exit()).isZero();
        assertThat(names(tmp)).containsExactly("link", "m0plus.elf", "real");
    }

    @Test
    void forceDoesNotReplaceADirectoryWithSubdirectoriesOrOneHoldingAnInput(@TempDir Path tmp) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.createDirectories(home.resolve("projects"));
        Files.writeString(home.resolve("notes.txt"), "mine");
        CliTest.Result r = encodeSnapshot(tmp, home, "--force");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("subdirectories").doesNotContain("Exception");
        assertThat(names(home)).containsExactly("notes.txt", "projects");

        Path withInput = Files.createDirectories(tmp.resolve("work"));
        Path elf = withInput.resolve("prog.elf");
        Files.write(elf, Corpus.elfBytes("m0plus"));
        CliTest.Result in = CliTest.run("encode", "--protocol", "mtb", "--execution", EXEC, "--image", elf.toString(),
                "--snapshot-out", withInput.toString(), "--force");
        assertThat(in.exit()).isEqualTo(2);
        assertThat(in.err()).contains("prog.elf").contains("own input files");
        assertThat(Files.readAllBytes(elf)).isEqualTo(Corpus.elfBytes("m0plus"));
    }

    /** A failure while the new snapshot is put in place: the old one must stay whole (never a directory without snapshot.ini). */
    @Test
    void aFailedReplacementLeavesTheOldSnapshotWhole(@TempDir Path tmp) throws Exception {
        Path snap = tmp.resolve("snap");
        assertThat(encodeSnapshot(tmp, snap).exit()).isZero();
        java.util.Map<String, byte[]> before = contents(snap);

        // the new directory vanishes before it is moved in (as when a cleaner removes it)
        IOException vanished = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () ->
                OutputFile.writeDirectory(snap, true, "--snapshot-out", "snapshot.ini", List.of(), dir -> {
                    Files.writeString(dir.resolve("snapshot.ini"), "[snapshot]\n");
                    OutputFile.discard(dir);
                }));
        assertThat(vanished).hasMessageContaining("left as it was");
        assertThat(contents(snap)).containsOnlyKeys(before.keySet().toArray(String[]::new));
        java.util.Map<String, byte[]> after = contents(snap);
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
        assertThat(CliTest.run("decode", snap.toString()).exit()).isZero();

        // the new snapshot has a directory where the old one has a file: moving files one by one over the old
        // ones fails there, replacing the directory as a whole does not
        OutputFile.writeDirectory(snap, true, "--snapshot-out", "snapshot.ini", List.of(), dir -> {
            Files.writeString(dir.resolve("snapshot.ini"), "new");
            Files.createDirectories(dir.resolve("trace.ini"));
        });
        assertThat(Files.readString(snap.resolve("snapshot.ini"))).isEqualTo("new");
        assertThat(Files.isDirectory(snap.resolve("trace.ini"))).isTrue();
        assertThat(names(tmp)).containsExactly("m0plus.elf", "snap");
        assertThat(OutputFile.temporaryFiles()).isEmpty();
    }

    /** The shutdown hook, run between the two renames of a replacement, puts the old directory back. */
    @Test
    void anInterruptedReplacementPutsTheOldDirectoryBack(@TempDir Path tmp) throws Exception {
        Path snap = tmp.resolve("snap");
        assertThat(encodeSnapshot(tmp, snap).exit()).isZero();
        java.util.Map<String, byte[]> before = contents(snap);
        Path aside = tmp.resolve(".snap.1234.old");
        Files.move(snap, aside);
        OutputFile.rememberAside(aside, snap); // as swap() does before its first rename
        OutputFile.discardAll();
        assertThat(aside).doesNotExist();
        assertThat(contents(snap).keySet()).isEqualTo(before.keySet());
        assertThat(CliTest.run("decode", snap.toString()).exit()).isZero();
    }

    static java.util.Map<String, byte[]> contents(Path dir) throws IOException {
        java.util.Map<String, byte[]> m = new java.util.TreeMap<>();
        for (String n : names(dir)) {
            Path p = dir.resolve(n);
            m.put(n, Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(p) : new byte[0]);
        }
        return m;
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    void helpAndVersionIntoAFullOutputFail() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"--version"}, new String[] {"decode", "--help"},
                new String[] {"help", "encode"})) {
            StringWriter err = new StringWriter();
            int code = Main.run(args, new PrintWriter(new OutputSafetyTest.FullDisk(), true), new PrintWriter(err, true));
            assertThat(code).as(String.join(" ", args)).isEqualTo(1);
            assertThat(err.toString()).as(String.join(" ", args)).startsWith("armtrace: standard output: writing failed")
                    .doesNotContain("Exception");
        }
    }
}
