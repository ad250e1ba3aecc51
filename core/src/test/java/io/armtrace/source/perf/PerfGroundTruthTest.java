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
 * carrying the ETMv4/ETE encoder's trace of programs QEMU ran: decoded through {@link Decoder#openRecording}
 * with the binaries found in a symbol directory, each CPU gives exactly the instructions QEMU executed, in
 * order, for user space and kernel addresses, CoreSight-formatted (ETR) and raw (TRBE) AUX data, one CPU and
 * two, and where an AUX record says data was lost, one gap at that point and the rest exact.
 */
class PerfGroundTruthTest {
    static final int PID = 4242;
    static final String USER_PATH = "/usr/local/bin/linux-a64";
    static final String KERNEL_PATH = "/boot/a53-el1.elf";

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

    /** The user program's binary in the symbol directory under its build ID (perf's ~/.debug layout). */
    private byte[] userBinary() {
        byte[] elf = io.armtrace.groundtruth.Corpus.elfBytes("linux-a64");
        String id = java.util.HexFormat.of().formatHex(EncodedRecording.buildId(elf));
        return EncodedRecording.writeElf("linux-a64", dir.resolve("symbols/.build-id").resolve(id.substring(0, 2)).resolve(id.substring(2)));
    }

    /** The bare-metal kernel's binary in the symbol directory under its file name (it has no build ID). */
    private byte[] kernelBinary() {
        return EncodedRecording.writeElf("a53-el1", dir.resolve("symbols/a53-el1.elf"));
    }

    /** COMM, MMAP2 of each segment and ITRACE_START for the user program on {@code cpu}. */
    private static void startUser(PerfDataWriter w, byte[] elf, int cpu) {
        byte[] id = EncodedRecording.buildId(elf);
        w.comm(PID, PID, "linux-a64", true, 100, cpu);
        EncodedRecording.mapSegments(w, elf, PID, USER_PATH, id, 101, cpu);
        w.itraceStart(PID, PID, 102, cpu);
        w.buildIds(Map.of(USER_PATH, id));
    }

    /**
     * Writes {@code c}'s trace as AUX records, one per piece of {@code cuts}, each followed by the AUXTRACE
     * record of its data (perf's per-CPU AUX area read after each), with AUX offsets counting the AUX area.
     */
    private static void pieces(PerfDataWriter w, EncodedRecording.Cpu c, long[] cuts, boolean formatted, int pid) {
        long aux = 0;
        for (int i = 0; i + 1 < cuts.length; i++) {
            byte[] data = c.aux(cuts[i], cuts[i + 1], formatted);
            w.aux(aux, data.length, formatted ? 0 : PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, pid, pid, 1000 + 10 * i, c.cpu)
                    .auxtrace(aux, data, 0, c.cpu, pid, c.cpu);
            aux += data.length;
        }
    }

    @Test
    void userSpaceFormattedOneCpu() throws IOException {
        EncodedRecording.Cpu c = new EncodedRecording.Cpu(2, "linux-a64", false, 0x10);
        long[] cuts = c.cut(4);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        startUser(w, userBinary(), c.cpu);
        pieces(w, c, cuts, true, PID);
        Path rec = dir.resolve("user.data");
        w.write(rec);

        Decoded d = decode(rec).get(0x10);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).as("a reset at each new AUX buffer, nothing lost").containsExactly(NEW_BUFFER, NEW_BUFFER, NEW_BUFFER);
    }

    @Test
    void unformattedEteOneCpu() throws IOException {
        EncodedRecording.Cpu c = new EncodedRecording.Cpu(0, "linux-a64-O0", true, 0x20);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        byte[] elf = EncodedRecording.writeElf("linux-a64-O0", dir.resolve("symbols/linux-a64-O0"));
        w.comm(PID, PID, "linux-a64-O0", true, 100, 0);
        EncodedRecording.mapSegments(w, elf, PID, "/home/user/linux-a64-O0", EncodedRecording.buildId(elf), 101, 0);
        w.itraceStart(PID, PID, 102, 0);
        pieces(w, c, c.cut(3), false, PID);
        Path rec = dir.resolve("trbe.data");
        w.write(rec);

        PerfData data = PerfData.read(rec);
        assertThat(data.coreSight().units()).extracting(TraceUnit::kind).containsExactly(TraceUnit.Kind.ETE);
        assertThat(data.auxSegments(data.auxQueues().get(0))).noneMatch(AuxSegment::formatted);
        Decoded d = decode(rec).get(0x20);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER, NEW_BUFFER);
    }

    @Test
    void kernelAddressesFromAKernelMapping() throws IOException {
        EncodedRecording.Cpu c = new EncodedRecording.Cpu(1, "a53-el1", false, 0x12);
        assertThat(c.truth()).as("the fixture runs in the upper half").anyMatch(a -> a < 0);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        EncodedRecording.mapSegments(w, kernelBinary(), -1, KERNEL_PATH, null, 0, c.cpu);
        pieces(w, c, c.cut(2), true, -1);
        Path rec = dir.resolve("kernel.data");
        w.write(rec);

        Decoded d = decode(rec).get(0x12);
        assertThat(d.addresses()).hasSize(c.truth().size()).isEqualTo(c.truth());
        assertThat(d.gaps()).containsExactly(NEW_BUFFER);
    }

    /**
     * Two CPUs, each its own program and trace ID, their AUX records interleaved in time, header version 0
     * (fixed ETMv4 blocks, as perf wrote before 5.11).
     */
    @Test
    void twoCpusInterleavedVersion0Layout() throws IOException {
        EncodedRecording.Cpu user = new EncodedRecording.Cpu(0, "linux-a64", false, 0x10);
        EncodedRecording.Cpu kernel = new EncodedRecording.Cpu(3, "a53-el1", false, 0x16);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(0, false, List.of(user.block(0), kernel.block(0)));
        EncodedRecording.mapSegments(w, kernelBinary(), -1, KERNEL_PATH, null, 0, 3);
        startUser(w, userBinary(), 0);
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
        Path rec = dir.resolve("two.data");
        w.write(rec);

        assertThat(PerfData.read(rec).coreSight().version()).isZero();
        Map<Integer, Decoded> d = decode(rec);
        assertThat(d.keySet()).containsExactly(0x10, 0x16);
        assertThat(d.get(0x10).addresses()).isEqualTo(user.truth());
        assertThat(d.get(0x16).addresses()).isEqualTo(kernel.truth());
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
        EncodedRecording.Cpu c = new EncodedRecording.Cpu(1, "linux-a64", false, 0x10);
        long[] cuts = c.cut(4);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        startUser(w, userBinary(), c.cpu);
        long aux = 0;
        for (int i : new int[] {0, 2, 3}) { // piece 1 is lost
            byte[] data = c.aux(cuts[i], cuts[i + 1], true);
            w.aux(aux, data.length, i == 0 ? PerfData.AUX_FLAG_TRUNCATED : 0, PID, PID, 1000 + 10 * i, c.cpu)
                    .auxtrace(aux, data, 0, c.cpu, PID, c.cpu);
            aux += data.length;
        }
        Path rec = dir.resolve("lost.data");
        w.write(rec);

        Decoded d = decode(rec).get(0x10);
        List<Long> truth = c.truth();
        assertThat(d.gaps()).containsExactly("trace break: AUX data lost: buffer full (AUX record flag truncated)", NEW_BUFFER);
        int at = d.gapsAt().get(0);
        List<Long> before = d.addresses().subList(0, at);
        List<Long> after = d.addresses().subList(at, d.addresses().size());
        assertThat(before).isNotEmpty().isEqualTo(truth.subList(0, before.size()));
        assertThat(after).isNotEmpty().isEqualTo(truth.subList(truth.size() - after.size(), truth.size()));
        // what is missing is the stretch of the lost piece, not less and not the whole rest
        int missing = truth.size() - before.size() - after.size();
        assertThat(missing).isGreaterThan(truth.size() / 8).isLessThan(truth.size() / 2);
    }
}
