package io.armtrace.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.cli.Main;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job in local mode gives, byte for byte, what the command line gives capture by capture:
 * each capture's {@code decode --format jsonl}, and {@code merge} of every capture's LCOV tracefiles and
 * folded stacks. Captures: the bundled examples (ETMv2, ETMv3, PTM, MTB), the TC2 hardware capture
 * (five sources in one formatted buffer), encoder-made MTB dumps and an ETMv3 capture whose ELF has
 * DWARF lines (so that the LCOV has lines, functions and branches to add up), and one capture that
 * cannot be decoded, which is reported and stops nothing.
 */
class FleetDecodeTest {
    private static JavaSparkContext sc;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName("FleetDecodeTest")
                .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    }

    @AfterAll
    static void stop() {
        if (sc != null) {
            sc.close();
        }
    }

    @Test
    void jobGivesWhatTheCommandLineGivesCaptureByCapture() throws IOException {
        Path fleet = Files.createDirectories(tmp.resolve("fleet"));
        try (Stream<Path> examples = Files.list(Path.of("examples"))) {
            for (Path e : examples.filter(e -> Files.isRegularFile(e.resolve("snapshot.ini"))).toList()) {
                copyTree(e, fleet.resolve(e.getFileName().toString()));
            }
        }
        copyTree(SharedData.tc2(), fleet.resolve("tc2"));
        encoded(fleet.resolve("mtb-m0plus-1k"), "mtb", "m0plus");
        encoded(fleet.resolve("mtb-m0plus-4k"), "mtb", "m0plus", "--buffer-size=4096");
        encoded(fleet.resolve("etm3-m3-dwarf"), "etm3", "m3", "--profile-m");
        // one capture that cannot be decoded: its snapshot.ini lists no devices
        Path bad = fleet.resolve("etm3-no-devices");
        copyTree(Path.of("examples/etm3-a9-thumb"), bad);
        Files.writeString(bad.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n");

        Path sparkOut = tmp.resolve("spark-out");
        FleetDecode.Summary summary = FleetDecode.run(sc, fleet.toString(), sparkOut.toString());

        List<Path> all;
        try (Stream<Path> s = Files.list(fleet)) {
            all = s.sorted().toList();
        }
        assertThat(summary.captures()).isEqualTo(all.size()).isGreaterThanOrEqualTo(8);
        // the bad capture is reported, with the path of its input, and nothing else stopped
        assertThat(summary.failed()).isEqualTo(1);
        List<String> status = Files.readAllLines(sparkOut.resolve("status.tsv"));
        assertThat(status).hasSize(all.size());
        String failure = status.stream().filter(l -> l.startsWith("etm3-no-devices\t")).findFirst().orElseThrow();
        assertThat(failure).startsWith("etm3-no-devices\terror\t")
                .contains(bad.resolve("snapshot.ini").toAbsolutePath().toString()).contains("[device_list]")
                .doesNotContain("armtrace-capture");
        assertThat(status).filteredOn(l -> !l.equals(failure)).allMatch(l -> l.endsWith("\tok"));
        assertThat(sparkOut.resolve("captures").resolve("etm3-no-devices.jsonl")).doesNotExist();
        List<Path> captures = all.stream().filter(c -> !c.equals(bad)).toList();

        // the command line, one capture at a time
        Path cliOut = Files.createDirectories(tmp.resolve("cli-out"));
        List<String> lcovFiles = new ArrayList<>(List.of("merge", "--lcov", "-o", cliOut.resolve("coverage.info").toString()));
        List<String> foldedFiles = new ArrayList<>(List.of("merge", "--folded", "-o", cliOut.resolve("profile.folded").toString()));
        for (Path c : captures) {
            String name = c.getFileName().toString();
            Path jsonl = cliOut.resolve(name + ".jsonl");
            cli("decode", c.toString(), "--format", "jsonl", "-o", jsonl.toString());
            assertThat(sparkOut.resolve("captures").resolve(name + ".jsonl")).as(name).hasSameBinaryContentAs(jsonl);
            assertThat(Files.size(jsonl)).as(name).isPositive();

            Path folded = cliOut.resolve(name + ".folded");
            cli("profile", c.toString(), "--folded", "-o", folded.toString());
            foldedFiles.add(folded.toString());
            int i = 0;
            Path info = cliOut.resolve(name + ".info");
            for (List<String> run : FleetDecode.coverageRuns(c, info)) {
                cli(run.toArray(String[]::new));
                Path kept = Files.move(info, cliOut.resolve(name + "-" + i++ + ".info"));
                lcovFiles.add(kept.toString());
            }
        }
        cli(lcovFiles.toArray(String[]::new));
        cli(foldedFiles.toArray(String[]::new));
        assertThat(sparkOut.resolve("coverage.info")).hasSameBinaryContentAs(cliOut.resolve("coverage.info"));
        assertThat(sparkOut.resolve("profile.folded")).hasSameBinaryContentAs(cliOut.resolve("profile.folded"));
        assertThat(Files.readString(sparkOut.resolve("coverage.info"))).contains("SF:").contains("DA:").contains("FNDA:")
                .contains("BRDA:");
        assertThat(Files.readString(sparkOut.resolve("profile.folded"))).contains("Reset_Handler");
    }

    /** A capture made by {@code armtrace encode} of a corpus program, with the program's ELF as its image. */
    private static void encoded(Path dir, String protocol, String program, String... options) throws IOException {
        Path work = Files.createDirectories(tmp.resolve("encode-" + dir.getFileName()));
        Path elf = Files.write(work.resolve(program + ".elf"), Corpus.elfBytes(program));
        Path exec = work.resolve(program + ".exec.gz");
        try (InputStream in = Corpus.class.getResourceAsStream("/groundtruth/" + program + ".exec.gz")) {
            Files.write(exec, in.readAllBytes());
        }
        List<String> args = new ArrayList<>(List.of("encode", "--protocol", protocol, "--execution", exec.toString(),
                "--image", elf.toString(), "--snapshot-out", dir.toString()));
        for (String o : options) {
            if (o.equals("--profile-m")) {
                args.addAll(List.of("--profile", "M"));
            } else {
                args.add(o);
            }
        }
        cli(args.toArray(String[]::new));
        // the snapshot's memory dump becomes the ELF itself: symbols and DWARF lines for the views
        Files.copy(elf, dir.resolve("program.elf"));
        Path cpu = dir.resolve("cpu_0.ini");
        Files.writeString(cpu, Files.readString(cpu).replaceAll("(?m)^file=.*$", "file=program.elf")
                .replaceAll("(?m)^length=.*\\R", ""));
    }

    private static void cli(String... args) {
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(Writer.nullWriter()), new PrintWriter(err));
        assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.sorted(Comparator.naturalOrder()).toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
