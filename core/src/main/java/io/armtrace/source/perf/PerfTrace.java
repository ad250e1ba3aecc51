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
 *
 * <p>A recording made per thread ({@code perf record --per-thread}: AUXTRACE buffers with cpu -1 and the
 * thread's ID) has one AUX stream per thread, which holds the trace of every CPU the thread ran on, each
 * under its trace unit's ID (perf gives the decoder of such a queue the parameters of every CPU's trace
 * unit and tells the trace IDs apart, tools/perf/util/cs-etm.c). It becomes one job per thread and trace
 * unit whose ID the thread's frames carry, reading the thread's process's code, with the thread's pid and
 * tid on every line.
 */
public final class PerfTrace {
    /** One CPU's trace: what its decoder reads. */
    public record Cpu(int cpu, TraceUnit unit, String deviceType, Registers registers, TraceSegments segments,
                      TraceData data, int tid) {
        /**
         * How listings name it: "CPU 2 (ETM4, trace ID 0x12)"; in a per-thread recording "thread 4243 on CPU 2
         * (ETM4, trace ID 0x12)".
         */
        public String label() {
            return (tid >= 0 ? "thread " + tid + " on " : "") + "CPU " + cpu + " (" + deviceType + ", trace ID "
                    + String.format("0x%02x", unit.traceId()) + ")";
        }

        /** The AUX stream it reads: the CPU's, or in a per-thread recording the thread's. */
        public AuxQueue queue() {
            return tid >= 0 ? new AuxQueue(-1, tid) : new AuxQueue(cpu, -1);
        }
    }

    private final List<Cpu> cpus;
    private final MemoryImage memory;
    private final List<String> missing;
    private final PerfData data;
    private final Map<AuxQueue, List<AuxSegment>> segments;
    private final List<PerfSnapshot.Placed> placed;

    private PerfTrace(List<Cpu> cpus, MemoryImage memory, List<String> missing, PerfData data,
                      Map<AuxQueue, List<AuxSegment>> segments, List<PerfSnapshot.Placed> placed) {
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
        return new ThreadTimeline(data, cpu.cpu(), cpu.unit(), segments.get(cpu.queue()), cpu.tid());
    }

    /** The CPUs with AUX data, in CPU order (in a per-thread recording: per thread, the CPUs of its trace). */
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
     * which process runs, and every mapping serves every context ({@link #memory()}). In a per-thread
     * recording the trace is the thread's: the kernel's mappings and its process's serve every context.
     */
    public io.armtrace.image.CodeMemory code(Cpu cpu) {
        boolean ofThread = cpu.tid() >= 0;
        if (!ofThread && !ThreadTimeline.tracesContextId(cpu.unit())) {
            return null;
        }
        List<AuxSegment> segs = segments.get(cpu.queue());
        int threadPid = ofThread ? ThreadTimeline.processes(data).getOrDefault(cpu.tid(), cpu.tid()) : -1;
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
            if (m.pid() == -1 || m.kernel() || ofThread && m.pid() == threadPid) {
                code.map(io.armtrace.image.AddressSpace.ANY, o[0], mem);
                continue;
            }
            if (ofThread) {
                continue; // another process's
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
        for (TraceUnit u : data.traceUnits()) { // (trace IDs from AUX_OUTPUT_HW_ID where the metadata has none)
            units.putIfAbsent(u.cpu(), u);
        }
        List<Cpu> cpus = new ArrayList<>();
        Map<AuxQueue, List<AuxSegment>> segments = new java.util.HashMap<>();
        for (AuxQueue q : data.auxQueues()) {
            List<AuxSegment> segs = data.auxSegments(q);
            if (q.perThread()) {
                if (!segs.isEmpty()) {
                    for (TraceUnit u : unitsOfThread(data, q, segs, units)) {
                        cpus.add(cpu(data, q, u, segs));
                    }
                    segments.put(q, segs);
                }
                continue;
            }
            TraceUnit u = units.get(q.cpu());
            if (u == null || segs.isEmpty()) {
                continue;
            }
            cpus.add(cpu(data, q, u, segs));
            segments.put(q, segs);
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

    /**
     * The trace units whose trace a thread's AUX stream holds: with one unit, that one; else those whose trace
     * ID its CoreSight frames carry (read once here). Raw trace (TRBE) carries no ID: with more than one unit
     * nothing says whose it is, which is one sentence.
     */
    static List<TraceUnit> unitsOfThread(PerfData data, AuxQueue q, List<AuxSegment> segs, Map<Integer, TraceUnit> units) {
        if (units.size() == 1) {
            return List.copyOf(units.values());
        }
        java.util.Set<Integer> ids = new java.util.TreeSet<>();
        for (AuxSegment s : segs) {
            if (!s.formatted()) {
                throw new InputException(data.file() + ": the AUX data of " + q + " is raw trace (TRBE) and AUXTRACE_INFO describes "
                        + units.size() + " trace units, so which CPU's trace it is cannot be told.");
            }
            try (java.io.InputStream in = data.openAux(s)) {
                ids.addAll(io.armtrace.source.FrameDeformatter.bytesPerSource(in, false).keySet());
            } catch (java.io.IOException e) {
                throw new InputException(data.file() + ": cannot read the AUX data of " + q + " (" + e.getMessage() + ").", e);
            }
        }
        List<TraceUnit> out = new ArrayList<>();
        for (TraceUnit u : units.values()) {
            if (ids.contains(u.traceId())) {
                out.add(u);
            }
        }
        out.sort(java.util.Comparator.comparingInt(TraceUnit::cpu));
        return out;
    }

    private static Cpu cpu(PerfData data, AuxQueue q, TraceUnit u, List<AuxSegment> segs) {
        Registers regs = new Registers();
        for (Map.Entry<String, Long> r : u.registers().entrySet()) {
            if (PerfSnapshot.NUMBERS.containsKey(r.getKey())) { // (TS_SOURCE and later parameters are perf's, not registers)
                regs.put(r.getKey(), r.getValue());
            }
        }
        List<AuxLoss> losses = data.auxLosses(q);
        String where = q.perThread() ? "thread " + q.tid() + " CPU " + u.cpu() : "CPU " + q.cpu();
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
            TraceData d = TraceData.stored(data.file() + " " + where + " AUX bytes " + s.streamOffset() + "+" + s.size(),
                    s.size(), () -> data.openAux(s), s.formatted() ? Integer.valueOf(u.traceId()) : null);
            parts.add(d);
            list.add(new TraceSegments.Segment(d, s.streamOffset(), why.length() == 0 ? null : why.toString()));
        }
        return new Cpu(u.cpu(), u, PerfSnapshot.deviceType(u), regs, TraceSegments.of(list),
                TraceData.concat(data.file() + " " + where, parts), q.perThread() ? q.tid() : -1);
    }
}
