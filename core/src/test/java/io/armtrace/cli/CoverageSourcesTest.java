package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LCOV tracefiles that genhtml reads as they are: every SF a source file that exists, named by an
 * absolute path (genhtml stops at the first file it cannot read, and relative paths depend on where it
 * runs), files that cannot be found left out with a warning, and the lcov-like options that choose and
 * place them.
 */
class CoverageSourcesTest {
    static final Path ROOT = Path.of(System.getProperty("user.dir"));
    static final String[] WITH_LINES = {"examples/etm2-arm926-thumb", "examples/etm3-a9-thumb", "examples/mtb-m0plus"};

    static List<String> sourceFiles(Path tracefile) throws IOException {
        return Files.readAllLines(tracefile).stream().filter(l -> l.startsWith("SF:")).map(l -> l.substring(3)).toList();
    }

    static CliTest.Result coverage(Path lcov, String... args) {
        List<String> a = new ArrayList<>(List.of("coverage"));
        a.addAll(List.of(args));
        a.addAll(List.of("--lcov", lcov.toString()));
        return CliTest.run(a.toArray(String[]::new));
    }

    @Test
    void everySourceFileOfEveryExampleIsAnExistingFileByAbsolutePath(@TempDir Path tmp) throws IOException {
        int files = 0;
        for (String example : WITH_LINES) {
            Path lcov = tmp.resolve(Path.of(example).getFileName() + ".info");
            CliTest.Result r = coverage(lcov, ROOT.resolve(example).toString());
            assertThat(r.exit()).as(r.err()).isZero();
            List<String> sf = sourceFiles(lcov);
            assertThat(sf).as(example).isNotEmpty().doesNotHaveDuplicates();
            for (String f : sf) {
                assertThat(Path.of(f)).as(example + ": " + f).isAbsolute().isRegularFile();
                assertThat(Path.of(f).normalize().toString()).isEqualTo(f);
                files++;
            }
            // the program's own sources: the ground-truth programs of this repository
            assertThat(sf).anyMatch(f -> f.equals(ROOT.resolve("tools/groundtruth/programs/common/work.c").toString()));
            // libgcc's assembler source was compiled on another machine: left out, and said so
            if (!example.contains("etm3")) {
                assertThat(r.err()).contains("lib1funcs.S: source file not found; left out of the LCOV tracefile");
            }
        }
        assertThat(files).isGreaterThanOrEqualTo(10);
    }

    @Test
    void includeAndExcludeChooseFilesAsLcovPatternsDo(@TempDir Path tmp) throws IOException {
        String etm3 = ROOT.resolve("examples/etm3-a9-thumb").toString();
        Path all = tmp.resolve("all.info");
        coverage(all, etm3);
        assertThat(sourceFiles(all)).hasSize(4);
        Path only = tmp.resolve("only.info");
        CliTest.Result r = coverage(only, etm3, "--include", "*/common/*");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(sourceFiles(only)).hasSize(2).allMatch(f -> f.contains("/common/"));
        Path without = tmp.resolve("without.info");
        coverage(without, etm3, "--exclude", "*/cortex-a/*.?", "--exclude", "*other_isa*");
        assertThat(sourceFiles(without)).containsExactly(ROOT.resolve("tools/groundtruth/programs/common/work.c").toString());
        // the records of the files kept are those of the whole tracefile
        String whole = Files.readString(all);
        String kept = Files.readString(without);
        assertThat(whole).contains(kept.substring(kept.indexOf("SF:")));
    }

    @Test
    void sourceRootAndSourceMapSayWhereTheSourcesAre(@TempDir Path tmp) throws IOException {
        // a copy of the sources elsewhere
        Path copy = tmp.resolve("checkout");
        Path programs = ROOT.resolve("tools/groundtruth/programs");
        try (Stream<Path> files = Files.walk(programs)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve("tools/groundtruth/programs").resolve(programs.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        String mtb = ROOT.resolve("examples/mtb-m0plus").toString();
        Path rooted = tmp.resolve("rooted.info");
        CliTest.Result r = coverage(rooted, mtb, "--source-root", copy.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(sourceFiles(rooted)).hasSize(2).allMatch(f -> f.startsWith(copy.toString() + "/tools/groundtruth/"));
        // a prefix map: the libgcc sources of the build machine, here one file in a directory of ours
        Path libgcc = tmp.resolve("gcc/libgcc/config/arm");
        Files.createDirectories(libgcc);
        Files.writeString(libgcc.resolve("lib1funcs.S"), "@ stands in for libgcc's source\n");
        Path mapped = tmp.resolve("mapped.info");
        CliTest.Result m = coverage(mapped, mtb, "--source-map",
                "/build/gcc-arm-none-eabi-8GAN2q/gcc-arm-none-eabi-12.2.rel1=" + tmp.resolve("gcc"));
        assertThat(m.exit()).as(m.err()).isZero();
        assertThat(m.err()).doesNotContain("not found");
        assertThat(sourceFiles(mapped)).contains(libgcc.resolve("lib1funcs.S").toString()).hasSize(3);
        // as recorded: nothing looked for, nothing left out (a tracefile read elsewhere)
        Path recorded = tmp.resolve("recorded.info");
        CliTest.Result rec = coverage(recorded, mtb, "--source-paths", "recorded");
        assertThat(rec.exit()).as(rec.err()).isZero();
        assertThat(sourceFiles(recorded)).containsExactly(
                "/build/gcc-arm-none-eabi-8GAN2q/gcc-arm-none-eabi-12.2.rel1/libgcc/config/arm/lib1funcs.S",
                "tools/groundtruth/programs/common/work.c", "tools/groundtruth/programs/cortex-m/startup_m.c");
        // mistakes
        UserErrorsTest.assertMistake(CliTest.run("coverage", mtb, "--include", "*.c"), "--lcov");
        UserErrorsTest.assertMistake(coverage(tmp.resolve("x.info"), mtb, "--source-map", "nothing"), "--source-map nothing");
        UserErrorsTest.assertMistake(coverage(tmp.resolve("x.info"), mtb, "--source-root", tmp.resolve("none").toString()),
                "--source-root");
    }

    @Test
    void anImageWithoutLineTablesIsSaidToBeWhyTheTracefileIsEmpty(@TempDir Path tmp) throws IOException {
        Path lcov = tmp.resolve("ptm.info");
        CliTest.Result r = coverage(lcov, ROOT.resolve("examples/ptm-a15").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(sourceFiles(lcov)).isEmpty();
        assertThat(r.err()).contains("no DWARF line tables");
    }
}
