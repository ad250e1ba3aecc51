package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands on ITM and STM trace: decode, packets, stats, info, itm, encode --events. */
class SoftwareTraceCliTest {
    static final String ITM_RAW = SharedData.dir("swtrace/itm_only_raw").toString();
    static final String STM = SharedData.dir("swtrace/stm_only-juno").toString();

    @Test
    void decodeListsSoftwareTraceInTextAndJsonl() {
        CliTest.Result t = CliTest.run("decode", ITM_RAW);
        assertThat(t.exit()).as(t.err()).isZero();
        assertThat(t.out().lines()).contains("software port 3 8 bits 0xbb", "exception trace: entered 4 (MemManage)",
                "pc sample 0x00001000", "pc sample: sleeping", "data trace comparator 2: write 0x44556677",
                "event counters wrapped: cpi sleep fold", "local timestamp +74754 (synchronous)",
                "timestamp 4538991448831062", "trace on (overflow) at byte 22");
        CliTest.Result j = CliTest.run("decode", ITM_RAW, "--format", "jsonl");
        assertThat(j.out().lines()).contains(
                "{\"type\":\"software\",\"kind\":\"data\",\"port\":3,\"bits\":8,\"value\":\"0xbb\"}",
                "{\"type\":\"exception_trace\",\"function\":\"exit\",\"number\":291,\"name\":\"IRQ275\"}",
                "{\"type\":\"pc_sample\",\"sleep\":true}",
                "{\"type\":\"data_trace\",\"comparator\":1,\"kind\":\"data_value\",\"value\":\"0x44\",\"size\":1,\"access\":\"read\"}",
                "{\"type\":\"counter_wrap\",\"counters\":[\"cpi\",\"sleep\",\"fold\"]}",
                "{\"type\":\"local_timestamp\",\"ticks\":13,\"relation\":\"timestamp_delayed\"}");
        CliTest.Result s = CliTest.run("decode", STM, "--format", "jsonl", "--time");
        assertThat(s.out().lines()).contains(
                "{\"type\":\"software\",\"kind\":\"data\",\"master\":65,\"channel\":1,\"bits\":32,\"value\":\"0x10000001\",\"marker\":true}");
    }

    @Test
    void timestampsGiveTheTimeColumn() {
        CliTest.Result t = CliTest.run("decode", ITM_RAW, "--time");
        assertThat(t.out().lines()).anyMatch(l -> l.matches("\\s+-\\s+4538991448831062  software port 16 16 bits 0x1234"));
    }

    @Test
    void packetsAndStatsNameTheSpecificationsPackets() {
        CliTest.Result p = CliTest.run("packets", ITM_RAW);
        assertThat(p.out().lines()).contains("      23  [0x19 0xbb]                     SWIT port 3 1 byte 0xbb",
                "     156  [0x94 0xd6 0xe8 0xc8 0x07]      GTS1 bits [25:0] = 0xf23456");
        CliTest.Result s = CliTest.run("stats", STM);
        assertThat(s.out()).contains("D32M").contains("ASYNC");
        CliTest.Result i = CliTest.run("info", ITM_RAW);
        assertThat(i.out()).contains("protocol itm (ITM/DWT)");
    }

    @Test
    void itmConsolePrintsEachPortsLines(@TempDir Path tmp) throws Exception {
        Path events = tmp.resolve("events.txt");
        Files.writeString(events, "port 0 \"Hello, \"\nport 1 \"boot\\n\"\nport 0 \"world\\n\"\nport 0 u32 0x0a216948\n"
                + "overflow\nport 2 u16 0x0a41\n", StandardCharsets.UTF_8);
        Path swo = tmp.resolve("swo.bin");
        CliTest.Result e = CliTest.run("encode", "--protocol", "itm", "--events", events.toString(), "-o", swo.toString());
        assertThat(e.exit()).as(e.err()).isZero();
        CliTest.Result one = CliTest.run("itm", "--trace", swo.toString());
        assertThat(one.out()).isEqualTo("Hello, world\nHi!\n");
        assertThat(one.err()).contains("1 place where the ITM overflowed");
        CliTest.Result all = CliTest.run("itm", "--trace", swo.toString(), "--port", "0,1,2");
        assertThat(all.out()).isEqualTo("[port 1] boot\n[port 0] Hello, world\n[port 0] Hi!\n[port 2] A\n");
        Path out = tmp.resolve("console.txt");
        assertThat(CliTest.run("itm", "--trace", swo.toString(), "--port", "1", "-o", out.toString()).exit()).isZero();
        assertThat(Files.readString(out)).isEqualTo("boot\n");
    }

    @Test
    void itmConsoleReadsTpiuCapturesAndSnapshots() {
        String tpiu = Path.of("core/src/test/resources/swtrace/itm-tpiu.bin").toString();
        CliTest.Result f = CliTest.run("itm", "--trace", tpiu, "--formatted", "--source", "0x14", "--port", "1");
        CliTest.Result r = CliTest.run("itm", ITM_RAW, "--port", "1");
        assertThat(f.exit()).as(f.err()).isZero();
        assertThat(f.out()).isEqualTo(r.out()).isNotEmpty();
    }

    @Test
    void softwareEventMistakesNameTheFileAndLine(@TempDir Path tmp) throws Exception {
        Path events = tmp.resolve("bad.txt");
        Files.writeString(events, "port 0 u8 1\nexception 3 sideways\n", StandardCharsets.UTF_8);
        UserErrorsTest.assertMistake(CliTest.run("encode", "--protocol", "itm", "--events", events.toString(), "--stats"),
                "bad.txt line 2", "'sideways' is not one of entry, exit, return");
        UserErrorsTest.assertMistake(CliTest.run("encode", "--protocol", "ptm", "--events", events.toString(), "--stats"),
                "--protocol itm or stm");
        UserErrorsTest.assertMistake(CliTest.run("encode", "--protocol", "stm", "--events", events.toString(), "--stats"),
                "bad.txt line 1", "not an STM event");
        UserErrorsTest.assertMistake(CliTest.run("itm", "--trace", events.toString(), "--port", "300"), "--port 300");
        UserErrorsTest.assertMistake(CliTest.run("itm", STM), "has no ITM trace source");
        UserErrorsTest.assertMistake(CliTest.run("profile", STM), "only software trace");
    }

    @Test
    void encodedSnapshotsDecodeToTheEvents(@TempDir Path tmp) throws Exception {
        Path events = tmp.resolve("ev.txt");
        Files.write(events, List.of("master 0x41", "channel 3", "d32 0x12345678 marker ts=100", "flag"));
        Path snap = tmp.resolve("snap");
        assertThat(CliTest.run("encode", "--protocol", "stm", "--events", events.toString(), "--snapshot-out", snap.toString())
                .exit()).isZero();
        CliTest.Result d = CliTest.run("decode", snap.toString());
        assertThat(d.out()).isEqualTo("trace on (sync) at byte 0\ntimestamp 100\n"
                + "software master 0x41 channel 0x0003 32 bits 0x12345678 marker\nsoftware master 0x41 channel 0x0003 flag\n");
    }
}
