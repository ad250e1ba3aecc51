package io.armtrace.source.perf;

import io.armtrace.image.MemoryImage;
import io.armtrace.source.InputException;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.source.TraceSegments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A perf.data recording as decode jobs: per CPU with AUX data, its trace unit's device type and registers
 * (those an OpenCSD snapshot of the recording would give it, see {@link PerfSnapshot}), and its AUX data as
 * {@link TraceSegments}, one segment per AUX fragment, each after a break (a new AUX buffer, or the loss the
 * recording reports there); and the code of the mapped binaries found, placed as the snapshot places them.
 * A segment's offset counts the queue's AUX bytes before it as they lie in the file.
 */
public final class PerfTrace {
    /** One CPU's trace: what its decoder reads. */
    public record Cpu(int cpu, TraceUnit unit, String deviceType, Registers registers, TraceSegments segments,
                      TraceData data) {
        /** How listings name it: "CPU 2 (ETM4, trace ID 0x12)". */
        public String label() {
            return "CPU " + cpu + " (" + deviceType + ", trace ID " + String.format("0x%02x", unit.traceId()) + ")";
        }
    }

    private final List<Cpu> cpus;
    private final MemoryImage memory;
    private final List<String> missing;
    private final PerfData data;
    private final Map<Integer, List<AuxSegment>> segments;
    private final List<PerfSnapshot.Placed> placed;

    private PerfTrace(List<Cpu> cpus, MemoryImage memory, List<String> missing, PerfData data,
                      Map<Integer, List<AuxSegment>> segments, List<PerfSnapshot.Placed> placed) {
        this.placed = placed;
        this.cpus = List.copyOf(cpus);
        this.memory = memory;
        this.missing = List.copyOf(missing);
        this.data = data;
        this.segments = segments;
    }

    /**
     * A new follower of which process and thread ran {@code cpu}'s trace and when, for one decode of it (see
     * {@link ThreadTimeline}).
     */
    public ThreadTimeline threads(Cpu cpu) {
        return new ThreadTimeline(data, cpu.cpu(), cpu.unit(), segments.get(cpu.cpu()));
    }

    /** The CPUs with AUX data, in CPU order. */
    public List<Cpu> cpus() {
        return cpus;
    }

    /** The code of every mapped binary found, at its mapped addresses. */
    public MemoryImage memory() {
        return memory;
    }

    private String kernelMissing;

    /**
     * The kernel's own mapping ({@code [kernel.kallsyms]_text}) when the recording has one and no kernel image
     * was given for it, else null.
     */
    public String kernelMissing() {
        return kernelMissing;
    }

    /** The recorded paths of executable mappings with no file found, each once. */
    public List<String> missing() {
        return missing;
    }

    /**
     * The code {@code cpu}'s trace runs, per process and over time, for a trace unit that traces the context ID
     * (which the kernel sets to the running thread's ID): the kernel's mappings (pid -1) serve every context
     * from the start; a process's mappings serve the context of each of its threads (as the FORK, COMM,
     * SWITCH and ITRACE_START records name them, and the process ID itself) from the first AUX fragment that
     * perf wrote at or after the mapping's time (the synthesized mappings of the recording's start: from
     * the start). Null when the trace unit does not trace the context ID: then nothing in the trace says
     * which process runs, and every mapping serves every context ({@link #memory()}).
     */
    public io.armtrace.image.CodeMemory code(Cpu cpu) {
        if (!ThreadTimeline.tracesContextId(cpu.unit())) {
            return null;
        }
        List<AuxSegment> segs = segments.get(cpu.cpu());
        Map<Integer, java.util.Set<Integer>> tids = new java.util.HashMap<>();
        for (Map.Entry<Integer, Integer> e : ThreadTimeline.processes(data).entrySet()) {
            tids.computeIfAbsent(e.getValue(), k -> new java.util.TreeSet<>()).add(e.getKey());
        }
        Map<String, MemoryImage> placedCode = new java.util.HashMap<>();
        for (PerfSnapshot.Placed p : placed) {
            placedCode.put(p.mapping().path() + "@" + Long.toHexString(p.mapping().start()), p.memory());
        }
        List<long[]> order = new ArrayList<>(); // {position, index of the mapping}
        List<Mapping> all = data.mappings().all();
        for (int i = 0; i < all.size(); i++) {
            Mapping m = all.get(i);
            if (!m.executable() || !placedCode.containsKey(m.path() + "@" + Long.toHexString(m.start()))) {
                continue;
            }
            long from = 0;
            if (m.time() > 0 && m.pid() != -1) {
                from = -1;
                for (AuxSegment s : segs) {
                    if (s.time() >= m.time()) {
                        from = s.streamOffset();
                        break;
                    }
                }
                if (from < 0) {
                    continue; // mapped after the last of this CPU's trace
                }
            }
            order.add(new long[] {from, i});
        }
        order.sort((a, b) -> Long.compare(a[0], b[0]));
        io.armtrace.image.MappedCodeMemory code = new io.armtrace.image.MappedCodeMemory();
        for (long[] o : order) {
            Mapping m = all.get((int) o[1]);
            MemoryImage mem = placedCode.get(m.path() + "@" + Long.toHexString(m.start()));
            if (m.pid() == -1 || m.kernel()) {
                code.map(io.armtrace.image.AddressSpace.ANY, o[0], mem);
                continue;
            }
            java.util.Set<Integer> threads = new java.util.TreeSet<>(tids.getOrDefault(m.pid(), java.util.Set.of()));
            threads.add(m.pid());
            for (int tid : threads) {
                if (tid >= 0) {
                    code.map(io.armtrace.image.AddressSpace.ANY.withContextId(tid), o[0], mem);
                }
            }
        }
        return code;
    }

    /** The decode jobs of {@code data}, with mapped binaries looked up in {@code symdirs} (then at their recorded paths). */
    public static PerfTrace open(PerfData data, List<Path> symdirs) {
        return open(data, symdirs, null);
    }

    /**
     * As {@link #open(PerfData, List)}, with {@code vmlinux} (the kernel's ELF file, or null) giving the code
     * of the kernel's own mapping.
     */
    public static PerfTrace open(PerfData data, List<Path> symdirs, Path vmlinux) {
        CoreSightInfo info = data.coreSight();
        if (info == null) {
            throw new InputException(data.file() + ": has no CoreSight trace (no AUXTRACE_INFO record of type CS_ETM), so there is nothing to decode.");
        }
        Map<Integer, TraceUnit> units = new LinkedHashMap<>();
        for (TraceUnit u : info.units()) {
            units.putIfAbsent(u.cpu(), u);
        }
        List<Cpu> cpus = new ArrayList<>();
        Map<Integer, List<AuxSegment>> segments = new java.util.HashMap<>();
        for (AuxQueue q : data.auxQueues()) {
            if (q.perThread()) {
                throw new InputException(data.file() + ": was recorded per thread (perf record --per-thread); decoding such a recording "
                        + "is not supported, only per-CPU recordings.");
            }
            TraceUnit u = units.get(q.cpu());
            List<AuxSegment> segs = data.auxSegments(q);
            if (u == null || segs.isEmpty()) {
                continue;
            }
            cpus.add(cpu(data, q, u, segs));
            segments.put(q.cpu(), segs);
        }
        if (cpus.isEmpty()) {
            throw new InputException(data.file() + ": holds no AUX trace data of a CPU that AUXTRACE_INFO describes, so there is nothing to decode.");
        }
        PerfSnapshot.Code code = PerfSnapshot.code(data, symdirs, vmlinux);
        MemoryImage memory = new MemoryImage();
        for (PerfSnapshot.Placed p : code.placed()) {
            for (MemoryImage.Region r : p.memory().regions()) {
                memory.add(r.start(), r.bytes(), r.name());
            }
        }
        PerfTrace t = new PerfTrace(cpus, memory, new ArrayList<>(new LinkedHashSet<>(code.missing())), data, segments, code.placed());
        t.kernelMissing = code.kernelMissing();
        return t;
    }

    private static Cpu cpu(PerfData data, AuxQueue q, TraceUnit u, List<AuxSegment> segs) {
        Registers regs = new Registers();
        for (Map.Entry<String, Long> r : u.registers().entrySet()) {
            if (PerfSnapshot.NUMBERS.containsKey(r.getKey())) { // (TS_SOURCE and later parameters are perf's, not registers)
                regs.put(r.getKey(), r.getValue());
            }
        }
        List<AuxLoss> losses = data.auxLosses(q);
        List<TraceData> parts = new ArrayList<>();
        List<TraceSegments.Segment> list = new ArrayList<>();
        int l = 0;
        for (int i = 0; i < segs.size(); i++) {
            AuxSegment s = segs.get(i);
            StringBuilder why = new StringBuilder();
            while (l < losses.size() && losses.get(l).streamOffset() <= s.streamOffset()) {
                String w = "AUX data lost: " + losses.get(l).reason().words();
                if (why.indexOf(w) < 0) {
                    why.append(why.length() == 0 ? "" : "; ").append(w);
                }
                l++;
            }
            if (why.length() == 0 && i > 0) {
                why.append("new AUX buffer");
            }
            TraceData d = TraceData.stored(data.file() + " CPU " + q.cpu() + " AUX bytes " + s.streamOffset() + "+" + s.size(),
                    s.size(), () -> data.openAux(s), s.formatted() ? Integer.valueOf(u.traceId()) : null);
            parts.add(d);
            list.add(new TraceSegments.Segment(d, s.streamOffset(), why.length() == 0 ? null : why.toString()));
        }
        return new Cpu(q.cpu(), u, PerfSnapshot.deviceType(u), regs, TraceSegments.of(list),
                TraceData.concat(data.file() + " CPU " + q.cpu(), parts));
    }
}
