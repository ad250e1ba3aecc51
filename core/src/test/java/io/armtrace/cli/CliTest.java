package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.FrameDeformatter;
import io.armtrace.testdata.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    record Result(int exit, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void infoListsTc2SourcesRegistersAndTheKernelImage() {
        Result r = run("info", SharedData.tc2().toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("ETM_0: ETM3.5, trace ID 0x10", "ETM_1: ETM3.5, trace ID 0x11", "ETM_2: ETM3.5, trace ID 0x12")
                .contains("PTM_0: PTM1.1, trace ID 0x13", "PTM_1: PTM1.1, trace ID 0x14", "ITM_0: ITM, trace ID 0x20")
                .contains("ETMCR        = 0x10001860")
                .contains("0xc0008000-0xc0058000")
                .contains("0x10: 10873");
    }

    @Test
    void deformatWritesEachSourcesRawStream(@TempDir Path tmp) throws Exception {
        Path tc2 = SharedData.tc2();
        Map<Integer, byte[]> all = FrameDeformatter.demultiplex(Files.readAllBytes(tc2.resolve("cstrace.bin")));
        for (int id : new int[] {0x10, 0x11, 0x12, 0x13, 0x14, 0x20}) {
            Path out = tmp.resolve("s" + id + ".bin");
            Result r = run("deformat", tc2.resolve("cstrace.bin").toString(), "--source", "0x" + Integer.toHexString(id),
                    "-o", out.toString());
            assertThat(r.exit()).isZero();
            assertThat(Files.readAllBytes(out)).isEqualTo(all.getOrDefault(id, new byte[0]));
        }
    }

    @Test
    void userMistakesGetOneSentenceAndExitCodeTwo(@TempDir Path tmp) throws Exception {
        Result missing = run("decode", tmp.resolve("nothing").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().trim()).startsWith("armtrace: ").contains("no such snapshot directory").doesNotContain("Exception");
        assertThat(missing.err().lines().count()).isEqualTo(1);

        assertThat(run("decode", "--bogus").exit()).isEqualTo(2);

        Result proto = run("decode", "--protocol", "etm9", "--trace", SharedData.tc2().resolve("cstrace.bin").toString());
        assertThat(proto.exit()).isEqualTo(2);
        assertThat(proto.err()).contains("unknown protocol").contains("etm3");

        Result noProto = run("decode", "--trace", SharedData.tc2().resolve("cstrace.bin").toString());
        assertThat(noProto.exit()).isEqualTo(2);
        assertThat(noProto.err()).contains("--protocol");

        Path badIni = tmp.resolve("snap");
        Files.createDirectories(badIni);
        Files.writeString(badIni.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\nthis is not ini\n");
        Result ini = run("info", badIni.toString());
        assertThat(ini.exit()).isEqualTo(2);
        assertThat(ini.err()).contains("snapshot.ini line 3");

        Path notElf = tmp.resolve("prog.elf");
        Files.writeString(notElf, "hello");
        Result img = run("decode", "--protocol", "ptm", "--trace", notElf.toString(), "--image", notElf.toString());
        assertThat(img.exit()).isEqualTo(2);
        assertThat(img.err()).contains("prog.elf").contains("not an ELF file");

        Result reg = run("decode", "--protocol", "ptm", "--trace", notElf.toString(), "--reg", "ETMCR");
        assertThat(reg.exit()).isEqualTo(2);
        assertThat(reg.err()).contains("NAME=VALUE");

        Result src = run("decode", SharedData.tc2().toString(), "--source", "0x55");
        assertThat(src.exit()).isEqualTo(2);
        assertThat(src.err()).contains("no trace source with ID 0x55");

        Result debug = run("decode", tmp.resolve("nothing").toString(), "--debug");
        assertThat(debug.exit()).isEqualTo(2);
        assertThat(debug.err()).contains("at io.armtrace");
    }

    @Test
    void everySubcommandHasHelp() {
        for (String cmd : new String[] {"decode", "packets", "info", "deformat"}) {
            Result r = run(cmd, "--help");
            assertThat(r.exit()).as(cmd).isZero();
            assertThat(r.out()).as(cmd).contains("Usage: armtrace " + cmd);
        }
    }

    @Test
    void mtbExampleShowsFunctionNamesTailChainingAndTheLastInstructions() {
        Result r = run("decode", "examples/mtb-m0plus", "--last", "20");
        assertThat(r.exit()).isZero();
        // the snapshot's ELF dump supplies the symbols; the halted core's PC completes the newest run
        assertThat(r.out()).contains("<SysTick_Handler>").contains("exception return, tail-chained into 14 (PendSV)")
                .contains("<PendSV_Handler>");
        long insns = r.out().lines().filter(l -> l.startsWith("range"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("^range \\S+\\s+(\\d+) insn.*$", "$1"))).sum();
        assertThat(insns).isEqualTo(20);
        Result all = run("decode", "examples/mtb-m0plus", "--format", "jsonl");
        Result last = run("decode", "examples/mtb-m0plus", "--format", "jsonl", "--last", "7");
        java.util.List<String> allInsns = all.out().lines().filter(l -> l.contains("\"insn\"")).toList();
        java.util.List<String> lastInsns = last.out().lines().filter(l -> l.contains("\"insn\"")).toList();
        assertThat(lastInsns).isEqualTo(allInsns.subList(allInsns.size() - 7, allInsns.size()));
    }

    @Test
    void infoExplainsRawRegisterValues() {
        Result r = run("info", "--protocol", "mtb", "--reg", "POSITION=0x200039d4", "--reg", "MASTER=0x80000008");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("4096 bytes").contains("WRAP=1");
        assertThat(run("info").exit()).isEqualTo(2);
    }

    @Test
    void parallelDecodeOfSeveralSourcesGivesTheSequentialOutput() {
        for (String format : new String[] {"text", "jsonl"}) {
            Result one = run("decode", SharedData.tc2().toString(), "--format", format, "--jobs", "1");
            Result many = run("decode", SharedData.tc2().toString(), "--format", format, "--jobs", "4");
            assertThat(one.exit()).isZero();
            assertThat(many.out()).isEqualTo(one.out());
            assertThat(one.out()).contains("0xc0");
        }
    }

    @Test
    void synthesizedExamplesDecodeToTheirGroundTruth() {
        String[][] examples = {{"examples/etm2-arm926-thumb", "arm926-thumb"}, {"examples/etm3-a9-thumb", "a9-thumb"}};
        for (String[] e : examples) {
            Result r = run("decode", e[0], "--format", "jsonl");
            assertThat(r.exit()).as(e[0]).isZero();
            java.util.List<String> got = r.out().lines().filter(l -> l.contains("\"insn\"")).toList();
            java.util.List<io.armtrace.execution.ExecutionEvent.Step> truth =
                    io.armtrace.groundtruth.Corpus.execution(e[1]).steps();
            assertThat(got).as(e[0]).hasSize(truth.size());
            for (int i = 0; i < truth.size(); i += 997) {
                var st = truth.get(i);
                assertThat(got.get(i)).as(e[0] + " instruction " + i)
                        .contains("\"addr\":\"0x" + Long.toHexString(st.address()) + "\"")
                        .contains("\"executed\":" + st.executed());
            }
        }
        assertThat(run("decode", "examples/ptm-a15").out().lines().filter(l -> l.startsWith("range")).count()).isEqualTo(20);
    }
}
