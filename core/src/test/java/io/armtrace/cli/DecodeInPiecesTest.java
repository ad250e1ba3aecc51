package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code decode --jobs 2 --chunk-size N} on one source prints what {@code --jobs 1} prints. */
class DecodeInPiecesTest {
    @Test
    void oneSourceInPiecesPrintsTheSequentialOutput() {
        String tc2 = SharedData.tc2().toString();
        for (String[] extra : new String[][] {{}, {"--insn"}, {"--format", "jsonl"}, {"--last", "100"}}) {
            for (String source : new String[] {"0x11", "0x13"}) {
                CliTest.Result one = CliTest.run(args(tc2, source, "1", extra));
                CliTest.Result pieces = CliTest.run(args(tc2, source, "2", extra));
                assertThat(one.exit()).as(one.err()).isZero();
                assertThat(pieces.exit()).as(pieces.err()).isZero();
                assertThat(pieces.out()).as("%s %s", source, String.join(" ", extra)).isEqualTo(one.out());
            }
        }
        assertThat(CliTest.run("decode", tc2, "--chunk-size", "lots").err()).contains("--chunk-size")
                .contains("not a size");
    }

    /**
     * Each piece formats its own listing and only bytes are joined: on every protocol that splits (ETMv3 and PTM
     * on TC2, ETMv4 on two Juno captures), in every listing format, with piece sizes drawn from a seeded
     * generator, the bytes written to standard output and to a file equal those of {@code --jobs 1}.
     */
    @Test
    void piecesFormatTheirOwnListingByteForByte(@TempDir Path tmp) throws Exception {
        String tc2 = SharedData.tc2().toString();
        String[][] sources = {{tc2, "0x10"}, {tc2, "0x11"}, {tc2, "0x12"}, {tc2, "0x13"},
                {SharedData.dir("etm4/juno_r1_1").toString(), "0x10"},
                {SharedData.dir("etm4/juno-uname-002").toString(), "0x16"}};
        String[][] formats = {{}, {"--insn"}, {"--annotate"}, {"--format", "jsonl"}, {"--format", "jsonl", "--ranges"},
                {"--format", "jsonl", "--annotate"}};
        Random random = new Random(20);
        int compared = 0;
        for (String[] source : sources) {
            for (String[] format : formats) {
                List<String> base = new ArrayList<>(List.of("decode", source[0], "--source", source[1]));
                base.addAll(List.of(format));
                byte[] one = standardOutput(with(base, "--jobs", "1"));
                String size = String.valueOf(200 + random.nextInt(4000));
                String what = String.join(" ", base) + " --chunk-size " + size;
                byte[] pieces = standardOutput(with(base, "--jobs", "2", "--chunk-size", size));
                assertThat(pieces).as(what).isEqualTo(one);
                Path file = tmp.resolve("out" + compared);
                CliTest.Result toFile = CliTest.run(with(base, "--jobs", "3", "--chunk-size", size, "-o", file.toString()));
                assertThat(toFile.exit()).as(toFile.err()).isZero();
                assertThat(Files.readAllBytes(file)).as(what + " -o").isEqualTo(one);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(sources.length * formats.length);
    }

    /**
     * With two threads and one source in one piece, the decoder runs on one and its listing (with every stage before
     * it: --time, --last, a filter, a recording's thread columns) on the other: byte for byte what one thread prints,
     * to standard output and to a file, on every protocol, in every listing form.
     */
    @Test
    void theDecoderBesideItsListingPrintsWhatOneThreadPrints(@TempDir Path tmp) throws Exception {
        String tc2 = SharedData.tc2().toString();
        String juno = SharedData.dir("etm4/juno_r1_1").toString();
        String[][] sources = {{tc2, "--source", "0x10"}, {tc2, "--source", "0x11"}, {tc2, "--source", "0x12"},
                {tc2, "--source", "0x13"}, {juno, "--source", "0x10"},
                {SharedData.dir("etm4/juno-uname-002").toString(), "--source", "0x16"}, {"examples/mtb-m0plus"},
                {"examples/etm2-arm926-thumb"}, {"examples/ptm-a15"},
                {PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata", "--source", "0x1c"}};
        String[][] forms = {{}, {"--insn"}, {"--annotate"}, {"--time"}, {"--last", "300"}, {"--format", "jsonl"},
                {"--format", "jsonl", "--ranges"}, {"--format", "jsonl", "--time", "--annotate"}};
        int compared = 0;
        for (String[] source : sources) {
            for (String[] form : forms) {
                List<String> base = new ArrayList<>(List.of("decode"));
                base.addAll(List.of(source));
                base.addAll(List.of(form));
                String what = String.join(" ", base);
                byte[] one = standardOutput(with(base, "--jobs", "1"));
                assertThat(one.length).as(what).isGreaterThan(1000);
                assertThat(standardOutput(with(base, "--jobs", "2"))).as(what).isEqualTo(one);
                Path file = tmp.resolve("out" + compared++);
                CliTest.Result toFile = CliTest.run(with(base, "--jobs", "2", "-o", file.toString()));
                assertThat(toFile.exit()).as(toFile.err()).isZero();
                assertThat(Files.readAllBytes(file)).as(what + " -o").isEqualTo(one);
            }
        }
        // a filter stage, and one that finds nothing (nothing decoded is told the same way)
        List<String> filtered = List.of("decode", tc2, "--source", "0x13", "--from", "0xc0018d00", "--to", "0xc0019000");
        byte[] one = standardOutput(with(filtered, "--jobs", "1"));
        assertThat(standardOutput(with(filtered, "--jobs", "2"))).isEqualTo(one);
        CliTest.Result none1 = CliTest.run("decode", "--trace", "pom.xml", "--protocol", "ptm", "--jobs", "1");
        CliTest.Result none2 = CliTest.run("decode", "--trace", "pom.xml", "--protocol", "ptm", "--jobs", "2");
        assertThat(none2.err()).isEqualTo(none1.err()).contains("no synchronization point");
        assertThat(none2.exit()).isEqualTo(none1.exit());
    }

    /**
     * Without --chunk-size a large source is cut by the automatic rule when there are threads and processors to
     * share it (4 or more), with the listing of one piece whatever the machine; --jobs 1 to 3, a small source, a
     * listing that is not plain or fewer than 4 processors keep it whole.
     */
    @Test
    void aLargeSourceIsCutByDefaultWithTheSameOutput(@TempDir Path tmp) throws Exception {
        Path big = QuietPipeTest.repeatedTc2(tmp.resolve("big"), 260); // 8.1 MiB of formatted trace
        long size = Files.size(big.resolve("cstrace.bin"));
        assertThat(size).isGreaterThanOrEqualTo(DecodeCommand.AUTO_MIN_SOURCE);
        List<String> base = List.of("decode", big.toString(), "--source", "0x13", "--format", "jsonl", "--ranges");
        byte[] one = standardOutput(with(base, "--jobs", "1"));
        assertThat(standardOutput(with(base, "--jobs", "2"))).isEqualTo(one);
        assertThat(standardOutput(with(base, "--jobs", "2", "--chunk-size", "4M"))).isEqualTo(one);
        assertThat(one.length).isGreaterThan(1 << 20);
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 4, 4)).as("four threads, four processors")
                .isEqualTo(4L << 20);
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 2, 2)).as("two processors: no gain measured")
                .isZero();
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 2, 8)).as("--jobs 2").isZero();
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 64, 64)).isEqualTo(4L << 20);
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 1, 4)).as("--jobs 1").isZero();
        assertThat(DecodeCommand.automaticPieceSize(size, true, true, 4, 1)).as("one processor").isZero();
        assertThat(DecodeCommand.automaticPieceSize((8L << 20) - 1, true, true, 4, 4)).as("a small source").isZero();
        assertThat(DecodeCommand.automaticPieceSize(size, false, true, 4, 4))
                .as("--last, --time, a filter or a progress bar").isZero();
        assertThat(DecodeCommand.automaticPieceSize(size, true, false, 4, 4)).as("a protocol that does not split").isZero();
    }

    private static String[] with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    /** What {@code armtrace ARGS} writes to standard output, as bytes (the command's own byte stream). */
    private static byte[] standardOutput(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Main.standardOutput(bytes, null), new PrintWriter(err, true));
        assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
        return bytes.toByteArray();
    }

    private static String[] args(String dir, String source, String jobs, String[] extra) {
        String[] base = {"decode", dir, "--source", source, "--jobs", jobs, "--chunk-size", "100"};
        String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }
}
