package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** --version, the completion script and the manual page, all from the one command model. */
class ManualTest {
    @Test
    void versionIsThePomsVersion() throws Exception {
        Matcher m = Pattern.compile("<artifactId>armtrace-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).isTrue();
        CliTest.Result r = CliTest.run("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out().trim()).isEqualTo("armtrace " + m.group(1));
    }

    @Test
    void completionKnowsEveryCommandAndOption() {
        CliTest.Result r = CliTest.run("completion", "bash");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F");
        CommandLine cl = Main.commandLine();
        for (var e : cl.getSubcommands().entrySet()) {
            assertThat(r.out()).contains(e.getKey());
            for (var o : e.getValue().getCommandSpec().options()) {
                assertThat(r.out()).as("%s %s", e.getKey(), o.longestName()).contains(o.longestName());
            }
        }
    }

    private static final Set<String> MACROS = Set.of(".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".I", ".nf", ".fi");

    @Test
    void manualPageHasEveryCommandAndOptionInWellFormedRoff(@TempDir Path tmp) throws Exception {
        CliTest.Result r = CliTest.run("man");
        assertThat(r.exit()).isZero();
        String page = r.out();
        for (String line : page.split("\n")) {
            if (line.startsWith(".") || line.startsWith("'")) {
                assertThat(MACROS).as(line).contains(line.split(" ", 2)[0]);
            }
        }
        assertThat(page).startsWith(".TH ARMTRACE 1").contains(".SH NAME\narmtrace \\- ");
        CommandLine cl = Main.commandLine();
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            assertThat(page).contains(".SH \"ARMTRACE " + e.getKey().toUpperCase(java.util.Locale.ROOT) + "\"");
            for (var o : e.getValue().getCommandSpec().options()) {
                assertThat(page).contains("\\fB" + ManCommand.escape(o.longestName()) + "\\fR");
            }
        }
        Path out = tmp.resolve("armtrace.1");
        assertThat(CliTest.run("man", "-o", out.toString()).exit()).isZero();
        assertThat(Files.readString(out)).isEqualTo(page);
    }

    @Test
    void escapingKeepsTextOutOfRoffControl() {
        assertThat(ManCommand.escape(".x a-b \\c")).isEqualTo("\\&.x a\\-b \\ec");
        assertThat(ManCommand.escape("'quoted")).isEqualTo("\\&'quoted");
    }
}
