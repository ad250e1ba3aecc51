package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Whole command lines on fuzzed input, in process: snapshot directories built from the fuzz bytes (the
 * .ini files with their paths and numbers, trace buffers, dumps), and fuzzed trace decoded with each
 * bundled example's registers and image into every view ({@code --last}, text, JSON Lines, profile,
 * callgraph, coverage, report). A command either succeeds or names the problem (exit 0 or 2); it
 * never fails with an internal error or a stack trace. {@code mvn test} replays the stored inputs
 * (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class CliFuzzTest {
    /** Separates the files of a snapshot in the fuzz input: {@code \n== NAME\n} then the file's bytes. */
    static final String FILE_MARK = "\n== ";
    /** The bundled examples and the file in each that holds the trace. */
    private static final String[][] EXAMPLES = {
            {"etm3-a9-thumb", "trace_0.bin"}, {"ptm-a15", "PTM_0_2.bin"}, {"mtb-m0plus", "mtb_sram.bin"},
            {"etm2-arm926-thumb", "trace_0.bin"}};

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(exit, out.toString(), err.toString());
    }

    static void assertNoInternalError(Run r, String... args) {
        assertThat(r.err()).as(String.join(" ", args)).doesNotContain("\tat ").doesNotContain("Exception:");
        assertThat(r.exit()).as(String.join(" ", args) + "\n" + r.err()).isIn(0, 2);
    }

    @FuzzTest(maxDuration = "20s")
    void snapshotLoadsAndDecodesOrSaysWhy(byte[] data) throws IOException {
        Path dir = Files.createTempDirectory("fuzz-snapshot");
        try {
            if (!unpack(data, dir)) {
                return;
            }
            // info and decode --last always, one more command chosen by the input's last byte
            String d = dir.toString();
            String[][] more = {{"decode", d, "--jobs", "1", "--format", "jsonl"}, {"packets", d}, {"stats", d}};
            for (String[] args : new String[][] {{"info", d}, {"decode", d, "--jobs", "1", "--last", "20"},
                    more[data.length == 0 ? 0 : (data[data.length - 1] & 0xFF) % more.length]}) {
                assertNoInternalError(run(args), args);
            }
        } finally {
            delete(dir);
        }
    }

    @FuzzTest(maxDuration = "20s")
    void fuzzedTraceThroughEveryView(byte[] data) throws IOException {
        // the first byte chooses the example whose registers and image decode the rest as its trace
        String[] example = EXAMPLES[data.length == 0 ? 0 : (data[0] & 0xFF) % EXAMPLES.length];
        byte[] trace = data.length == 0 ? data : java.util.Arrays.copyOfRange(data, 1, data.length);
        Path dir = Files.createTempDirectory("fuzz-views");
        try {
            Path snap = Files.createDirectory(dir.resolve("snap"));
            try (Stream<Path> files = Files.list(Path.of("examples", example[0]))) {
                for (Path f : files.toList()) {
                    Files.copy(f, snap.resolve(f.getFileName()));
                }
            }
            Files.write(snap.resolve(example[1]), trace);
            String s = snap.toString();
            String last = Integer.toString(1 + (data.length == 0 ? 0 : (data[data.length - 1] & 0x3F)));
            // decode --last always, one view chosen by the input's last byte
            String[][] views = {{"decode", s, "--jobs", "1", "--insn"},
                    {"decode", s, "--jobs", "1", "--format", "jsonl", "--last", last},
                    {"decode", s, "--jobs", "1", "--format", "jsonl", "--ranges"},
                    {"profile", s}, {"profile", s, "--folded"},
                    {"callgraph", s, "-o", dir.resolve("callgrind.out").toString()},
                    {"coverage", s, "--lcov", dir.resolve("cov.info").toString()},
                    {"report", s, "-o", dir.resolve("report.html").toString()}};
            int pick = data.length < 2 ? 0 : (data[data.length - 2] & 0xFF) % views.length;
            // and the AutoFDO profile, which follows the flow across ranges (its own element sink)
            String[] autofdo = {"autofdo", s, "-o", dir.resolve("profile.afdo").toString()};
            for (String[] args : new String[][] {{"decode", s, "--jobs", "1", "--last", last}, views[pick], autofdo}) {
                assertNoInternalError(run(args), args);
            }
        } finally {
            delete(dir);
        }
    }

    /**
     * Writes the files of {@code data} into {@code dir}: {@code FILE_MARK NAME \n BYTES} repeated. Names
     * are plain file names (letters, digits, {@code _.-}); false if the input names none.
     */
    static boolean unpack(byte[] data, Path dir) throws IOException {
        String text = "\n" + new String(data, StandardCharsets.ISO_8859_1);
        String[] parts = text.split(FILE_MARK, -1);
        boolean any = false;
        for (int i = 1; i < parts.length; i++) {
            int nl = parts[i].indexOf('\n');
            String name = nl < 0 ? parts[i] : parts[i].substring(0, nl);
            if (!name.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}")) {
                continue;
            }
            String body = nl < 0 ? "" : parts[i].substring(nl + 1);
            Files.write(dir.resolve(name), body.getBytes(StandardCharsets.ISO_8859_1));
            any = true;
        }
        return any;
    }

    /** The inverse of {@link #unpack}, for making seed inputs out of real snapshots. */
    static byte[] pack(Path dir, long maxFileBytes) throws IOException {
        StringBuilder sb = new StringBuilder();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            b = java.util.Arrays.copyOf(b, (int) Math.min(b.length, maxFileBytes));
            sb.append(sb.isEmpty() ? FILE_MARK.substring(1) : FILE_MARK).append(f.getFileName()).append('\n')
                    .append(new String(b, StandardCharsets.ISO_8859_1));
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
