package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings written as Linux perf writes them (AUXTRACE_INFO with the CoreSight metadata of both layout
 * versions, COMM, MMAP2 with build IDs, ITRACE_START, AUX and AUXTRACE records, the build-ID feature),
 * carrying the ETMv4/ETE (and PTM) encoder's trace of programs QEMU ran: decoded through {@link Decoder#openRecording}
 * with the binaries found in a symbol directory, each CPU gives exactly the instructions QEMU executed, in
 * order, for user space and kernel addresses, CoreSight-formatted (ETR) and raw (TRBE) AUX data, one CPU and
 * two, and where an AUX record says data was lost, one gap at that point and the rest exact.
 */
class PerfGroundTruthTest {
    /** The gap at the start of every AUX fragment after the first: the decoder resets there, as perf's does. */
    static final String NEW_BUFFER = "trace break: new AUX buffer";

    @TempDir
    Path dir;

    /** What one CPU's decode gave: instruction addresses, and the gap reasons with how many instructions came before each. */
    record Decoded(List<Long> addresses, List<String> gaps, List<Integer> gapsAt) {
    }

    private Map<Integer, Decoded> decode(Path recording) throws IOException {
        List<String> warnings = new ArrayList<>();
        Decoder d = Decoder.openRecording(recording, List.of(dir.resolve("symbols")),
                DecodeOptions.builder().warnings(warnings::add).build());
        assertThat(warnings).as("every mapped binary is found").isEmpty();
        Map<Integer, Decoded> out = new TreeMap<>();
        d.decode(e -> {
            Decoded c = out.computeIfAbsent(e.source(), k -> new Decoded(new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    c.addresses().add(r.addressOf(i));
                }
            } else if (e instanceof Gap g) {
                c.gaps().add(g.reason());
                c.gapsAt().add(c.addresses().size());
            } else if (e instanceof NoImage n) {
                throw new AssertionError("no image at " + n);
            }
        });
        return out;
    }

    @Test
    void userSpaceFormattedOneCpu() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("user", dir).get(0);
        PerfData data = PerfData.read(dir.resolve("user.data"));
        // four fragments from three AUXTRACE buffers, the first buffer holding two
        assertThat(data.auxSegments(data.auxQueues().get(0))).hasSize(4).allMatch(AuxSegment::formatted)
                .extracting(AuxSegment::time).containsExactly(1000L, 1010L, 1020L, 1030L);
        assertThat(data.mappings().all()).filteredOn(Mapping::executable).extracting(Mapping::pid, Mapping::path, Mapping::buildId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(EncodedRecording.PID, EncodedRecording.USER_PATH,
                        "beec2f0cc31d2d6c1eee4d75361b1e325e45c4a1"));

        Decoded d = decode(dir.resolve("user.data")).get(0x10);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).as("a reset at each new AUX buffer, nothing lost").containsExactly(NEW_BUFFER, NEW_BUFFER, NEW_BUFFER);
    }

    @Test
    void unformattedEteOneCpu() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("trbe", dir).get(0);
        PerfData data = PerfData.read(dir.resolve("trbe.data"));
        assertThat(data.coreSight().units()).extracting(TraceUnit::kind).containsExactly(TraceUnit.Kind.ETE);
        assertThat(data.coreSight().units().get(0).registers()).containsKeys("TRCDEVARCH", "TS_SOURCE");
        assertThat(data.auxSegments(data.auxQueues().get(0))).hasSize(3).noneMatch(AuxSegment::formatted);

        Decoded d = decode(dir.resolve("trbe.data")).get(0x20);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER, NEW_BUFFER);
    }

    @Test
    void kernelAddressesFromAKernelMapping() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("kernel", dir).get(0);
        assertThat(c.truth()).as("the fixture runs in the upper half").anyMatch(a -> a < 0);
        assertThat(PerfData.read(dir.resolve("kernel.data")).mappings().all()).isNotEmpty().allMatch(m -> m.pid() == -1);

        Decoded d = decode(dir.resolve("kernel.data")).get(0x12);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER);

        // its three executable segments are one file, whose code a snapshot dumps once (OpenCSD refuses overlapping dumps)
        Path snap = java.nio.file.Files.createDirectories(dir.resolve("snap"));
        PerfSnapshot.Summary s = PerfSnapshot.write(PerfData.read(dir.resolve("kernel.data")), snap, List.of(dir.resolve("symbols")));
        assertThat(s.dumps()).hasSize(1);
    }

    /**
     * Two CPUs, each its own program and trace ID, their AUX records interleaved in time, header version 0
     * (fixed ETMv4 blocks, as perf wrote before Linux 5.11).
     */
    @Test
    void twoCpusInterleavedVersion0Layout() throws IOException {
        List<EncodedRecording.Cpu> cpus = EncodedRecording.write("two", dir);
        assertThat(PerfData.read(dir.resolve("two.data")).coreSight().version()).isZero();

        Map<Integer, Decoded> d = decode(dir.resolve("two.data"));
        assertThat(d.keySet()).containsExactly(0x10, 0x16);
        assertThat(d.get(0x10).addresses()).isEqualTo(cpus.get(0).truth());
        assertThat(d.get(0x16).addresses()).isEqualTo(cpus.get(1).truth());
        assertThat(d.get(0x10).gaps()).containsExactly(NEW_BUFFER, NEW_BUFFER);
        assertThat(d.get(0x16).gaps()).containsExactly(NEW_BUFFER, NEW_BUFFER);
    }

    /**
     * The first of three AUX records says the AUX area was full (PERF_AUX_FLAG_TRUNCATED): what the trace unit
     * wrote after it until the next record's data is not in the file. The decode gives the instructions up to
     * there, one gap naming the loss, and from the next A-sync on every instruction again.
     */
    @Test
    void lostDataIsOneGapAndTheRestIsExact() throws IOException {
        lostRecordIsOneGap("lost", "trace break: AUX data lost: buffer full (AUX record flag truncated)");
    }

    /**
     * A collision (PERF_AUX_FLAG_COLLISION) loses data like a full buffer: the gap names it, at the end of the
     * flagged record's data, and the rest is exact.
     */
    @Test
    void collisionIsOneGapAndTheRestIsExact() throws IOException {
        lostRecordIsOneGap("collision", "trace break: AUX data lost: collision (AUX record flag collision)");
    }

    /**
     * Decodes the written recording NAME: one gap GAP where the flagged record's data ends, every instruction
     * before it and after it as QEMU ran them, and what is missing is the stretch of the lost piece, not less and
     * not the whole rest.
     */
    private void lostRecordIsOneGap(String name, String gap) throws IOException {
        List<Long> truth = EncodedRecording.write(name, dir).get(0).truth();

        Decoded d = decode(dir.resolve(name + ".data")).get(0x10);
        assertThat(d.gaps()).containsExactly(gap, NEW_BUFFER);
        int missing = beforeAndAfterExact(truth, d, d.gapsAt().get(0));
        assertThat(missing).isGreaterThan(truth.size() / 8).isLessThan(truth.size() / 2);
    }

    /** Checks the decode's instructions before AT equal the run's first ones and those from AT its last ones; returns how many are missing. */
    private static int beforeAndAfterExact(List<Long> truth, Decoded d, int at) {
        List<Long> before = d.addresses().subList(0, at);
        List<Long> after = d.addresses().subList(at, d.addresses().size());
        assertThat(before).isNotEmpty().isEqualTo(truth.subList(0, before.size()));
        assertThat(after).isNotEmpty().isEqualTo(truth.subList(truth.size() - after.size(), truth.size()));
        return truth.size() - before.size() - after.size();
    }

    /**
     * A record flagged partial (PERF_AUX_FLAG_PARTIAL) has gaps in its data: here its first third is missing, so
     * its data starts inside the trace. The gap that names the flag comes where that record's data starts; the
     * decoder waits there for the next A-sync, and everything before the gap and from that A-sync on is exact.
     */
    @Test
    void partialRecordIsAGapWhereItsDataStartsAndTheRestIsExact() throws IOException {
        List<Long> truth = EncodedRecording.write("partial", dir).get(0).truth();

        Decoded d = decode(dir.resolve("partial.data")).get(0x10);
        assertThat(d.gaps()).hasSize(4).startsWith(NEW_BUFFER, "trace break: AUX data lost: gaps in the data (AUX record flag partial)")
                .endsWith(NEW_BUFFER);
        // the bytes before the next A-sync of that record's data: skipped, and said so
        assertThat(d.gaps().get(2)).matches("no synchronization: \\d+ bytes before an A-sync");
        assertThat(d.gapsAt().get(2)).isEqualTo(d.gapsAt().get(1));
        int missing = beforeAndAfterExact(truth, d, d.gapsAt().get(1));
        assertThat(missing).as("the missing third of a quarter, up to the next A-sync").isPositive().isLessThan(truth.size() / 4);
    }

    /** A 32-bit board's PTM trace goes the same way: ETMv3/PTM metadata, A32 and Thumb code of a Linux program. */
    @Test
    void ptmFromA32BitProgram() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("ptm", dir).get(0);
        PerfData data = PerfData.read(dir.resolve("ptm.data"));
        assertThat(data.coreSight().units()).extracting(TraceUnit::kind).containsExactly(TraceUnit.Kind.ETMV3_PTM);
        assertThat(PerfSnapshot.deviceType(data.coreSight().units().get(0))).isEqualTo("PTM1.1");

        Decoded d = decode(dir.resolve("ptm.data")).get(0x14);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER, NEW_BUFFER);
    }

    /** Layout version 2: the trace ID is not in the metadata but in the CPU's AUX_OUTPUT_HW_ID record. */
    @Test
    void traceIdFromTheHardwareIdRecord() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("v2", dir).get(0);
        PerfData data = PerfData.read(dir.resolve("v2.data"));
        assertThat(data.coreSight().version()).isEqualTo(2);
        assertThat(data.coreSight().units().get(0).traceId()).isZero();
        assertThat(data.traceUnits()).extracting(TraceUnit::traceId).containsExactly(0x1A);

        Decoded d = decode(dir.resolve("v2.data")).get(0x1A);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER);
    }

    /** One job's decode: instruction addresses, and the pid, tid and cpu its running thread gave every range. */
    record ThreadDecode(List<Long> addresses, java.util.Set<List<Long>> threads, List<String> gaps) {
    }

    /**
     * A recording made per thread: AUXTRACE buffers with cpu -1 and the thread's ID. Thread 4242 ran on CPU 0 and
     * then CPU 1, and its one buffer holds both trace IDs; thread 4344 (process 4343) ran another program at the
     * same addresses on CPU 1. Nothing in the trace says which process runs (no context IDs), so each buffer
     * decodes with its own process's code because it is the thread's: every job gives exactly the instructions
     * QEMU executed in its stretch, and every range carries the buffer's thread and the trace unit's CPU.
     */
    @Test
    void perThreadRecordingDecodesEachThreadWithItsProcessCode() throws IOException {
        List<EncodedRecording.Cpu> cpus = EncodedRecording.write("thread", dir);
        PerfData data = PerfData.read(dir.resolve("thread.data"));
        assertThat(data.auxQueues()).containsExactly(new AuxQueue(-1, EncodedRecording.PID), new AuxQueue(-1, EncodedRecording.OTHER_TID));
        assertThat(data.auxSegments(new AuxQueue(-1, EncodedRecording.PID))).extracting(AuxSegment::time).containsExactly(1000L, 1020L);

        List<String> warnings = new ArrayList<>();
        Decoder d = Decoder.openRecording(dir.resolve("thread.data"), List.of(dir.resolve("symbols")),
                DecodeOptions.builder().warnings(warnings::add).build());
        assertThat(warnings).isEmpty();
        assertThat(d.sources()).extracting(io.armtrace.api.TraceSource::label).containsExactly(
                "thread 4242 on CPU 0 (ETM4, trace ID 0x10)", "thread 4242 on CPU 1 (ETM4, trace ID 0x12)",
                "thread 4344 on CPU 1 (ETM4, trace ID 0x12)");
        List<ThreadDecode> got = new ArrayList<>();
        for (io.armtrace.api.TraceSource s : d.sources()) {
            ThreadDecode t = new ThreadDecode(new ArrayList<>(), new java.util.LinkedHashSet<>(), new ArrayList<>());
            io.armtrace.trace.RunningThread running = s.runningThread();
            s.decode(running.feed(new io.armtrace.trace.ElementSink() {
                @Override
                public void accept(io.armtrace.trace.TraceElement e) {
                    if (e instanceof InstructionRange r) {
                        for (int i = 0; i < r.count(); i++) {
                            t.addresses().add(r.addressOf(i));
                        }
                        t.threads().add(List.of(running.pid(), running.tid(), (long) running.cpu()));
                    } else if (e instanceof Gap g) {
                        t.gaps().add(g.reason());
                    } else if (e instanceof NoImage n) {
                        throw new AssertionError("no image at " + n);
                    }
                }

                @Override
                public void end() {
                }
            }));
            got.add(t);
        }
        List<Long> fast = cpus.get(0).truth();
        List<Long> slow = cpus.get(1).truth();
        assertThat(fast).as("the two programs differ").isNotEqualTo(slow);
        // thread 4242: its first half from CPU 0's trace ID, the rest from CPU 1's, nothing lost or doubled
        assertThat(got.get(0).addresses()).isNotEmpty().isEqualTo(fast.subList(0, got.get(0).addresses().size()));
        assertThat(got.get(1).addresses()).isNotEmpty()
                .isEqualTo(fast.subList(fast.size() - got.get(1).addresses().size(), fast.size()));
        assertThat(got.get(0).addresses().size() + got.get(1).addresses().size()).isEqualTo(fast.size());
        assertThat(got.get(2).addresses()).isEqualTo(slow);
        long pid = EncodedRecording.PID;
        assertThat(got.get(0).threads()).containsExactly(List.of(pid, pid, 0L));
        assertThat(got.get(1).threads()).containsExactly(List.of(pid, pid, 1L));
        assertThat(got.get(2).threads()).containsExactly(List.of((long) EncodedRecording.OTHER_PID, (long) EncodedRecording.OTHER_TID, 1L));
        assertThat(got.get(2).gaps()).containsExactly(NEW_BUFFER);

        // its snapshot: one buffer per thread, with a trace source per CPU its frames carry (OpenCSD's decode of
        // it is tools/opencsd-check/perfdata.sh's business)
        Path snap = java.nio.file.Files.createDirectories(dir.resolve("snap"));
        PerfSnapshot.Summary sum = PerfSnapshot.write(data, snap, List.of(dir.resolve("symbols")));
        assertThat(sum.cpus()).isEmpty();
        assertThat(sum.threads()).containsOnlyKeys(EncodedRecording.PID, EncodedRecording.OTHER_TID);
        assertThat(sum.threads().get(EncodedRecording.PID)).containsExactly(
                data.auxSegments(new AuxQueue(-1, EncodedRecording.PID)).stream().mapToLong(AuxSegment::size).sum(), 0x10L, 1L << 32 | 0x12);
        assertThat(java.nio.file.Files.readString(snap.resolve("trace.ini"))).contains("ETM_0_t4242=ETB_t4242", "ETM_1_t4242=ETB_t4242",
                "ETM_1_t4344=ETB_t4344");
    }

    /** {@code armtrace decode RECORDING --symdir DIR --format jsonl} lists the same instructions, one line each. */
    @Test
    void theCommandLineDecodesTheSame() throws IOException {
        EncodedRecording.Cpu c = EncodedRecording.write("kernel", dir).get(0);
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int exit = io.armtrace.cli.Main.run(new String[] {"decode", dir.resolve("kernel.data").toString(), "--symdir",
            dir.resolve("symbols").toString(), "--format", "jsonl"}, new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true));
        assertThat(exit).as(err.toString()).isZero();
        assertThat(err.toString()).isEmpty();
        List<Long> got = new ArrayList<>();
        String key = "\"addr\":\"0x";
        for (String line : out.toString().split("\n")) {
            if (line.startsWith("{\"type\":\"insn\"")) {
                int at = line.indexOf(key) + key.length();
                got.add(Long.parseUnsignedLong(line.substring(at, line.indexOf('"', at)), 16));
            }
        }
        assertThat(got).isEqualTo(c.truth());
    }

    /**
     * The writer's CoreSight frames carry every byte of the trace, whatever its length: a piece ending on an
     * odd byte of a frame, or on an even one (where the null ID's change waits for the last data byte), and
     * with every value of the even bytes' low bit.
     */
    @Test
    void framesCarryEveryByteWhateverTheLength() {
        java.util.Random r = new java.util.Random(19);
        for (int n = 1; n <= 60; n++) {
            byte[] raw = new byte[n];
            r.nextBytes(raw);
            byte[] framed = PerfDataWriter.frames(0x10, raw, 0, n);
            assertThat(framed.length).isEqualTo(16 * ((n + 13) / 14));
            Map<Integer, byte[]> out = io.armtrace.source.FrameDeformatter.demultiplex(framed);
            assertThat(out.keySet()).as("n=%d", n).containsExactly(0x10);
            assertThat(out.get(0x10)).as("n=%d", n).isEqualTo(raw);
        }
    }
}
