package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording of 32-bit trace (the ETMv3 or PTM encoder's trace of a real Thumb-2 program, as AUX data of
 * an ETMv3/PTM trace unit, with an MMAP2 record for the program) converted to a snapshot: the snapshot names
 * the registers so that armtrace's snapshot reader finds them, holds the program where it was mapped, and
 * decodes to exactly what the trace itself decodes to with the program's ELF file.
 */
class PerfSnapshotTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"etm3, ETM3.5", "ptm, PTM1.1"})
    void aConvertedRecordingDecodesAsItsTrace(String protocol, String deviceType) throws IOException {
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        Path elf = bin.resolve("prog.elf");
        Files.write(elf, Corpus.elfBytes("a9-thumb"));
        ProgramImage image = ElfImage.load(elf);
        TraceProtocol etm3 = Protocols.byName(protocol).orElseThrow();
        EncodeOutput enc = etm3.encode(Corpus.execution("a9-thumb"), image, Map.of());
        var regs = enc.registers();
        ElfImage.Segment load = ElfImage.describe(elf).segments().stream().filter(ElfImage.Segment::isLoad).findFirst().orElseThrow();

        PerfDataWriter w = new PerfDataWriter()
                .coreSightInfo(1, false, List.of(new long[] {TraceUnit.Kind.ETMV3_PTM.magic, 0, 4, regs.get("ETMCR", 0),
                    regs.get("ETMTRACEIDR", 0x10), regs.get("ETMCCER", 0), regs.get("ETMIDR", 0)}))
                .comm(100, 100, "prog", true, 10, 0)
                .mmap2(100, 100, load.vaddr(), (load.memSize() + 0xFFF) & ~0xFFFL, load.offset(), 5, "/usr/bin/prog.elf", null, 20, 0)
                .aux(0, enc.trace().length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 100, 100, 30, 0)
                .auxtrace(0, enc.trace(), 0, 0, 100, 0);
        Path file = tmp.resolve("perf.data");
        w.write(file);

        Path snap = Files.createDirectory(tmp.resolve("snap"));
        PerfSnapshot.Summary summary = PerfSnapshot.write(PerfData.read(file), snap, List.of(bin));
        assertThat(summary.dumps()).containsExactly(elf.toString());
        assertThat(summary.cpus()).containsOnlyKeys(0);

        Snapshot s = Snapshot.load(snap, true);
        SnapshotSource src = s.sources().get(0);
        // the ETMv3/PTM block of AUXTRACE_INFO is one kind; ETMIDR says which protocol the unit writes
        assertThat(src.type()).isEqualTo(deviceType);
        assertThat(src.traceId()).isEqualTo((int) (regs.get("ETMTRACEIDR", 0x10) & 0x7F));
        List<TraceElement> fromSnapshot = new ArrayList<>();
        Protocols.forDeviceType(src.type()).orElseThrow().decode(new DecodeInput(src.traceId(), src.registers(), src.image(),
                src.data(), DecodeOptions.DEFAULT), fromSnapshot::add);
        List<TraceElement> fromTrace = new ArrayList<>();
        etm3.decode(new DecodeInput(src.traceId(), regs, image, TraceData.of("trace", enc.trace()), DecodeOptions.DEFAULT),
                fromTrace::add);

        assertThat(fromTrace.stream().filter(e -> e instanceof InstructionRange).count()).isGreaterThan(1000);
        assertThat(fromSnapshot).noneMatch(e -> e instanceof NoImage);
        assertThat(fromSnapshot).isEqualTo(fromTrace);
    }
}
