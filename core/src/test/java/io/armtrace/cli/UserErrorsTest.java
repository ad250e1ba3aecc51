package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.testdata.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mistakes get one sentence naming the option or file, exit code 2, and never a library's own text. */
class UserErrorsTest {
    static final Path EXAMPLES = Path.of(System.getProperty("user.dir")).resolve("examples");
    static final String PTM = EXAMPLES.resolve("ptm-a15").toString();
    static final String MTB = EXAMPLES.resolve("mtb-m0plus").toString();

    static void assertMistake(CliTest.Result r, String... mentions) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("armtrace: ").contains(mentions).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void contradictoryOrMeaninglessOptionValuesAreRefused() {
        assertMistake(CliTest.run("decode", PTM, "--last", "0"), "--last 0");
        assertMistake(CliTest.run("decode", PTM, "--last", "-3"), "--last -3");
        assertMistake(CliTest.run("decode", PTM, "--jobs", "0"), "--jobs 0");
        assertMistake(CliTest.run("decode", PTM, "--insn", "--ranges"), "--insn", "--ranges");
        assertMistake(CliTest.run("decode", PTM, "--ranges"), "--ranges", "jsonl");
        assertMistake(CliTest.run("decode", PTM, "--insn", "--format", "jsonl"), "--insn");
        assertMistake(CliTest.run("decode", PTM, "--limit", "-1"), "--limit -1");
        assertMistake(CliTest.run("decode", PTM, "--formatted"), "--formatted");
        assertMistake(CliTest.run("profile", MTB, "--top", "-1"), "--top -1");
        assertMistake(CliTest.run("profile", MTB, "--folded", "--by", "line"), "--folded", "--by line");
        assertMistake(CliTest.run("profile", MTB, "--cycles"), "--cycles", "--folded");
        assertMistake(CliTest.run("profile", MTB, "--folded", "--top", "5"), "--top", "--folded");
        assertMistake(CliTest.run("report", MTB, "--top", "-1"), "--top -1");
        assertMistake(CliTest.run("stats", PTM, "--clock", "0"), "--clock");
        assertMistake(CliTest.run("stats", PTM, "--ipc", "-1"), "--ipc");
    }

    @Test
    void registersTheProtocolDoesNotReadAreRefused() {
        String trace = EXAMPLES.resolve("ptm-a15/PTM_0_2.bin").toString();
        assertMistake(CliTest.run("decode", "--protocol", "ptm", "--trace", trace, "--reg", "ETMCRR=0x1000"),
                "--reg ETMCRR", "ETMCR, ETMIDR, ETMCCER, ETMTRACEIDR");
        assertMistake(CliTest.run("decode", "--protocol", "mtb", "--trace", trace, "--reg", "ETMCR=0x1000"),
                "--reg ETMCR", "POSITION, MASTER");
        assertMistake(CliTest.run("decode", "--protocol", "etm2", "--trace", trace, "--reg", "ETMCCER=0"),
                "--reg ETMCCER", "ETMCR, ETMIDR.");
        assertMistake(CliTest.run("decode", PTM, "--reg", "POSITION=4"), "--reg POSITION");
        assertMistake(CliTest.run("info", "--protocol", "etm3", "--reg", "FOO=1"), "--reg FOO");
        // names are matched as Registers matches them: case-insensitively, a (0x...) suffix ignored
        assertThat(CliTest.run("info", "--protocol", "etm3", "--reg", "etmcr(0x000)=0x1000").exit()).isZero();
    }

    @Test
    void anElfFileForAnotherProcessorIsRefused(@TempDir Path tmp) throws Exception {
        byte[] elf = Corpus.elfBytes("m0plus");
        elf[18] = 3; // e_machine EM_386 (little-endian half-word at byte 18 of a 32-bit ELF header)
        elf[19] = 0;
        Path x86 = tmp.resolve("x86.elf");
        Files.write(x86, elf);
        assertMistake(CliTest.run("decode", PTM, "--image", x86.toString()), "x86.elf", "another processor");
    }

    @Test
    void aDamagedElfFileGetsASentenceNotTheLibrarysText(@TempDir Path tmp) throws Exception {
        byte[] elf = Corpus.elfBytes("m0plus");
        Path cut = tmp.resolve("cut.elf");
        Files.write(cut, java.util.Arrays.copyOf(elf, 40));
        CliTest.Result r = CliTest.run("decode", PTM, "--image", cut.toString());
        assertMistake(r, "cut.elf");
        assertThat(r.err()).doesNotContainIgnoringCase("index").doesNotContainIgnoringCase("bounds");
        byte[] badHeaders = elf.clone();
        badHeaders[28] = (byte) 0xFF; // e_phoff far past the end of the file
        badHeaders[29] = (byte) 0xFF;
        badHeaders[30] = (byte) 0xFF;
        Path bad = tmp.resolve("bad.elf");
        Files.write(bad, badHeaders);
        CliTest.Result r2 = CliTest.run("decode", PTM, "--image", bad.toString());
        assertMistake(r2, "bad.elf");
        assertThat(r2.err()).doesNotContainIgnoringCase("index").doesNotContainIgnoringCase("bounds");
    }

    @Test
    void anExecutionWithNoInstructionsIsRefused(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("m0plus.elf");
        Files.write(elf, Corpus.elfBytes("m0plus"));
        Path empty = tmp.resolve("empty.exec.gz");
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(empty))) {
            out.write("armtrace-execution 1 profile=M core=cortex-m0plus\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertMistake(CliTest.run("encode", "--protocol", "mtb", "--execution", empty.toString(), "--image", elf.toString(),
                "-o", tmp.resolve("t.bin").toString()), "empty.exec.gz", "no instructions");
        assertThat(tmp.resolve("t.bin")).doesNotExist();
    }

    @Test
    void anEarlierOptionNameWorksWithANoteOrIsRefusedNamingTheNewOne(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("a9.elf");
        Files.write(elf, Corpus.elfBytes("a9-thumb"));
        String exec = Path.of("core/src/test/resources/groundtruth/a9-thumb.exec.gz").toString();
        CliTest.Result renamed = CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("old.bin").toString(), "--branch-output");
        assertThat(renamed.exit()).as(renamed.err()).isZero();
        assertThat(renamed.err()).contains("--branch-output is deprecated; it is now called --branch-broadcast.");
        CliTest.Result current = CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("new.bin").toString(), "--branch-broadcast");
        assertThat(current.exit()).as(current.err()).isZero();
        assertThat(current.err()).doesNotContain("deprecated");
        assertThat(Files.readAllBytes(tmp.resolve("old.bin"))).isEqualTo(Files.readAllBytes(tmp.resolve("new.bin")));
        CliTest.Result plain = CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("plain.bin").toString());
        // ETMCR[8] traces direct branches too: more trace
        assertThat(Files.size(tmp.resolve("new.bin"))).isGreaterThan(Files.size(tmp.resolve("plain.bin")));

        CliTest.Result refused = CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("t.bin").toString(), "--context-id=4");
        assertMistake(refused, "--context-id-size");
        assertThat(tmp.resolve("t.bin")).doesNotExist();
    }

    @Test
    void aNumberThatDoesNotParseIsNamedNotQuotedFromTheLibrary(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("a9.elf");
        Files.write(elf, Corpus.elfBytes("a9-thumb"));
        String exec = Path.of("core/src/test/resources/groundtruth/a9-thumb.exec.gz").toString();
        CliTest.Result r = CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("t.bin").toString(), "--async-period=12x");
        assertMistake(r, "'12x' is not a number");
        assertThat(r.err()).doesNotContain("For input string");
    }

    @Test
    void encodeOptionsThatSayNothingAreRefused(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("m0plus.elf");
        Files.write(elf, Corpus.elfBytes("m0plus"));
        String exec = Path.of("core/src/test/resources/groundtruth/m0plus.exec.gz").toString();
        String out = tmp.resolve("t.bin").toString();
        assertMistake(CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(), "-o", out,
                "--core", "Cortex-M0+"), "--core");
        assertMistake(CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(), "-o", out,
                "--clock", "50"), "--clock", "--stats");
        assertMistake(CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(), "-o", out,
                "--force"), "--force");
        assertMistake(CliTest.run("encode", "--protocol", "mtb", "--execution", exec, "--image", elf.toString(), "--stats",
                "--clock", "0"), "--clock");
    }

    /** Java's parsers take other scripts' digits (full-width, Arabic-Indic) and signs; numbers here are ASCII and registers unsigned. */
    @Test
    void numbersAreAsciiDigitsAndRegistersAreNeverNegative(@TempDir Path tmp) throws Exception {
        String trace = EXAMPLES.resolve("ptm-a15/PTM_0_2.bin").toString();
        String dump = EXAMPLES.resolve("ptm-a15/mem_Cortex-A15_0_1_RO_CODE.bin").toString();
        assertMistake(CliTest.run("decode", "--protocol", "ptm", "--trace", trace, "--image", dump + "@0x\uff18\uff10\uff10\uff10"),
                "the address after '@' is not a number");
        assertMistake(CliTest.run("decode", "--protocol", "ptm", "--trace", trace, "--image", dump + "@-0x8000"),
                "the address after '@' is not a number");
        assertMistake(CliTest.run("decode", "--protocol", "ptm", "--trace", trace, "--reg", "ETMCR=-1"),
                "--reg ETMCR=-1", "never negative");
        assertMistake(CliTest.run("decode", "--protocol", "mtb", "--trace", EXAMPLES.resolve("mtb-m0plus/mtb_sram.bin").toString(),
                "--reg", "POSITION=-1", "--reg", "MASTER=0x80000008"), "--reg POSITION=-1", "never negative");
        assertMistake(CliTest.run("info", "--protocol", "etm3", "--reg", "ETMCR=-0x10"), "never negative");
        assertMistake(CliTest.run("info", "--protocol", "etm3", "--reg", "ETMCR=0x\uff11\uff10"), "not a number");
        assertMistake(CliTest.run("decode", PTM, "--source", "\uff10x13"), "--source");
        assertMistake(CliTest.run("decode", PTM, "--from", "0x\u0668\u0660\u0660\u0660"), "--from");
        assertMistake(CliTest.run("decode", PTM, "--start", "insn:\uff15"), "--start");
        assertMistake(CliTest.run("decode", PTM, "--last", "\uff15"), "--last", "ASCII digits");
        assertMistake(CliTest.run("decode", PTM, "--jobs", "\uff12"), "--jobs", "ASCII digits");
        assertMistake(CliTest.run("decode", PTM, "--chunk-size", "\uff18M"), "--chunk-size");
        Path elf = tmp.resolve("a9.elf");
        Files.write(elf, Corpus.elfBytes("a9-thumb"));
        String exec = Path.of("core/src/test/resources/groundtruth/a9-thumb.exec.gz").toString();
        assertMistake(CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("t.bin").toString(), "--async-period=\uff11\uff12"), "ASCII digits");
        assertMistake(CliTest.run("encode", "--protocol", "etm3", "--execution", exec, "--image", elf.toString(),
                "-o", tmp.resolve("t.bin").toString(), "--async-period", "\uff11\uff12"), "ASCII digits");
        assertThat(tmp.resolve("t.bin")).doesNotExist();
        // and in a snapshot's [regs]
        Path snap = OutputSafetyTest.copyOf(Path.of(MTB), tmp.resolve("snap"));
        Path ini = snap.resolve("mtb_0.ini");
        String text = Files.readString(ini);
        String position = text.lines().filter(l -> l.startsWith("POSITION")).findFirst().orElseThrow();
        Files.writeString(ini, text.replace(position, "POSITION=-1"));
        assertMistake(CliTest.run("decode", snap.toString()), "mtb_0.ini", "[regs] POSITION is negative");
        Files.writeString(ini, text.replace(position, "POSITION=0x\uff12\uff10\uff10\uff10\uff10\uff10\uff10\uff10"));
        assertMistake(CliTest.run("decode", snap.toString()), "mtb_0.ini", "[regs] POSITION is not a number");
    }

    /** merge: two counts of 2^63-1 summed to -2 with exit 0; negative counts were taken. */
    @Test
    void mergeRefusesCountsThatAreNegativeOrOverflow(@TempDir Path tmp) throws Exception {
        Path a = Files.writeString(tmp.resolve("a.info"), "SF:x.c\nDA:3," + Long.MAX_VALUE + "\nend_of_record\n");
        Path b = Files.writeString(tmp.resolve("b.info"), "SF:x.c\nDA:3," + Long.MAX_VALUE + "\nend_of_record\n");
        Path out = tmp.resolve("all.info");
        assertMistake(CliTest.run("merge", "--lcov", a.toString(), b.toString(), "-o", out.toString()), "b.info line 2",
                "64-bit count");
        Path f1 = Files.writeString(tmp.resolve("a.folded"), "main;work " + Long.MAX_VALUE + "\n");
        Path f2 = Files.writeString(tmp.resolve("b.folded"), "main;work " + Long.MAX_VALUE + "\n");
        assertMistake(CliTest.run("merge", "--folded", f1.toString(), f2.toString(), "-o", out.toString()), "b.folded line 1");
        Path neg = Files.writeString(tmp.resolve("neg.folded"), "main 5\nmain;work -3\n");
        assertMistake(CliTest.run("merge", "--folded", neg.toString(), "-o", out.toString()), "neg.folded line 2", "negative");
        assertThat(out).doesNotExist();
    }

    @Test
    void longValuesAreNotEchoedWhole() {
        String huge = "x".repeat(5000);
        for (List<String> args : List.of(
                List.of("decode", PTM, "--source", huge),
                List.of("decode", PTM, "--jobs", huge),
                List.of("decode", PTM, "--protocol", huge),
                List.of("decode", "--protocol", "ptm", "--trace", PTM + "/PTM_0_2.bin", "--reg", huge + "=1"),
                List.of("decode", "--" + huge),
                List.of("info", "--protocol", "ptm", "--reg", huge))) {
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.err().length()).as(r.err().substring(0, Math.min(100, r.err().length()))).isLessThan(450);
        }
    }

    @Test
    void infoReadsSnapshotsWithAbsolutePathsAndConfineRefusesThem(@TempDir Path tmp) throws Exception {
        Path snap = OutputSafetyTest.copyOf(Path.of(MTB), tmp.resolve("snap"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.move(snap.resolve("mtb_sram.bin"), elsewhere.resolve("mtb_sram.bin"));
        Files.move(snap.resolve("program.elf"), elsewhere.resolve("program.elf"));
        Path trace = snap.resolve("trace.ini");
        Files.writeString(trace, Files.readString(trace).replace("file=mtb_sram.bin",
                "file=" + elsewhere.resolve("mtb_sram.bin").toAbsolutePath()));
        Path cpu = snap.resolve("cpu_0.ini");
        Files.writeString(cpu, Files.readString(cpu).replace("file=program.elf", "file=../elsewhere/program.elf"));
        // a relative snapshot directory with absolute buffer paths is what broke
        String relative = Path.of("").toAbsolutePath().relativize(snap.toAbsolutePath()).toString();
        CliTest.Result info = CliTest.run("info", relative);
        assertThat(info.exit()).as(info.err()).isZero();
        assertThat(info.out()).contains(elsewhere.resolve("mtb_sram.bin").toAbsolutePath().toString());
        assertThat(CliTest.run("decode", relative).exit()).isZero();

        assertMistake(CliTest.run("info", relative, "--confine"), "outside the snapshot directory");
        assertMistake(CliTest.run("decode", snap.toString(), "--confine"), "outside the snapshot directory");
        // the bundled examples keep their files inside
        assertThat(CliTest.run("decode", MTB, "--confine").exit()).isZero();
        assertThat(CliTest.run("info", SharedData.tc2().toString(), "--confine").exit()).isZero();
    }
}
