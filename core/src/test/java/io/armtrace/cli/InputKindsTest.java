package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where armtrace reads a regular file (snapshot .ini files, trace buffers, dumps, ELF images, raw trace, logs,
 * merge inputs), anything else is refused before it is opened, saying what it is: a named pipe would block the
 * reader for ever, a device such as /dev/zero never ends. --confine holds for snapshot.ini too, and no message
 * repeats what a file says.
 */
class InputKindsTest {
    static final Path MTB = OutputSafetyTest.MTB;
    static final Duration QUICKLY = Duration.ofSeconds(30);

    static Path fifo(Path at) throws Exception {
        assertThat(new ProcessBuilder("mkfifo", at.toString()).start().waitFor()).isZero();
        return at;
    }

    static CliTest.Result quickly(String... args) {
        return assertTimeoutPreemptively(QUICKLY, () -> CliTest.run(args), () -> String.join(" ", args) + " hangs");
    }

    @Test
    void aNamedPipeWhereASnapshotFileBelongsIsRefusedNotWaitedFor(@TempDir Path tmp) throws Exception {
        for (String name : List.of("trace.ini", "mtb_0.ini", "mtb_sram.bin", "program.elf", "snapshot.ini")) {
            Path snap = OutputSafetyTest.copyOf(MTB, tmp.resolve("s-" + name));
            Files.delete(snap.resolve(name));
            fifo(snap.resolve(name));
            for (String[] args : List.of(new String[] {"info", snap.toString()},
                    new String[] {"decode", snap.toString(), "--confine"})) {
                CliTest.Result r = quickly(args);
                UserErrorsTest.assertMistake(r, name, "named pipe (FIFO), not a regular file");
            }
        }
    }

    @Test
    void devicesAndDirectoriesAreSaidForWhatTheyAre(@TempDir Path tmp) throws Exception {
        Path snap = OutputSafetyTest.copyOf(MTB, tmp.resolve("snap"));
        Files.delete(snap.resolve("mtb_sram.bin"));
        Files.createSymbolicLink(snap.resolve("mtb_sram.bin"), Path.of("/dev/null"));
        UserErrorsTest.assertMistake(quickly("decode", snap.toString()), "mtb_sram.bin", "is a device, not a regular file");
        Files.delete(snap.resolve("mtb_sram.bin"));
        Files.createDirectory(snap.resolve("mtb_sram.bin"));
        UserErrorsTest.assertMistake(quickly("decode", snap.toString()), "mtb_sram.bin", "is a directory, not a file");
        Files.delete(snap.resolve("program.elf"));
        Files.createSymbolicLink(snap.resolve("program.elf"), Path.of("/dev/zero"));
        UserErrorsTest.assertMistake(quickly("info", snap.toString()), "program.elf", "is a device");
    }

    /** trace.ini -> /dev/zero read 2.3 GB in 100 s, and ran out of memory at -Xmx64m: it is refused at once. */
    @Test
    void anIniFileThatIsADeviceIsNotReadWithoutEnd(@TempDir Path tmp) throws Exception {
        Path snap = OutputSafetyTest.copyOf(MTB, tmp.resolve("snap"));
        Files.delete(snap.resolve("trace.ini"));
        Files.createSymbolicLink(snap.resolve("trace.ini"), Path.of("/dev/zero"));
        Process p = new ProcessBuilder(OutputTargetsTest.javaBin(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                "io.armtrace.cli.Main", "info", snap.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ended).as("info with trace.ini -> /dev/zero ends").isTrue();
        assertThat(p.exitValue()).as(err).isEqualTo(2);
        assertThat(err).contains("trace.ini: is a device, not a regular file").doesNotContain("OutOfMemoryError")
                .doesNotContain("\tat ");
    }

    @Test
    void commandLineInputsThatAreNotRegularFilesAreRefused(@TempDir Path tmp) throws Exception {
        Path pipe = fifo(tmp.resolve("pipe"));
        String elf = MTB.resolve("program.elf").toString();
        UserErrorsTest.assertMistake(quickly("decode", "--protocol", "mtb", "--trace", pipe.toString(), "--image", elf),
                "pipe", "named pipe");
        UserErrorsTest.assertMistake(quickly("decode", "--protocol", "mtb", "--trace", MTB.resolve("mtb_sram.bin").toString(),
                "--image", pipe.toString()), "pipe", "named pipe");
        UserErrorsTest.assertMistake(quickly("decode", "--protocol", "mtb", "--trace", MTB.resolve("mtb_sram.bin").toString(),
                "--image", pipe + "@0x0"), "pipe", "named pipe");
        UserErrorsTest.assertMistake(quickly("decode", "--protocol", "mtb", "--trace", tmp.toString()), "is a directory");
        UserErrorsTest.assertMistake(quickly("deformat", pipe.toString(), "--source", "0x10", "-o",
                tmp.resolve("o").toString()), "named pipe");
        UserErrorsTest.assertMistake(quickly("merge", "--folded", "/dev/zero"), "/dev/zero", "is a device");
        UserErrorsTest.assertMistake(quickly("encode", "--protocol", "mtb", "--execution", pipe.toString(), "--image", elf,
                "-o", tmp.resolve("t.bin").toString()), "named pipe");
        assertThat(tmp.resolve("o")).doesNotExist();
        assertThat(tmp.resolve("t.bin")).doesNotExist();
    }

    static final String SECRET = "root:x:0:0:the first line of someone else's file";

    @Test
    void confineHoldsForSnapshotIniItselfAndNoMessageRepeatsAFile(@TempDir Path tmp) throws Exception {
        Path outside = Files.writeString(tmp.resolve("passwd"), SECRET + "\nsecond line\n");
        Path snap = OutputSafetyTest.copyOf(MTB, tmp.resolve("snap"));
        Files.delete(snap.resolve("snapshot.ini"));
        Files.createSymbolicLink(snap.resolve("snapshot.ini"), outside);
        CliTest.Result confined = CliTest.run("info", snap.toString(), "--confine");
        UserErrorsTest.assertMistake(confined, "outside the snapshot directory");
        assertThat(confined.err()).doesNotContain("root:x").doesNotContain("second line");
        // without --confine the file is read, and the error says where and what was expected, not what it says
        CliTest.Result open = CliTest.run("info", snap.toString());
        UserErrorsTest.assertMistake(open, "snapshot.ini line 1", "expected a [section] header or a key=value line");
        assertThat(open.err()).doesNotContain("root:x").doesNotContain("first line");

        // a valid snapshot.ini outside the directory: read without --confine, refused with it
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.copy(MTB.resolve("snapshot.ini"), elsewhere.resolve("snapshot.ini"));
        Files.delete(snap.resolve("snapshot.ini"));
        Files.createSymbolicLink(snap.resolve("snapshot.ini"), elsewhere.resolve("snapshot.ini"));
        assertThat(CliTest.run("info", snap.toString()).exit()).isZero();
        UserErrorsTest.assertMistake(CliTest.run("info", snap.toString(), "--confine"), "outside the snapshot directory");
        UserErrorsTest.assertMistake(CliTest.run("decode", snap.toString(), "--confine"), "outside the snapshot directory");
    }

    @Test
    void whatAFileSaysIsNotRepeatedAndNamesAreShownPrintable(@TempDir Path tmp) throws Exception {
        Path snap = OutputSafetyTest.copyOf(MTB, tmp.resolve("snap"));
        Path ini = snap.resolve("mtb_0.ini");
        String text = Files.readString(ini);
        // a register value that is not a number, under a key with a terminal escape sequence and a bell in it
        Files.writeString(ini, text.replace("[regs]", "[regs]\nBAD\u001b[31m\u0007KEY=" + SECRET));
        CliTest.Result r = CliTest.run("info", snap.toString());
        UserErrorsTest.assertMistake(r, "mtb_0.ini", "is not a number", "BAD?[31m?KEY");
        assertThat(r.err()).doesNotContain("root:x").doesNotContain("\u001b").doesNotContain("\u0007");
        // a line that is neither a section nor a key=value line
        Files.writeString(ini, text + "\n" + SECRET.replace(":", " ") + "\n");
        CliTest.Result line = CliTest.run("info", snap.toString());
        UserErrorsTest.assertMistake(line, "mtb_0.ini line", "expected a [section] header or a key=value line");
        assertThat(line.err()).doesNotContain("first line");
    }
}
