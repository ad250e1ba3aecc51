package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What cost a user time: column headers, completion for zsh and of protocol names, hex case, file kinds. */
class SmallThingsTest {
    static final Path ROOT = Path.of(System.getProperty("user.dir"));
    static final String[] CAPTURES = {"examples/etm2-arm926-thumb", "examples/etm3-a9-thumb", "examples/mtb-m0plus",
        "examples/ptm-a15", "conformance/TC2", "conformance/trace_cov_a15"};

    /** The protocol names as the registry has them, which --protocol accepts. */
    static List<String> protocolNames() {
        return Protocols.all().stream().map(TraceProtocol::name).toList();
    }

    @Test
    void timeColumnsHaveAHeaderAlignedWithThem() {
        for (String args : new String[] {"examples/etm3-a9-thumb --time", "examples/etm3-a9-thumb --insn --time",
            "conformance/TC2 --time"}) {
            List<String> cmd = new java.util.ArrayList<>(List.of("decode"));
            cmd.addAll(List.of(args.split(" ")));
            CliTest.Result r = CliTest.run(cmd.toArray(String[]::new));
            assertThat(r.exit()).as(r.err()).isZero();
            List<String> lines = r.out().lines().filter(l -> !l.startsWith("#")).toList();
            String header = lines.get(0);
            assertThat(header).as(args).contains("cycles").contains("timestamp");
            // the titles end where the columns' numbers end: a line with both a cycle count and a timestamp
            String data = lines.stream().filter(l -> l.matches("(\\[0x[0-9a-f]{2}\\] )?\\s+\\d+\\s+\\d+  .*")).findFirst()
                    .orElseThrow();
            Matcher h = Pattern.compile("cycles\\s+timestamp").matcher(header);
            assertThat(h.find()).isTrue();
            Matcher d = Pattern.compile("(\\d+)\\s+(\\d+)  ").matcher(data);
            assertThat(d.find()).as(data).isTrue();
            assertThat(h.start() + "cycles".length()).as(args + "\n" + header + "\n" + data).isEqualTo(d.end(1));
            assertThat(h.end()).as(args + "\n" + header + "\n" + data).isEqualTo(d.end(2));
            assertThat(lines.stream().filter(l -> l.contains("timestamp") && l.contains("cycles"))).hasSize(
                    (int) r.out().lines().filter(l -> l.startsWith("#")).count() == 0 ? 1
                            : (int) r.out().lines().filter(l -> l.startsWith("#")).count());
        }
        // without --time there is no header
        assertThat(CliTest.run("decode", "examples/etm3-a9-thumb").out()).doesNotContain("timestamp\n")
                .startsWith("trace on");
    }

    @Test
    void zshCompletionIsANativeZshFunctionWithEveryCommandOptionAndProtocol() {
        CliTest.Result r = CliTest.run("completion", "zsh");
        assertThat(r.exit()).as(r.err()).isZero();
        String script = r.out();
        assertThat(script).startsWith("#compdef armtrace\n").contains("_arguments").contains("compdef _armtrace armtrace")
                .doesNotContain("complete -F").doesNotContain("bashcompinit");
        CommandLine cl = Main.commandLine();
        for (var e : cl.getSubcommands().entrySet()) {
            assertThat(script).contains("\n    " + e.getKey() + ")\n").contains("'" + e.getKey() + ":");
            String body = script.substring(script.indexOf("\n    " + e.getKey() + ")\n"));
            body = body.substring(0, body.indexOf(";;"));
            for (var o : e.getValue().getCommandSpec().options()) {
                // one name: '--time[...]'; several: '(-o --output)'{-o,--output}'[...]'
                String spec = o.names().length == 1 ? o.longestName() + "["
                        : "{" + String.join(",", o.names()) + "}'[";
                assertThat(body).as("%s %s", e.getKey(), o.longestName()).contains(spec);
            }
        }
        String values = "(" + String.join(" ", protocolNames()) + ")";
        for (String command : new String[] {"decode", "packets", "info", "encode", "stats", "coverage"}) {
            String body = script.substring(script.indexOf("\n    " + command + ")\n"));
            body = body.substring(0, body.indexOf(";;"));
            assertThat(body).as(command).containsPattern("--protocol\\[[^\\n]*\\]:NAME:" + Pattern.quote(values));
        }
    }

    @Test
    void bashCompletionOffersTheProtocolNames() {
        CliTest.Result r = CliTest.run("completion", "bash");
        assertThat(r.exit()).isZero();
        String values = "(" + String.join(" ", protocolNames().stream().map(n -> "\"" + n + "\"").toList()) + ")";
        // picocli's script: one list of values per option, offered after the option
        int functions = 0;
        for (String command : new String[] {"decode", "packets", "info", "encode", "stats", "coverage"}) {
            String body = r.out().substring(r.out().indexOf("function _picocli_armtrace_" + command + "()"));
            body = body.substring(0, body.indexOf("\n}\n"));
            assertThat(body).as(command).contains("_option_args=" + values + " # --protocol values");
            Matcher m = Pattern.compile("--protocol\\)\\n\\s+local IFS=\\$'\\\\n'\\n\\s+COMPREPLY=\\( \\$\\( compReplyArray \"\\$\\{(\\w+)_option_args\\[@\\]\\}\" \\) \\)")
                    .matcher(body);
            assertThat(m.find()).as(command + "\n" + body).isTrue();
            functions++;
        }
        assertThat(functions).isEqualTo(6);
    }

    @Test
    void infoWritesHexInLowerCaseThroughout() {
        Pattern upper = Pattern.compile("0x[0-9a-fA-F]*[A-F][0-9a-fA-F]*");
        for (String c : CAPTURES) {
            CliTest.Result r = CliTest.run("info", c);
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("0x");
            Matcher m = upper.matcher(r.out());
            assertThat(m.find()).as(c + ": " + (m.hitEnd() ? "" : r.out().substring(Math.max(0, m.start() - 40),
                    Math.min(r.out().length(), m.end() + 10)))).isFalse();
        }
        CliTest.Result regs = CliTest.run("info", "--protocol", "etm3", "--reg", "ETMCR=0x10001D00", "--reg",
                "ETMIDR=0x410CF250", "--reg", "ETMCCER=0x344008F2");
        assertThat(regs.out()).contains("ETMIDR=0x410cf250", "ETMCR=0x10001d00", "ETMCCER=0x344008f2");
        assertThat(upper.matcher(regs.out()).find()).as(regs.out()).isFalse();
    }

    @Test
    void aPerfRecordingGivenAsTheInputIsReadAsOne(@TempDir Path tmp) throws Exception {
        Path perf = ROOT.resolve("conformance/perfdata/perf_kernel.data");
        assertThat(Files.readAllBytes(perf)).startsWith("PERFILE2".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        // (info describes a recording: InfoCommand's own tests; the decode itself: PerfDecodeTest)
        for (String command : new String[] {"decode", "packets", "stats", "coverage", "profile", "report"}) {
            CliTest.Result r = CliTest.run(command, perf.toString(), "--symdir", perf.getParent().toString(), "-o",
                    tmp.resolve(command + ".out").toString());
            assertThat(r.exit()).as(command + ": " + r.err()).isZero();
            assertThat(r.err()).as(command).contains("was not found").doesNotContain("Exception");
        }
        // any other file is still told how to give a raw trace
        Path raw = tmp.resolve("trace.bin");
        Files.write(raw, new byte[] {0, 0, 0, 0, 0, (byte) 0x80});
        UserErrorsTest.assertMistake(CliTest.run("decode", raw.toString()), "--trace " + raw, "--protocol NAME");
        UserErrorsTest.assertMistake(CliTest.run("info", raw.toString()), "is a file, not a snapshot directory");
    }
}
