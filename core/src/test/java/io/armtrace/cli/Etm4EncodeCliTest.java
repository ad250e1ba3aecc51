package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.source.IniFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code armtrace encode --protocol etm4|ete}: the snapshot it writes (the registers under OpenCSD's names, the
 * program's memory), --force as for the other protocols, and the one-sentence refusals (exit 2) of what
 * cannot be encoded or contradicts the record.
 */
class Etm4EncodeCliTest {
    static final Path GT = Path.of(System.getProperty("user.dir")).resolve("core/src/test/resources/groundtruth");

    @Test
    void writesASnapshotThatArmtraceReadsBack(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("a53-el1.elf");
        Files.write(elf, Corpus.elfBytes("a53-el1"));
        for (String protocol : new String[] {"etm4", "ete"}) {
            Path snap = tmp.resolve(protocol);
            CliTest.Result r = CliTest.run("encode", "--protocol", protocol, "--execution",
                    GT.resolve("a53-el1.exec.gz").toString(), "--image", elf.toString(), "--snapshot-out", snap.toString(),
                    "--return-stack=on");
            assertThat(r.exit()).as(r.err()).isZero();
            IniFile source = IniFile.read(snap.resolve("trace_0.ini"));
            IniFile.Section device = source.sections().stream().filter(s -> s.name().equals("device")).findFirst().orElseThrow();
            assertThat(device.get("type")).isEqualTo(protocol.equals("ete") ? "ETE" : "ETM4");
            String regs = Files.readString(snap.resolve("trace_0.ini"));
            for (String name : new String[] {"TRCCONFIGR=0x00001001", "TRCTRACEIDR=0x00000010", "TRCAUTHSTATUS=",
                "TRCIDR0=", "TRCIDR1=", "TRCIDR2=0x00000488", "TRCIDR8=0x00000000", "TRCIDR13="}) {
                assertThat(regs).contains(name);
            }
            assertThat(regs.contains("TRCDEVARCH=")).isEqualTo(protocol.equals("ete"));
            assertThat(Files.readString(snap.resolve("cpu_0.ini"))).contains("address=0xffffff8040005000");
            // armtrace's packet reader takes the whole trace: no byte outside a packet, no loss of sync
            CliTest.Result packets = CliTest.run("packets", snap.toString());
            assertThat(packets.exit()).as(packets.err()).isZero();
            assertThat(packets.out()).contains("A_SYNC").contains("TRACE_INFO").contains("EXCEPTION")
                    .doesNotContain("NOT_SYNC").doesNotContain("BAD");

            CliTest.Result again = CliTest.run("encode", "--protocol", protocol, "--execution",
                    GT.resolve("a53-el1.exec.gz").toString(), "--image", elf.toString(), "--snapshot-out", snap.toString());
            assertThat(again.exit()).isEqualTo(2);
            CliTest.Result forced = CliTest.run("encode", "--protocol", protocol, "--execution",
                    GT.resolve("a53-el1.exec.gz").toString(), "--image", elf.toString(), "--snapshot-out", snap.toString(),
                    "--force");
            assertThat(forced.exit()).as(forced.err()).isZero();
            assertThat(Files.readString(snap.resolve("trace_0.ini"))).contains("TRCCONFIGR=0x00000001");
        }
    }

    /**
     * An M-profile record (the Cortex-M33 fixture): the snapshot names the core, so that a decoder reads it as
     * Armv8-M; armtrace decodes it back to the record's instructions, with SysTick, PendSV tail-chained to
     * SysTick's return, SVCall and their returns; options an M-profile encoding does not take are refused.
     */
    @Test
    void encodesAnMProfileExecution(@TempDir Path tmp) throws Exception {
        Path elf = tmp.resolve("m33.elf");
        Files.write(elf, Corpus.elfBytes("m33"));
        Path snap = tmp.resolve("snap");
        CliTest.Result r = CliTest.run("encode", "--protocol", "etm4", "--execution", GT.resolve("m33.exec.gz").toString(),
                "--image", elf.toString(), "--snapshot-out", snap.toString(), "--stats");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("ETMv4 trace: 13811 bytes for 83476 instructions");
        assertThat(Files.readString(snap.resolve("cpu_0.ini"))).contains("type=Cortex-M33");
        assertThat(Files.readString(snap.resolve("trace_0.ini"))).contains("TRCIDR2=0x00000004");
        CliTest.Result d = CliTest.run("decode", snap.toString());
        assertThat(d.exit()).as(d.err()).isZero();
        long insns = d.out().lines().filter(l -> l.startsWith("range"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("^range \\S+\\s+(\\d+) insn.*$", "$1"))).sum();
        assertThat(insns).as("the record's 83476 instructions but the 6 after the last branch").isEqualTo(83470);
        assertThat(d.out()).contains("exception 15 (SysTick), returns to 0x10000244")
                .contains("exception return, tail-chained into 14 (PendSV)").contains("exception 11 (SVC), returns to")
                .doesNotContain("fffffffe");
        assertThat(d.out().lines().filter(l -> l.startsWith("exception") && l.contains(" to EL"))).isEmpty();
        // an M-profile core has no exception levels: its contexts give the security state and the mode
        assertThat(d.out().lines().filter(l -> l.startsWith("context"))).isNotEmpty()
                .allSatisfy(l -> assertThat(l).doesNotContain("EL").matches("context secure (Thread|Handler) mode"));
        CliTest.Result refused = CliTest.run("encode", "--protocol", "etm4", "--execution",
                GT.resolve("m33.exec.gz").toString(), "--image", elf.toString(), "--stats", "--context-id=2");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err().strip()).contains("M-profile").doesNotContain("\n").endsWith(".");
    }

    @Test
    void refusesInOneSentence(@TempDir Path tmp) throws Exception {
        Path a64 = tmp.resolve("linux-a64.elf");
        Files.write(a64, Corpus.elfBytes("linux-a64"));
        Path m33 = tmp.resolve("m33.elf");
        Files.write(m33, Corpus.elfBytes("m33"));
        String rec = GT.resolve("linux-a64.exec.gz").toString();
        String[][] cases = {
            {"--protocol", "ete", "--execution", GT.resolve("m33.exec.gz").toString(), "--image", m33.toString(), "--stats"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--el=1"},
            {"--protocol", "ete", "--execution", rec, "--image", a64.toString(), "--stats", "--security=secure"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--return-stack=maybe"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--sync-period=15"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--branch-broadcast=on",
                "--return-stack=on"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--unit=r52"},
            {"--protocol", "etm4", "--execution", rec, "--image", a64.toString(), "--stats", "--data-trace=on"},
            {"--protocol", "etm4", "--execution", rec, "--image", m33.toString(), "--stats"},
        };
        String[] said = {"M-profile", "contradicts", "contradicts", "return-stack", "16", "goes with neither",
            "AArch32 code only", "Unknown ETMv4 option", "does not hold"};
        for (int i = 0; i < cases.length; i++) {
            String[] args = new String[cases[i].length + 1];
            args[0] = "encode";
            System.arraycopy(cases[i], 0, args, 1, cases[i].length);
            CliTest.Result r = CliTest.run(args);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(2);
            String message = r.err().strip();
            assertThat(message).as(String.join(" ", args)).contains(said[i]).doesNotContain("\n").endsWith(".");
        }
        CliTest.Result ok = CliTest.run("encode", "--protocol", "etm4", "--execution", rec, "--image", a64.toString(),
                "--stats", "--el=0", "--security=non-secure");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("ETMv4 trace:").contains("46732 instructions");
    }
}
