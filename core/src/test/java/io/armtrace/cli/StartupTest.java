package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What keeps a short run short (docs/performance.md, "Start-up"): which classes a run loads, counted in a JVM of its
 * own, and the launcher's use of the class-data-sharing archive the build makes. Not a timing test: each check fails
 * when the thing that made start-up fast is undone.
 */
class StartupTest {
    private static final Path PTM_A15 = Path.of("examples/ptm-a15");

    /** The classes a run of {@code args} loads, by name, from -Xlog:class+load. */
    private static List<String> classesLoaded(Path tmp, String... args) throws Exception {
        Path log = tmp.resolve("classes.log");
        Path out = tmp.resolve("out.txt");
        List<String> command = new java.util.ArrayList<>(List.of(OutputTargetsTest.javaBin(),
                "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"), "io.armtrace.cli.Main"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(tmp.resolve("err.txt").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("err.txt"))).isZero();
        // "[info][class,load] java.lang.Object source: shared objects file"
        return Files.readAllLines(log).stream().map(l -> l.substring(l.indexOf("] ", l.indexOf("class,load")) + 2))
                .map(l -> l.substring(0, l.indexOf(' '))).collect(Collectors.toList());
    }

    @Test
    void versionLoadsNeitherPicocliNorAnyCommand(@TempDir Path tmp) throws Exception {
        List<String> loaded = classesLoaded(tmp, "--version");
        assertThat(Files.readString(tmp.resolve("out.txt"))).isEqualTo("armtrace " + Main.Version.version() + "\n");
        // picocli's exception classes are loaded to verify Main, which throws them, and the interface Main.Version
        // implements; nothing else of picocli
        assertThat(loaded.stream().filter(c -> c.startsWith("picocli."))).hasSizeLessThanOrEqualTo(4)
                .doesNotContain("picocli.CommandLine", "picocli.CommandLine$Model$CommandSpec");
        assertThat(loaded.stream().filter(c -> c.startsWith("io.armtrace."))).hasSizeLessThan(10);
        // the JDK alone loads about 450 classes for a program that prints one line; this one loaded 1270 before
        assertThat(loaded).hasSizeLessThan(700);
    }

    @Test
    void decodeLoadsOnlyItsOwnCommandAndNoViewItDoesNotUse(@TempDir Path tmp) throws Exception {
        List<String> loaded = classesLoaded(tmp, "decode", PTM_A15.toString());
        assertThat(Files.readString(tmp.resolve("out.txt"))).isEqualTo(CliTest.run("decode", PTM_A15.toString()).out());
        assertThat(loaded).contains("io.armtrace.cli.DecodeCommand");
        for (String other : List.of("PacketsCommand", "ItmCommand", "InfoCommand", "DeformatCommand", "EncodeCommand",
                "StatsCommand", "MergeCommand", "ProfileCommand", "CallgraphCommand", "CoverageCommand", "ReportCommand",
                "AutofdoCommand", "ConvertCommand", "TimelineCommand", "CompletionCommand", "ManCommand")) {
            assertThat(loaded).doesNotContain("io.armtrace.cli." + other);
        }
        // a text listing without --insn needs no JSON, no progress bar (no terminal) and no disassembler tables
        assertThat(loaded).noneMatch(c -> c.startsWith("com.fasterxml.jackson.") || c.startsWith("me.tongfei.")
                || c.startsWith("org.jline.") || c.startsWith("io.armtrace.isa.disasm."));
    }

    @Test
    void aTextPacketListingLoadsNoJson(@TempDir Path tmp) throws Exception {
        List<String> loaded = classesLoaded(tmp, "packets", PTM_A15.toString());
        assertThat(Files.readString(tmp.resolve("out.txt"))).isEqualTo(CliTest.run("packets", PTM_A15.toString()).out());
        assertThat(loaded).contains("io.armtrace.protocol.PacketListing")
                .noneMatch(c -> c.startsWith("com.fasterxml.jackson."));
    }

    /** A command line with one subcommand in it says and parses what the whole command does for it. */
    @Test
    void eachSubcommandAloneHasTheUsageItHasInTheWholeCommand() {
        CommandLine whole = Main.commandLine();
        assertThat(whole.getSubcommands()).hasSize(18);
        for (var e : whole.getSubcommands().entrySet()) {
            CommandLine alone = Main.commandLine(new String[] {e.getKey(), "--help"});
            boolean describesOthers = List.of("help", "completion", "man").contains(e.getKey());
            assertThat(alone.getSubcommands()).as(e.getKey()).hasSize(describesOthers ? 18 : 1);
            assertThat(alone.getSubcommands().get(e.getKey()).getUsageMessage()).as(e.getKey())
                    .isEqualTo(e.getValue().getUsageMessage());
        }
        assertThat(Main.commandLine(new String[] {"--help"}).getUsageMessage()).isEqualTo(whole.getUsageMessage());
        assertThat(Main.commandLine(new String[] {"decodex"}).getSubcommands()).hasSize(18);
    }

    /** The build makes core/target/armtrace.jsa from the jar it has just made; the launcher maps that file. */
    @Test
    void theLauncherMapsTheArchiveTheBuildMakes() throws Exception {
        String pom = Files.readString(Path.of("core/pom.xml"));
        assertThat(pom).contains("<argument>-XX:ArchiveClassesAtExit=${project.build.directory}/armtrace.jsa</argument>")
                .contains("<argument>${project.build.directory}/armtrace.jar</argument>");
        // the archive comes after the shaded jar in the same phase (plugins of one phase run in the pom's order)
        assertThat(pom.indexOf("<artifactId>exec-maven-plugin</artifactId>"))
                .isGreaterThan(pom.indexOf("<artifactId>maven-shade-plugin</artifactId>"));
        String launcher = Files.readString(Path.of("armtrace"));
        assertThat(launcher).contains("jsa=\"$here/core/target/armtrace.jsa\"")
                .contains("\"-XX:SharedArchiveFile=$jsa\" -Xshare:auto")
                // a note of the JVM's about the archive must never land in the listing on standard output
                .contains("-Xlog:disable -Xlog:all=warning:stderr \"-Xlog:cds*=off:stderr\"");
    }
    /**
     * The launcher's JIT options (docs/performance.md, "JIT inlining"): every method it has C2 inline still exists
     * under that name (a renamed one would silently lose its inlining), and a JVM given the options as the launcher
     * gives them prints the version and nothing else on standard output (without 'quiet' it prints each command).
     */
    @Test
    void theLaunchersInliningCommandsNameMethodsThatExistAndPrintNothing(@TempDir Path tmp) throws Exception {
        String launcher = Files.readString(Path.of("armtrace"));
        String start = "jit=\"-XX:FreqInlineSize=150 -XX:CompileCommand=quiet\"";
        assertThat(launcher).contains(start).contains("jit=\"$jit -XX:CompileCommand=inline,$m\"")
                .contains("$gc $jit");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(io\\.armtrace\\.[\\w.]+)::(\\w+)")
                .matcher(launcher);
        String gc = "gc=\"-XX:+UseSerialGC -XX:PretenureSizeThreshold=64k\"";
        assertThat(launcher).contains(gc);
        List<String> options = new java.util.ArrayList<>(List.of("-XX:+UseSerialGC", "-XX:PretenureSizeThreshold=64k",
                "-XX:FreqInlineSize=150", "-XX:CompileCommand=quiet"));
        while (m.find()) {
            String cls = m.group(1);
            String method = m.group(2);
            assertThat(java.util.Arrays.stream(Class.forName(cls).getDeclaredMethods()).map(java.lang.reflect.Method::getName))
                    .as("%s::%s named in the launcher", cls, method).contains(method);
            options.add("-XX:CompileCommand=inline," + cls + "::" + method);
        }
        assertThat(options).hasSize(8);
        if (hugePageSetting().contains("[madvise]")) {
            options.add("-XX:+UseTransparentHugePages"); // as the launcher gives it there (the test below)
        }
        List<String> command = new java.util.ArrayList<>(List.of(OutputTargetsTest.javaBin()));
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.armtrace.cli.Main", "--version"));
        Path out = tmp.resolve("out.txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(tmp.resolve("err.txt").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("err.txt"))).isZero();
        assertThat(Files.readAllLines(out)).hasSize(1).allMatch(l -> l.startsWith("armtrace "));
        assertThat(Files.readString(tmp.resolve("err.txt"))).isEmpty();
    }

    /** The system's transparent huge page setting, as the kernel gives it ("always [madvise] never"), or "". */
    private static String hugePageSetting() throws Exception {
        Path f = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        return Files.isReadable(f) ? Files.readString(f).trim() : "";
    }

    /**
     * The launcher asks for transparent huge pages for the heap exactly where the system gives them on request
     * (docs/performance.md, "Huge pages"): its java is a stand-in that prints the options it was given, in a copy of
     * the launcher beside a jar newer than any source (so nothing is built). That a JVM given the option prints
     * nothing more is checked with the other launcher options above.
     */
    @Test
    void theLauncherAsksForHugePagesOnlyWhereTheSystemGivesThemOnRequest(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("armtrace");
        Files.copy(Path.of("armtrace"), copy);
        Files.createDirectories(tmp.resolve("core/target"));
        Files.writeString(tmp.resolve("core/target/armtrace.jar"), "");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path fakeJava = bin.resolve("java");
        Files.writeString(fakeJava, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        assertThat(fakeJava.toFile().setExecutable(true)).isTrue();
        ProcessBuilder pb = new ProcessBuilder("sh", copy.toString(), "--version")
                .redirectOutput(tmp.resolve("args.txt").toFile()).redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
        pb.environment().remove("ARMTRACE_JAVA_OPTS");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("err.txt"))).isZero();
        List<String> args = Files.readAllLines(tmp.resolve("args.txt"));
        assertThat(args).contains("-XX:+UseSerialGC", "-jar", "--version");
        if (hugePageSetting().contains("[madvise]")) {
            assertThat(args).contains("-XX:+UseTransparentHugePages");
        } else {
            assertThat(args).doesNotContain("-XX:+UseTransparentHugePages");
        }
    }
}
