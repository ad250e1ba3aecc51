package io.armtrace.source.perf;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.protocol.ASyncScanner;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.etm4.Etm4Protocol;
import io.armtrace.protocol.ptm.PtmProtocol;
import io.armtrace.source.Registers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recordings with exact ground truth: programs of the ground-truth corpus (run under QEMU), their trace made
 * by the ETMv4/ETE encoder, written as Linux perf records CoreSight trace, with the programs' binaries in a
 * symbol directory ({@code symbols/} beside the recordings). {@link Cpu#cut} splits a trace at A-syncs into
 * the pieces the AUX records report, so that a decoder that resets at every piece (as perf's and armtrace's
 * do) loses nothing at the seams. The recordings:
 * <ul>
 * <li>{@code user.data}: linux-a64 (process {@value #PID}, mapped from {@value #USER_PATH}, found by build
 * ID) on CPU 2, ETMv4 trace ID 0x10, CoreSight-formatted AUX data (ETR) in four AUX records, the first two
 * in one AUXTRACE buffer, layout version 1;
 * <li>{@code trbe.data}: linux-a64-O0 on CPU 0, ETE trace ID 0x20, raw AUX data (TRBE) in three records;
 * <li>{@code kernel.data}: a53-el1, whose kernel runs in the upper half, mapped with pid -1 from
 * {@value #KERNEL_PATH} (found by file name: it has no build ID), CPU 1, ETMv4 trace ID 0x12, formatted;
 * <li>{@code two.data}: linux-a64 on CPU 0 (trace ID 0x10) and a53-el1 on CPU 3 (trace ID 0x16), three AUX
 * records each, interleaved in time, layout version 0 (fixed ETMv4 blocks, as perf wrote before Linux 5.11);
 * <li>{@code lost.data}: linux-a64 on CPU 1 (trace ID 0x10) cut in four pieces, the first AUX record flagged
 * truncated (the AUX area was full) and the second piece not in the file;
 * <li>{@code ptm.data}: linux-arm (qemu-arm, Cortex-A15) on CPU 1, PTM (PFT 1.1) trace ID 0x14, formatted,
 * an ETMv3/PTM block of layout version 1, three AUX records;
 * <li>{@code v2.data}: linux-a64 on CPU 5, layout version 2: the metadata's TRCTRACEIDR is 0 and the trace
 * ID 0x1A comes in a PERF_RECORD_AUX_OUTPUT_HW_ID record, as perf records it since Linux 6.3;
 * <li>{@code thread.data}: recorded per thread ({@code perf record --per-thread}: AUXTRACE buffers with cpu -1
 * and the thread's ID, one AUX area per thread): thread {@value #PID} of process {@value #PID} runs linux-a64,
 * its first half on CPU 0 (trace ID 0x10), its second on CPU 1 (trace ID 0x12), both in its one buffer;
 * thread {@value #OTHER_TID} of process {@value #OTHER_PID} runs linux-a64-O0, mapped at the same addresses,
 * on CPU 1 (trace ID 0x12). Neither trace unit traces the context ID, so only the buffer's thread says whose
 * code runs;
 * <li>{@code collision.data}: as {@code lost.data}, the first AUX record flagged collision (PERF_AUX_FLAG_COLLISION)
 * and the second piece not in the file;
 * <li>{@code partial.data}: linux-a64 on CPU 1 in four pieces, the third AUX record flagged partial
 * (PERF_AUX_FLAG_PARTIAL: its data has gaps), its first third missing, so that its data starts inside the trace;
 * <li>{@code simpleperf.data}: linux-a64 on CPU 3 (trace ID 0x16) as Android's simpleperf records it
 * ({@code simpleperf record -e cs-etm}): its command line, os release and arch, the build-ID feature, the
 * auxtrace index without perf's count, the meta_info and file2 features, a simpleperf EVENT_ID record, and the
 * binary in a {@code binary_cache} directory at its device path ({@value #ANDROID_PATH}) as simpleperf's
 * binary_cache_builder.py lays it out (not under perf's {@code .build-id}).
 * </ul>
 */
final class EncodedRecording {
    static final int PID = 4242;
    static final int OTHER_PID = 4343;
    static final int OTHER_TID = 4344;
    static final String ANDROID_PATH = "/data/local/tmp/linux-a64";
    static final String USER_PATH = "/usr/local/bin/linux-a64";
    static final String KERNEL_PATH = "/boot/a53-el1.elf";
    static final List<String> NAMES = List.of("user", "trbe", "kernel", "two", "lost", "ptm", "v2", "thread", "collision", "partial", "simpleperf");

    /** The trace of one program on one CPU. */
    static final class Cpu {
        final int cpu;
        final String fixture;
        final boolean ete;
        final int traceId;
        final byte[] trace;
        final Registers registers;
        /** A-sync offsets in {@link #trace}, 0 first. */
        final long[] syncs;

        /** PTM (PFT 1.1) rather than ETMv4/ETE: a 32-bit program, and an ETMv3/PTM block in AUXTRACE_INFO. */
        final boolean ptm;

        Cpu(int cpu, String fixture, boolean ete, int traceId) {
            this(cpu, fixture, ete ? "ete" : "etm4", traceId);
        }

        Cpu(int cpu, String fixture, String protocol, int traceId) {
            this.cpu = cpu;
            this.fixture = fixture;
            this.ete = protocol.equals("ete");
            this.ptm = protocol.equals("ptm");
            this.traceId = traceId;
            Map<String, String> options = new HashMap<>();
            options.put("trace-id", Integer.toString(traceId));
            EncodeOutput enc;
            if (ptm) {
                // no return stack: a decoder that starts at a fragment's A-sync must not need earlier calls
                options.put("return-stack", "off");
                enc = new PtmProtocol().encode(Corpus.execution(fixture), Corpus.image(fixture), options);
            } else {
                options.put("el", Integer.toString(Corpus.header(fixture).el()));
                enc = new Etm4Protocol(ete).encode(Corpus.execution(fixture), Corpus.image(fixture), options);
            }
            this.trace = enc.trace();
            this.registers = enc.registers();
            try {
                long[] later = ASyncScanner.scan(new ByteArrayInputStream(trace), 1, ptm ? 5 : 11);
                this.syncs = new long[later.length + 1];
                System.arraycopy(later, 0, syncs, 1, later.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The AUXTRACE_INFO block of this CPU's trace unit, in the layout of header {@code version}. */
        long[] block(long version) {
            if (ptm) {
                return PerfDataWriter.etm3(cpu, registers, version);
            }
            return ete ? PerfDataWriter.ete(cpu, registers) : PerfDataWriter.etm4(cpu, registers, version);
        }

        /**
         * The trace cut at the A-syncs nearest to {@code pieces - 1} evenly spaced points: the offsets where
         * each piece starts, and the trace's length last.
         */
        long[] cut(int pieces) {
            long[] at = new long[pieces + 1];
            at[pieces] = trace.length;
            for (int i = 1; i < pieces; i++) {
                long want = (long) trace.length * i / pieces;
                int k = Arrays.binarySearch(syncs, want);
                at[i] = syncs[k >= 0 ? k : Math.max(0, -k - 2)];
                if (at[i] <= at[i - 1]) {
                    throw new IllegalStateException(fixture + ": too few A-syncs to cut the trace into " + pieces + " pieces");
                }
            }
            return at;
        }

        /** Trace bytes [from, to) as the AUX area holds them: CoreSight frames, or raw (TRBE). */
        byte[] aux(long from, long to, boolean formatted) {
            return formatted ? PerfDataWriter.frames(traceId, trace, (int) from, (int) to)
                    : Arrays.copyOfRange(trace, (int) from, (int) to);
        }

        /** The addresses QEMU executed, in order. */
        List<Long> truth() {
            Execution e = Corpus.execution(fixture);
            List<Long> out = new ArrayList<>(e.steps().size());
            for (ExecutionEvent.Step s : e.steps()) {
                out.add(s.address());
            }
            return out;
        }
    }

    private EncodedRecording() {
    }

    /** Writes the recording {@code name} (one of {@link #NAMES}) as {@code dir/NAME.data}; returns its CPUs. */
    static List<Cpu> write(String name, Path dir) throws IOException {
        Path symbols = dir.resolve("symbols");
        PerfDataWriter w;
        List<Cpu> cpus;
        switch (name) {
            case "user" -> {
                Cpu c = new Cpu(2, "linux-a64", false, 0x10);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                startUser(w, userBinary(symbols), c.cpu);
                // perf read the AUX area after the second AUX record only: one AUXTRACE buffer holds two fragments
                long[] cuts = c.cut(4);
                byte[] first = c.aux(cuts[0], cuts[1], true);
                byte[] second = c.aux(cuts[1], cuts[2], true);
                w.aux(0, first.length, 0, PID, PID, 1000, c.cpu).aux(first.length, second.length, 0, PID, PID, 1010, c.cpu);
                byte[] both = Arrays.copyOf(first, first.length + second.length);
                System.arraycopy(second, 0, both, first.length, second.length);
                w.auxtrace(0, both, 0, c.cpu, PID, c.cpu);
                long aux = both.length;
                for (int i = 2; i < 4; i++) {
                    byte[] data = c.aux(cuts[i], cuts[i + 1], true);
                    w.aux(aux, data.length, 0, PID, PID, 1000 + 10 * i, c.cpu).auxtrace(aux, data, 0, c.cpu, PID, c.cpu);
                    aux += data.length;
                }
                cpus = List.of(c);
            }
            case "trbe" -> {
                Cpu c = new Cpu(0, "linux-a64-O0", true, 0x20);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                byte[] elf = writeElf("linux-a64-O0", symbols.resolve("linux-a64-O0"));
                w.comm(PID, PID, "linux-a64-O0", true, 100, 0);
                mapSegments(w, elf, PID, "/home/user/linux-a64-O0", buildId(elf), 101, 0);
                w.itraceStart(PID, PID, 102, 0);
                pieces(w, c, c.cut(3), false, PID);
                cpus = List.of(c);
            }
            case "kernel" -> {
                Cpu c = new Cpu(1, "a53-el1", false, 0x12);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                mapSegments(w, kernelBinary(symbols), -1, KERNEL_PATH, null, 0, c.cpu);
                pieces(w, c, c.cut(2), true, -1);
                cpus = List.of(c);
            }
            case "two" -> {
                Cpu user = new Cpu(0, "linux-a64", false, 0x10);
                Cpu kernel = new Cpu(3, "a53-el1", false, 0x16);
                w = new PerfDataWriter().coreSightInfo(0, false, List.of(user.block(0), kernel.block(0)));
                mapSegments(w, kernelBinary(symbols), -1, KERNEL_PATH, null, 0, 3);
                startUser(w, userBinary(symbols), 0);
                long[] u = user.cut(3);
                long[] k = kernel.cut(3);
                long uAux = 0;
                long kAux = 0;
                for (int i = 0; i < 3; i++) {
                    byte[] a = user.aux(u[i], u[i + 1], true);
                    byte[] b = kernel.aux(k[i], k[i + 1], true);
                    w.aux(uAux, a.length, 0, PID, PID, 1000 + 10 * i, 0);
                    w.aux(kAux, b.length, 0, -1, 0, 1001 + 10 * i, 3);
                    w.auxtrace(kAux, b, 0, 3, -1, 3).auxtrace(uAux, a, 0, 0, PID, 0);
                    uAux += a.length;
                    kAux += b.length;
                }
                cpus = List.of(user, kernel);
            }
            case "lost", "collision" -> {
                Cpu c = new Cpu(1, "linux-a64", false, 0x10);
                long flag = name.equals("lost") ? PerfData.AUX_FLAG_TRUNCATED : PerfData.AUX_FLAG_COLLISION;
                long[] cuts = c.cut(4);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                startUser(w, userBinary(symbols), c.cpu);
                long aux = 0;
                for (int i : new int[] {0, 2, 3}) { // piece 1 is lost
                    byte[] data = c.aux(cuts[i], cuts[i + 1], true);
                    w.aux(aux, data.length, i == 0 ? flag : 0, PID, PID, 1000 + 10 * i, c.cpu)
                            .auxtrace(aux, data, 0, c.cpu, PID, c.cpu);
                    aux += data.length;
                }
                cpus = List.of(c);
            }
            case "simpleperf" -> {
                Cpu c = new Cpu(3, "linux-a64", false, 0x16);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                w.simpleperfAuxIndex = true;
                byte[] elf = writeElf("linux-a64", symbols.resolve("binary_cache" + ANDROID_PATH));
                byte[] id = buildId(elf);
                ElfImage.Segment text = ElfImage.describe(ByteBuffer.wrap(elf), ANDROID_PATH).segments().stream()
                        .filter(ElfImage.Segment::isLoad).findFirst().orElseThrow();
                w.cmdline("/data/local/tmp/simpleperf", "record", "-e", "cs-etm", "/data/local/tmp/linux-a64")
                        .stringFeature(4, "5.10.107-android13").stringFeature(6, "aarch64")
                        .buildIds(Map.of(ANDROID_PATH, id))
                        .simpleperfMetaInfo(new java.util.LinkedHashMap<>(Map.of("simpleperf_version", "1.build.test",
                                "clockid", "monotonic")))
                        .simpleperfFiles(List.<Object[]>of(new Object[] {ANDROID_PATH, text.vaddr(), text.offset()}));
                // simpleperf's EVENT_ID record (record.h, SIMPLE_PERF_RECORD_EVENT_ID): the attribute's ID
                w.simpleperfRecord(32774, java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(1)
                        .putLong(0).putLong(PerfDataWriter.EVENT_ID).array());
                w.comm(PID, PID, "linux-a64", true, 100, c.cpu);
                mapSegments(w, elf, PID, ANDROID_PATH, null, 101, c.cpu);
                pieces(w, c, c.cut(2), true, PID);
                cpus = List.of(c);
            }
            case "partial" -> {
                Cpu c = new Cpu(1, "linux-a64", false, 0x10);
                long[] cuts = c.cut(4);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                startUser(w, userBinary(symbols), c.cpu);
                long aux = 0;
                for (int i = 0; i < 4; i++) {
                    long from = i == 2 ? cuts[2] + (cuts[3] - cuts[2]) / 3 : cuts[i];
                    byte[] data = c.aux(from, cuts[i + 1], true);
                    w.aux(aux, data.length, i == 2 ? PerfData.AUX_FLAG_PARTIAL : 0, PID, PID, 1000 + 10 * i, c.cpu)
                            .auxtrace(aux, data, 0, c.cpu, PID, c.cpu);
                    aux += data.length;
                }
                cpus = List.of(c);
            }
            case "ptm" -> {
                Cpu c = new Cpu(1, "linux-arm", "ptm", 0x14);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
                byte[] elf = writeElf("linux-arm", symbols.resolve("linux-arm"));
                w.comm(PID, PID, "linux-arm", true, 100, c.cpu);
                mapSegments(w, elf, PID, "/usr/bin/linux-arm", buildId(elf), 101, c.cpu);
                w.itraceStart(PID, PID, 102, c.cpu);
                pieces(w, c, c.cut(3), true, PID);
                cpus = List.of(c);
            }
            case "v2" -> {
                // header version 2: the metadata's TRCTRACEIDR is 0, the ID the kernel gave comes in AUX_OUTPUT_HW_ID
                Cpu c = new Cpu(5, "linux-a64", false, 0x1A);
                Registers none = new Registers().putAll(c.registers).put("TRCTRACEIDR", 0);
                w = new PerfDataWriter().coreSightInfo(2, false, List.of(PerfDataWriter.etm4(c.cpu, none, 2)));
                startUser(w, userBinary(symbols), c.cpu);
                // major version 0, minor version 1, sink ID 3 in bits [39:8], trace ID in bits [7:0]
                w.auxOutputHwId(1L << 56 | 3L << 8 | c.traceId, PID, PID, 103, c.cpu);
                pieces(w, c, c.cut(2), true, PID);
                cpus = List.of(c);
            }
            case "thread" -> {
                Cpu fast = new Cpu(0, "linux-a64", false, 0x10);
                Cpu slow = new Cpu(1, "linux-a64-O0", false, 0x12);
                w = new PerfDataWriter().coreSightInfo(1, false, List.of(fast.block(1), slow.block(1)));
                startUser(w, userBinary(symbols), 0);
                byte[] elf = writeElf("linux-a64-O0", symbols.resolve("linux-a64-O0"));
                w.comm(OTHER_PID, OTHER_PID, "linux-a64-O0", true, 103, 1);
                w.fork(OTHER_PID, OTHER_PID, OTHER_TID, OTHER_PID, 104, 1);
                mapSegments(w, elf, OTHER_PID, "/home/user/linux-a64-O0", buildId(elf), 105, 1);
                // thread PID's AUX area (idx 0): its first half traced on CPU 0, then on CPU 1 under that CPU's trace ID
                long[] cuts = fast.cut(2);
                byte[] first = fast.aux(cuts[0], cuts[1], true);
                byte[] second = PerfDataWriter.frames(slow.traceId, fast.trace, (int) cuts[1], (int) cuts[2]);
                w.aux(0, first.length, 0, PID, PID, 1000, 0).auxtrace(0, first, 0, 0, PID, -1);
                // thread OTHER_TID's AUX area (idx 1), on CPU 1
                long[] other = slow.cut(2);
                long aux = 0;
                for (int i = 0; i < 2; i++) {
                    byte[] data = slow.aux(other[i], other[i + 1], true);
                    w.aux(aux, data.length, 0, OTHER_PID, OTHER_TID, 1005 + 10 * i, 1).auxtrace(aux, data, 1, 1, OTHER_TID, -1);
                    aux += data.length;
                }
                w.aux(first.length, second.length, 0, PID, PID, 1020, 1).auxtrace(first.length, second, 0, 0, PID, -1);
                cpus = List.of(fast, slow);
            }
            default -> throw new IllegalArgumentException("no recording " + name);
        }
        w.write(dir.resolve(name + ".data"));
        return cpus;
    }

    /** Writes every recording into {@code args[0]} (for tools/opencsd-check/perfdata.sh). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        for (String name : NAMES) {
            write(name, dir);
        }
    }

    /** The user program's binary in the symbol directory under its build ID (perf's ~/.debug layout). */
    private static byte[] userBinary(Path symbols) {
        byte[] elf = Corpus.elfBytes("linux-a64");
        String id = java.util.HexFormat.of().formatHex(buildId(elf));
        return writeElf("linux-a64", symbols.resolve(".build-id").resolve(id.substring(0, 2)).resolve(id.substring(2)));
    }

    /** The bare-metal kernel's binary in the symbol directory under its file name. */
    private static byte[] kernelBinary(Path symbols) {
        return writeElf("a53-el1", symbols.resolve("a53-el1.elf"));
    }

    /** COMM, MMAP2 of each segment and ITRACE_START for the user program on {@code cpu}, and its build ID. */
    private static void startUser(PerfDataWriter w, byte[] elf, int cpu) {
        byte[] id = buildId(elf);
        w.comm(PID, PID, "linux-a64", true, 100, cpu);
        mapSegments(w, elf, PID, USER_PATH, id, 101, cpu);
        w.itraceStart(PID, PID, 102, cpu);
        w.buildIds(Map.of(USER_PATH, id));
    }

    /**
     * Writes {@code c}'s trace as AUX records, one per piece of {@code cuts}, each followed by the AUXTRACE
     * record of its data (perf's per-CPU AUX area read after each), with AUX offsets counting the AUX area.
     */
    private static void pieces(PerfDataWriter w, Cpu c, long[] cuts, boolean formatted, int pid) {
        long aux = 0;
        for (int i = 0; i + 1 < cuts.length; i++) {
            byte[] data = c.aux(cuts[i], cuts[i + 1], formatted);
            w.aux(aux, data.length, formatted ? 0 : PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, pid, pid, 1000 + 10 * i, c.cpu)
                    .auxtrace(aux, data, 0, c.cpu, pid, c.cpu);
            aux += data.length;
        }
    }

    /** The fixture's ELF file, written to {@code file}. */
    static byte[] writeElf(String fixture, Path file) {
        byte[] elf = Corpus.elfBytes(fixture);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, elf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return elf;
    }

    /** The build ID of an ELF file, or null. */
    static byte[] buildId(byte[] elf) {
        return ElfImage.describe(ByteBuffer.wrap(elf), "elf").buildId();
    }

    /**
     * MMAP2 records for each loadable segment of {@code elf} into process {@code pid} (-1: the kernel), as
     * the kernel reports an ELF file's mappings: page-aligned start, the segment's file offset as pgoff, its
     * permissions as prot.
     */
    static void mapSegments(PerfDataWriter w, byte[] elf, int pid, String path, byte[] buildId, long time, int cpu) {
        for (ElfImage.Segment s : ElfImage.describe(ByteBuffer.wrap(elf), path).segments()) {
            if (!s.isLoad() || s.fileSize() == 0) {
                continue;
            }
            long start = s.vaddr() & ~0xFFFL;
            long pgoff = s.offset() & ~0xFFFL;
            long length = ((s.vaddr() + s.memSize() + 0xFFF) & ~0xFFFL) - start;
            // PF_X = 1, PF_W = 2, PF_R = 4 to PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4
            int prot = ((s.flags() & 4) != 0 ? 1 : 0) | ((s.flags() & 2) != 0 ? 2 : 0) | ((s.flags() & 1) != 0 ? 4 : 0);
            w.mmap2(pid, pid == -1 ? 0 : pid, start, length, pgoff, prot, path, buildId, time, cpu);
        }
    }
}
