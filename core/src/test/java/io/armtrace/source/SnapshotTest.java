package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest {

    @Test
    void tc2HasItsSixSourcesWithTraceIdsAndTheKernelImage() {
        Snapshot s = Snapshot.load(SharedData.tc2());
        assertThat(s.sources()).extracting(SnapshotSource::name)
                .containsExactly("ETM_0", "ETM_1", "ETM_2", "PTM_0", "PTM_1", "ITM_0");
        assertThat(s.sources()).extracting(SnapshotSource::traceId).containsExactly(0x10, 0x11, 0x12, 0x13, 0x14, 0x20);
        SnapshotSource etm0 = s.source(0x10).orElseThrow();
        assertThat(etm0.type()).isEqualTo("ETM3.5");
        assertThat(etm0.registers().get("ETMCR", -1)).isEqualTo(0x10001860L);
        assertThat(etm0.coreName()).isEqualTo("cpu_0");
        assertThat(etm0.bufferFormat()).isEqualTo(BufferFormat.CORESIGHT);
        // kernel_dump.bin: 0x50000 bytes at 0xC0008000
        assertThat(etm0.image().memory().contains(0xC0008000L, 0x50000)).isTrue();
        assertThat(etm0.image().memory().contains(0xC0058000L, 1)).isFalse();
    }

    @Test
    void tc2SourceStreamsMatchTheDemultiplexedBuffer() throws IOException {
        Path tc2 = SharedData.tc2();
        Map<Integer, byte[]> all = FrameDeformatter.demultiplex(Files.readAllBytes(tc2.resolve("cstrace.bin")));
        // the buffer holds ETMv3 0x10-0x12 and PTM 0x13; PTM 0x14 and ITM 0x20 wrote nothing into it
        assertThat(all.keySet()).containsExactly(0x10, 0x11, 0x12, 0x13);
        int total = all.values().stream().mapToInt(b -> b.length).sum();
        assertThat(total).isLessThanOrEqualTo(32768 / 16 * 15);
        Snapshot s = Snapshot.load(tc2);
        for (int id : new int[] {0x10, 0x11, 0x12, 0x13}) {
            try (InputStream in = s.source(id).orElseThrow().data().open()) {
                assertThat(in.readAllBytes()).as("trace ID 0x%x", id).isEqualTo(all.get(id));
            }
        }
        // A PTM stream synchronizes with an A-sync: at least five 0x00 then 0x80.
        byte[] ptm = all.get(0x13);
        assertThat(indexOf(ptm, new byte[] {0, 0, 0, 0, 0, (byte) 0x80})).isGreaterThanOrEqualTo(0);
        // ETMv3 A-sync is the same pattern.
        assertThat(indexOf(all.get(0x10), new byte[] {0, 0, 0, 0, 0, (byte) 0x80})).isGreaterThanOrEqualTo(0);
    }

    @Test
    void traceCovA15IsASingleUnformattedSourceWithItsCoreDumps() throws IOException {
        Snapshot s = Snapshot.load(SharedData.traceCovA15());
        SnapshotSource ptm = s.sources().stream().filter(x -> x.name().equals("PTM_0_2")).findFirst().orElseThrow();
        assertThat(ptm.bufferFormat()).isEqualTo(BufferFormat.SOURCE_DATA);
        assertThat(ptm.coreName()).isEqualTo("Cortex-A15_0");
        assertThat(ptm.image().memory().contains(0x80000278L, 4)).isTrue();
        try (InputStream in = ptm.data().open()) {
            assertThat(in.readAllBytes()).hasSize(36);
        }
    }

    @Test
    void mistakesAreOneSentenceNamingTheFile(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> Snapshot.load(dir.resolve("nope")))
                .isInstanceOf(InputException.class).hasMessageContaining("no such snapshot directory");
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("snapshot.ini");
        Files.writeString(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n[device_list]\nd=dev.ini\n");
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("dev.ini: no such file");
        Files.writeString(dir.resolve("dev.ini"), "[device]\nname=x\nclass=core\n[regs]\nR0=zz\n");
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("[regs] R0 is not a number")
                .hasMessageNotContaining("zz"); // what the file says is not repeated
        Files.writeString(dir.resolve("dev.ini"), "[device]\nname=x\nclass=core\n[dump1]\nfile=m.bin\naddress=0x100\n");
        // a missing memory dump is said once and left out: the trace can still be listed (OpenCSD goes on too)
        Snapshot missing = Snapshot.load(dir);
        assertThat(missing.warnings()).singleElement().asString()
                .contains("dev.ini: [dump1] names m.bin, which does not exist; that memory is left out.");
        assertThat(missing.devices().get(0).dumps()).isEmpty();
        // but a link by that name that leads nowhere (dangling, or a loop) is a broken snapshot: refused
        Files.createSymbolicLink(dir.resolve("m.bin"), dir.resolve("gone.bin"));
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("dev.ini: [dump1] names m.bin, a symbolic link that leads to no file.");
        Files.delete(dir.resolve("m.bin"));
        Files.createSymbolicLink(dir.resolve("m.bin"), dir.resolve("m.bin"));
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("a symbolic link that leads to no file");
        Files.delete(dir.resolve("m.bin"));
        Files.write(dir.resolve("m.bin"), new byte[] {1, 2, 3, 4});
        Files.writeString(dir.resolve("snapshot.ini"),
                "[snapshot]\nversion=1.0\n[device_list]\nd=dev.ini\n[trace]\nmetadata=trace.ini\n");
        Files.writeString(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=b0\n[b0]\nname=B\nfile=t.bin\nformat=weird\n");
        assertThatThrownBy(() -> Snapshot.load(dir))
                .isInstanceOf(InputException.class).hasMessageContaining("[b0] format= is not one of")
                .hasMessageNotContaining("weird");
    }

    @Test
    void dumpsHonourOffsetAndLength(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("m.bin"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        Files.writeString(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n[device_list]\nd0=core.ini\nd1=src.ini\n"
                + "[trace]\nmetadata=trace.ini\n");
        Files.writeString(dir.resolve("core.ini"), "[device]\nname=c\nclass=core\ntype=Cortex-M0+\n"
                + "[dump]\nfile=m.bin\naddress=0x1000\noffset=2\nlength=3\n");
        Files.writeString(dir.resolve("src.ini"), "[device]\nname=s\nclass=trace_source\ntype=PTM1.1\n[regs]\nETMTRACEIDR=0x2A\n");
        Files.write(dir.resolve("t.bin"), new byte[] {9});
        Files.writeString(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=b0\n[b0]\nname=B\nfile=t.bin\n"
                + "format=source_data\n[source_buffers]\ns=B\n[core_trace_sources]\nc=s\n");
        SnapshotSource s = Snapshot.load(dir).source(0x2A).orElseThrow();
        assertThat(s.image().memory().u8(0x1000)).isEqualTo(3);
        assertThat(s.image().memory().u8(0x1002)).isEqualTo(5);
        assertThat(s.image().memory().u8(0x1003)).isEqualTo(-1);
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void elfDumpsBringSymbolsButRawDumpsStartingWithAnElfHeaderStayRaw(@TempDir Path dir) throws IOException {
        byte[] elf = io.armtrace.groundtruth.Corpus.elfBytes("m0plus");
        Files.write(dir.resolve("program.elf"), elf);
        // a raw memory dump whose bytes happen to begin like an ELF file (as a Linux program's first page does)
        byte[] raw = new byte[64];
        System.arraycopy(elf, 0, raw, 0, 64);
        Files.write(dir.resolve("page.bin"), raw);
        Files.writeString(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n[device_list]\nd0=core.ini\nd1=src.ini\n");
        Files.writeString(dir.resolve("core.ini"), "[device]\nname=c\nclass=core\ntype=Cortex-M0+\n[regs]\nPC=0x1234\n"
                + "[dump1]\nfile=program.elf\naddress=0\n[dump2]\nfile=page.bin\naddress=0x10000\n");
        Files.writeString(dir.resolve("src.ini"), "[device]\nname=s\nclass=trace_source\ntype=MTB\n[regs]\nETMTRACEIDR=0x2A\n");
        Files.writeString(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=\n[core_trace_sources]\nc=s\n");
        Files.writeString(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n[device_list]\nd0=core.ini\nd1=src.ini\n"
                + "[trace]\nmetadata=trace.ini\n");
        SnapshotSource s = Snapshot.load(dir).source(0x2A).orElseThrow();
        assertThat(s.image().symbols().find("SysTick_Handler")).isNotNull();
        assertThat(s.image().memory().u32(0x10000)).isEqualTo(0x464C457FL);
        assertThat(s.coreRegisters().get("PC", -1)).isEqualTo(0x1234);
    }
}
