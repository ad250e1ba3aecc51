package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.cli.Main;
import io.armtrace.protocol.Protocols;
import io.armtrace.source.Registers;
import io.armtrace.testdata.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ETMv4/ETE registry entries, the configuration in words and its contradictions, and the commands. */
class Etm4ProtocolTest {
    record Result(int exit, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void registeredByNameAndByTheDeviceTypesOfSnapshots() {
        assertThat(Protocols.byName("etm4")).get().extracting(p -> p.title()).isEqualTo("ETMv4");
        assertThat(Protocols.byName("ete")).get().extracting(p -> p.title()).isEqualTo("ETE");
        for (String t : new String[] {"ETM4", "ETM4.0", "ETM4.2", "ETM4.6", "etmv4"}) {
            assertThat(Protocols.forDeviceType(t)).as(t).get().extracting(p -> p.name()).isEqualTo("etm4");
        }
        assertThat(Protocols.forDeviceType("ETE")).get().extracting(p -> p.name()).isEqualTo("ete");
        assertThat(Protocols.forDeviceType("ETM3.5")).get().extracting(p -> p.name()).isEqualTo("etm3");
        assertThat(Protocols.forDeviceType("STM")).get().extracting(p -> p.name()).isEqualTo("stm");
        assertThat(Protocols.forDeviceType("ETM5")).isEmpty();
    }

    @Test
    void aConfigurationThatContradictsItselfIsOneSentence() {
        Registers r = new Registers().put("TRCCONFIGR", 0x11).put("TRCIDR0", 0x1);
        assertThat(Etm4Config.of(r, false).contradiction(r))
                .isEqualTo("TRCCONFIGR=0x00000011 asks for cycle counting (CCI, bit 4), but TRCIDR0=0x00000001 says the "
                        + "trace unit has none (TRCCCI, bit 7).");
        Registers ts = new Registers().put("TRCCONFIGR", 0x801).put("TRCIDR0", 0x28000EA1L & ~(0x1FL << 24));
        assertThat(Etm4Config.of(ts, false).contradiction(ts)).contains("timestamps (TS, bit 11)").contains("TSSIZE");
        Registers cid = new Registers().put("TRCCONFIGR", 0x41).put("TRCIDR2", 0x8);
        assertThat(Etm4Config.of(cid, false).contradiction(cid)).contains("context IDs").contains("CIDSIZE");
        Registers v = new Registers().put("TRCIDR1", 0x4100F303L);
        assertThat(Etm4Config.of(v, false).contradiction(v)).contains("not ETMv4");
        // a register that was not given contradicts nothing; the juno configuration is consistent
        Registers juno = new Registers().put("TRCCONFIGR", 0xC1).put("TRCIDR0", 0x28000EA1L).put("TRCIDR1", 0x4100F403L)
                .put("TRCIDR2", 0x488);
        assertThat(Etm4Config.of(juno, false).contradiction(juno)).isNull();
        assertThat(Etm4Config.of(new Registers().put("TRCCONFIGR", 0x11), false).contradiction(new Registers().put("TRCCONFIGR", 0x11)))
                .isNull();
        assertThatThrownBy(() -> new Etm4Protocol(false).describe(r)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ETMv4 registers contradict each other: TRCCONFIGR=0x00000011");
    }

    @Test
    void theCommandLineRefusesAContradictionWithExitTwo(@TempDir Path tmp) throws Exception {
        Path trace = tmp.resolve("t.bin");
        Files.write(trace, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80});
        Result r = run("packets", "--protocol", "etm4", "--trace", trace.toString(), "--reg", "TRCCONFIGR=0x11",
                "--reg", "TRCIDR0=0x1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString().startsWith("armtrace: ETMv4 registers contradict each other:")
                .doesNotContain("Exception");
        Result ok = run("packets", "--protocol", "ete", "--trace", trace.toString(), "--reg", "TRCDEVARCH=0x47725A13");
        assertThat(ok.exit()).isZero();
        assertThat(ok.out()).contains("A_SYNC");
    }

    @Test
    void infoExplainsTheRegistersInWords() {
        Result r = run("info", "--protocol", "etm4", "--reg", "TRCCONFIGR=0x18D9", "--reg", "TRCIDR0=0x28018EA1",
                "--reg", "TRCIDR1=0x4100F443", "--reg", "TRCIDR2=0x1088", "--reg", "TRCIDR8=16", "--reg", "TRCTRACEIDR=0x12",
                "--reg", "TRCAUTHSTATUS=0xCC");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("ETMv4.4 (TRCIDR1=0x4100f443, revision 3), trace ID 0x12")
                .contains("branch broadcast, cycle counts, timestamps, context IDs, VMIDs, return stack")
                .contains("cycle counting (commit mode 1)", "Q elements", "64-bit timestamps", "4 events")
                .contains("64-bit instruction addresses, context ID 32-bit, VMID 32-bit, 12-bit cycle counter")
                .contains("up to 16 uncommitted P0 elements")
                .contains("Non-secure invasive not implemented, non-invasive enabled");
        Result ete = run("info", "--protocol", "ete", "--reg", "TRCDEVARCH=0x47735A13");
        assertThat(ete.out()).contains("ETE v1.3 (TRCDEVARCH=0x47735a13)");
    }

    @Test
    void everyEtm4SnapshotIsListedDescribedCountedAndDecoded() {
        Path juno = SharedData.dir("etm4/juno_r1_1");
        Result info = run("info", juno.toString());
        assertThat(info.exit()).isZero();
        assertThat(info.out()).contains("ETM_0: ETM4, trace ID 0x10, protocol etm4 (ETMv4)")
                .contains("TRCCONFIGR   = 0x000000c1").contains("ETMv4.0 (TRCIDR1=0x4100f403, revision 3)");
        Result packets = run("packets", juno.toString(), "--source", "0x10");
        assertThat(packets.exit()).isZero();
        assertThat(packets.out()).contains("NOT_SYNC", "A_SYNC", "TRACE_INFO", "ADDR_CTXT_64_IS0", "ATOM_F6", "EXCEPTION IRQ");
        Result stats = run("stats", SharedData.dir("etm4/a57_single_step").toString());
        assertThat(stats.exit()).isZero();
        assertThat(stats.out()).contains("63 bytes, 1 instructions, 6 other elements")
                .contains("ADDR_LONG_64_IS0                2 packets        18 bytes");
        Result decode = run("decode", juno.toString(), "--source", "0x10");
        assertThat(decode.exit()).isZero();
        assertThat(decode.out()).contains("range 0xffffffc0000a2e54-0xffffffc0000a2e70     7 insn A64, ends with direct branch")
                .contains("context id=0x00000000 vmid=0 non-secure EL1 AArch64");
        assertThat(decode.out().lines().filter(l -> l.startsWith("range ")).count()).isEqualTo(6336);
    }

    @Test
    void aSnapshotWithMissingMemoryDumpsIsStillListedWithAWarning() {
        Result r = run("packets", SharedData.dir("etm4/juno-uname-001").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("warning: ").contains("libc-2.21.so.bin, which does not exist; that memory is left out.");
        assertThat(r.out()).contains("ATOM_F3");
        Result a55 = run("info", SharedData.dir("etm4/a55-test-tpiu").toString());
        assertThat(a55.exit()).isZero();
        assertThat(a55.out()).contains("DSTREAM_0.bin, dstream_coresight, 49152 bytes; bytes per trace ID: 0x01: 34371");
    }

    @Test
    void anArmv8mCoreTypeMakesTheFunctionReturnPacketValid() {
        Path dir = Path.of("core/src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3/v8m-function-return");
        Result r = run("packets", dir.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("FUNCTION_RETURN", "EXCEPTION HardFault (0x3) fault pending", "EXCEPTION IRQ16 (0x210)");
    }
}
