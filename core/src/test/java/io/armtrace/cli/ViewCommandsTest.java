package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.testdata.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The analysis commands (profile, callgraph, coverage, report) end to end. */
class ViewCommandsTest {
    static CliTest.Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliTest.Result(code, out.toString(), err.toString());
    }

    static final Path PTM_A15 = Path.of(System.getProperty("user.dir")).resolve("examples/ptm-a15");

    @Test
    void bundledPtmExampleProfileCountsWhatDecodeLists() {
        CliTest.Result decode = run("decode", PTM_A15.toString(), "--format", "jsonl");
        assertThat(decode.exit()).isZero();
        long insns = decode.out().lines().filter(l -> l.contains("\"type\":\"insn\"")).count();
        assertThat(insns).isPositive();

        CliTest.Result profile = run("profile", PTM_A15.toString(), "--top", "0");
        assertThat(profile.exit()).as(profile.err()).isZero();
        assertThat(profile.out()).startsWith(insns + " instructions in ");
        long sum = profile.out().lines().skip(2).mapToLong(l -> Long.parseLong(l.trim().split("\\s+")[0])).sum();
        assertThat(sum).isEqualTo(insns);

        CliTest.Result folded = run("profile", PTM_A15.toString(), "--folded");
        assertThat(folded.out().lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum()).isEqualTo(insns);

        CliTest.Result cg = run("callgraph", PTM_A15.toString());
        assertThat(cg.exit()).isZero();
        assertThat(cg.out()).startsWith("# callgrind format").contains("events: Ir").contains("summary: " + insns).contains("calls=");
        CliTest.Result dot = run("callgraph", PTM_A15.toString(), "--format", "dot");
        assertThat(dot.out()).startsWith("digraph callgraph {").contains(" -> ").endsWith("}\n");

        CliTest.Result cov = run("coverage", PTM_A15.toString());
        assertThat(cov.exit()).isZero();
        assertThat(cov.out()).contains("distinct ones executed");
    }

    /** The bundled MTB example with its ELF: per-function counts equal those of decode's own listing. */
    @Test
    void bundledMtbExampleProfileMatchesTheDecodedInstructions() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("examples/mtb-m0plus");
        assertThat(dir).as("bundled example").isDirectory();
        String elf = dir.resolve("program.elf").toString();
        CliTest.Result decode = run("decode", dir.toString(), "--image", elf, "--format", "jsonl");
        assertThat(decode.exit()).as(decode.err()).isZero();
        io.armtrace.image.SymbolTable symbols = io.armtrace.image.ElfImage.load(dir.resolve("program.elf")).symbols();
        Map<String, Long> expected = new java.util.TreeMap<>();
        decode.out().lines().filter(l -> l.contains("\"type\":\"insn\"")).forEach(l -> {
            int a = l.indexOf("\"addr\":\"0x") + 10;
            long addr = Long.parseLong(l.substring(a, l.indexOf('"', a)), 16);
            io.armtrace.image.Symbol sym = symbols.lookup(addr);
            expected.merge(sym == null ? "?" : sym.name(), 1L, Long::sum);
        });
        CliTest.Result profile = run("profile", dir.toString(), "--image", elf, "--top", "0");
        assertThat(profile.exit()).as(profile.err()).isZero();
        Map<String, Long> actual = new java.util.TreeMap<>();
        profile.out().lines().skip(2).forEach(l -> {
            String[] t = l.trim().split("\\s+");
            actual.put(t[t.length - 1], Long.parseLong(t[0]));
        });
        assertThat(actual).isEqualTo(expected).containsKey("quicksort");

        CliTest.Result cov = run("coverage", dir.toString(), "--image", elf);
        assertThat(cov.out()).contains("functions ").contains("lines ");
        assertThat(run("callgraph", dir.toString(), "--image", elf).out()).contains("cfn=swap");
    }

    @Test
    void groundTruthProgramThroughEncoderAndDecoder(@TempDir Path tmp) throws Exception {
        String name = "m3";
        TraceProtocol etm3 = Protocols.byName("etm3").orElseThrow();
        EncodeOutput enc = etm3.encode(Corpus.execution(name), Corpus.image(name), Map.of());
        Path trace = Files.write(tmp.resolve("m3.etm"), enc.trace());
        Path elf = Files.write(tmp.resolve("m3.elf"), Corpus.elfBytes(name));
        List<String> common = new ArrayList<>(List.of("--protocol", "etm3", "--trace", trace.toString(), "--image", elf.toString()));
        enc.registers().asMap().forEach((k, v) -> {
            common.add("--reg");
            common.add(k + "=0x" + Long.toHexString(v));
        });
        long steps = Corpus.execution(name).steps().size();

        CliTest.Result byFunction = run(args("profile", common));
        assertThat(byFunction.exit()).as(byFunction.err()).isZero();
        assertThat(byFunction.out()).startsWith(steps + " instructions").contains("quicksort").contains("crc32.constprop.0");
        CliTest.Result byLine = run(args("profile", common, "--by", "line", "--top", "5"));
        assertThat(byLine.out()).contains("work.c:").contains("(crc32.constprop.0)");

        Path lcov = tmp.resolve("m3.info");
        CliTest.Result cov = run(args("coverage", common, "--lcov", lcov.toString()));
        assertThat(cov.exit()).as(cov.err()).isZero();
        assertThat(cov.out()).contains("functions ").contains("lines ").contains("conditions ");
        String info = Files.readString(lcov);
        assertThat(info).contains("SF:").contains("work.c").contains("FN:").contains("FNDA:").contains("DA:").contains("BRDA:")
                .contains("end_of_record");

        CliTest.Result cg = run(args("callgraph", common));
        assertThat(cg.out()).contains("fn=quicksort").contains("cfn=swap").contains("fl=").contains("work.c");

        Path html = tmp.resolve("report.html");
        CliTest.Result report = run(args("report", common, "-o", html.toString()));
        assertThat(report.exit()).as(report.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<td class=\"n\">" + steps + "</td>")
                .contains("quicksort").contains("Coverage").doesNotContain("<script").endsWith("</html>\n");
    }

    @Test
    void callgraphOfSeveralSourcesAsksForOne() {
        Path tc2 = SharedData.tc2();
        CliTest.Result r = run("callgraph", tc2.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--source ID");
        CliTest.Result one = run("callgraph", tc2.toString(), "--source", "0x10", "--format", "dot");
        assertThat(one.exit()).isZero();
    }

    private static String[] args(String command, List<String> common, String... more) {
        List<String> a = new ArrayList<>();
        a.add(command);
        a.addAll(common);
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }
}
