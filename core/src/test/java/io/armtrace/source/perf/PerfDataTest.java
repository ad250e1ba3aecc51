package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.image.ElfImage;
import io.armtrace.source.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The perf.data reader on real recordings, with the expected values taken from Debian's perf (6.1: `perf
 * report -D`, `perf script -D`, which dump records without a CoreSight decoder) and binutils, and on
 * recordings {@link PerfDataWriter} makes with known content.
 */
class PerfDataTest {
    static final Path KERNEL = Path.of("conformance/perfdata/perf_kernel.data");
    static final Path MISSING = Path.of("conformance/perfdata/perf_with_missing_aux_data.data");
    static final Path COMPRESSED = Path.of("core/src/test/resources/perfdata/task-clock-compressed.data");

    @TempDir
    Path tmp;

    /** perf report -D's "Aggregated stats" of perf_kernel.data, and its records as perf script -D prints them. */
    @Test
    void simpleperfKernelRecordingAsPerfReadsIt() throws IOException {
        assertThat(KERNEL).exists();
        PerfData d = PerfData.read(KERNEL);
        assertThat(d.recordCounts()).containsExactlyInAnyOrderEntriesOf(Map.of("MMAP", 329L, "MMAP2", 140L, "COMM", 2L,
                "AUXTRACE_INFO", 1L, "ITRACE_START", 3L, "AUX", 3L, "AUXTRACE", 3L));
        assertThat(d.unknownRecords()).isZero();
        assertThat(d.dataOffset()).isEqualTo(312);
        assertThat(d.dataSize()).isEqualTo(96336);
        assertThat(d.commandLine()).containsExactly("/data/local/tmp/simpleperf64", "record", "-e", "cs-etm:k",
                "--aux-buffer-size", "16k", "sleep", "0.001");
        assertThat(d.features()).containsKeys(2, 4, 6, 11, 18, 129, 132);
        assertThat(d.features().get(4)).isEqualTo("4.19.205-g248f514543f5-ab7734026");
        assertThat(d.metaInfo()).containsEntry("clockid", "monotonic");

        // PERF_RECORD_AUXTRACE size/offset/cpu at 0xdef8, 0x11f88, 0x13968
        assertThat(d.auxBuffers()).extracting(b -> List.of(b.recordOffset(), b.auxOffset(), b.size(), (long) b.queue().cpu()))
                .containsExactly(List.of(0xdef8L, 0L, 0x3ff0L, 6L), List.of(0x11f88L, 0x3ff0L, 0x1940L, 6L),
                        List.of(0x13968L, 0L, 0x3ff0L, 0L));
        // PERF_RECORD_AUX: cpu 6 offset 0 size 0x3ff0 flags T, offset 0x3ff0 size 0x1940; cpu 0 offset 0 flags T
        assertThat(d.auxRecords()).extracting(r -> List.of((long) r.queue().cpu(), r.auxOffset(), r.size(), r.flags(), r.time()))
                .containsExactly(List.of(6L, 0L, 0x3ff0L, 1L, 495586747076L), List.of(6L, 0x3ff0L, 0x1940L, 0L, 495588313586L),
                        List.of(0L, 0L, 0x3ff0L, 1L, 495590833743L));
        assertThat(d.auxQueues()).containsExactly(new AuxQueue(0, -1), new AuxQueue(6, -1));
        List<AuxSegment> cpu6 = d.auxSegments(new AuxQueue(6, -1));
        assertThat(cpu6).extracting(AuxSegment::size).containsExactly(0x3ff0L, 0x1940L);
        assertThat(cpu6).extracting(AuxSegment::streamOffset).containsExactly(0L, 0x3ff0L);
        assertThat(cpu6).allMatch(AuxSegment::formatted);
        // truncated: the buffer was full, trace after the first segment was lost
        assertThat(d.auxLosses(new AuxQueue(6, -1))).extracting(AuxLoss::reason, AuxLoss::streamOffset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(AuxLoss.Reason.TRUNCATED, 0x3ff0L));
        // the AUX bytes are the file's bytes after each AUXTRACE record (48 bytes)
        try (RandomAccessFile f = new RandomAccessFile(KERNEL.toFile(), "r")) {
            for (AuxSegment s : cpu6) {
                byte[] expected = new byte[(int) s.size()];
                f.seek(s.fileOffset());
                f.readFully(expected);
                try (InputStream in = d.openAux(s)) {
                    assertThat(in.readAllBytes()).isEqualTo(expected);
                }
            }
            assertThat(cpu6.get(0).fileOffset()).isEqualTo(0xdef8 + 48);
        }

        // AUXTRACE_INFO: header version 1, PMU type 8, 8 CPUs with ETMv4 blocks (words read with a script from the record)
        CoreSightInfo cs = d.coreSight();
        assertThat(cs.version()).isEqualTo(1);
        assertThat(cs.pmuType()).isEqualTo(8);
        assertThat(cs.units()).hasSize(8).allMatch(u -> u.kind() == TraceUnit.Kind.ETMV4);
        assertThat(cs.units().get(6).registers()).containsExactly(Map.entry("TRCCONFIGR", 0x40L),
                Map.entry("TRCTRACEIDR", 0x1cL), Map.entry("TRCIDR0", 0x28000ea1L), Map.entry("TRCIDR1", 0x4100f423L),
                Map.entry("TRCIDR2", 0x20001088L), Map.entry("TRCIDR8", 0L), Map.entry("TRCAUTHSTATUS", 0x8cL));
        assertThat(cs.units().get(0).traceId()).isEqualTo(0x10);

        // the kernel module's mapping, and its build ID is the one binutils reads from rq_stats.ko
        Mapping ko = d.mappings().find(12345, 0, 0xffffff99f5896000L + 0x1000);
        assertThat(ko).isNotNull();
        assertThat(ko.path()).isEqualTo("/vendor/lib/modules/rq_stats.ko");
        assertThat(ko.start()).isEqualTo(0xffffff99f5896000L);
        assertThat(ko.length()).isEqualTo(0x5000);
        assertThat(ko.buildId()).isEqualTo(ElfImage.describe(Path.of("conformance/perfdata/rq_stats.ko")).buildIdHex());
        // simpleperf's file2 feature places the module's .text 0x1000 into it
        assertThat(d.files()).anyMatch(f -> f.path().equals("/vendor/lib/modules/rq_stats.ko") && f.type() == 1
                && f.offsetOfMinVaddr() == 0x1000);
        // the process: comm of simpleperf, then exec of sleep
        assertThat(d.threads()).extracting(ThreadEvent::comm, ThreadEvent::exec).containsExactly(
                org.assertj.core.groups.Tuple.tuple("./simpleperf64", false), org.assertj.core.groups.Tuple.tuple("sleep", true));
        assertThat(d.auxtraceIndex()).extracting(e -> e[0]).containsExactly(0xdef8L, 0x11f88L, 0x13968L);
    }

    /** All the AUX data of this recording was lost: six AUX records (perf report -D), no AUXTRACE; ETE units. */
    @Test
    void lostAuxDataIsLocated() {
        PerfData d = PerfData.read(MISSING);
        assertThat(d.recordCounts()).containsEntry("AUX", 6L).containsEntry("MMAP2", 141L).doesNotContainKey("AUXTRACE");
        assertThat(d.auxBuffers()).isEmpty();
        long reported = d.auxRecords().stream().mapToLong(PerfData.AuxRecord::size).sum();
        long lost = 0;
        for (AuxQueue q : d.auxQueues()) {
            assertThat(d.auxSegments(q)).isEmpty();
            for (AuxLoss l : d.auxLosses(q)) {
                assertThat(l.reason()).isEqualTo(AuxLoss.Reason.NOT_IN_FILE);
                lost += l.bytes();
            }
        }
        assertThat(lost).isEqualTo(reported).isPositive();
        // perf script -D: the first AUX record, CPU 7, offset 0 size 0xa6fc0
        assertThat(d.auxLosses(new AuxQueue(7, -1)).get(0).bytes()).isEqualTo(0xa6fc0);
        assertThat(d.coreSight().units()).allMatch(u -> u.kind() == TraceUnit.Kind.ETE && u.registers().containsKey("TRCDEVARCH"));
        // the process's binaries at the end: toybox (sleep) and the linker are mapped executable
        List<Mapping> at = d.mappings().at(26421, -1);
        assertThat(at).anyMatch(m -> m.path().equals("/system/bin/toybox") && m.executable());
        assertThat(at).anyMatch(m -> m.path().equals("/apex/com.android.runtime/bin/linker64") && m.executable());
        // before the exec, the process was simpleperf
        assertThat(d.mappings().at(26421, 1)).anyMatch(m -> m.path().equals("/data/local/tmp/simpleperf"));
        assertThat(d.mappings().at(26421, -1)).noneMatch(m -> m.path().equals("/data/local/tmp/simpleperf"));
    }

    /**
     * A recording by Debian's perf 6.1 with -z (zstd-compressed records) and --switch-events; perf report -D:
     * MMAP 1, COMM 2, EXIT 1, SAMPLE 2, MMAP2 4, SWITCH 2, FINISHED_ROUND 1, ID_INDEX 1, THREAD_MAP 1,
     * CPU_MAP 1, EVENT_UPDATE 2, COMPRESSED 1, FINISHED_INIT 1.
     */
    @Test
    void compressedRecordsOfRealPerf() {
        PerfData d = PerfData.read(COMPRESSED);
        assertThat(d.recordCounts()).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(Map.entry("MMAP", 1L),
                Map.entry("COMM", 2L), Map.entry("EXIT", 1L), Map.entry("SAMPLE", 2L), Map.entry("MMAP2", 4L),
                Map.entry("SWITCH", 2L), Map.entry("FINISHED_ROUND", 1L), Map.entry("ID_INDEX", 1L),
                Map.entry("THREAD_MAP", 1L), Map.entry("CPU_MAP", 1L), Map.entry("EVENT_UPDATE", 2L),
                Map.entry("COMPRESSED", 1L), Map.entry("FINISHED_INIT", 1L)));
        assertThat(d.compressedRecords()).isEqualTo(1);
        assertThat(d.switches()).isEqualTo(2);
        // perf script -D: MMAP2 19096/19096 [0x7f30e1500000(0x156000) @ 0x26000]: r-xp .../libc.so.6
        assertThat(d.mappings().all()).anyMatch(m -> m.pid() == 19096 && m.start() == 0x7f30e1500000L
                && m.length() == 0x156000 && m.pgoff() == 0x26000 && m.path().endsWith("/libc.so.6") && m.executable());
        assertThat(d.threads()).anyMatch(t -> t.kind() == ThreadEvent.Kind.EXIT && t.pid() == 19096 && t.ppid() == 19094);
        assertThat(d.features().get(6)).isEqualTo("x86_64");
    }

    /** Recordings with known content: per-CPU buffers, a raw (TRBE) buffer, an offset gap, lost events, fork and exec. */
    @Test
    void writtenRecordingReadsBack() throws IOException {
        byte[] a = new byte[300];
        byte[] b = new byte[200];
        byte[] c = new byte[100];
        new java.util.Random(3).nextBytes(a);
        new java.util.Random(4).nextBytes(b);
        new java.util.Random(5).nextBytes(c);
        byte[] id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
        PerfDataWriter w = new PerfDataWriter()
                .cmdline("perf", "record", "-e", "cs_etm//u", "--", "./prog")
                .stringFeature(6, "aarch64")
                .coreSightInfo(1, false, List.of(PerfDataWriter.etm4(0, 0x10C1, 0x10), PerfDataWriter.etm4(1, 0x10C1, 0x12)))
                .timeConv(10, 500, 1000)
                .mmap2(-1, 0, 0xffff800008000000L, 0x1000000, 0, 5, "[kernel.kallsyms]_text", null, 0, 0)
                .comm(100, 100, "perf", false, 0, 0)
                .itraceStart(100, 100, 50, 0)
                .comm(100, 100, "prog", true, 60, 0)
                .mmap2(100, 100, 0x400000, 0x2000, 0, 5, "/home/u/prog", id, 70, 0)
                .fork(101, 100, 101, 100, 80, 1)
                .mmap2(101, 101, 0x500000, 0x1000, 0x1000, 5, "/lib/libc.so.6", null, 90, 1)
                .aux(0, 300, 0, 100, 100, 100, 0)
                .auxtrace(0, a, 0, 0, 100, 0)
                .aux(0, 200, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 101, 101, 110, 1)
                .auxtrace(0, b, 0, 1, 101, 1)
                .switchOut(true, 101, 101, 115, 1)
                .auxtrace(500, c, 0, 0, 100, 0) // AUX offsets 300..500 were not written
                .lost(7, 0)
                .raw(99, new byte[16]) // a type no perf defines: skipped and counted
                .simpleperfRecord(32775, new byte[70000]) // a simpleperf record larger than 64 KiB
                .exit(101, 100, 101, 100, 120, 1);
        Path f = tmp.resolve("w.data");
        w.write(f);
        PerfData d = PerfData.read(f);
        assertThat(d.commandLine()).containsExactly("perf", "record", "-e", "cs_etm//u", "--", "./prog");
        assertThat(d.unknownRecords()).isEqualTo(1);
        assertThat(d.lostEvents()).isEqualTo(7);
        assertThat(d.switches()).isEqualTo(1);
        assertThat(d.recordCounts()).containsEntry("simpleperf CALLCHAIN", 1L).containsEntry("AUXTRACE", 3L);
        assertThat(d.timeConversion().timeMult()).isEqualTo(500);
        assertThat(d.coreSight().units()).extracting(TraceUnit::cpu, TraceUnit::traceId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 0x10), org.assertj.core.groups.Tuple.tuple(1, 0x12));
        List<AuxSegment> cpu0 = d.auxSegments(new AuxQueue(0, -1));
        assertThat(cpu0).extracting(AuxSegment::size, AuxSegment::streamOffset, AuxSegment::time).containsExactly(
                org.assertj.core.groups.Tuple.tuple(300L, 0L, 100L), org.assertj.core.groups.Tuple.tuple(100L, 300L, -1L));
        try (InputStream in = d.openAux(cpu0.get(1))) {
            assertThat(in.readAllBytes()).isEqualTo(c);
        }
        assertThat(d.auxLosses(new AuxQueue(0, -1))).extracting(AuxLoss::reason, AuxLoss::streamOffset, AuxLoss::bytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(AuxLoss.Reason.OFFSET_GAP, 300L, 200L));
        List<AuxSegment> cpu1 = d.auxSegments(new AuxQueue(1, -1));
        assertThat(cpu1).singleElement().matches(s -> !s.formatted() && s.size() == 200);
        // mappings: the child inherits the parent's at the fork, the kernel is everywhere
        assertThat(d.mappings().at(100, 75)).extracting(Mapping::path).containsExactly("/home/u/prog", "[kernel.kallsyms]_text");
        assertThat(d.mappings().at(100, 75).get(0).buildId()).isEqualTo("0102030405060708090a0b0c0d0e0f1011121314");
        assertThat(d.mappings().at(101, 95)).extracting(Mapping::path)
                .containsExactly("/home/u/prog", "/lib/libc.so.6", "[kernel.kallsyms]_text");
        assertThat(d.mappings().at(100, 55)).extracting(Mapping::path).containsExactly("[kernel.kallsyms]_text");
        assertThat(d.auxtraceIndex()).hasSize(3);
    }

    @Test
    void perThreadBigEndianAndVersion0() throws IOException {
        PerfDataWriter w = new PerfDataWriter(ByteOrder.BIG_ENDIAN)
                .coreSightInfo(0, false, List.of(new long[] {TraceUnit.Kind.ETMV3_PTM.magic, 0, 0x1000, 0x13, 0x8c, 0x4114f250L}))
                .aux(0, 64, 0, 7, 7, 10, 3)
                .auxtrace(0, new byte[64], 0, 0, 7, -1);
        Path f = tmp.resolve("be.data");
        w.write(f);
        PerfData d = PerfData.read(f);
        assertThat(d.byteOrder()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(d.coreSight().units()).singleElement().matches(u -> u.kind() == TraceUnit.Kind.ETMV3_PTM
                && u.registers().get("ETMIDR") == 0x4114f250L && u.traceId() == 0x13);
        assertThat(d.auxQueues()).containsExactly(new AuxQueue(-1, 7));
        assertThat(d.auxSegments(new AuxQueue(-1, 7))).singleElement().matches(s -> s.size() == 64 && s.time() == 10);
    }

    /** Records compressed with zstd, the stream cut across records at arbitrary points, read as if uncompressed. */
    @Test
    void compressedStreamAcrossRecords() throws IOException {
        PerfDataWriter w = new PerfDataWriter();
        for (int i = 0; i < 200; i++) {
            w.mmap2(10, 10, 0x1000L * i, 0x1000, 0, 5, "/lib/lib" + i + ".so", null, i, 0);
        }
        byte[] records = w.takeRecords();
        io.airlift.compress.zstd.ZstdCompressor z = new io.airlift.compress.zstd.ZstdCompressor();
        byte[] out = new byte[z.maxCompressedLength(records.length)];
        int n = z.compress(records, 0, records.length, out, 0, out.length);
        w.comm(10, 10, "x", false, 0, 0).compressed(java.util.Arrays.copyOf(out, n), 97).comm(10, 10, "y", false, 1, 0);
        Path f = tmp.resolve("z.data");
        w.write(f);
        PerfData d = PerfData.read(f);
        assertThat(d.mappings().all()).hasSize(200);
        assertThat(d.mappings().all().get(199).path()).isEqualTo("/lib/lib199.so");
        assertThat(d.decompressedBytes()).isEqualTo(records.length);
    }

    @Test
    void damagedRecordingsAreOneSentence() throws IOException {
        byte[] real = Files.readAllBytes(KERNEL);
        Path f = tmp.resolve("bad.data");
        Files.write(f, java.util.Arrays.copyOf(real, 5000));
        assertThatThrownBy(() -> PerfData.read(f)).isInstanceOf(InputException.class)
                .hasMessageStartingWith(f.toString()).hasMessageContaining("outside the file");
        Files.write(f, "not a recording at all, no".getBytes());
        assertThatThrownBy(() -> PerfData.read(f)).isInstanceOf(InputException.class);
        byte[] pipe = java.util.Arrays.copyOf(real, 200);
        pipe[8] = 16;
        Files.write(f, pipe);
        assertThatThrownBy(() -> PerfData.read(f)).hasMessageContaining("pipe");
        // random damage: an InputException or a recording, never anything else
        java.util.Random rnd = new java.util.Random(9);
        for (int i = 0; i < 400; i++) {
            byte[] bad = real.clone();
            for (int k = 0; k < 1 + rnd.nextInt(8); k++) {
                int at = i % 2 == 0 ? rnd.nextInt(400) : 312 + rnd.nextInt(96336);
                bad[at] = (byte) rnd.nextInt();
            }
            Files.write(f, bad);
            try {
                PerfData d = PerfData.read(f);
                for (AuxQueue q : d.auxQueues()) {
                    d.auxSegments(q);
                    d.auxLosses(q);
                }
                d.mappings().at(15320, -1);
            } catch (InputException e) {
                assertThat(e.getMessage()).startsWith(f.toString());
            }
        }
    }
}
