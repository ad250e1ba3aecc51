package io.armtrace.source.perf;

import io.armtrace.image.ElfImage;
import io.armtrace.image.ImageException;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A perf.data recording as an OpenCSD snapshot directory, so that OpenCSD's tools (and armtrace's snapshot
 * reader) decode the same trace: per CPU that has AUX data, a core device, a trace source device with the
 * registers AUXTRACE_INFO recorded (under the names OpenCSD's snapshot reader looks up, with their register
 * numbers as its own test snapshots write them), and a trace buffer holding the CPU's AUX data (its
 * segments one after the other, CoreSight frames or the trace unit's raw bytes as recorded). The memory
 * dumps are the executable mappings of the recording whose files are found: each ELF file's code placed
 * where it was mapped (a kernel module's sections where the kernel's module loader puts them from the
 * mapped base).
 */
public final class PerfSnapshot {
    /**
     * What a conversion wrote: per CPU the trace ID and AUX bytes; per thread of a per-thread recording the AUX
     * bytes and the trace IDs of the CPUs its buffer holds; and the files that gave memory dumps.
     */
    public record Summary(Map<Integer, long[]> cpus, Map<Integer, long[]> threads, List<String> dumps, List<String> missing) {
    }

    private PerfSnapshot() {
    }

    /**
     * The file of a mapping: in one of {@code symdirs}, the build ID's file in perf's {@code .build-id/xx/rest}
     * layout ({@code ~/.debug}), the recorded path below the directory (simpleperf's {@code binary_cache}), or a
     * file of that base name; else {@code path} itself where it exists.
     */
    static Path find(Mapping m, List<Path> symdirs) {
        String path = m.path();
        if (path == null || path.isEmpty() || path.startsWith("[")) {
            return null;
        }
        String base = path.substring(path.lastIndexOf('/') + 1);
        for (Path dir : symdirs) {
            if (m.buildId() != null && m.buildId().length() > 2) {
                Path byId = dir.resolve(".build-id").resolve(m.buildId().substring(0, 2)).resolve(m.buildId().substring(2));
                if (Files.isRegularFile(byId)) {
                    return byId;
                }
            }
            // simpleperf's binary_cache: the recorded path below the directory (binary_cache_builder.py copies
            // /data/local/tmp/prog to binary_cache/data/local/tmp/prog); a path that climbs out of it is not looked at
            if (path.startsWith("/") && path.length() > 1) {
                try {
                    Path mirrored = dir.resolve(path.substring(1)).normalize();
                    if (mirrored.startsWith(dir.normalize()) && Files.isRegularFile(mirrored)) {
                        return mirrored;
                    }
                } catch (java.nio.file.InvalidPathException e) {
                    // a name this file system cannot hold: not there
                }
            }
            if (!base.isEmpty()) {
                Path p = dir.resolve(base);
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        }
        Path recorded = Path.of(path);
        return Files.isRegularFile(recorded) ? recorded : null;
    }

    /** The code of a mapped ELF file at the addresses it was mapped to. */
    static MemoryImage place(Mapping m, Path file) {
        byte[] bytes = ElfImage.fileBytes(file);
        ElfImage.Description d = ElfImage.describe(ByteBuffer.wrap(bytes), file.toString());
        if (d.isRelocatable()) {
            Map<String, Long> layout = ElfImage.linuxModuleLayout(ByteBuffer.wrap(bytes), file.toString(), m.start());
            return ElfImage.loadRelocatable(ByteBuffer.wrap(bytes), file.toString(), layout).memory();
        }
        ProgramImage img = ElfImage.load(bytes, file.toString());
        long bias = 0;
        if (d.type() == 3) {
            // a shared object or PIE: the load segment that holds file offset pgoff is at the mapped start
            for (ElfImage.Segment s : d.segments()) {
                if (s.isLoad() && Long.compareUnsigned(m.pgoff() - s.offset(), s.fileSize()) < 0) {
                    bias = m.start() - (s.vaddr() + (m.pgoff() - s.offset()));
                    break;
                }
            }
        }
        MemoryImage out = new MemoryImage();
        for (MemoryImage.Region r : img.memory().regions()) {
            out.add(r.start() + bias, r.bytes(), r.name());
        }
        return out;
    }

    /** An executable mapping whose file was found, and that file's code where it was mapped. */
    record Placed(Mapping mapping, Path file, MemoryImage memory) {
    }

    /** The code of a recording: the mappings placed, and the recorded paths of those with no file found. */
    record Code(List<Placed> placed, List<String> missing, String kernelMissing) {
        Code(List<Placed> placed, List<String> missing) {
            this(placed, missing, null);
        }
    }

    /** The kernel's own mapping, which perf names {@code [kernel.kallsyms]_text} (simpleperf: {@code _stext}). */
    static boolean isKernelImage(Mapping m) {
        return m.path() != null && m.path().startsWith("[kernel.kallsyms]");
    }

    /**
     * The kernel's ELF file (vmlinux) placed where the recording says the kernel ran: moved by the difference
     * between the mapping's start and the address the file gives the symbol the mapping is named after
     * ({@code _text}, {@code _stext}), which is the kernel's address space layout randomisation; unmoved
     * when the file lacks that symbol.
     */
    static MemoryImage placeKernel(Mapping m, Path vmlinux) {
        ProgramImage img = ElfImage.load(vmlinux);
        String name = m.path().substring("[kernel.kallsyms]".length());
        io.armtrace.image.Symbol anchor = name.isEmpty() ? null : img.symbols().find(name);
        long bias = anchor == null ? 0 : m.start() - anchor.address();
        MemoryImage out = new MemoryImage();
        for (MemoryImage.Region r : img.memory().regions()) {
            out.add(r.start() + bias, r.bytes(), r.name());
        }
        return out;
    }

    /**
     * The executable mappings of {@code data} (each path and start once) whose files are found in
     * {@code symdirs} or at the recorded path, placed where they were mapped; the others' paths (up to
     * 10000) as missing.
     */
    static Code code(PerfData data, List<Path> symdirs) {
        return code(data, symdirs, null);
    }

    /** As {@link #code(PerfData, List)}, with the kernel's ELF file {@code vmlinux} (or null) for the kernel's mapping. */
    static Code code(PerfData data, List<Path> symdirs, Path vmlinux) {
        List<Placed> placed = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        String kernelMissing = null;
        Map<String, Boolean> seen = new LinkedHashMap<>();
        java.util.Set<String> placedAt = new java.util.HashSet<>();
        for (Mapping m : data.mappings().all()) {
            if (!m.executable() || seen.putIfAbsent(m.path() + "@" + Long.toHexString(m.start()), true) != null) {
                continue;
            }
            if (isKernelImage(m)) {
                if (vmlinux != null) {
                    placed.add(new Placed(m, vmlinux, placeKernel(m, vmlinux)));
                } else if (kernelMissing == null) {
                    kernelMissing = m.path();
                }
                continue;
            }
            Path file = find(m, symdirs);
            if (file == null) {
                if (m.path() != null && !m.path().startsWith("[") && missing.size() < 10_000) {
                    missing.add(m.path());
                }
                continue;
            }
            try {
                MemoryImage memory = place(m, file);
                // a file mapped in several segments is placed whole once: the same code twice would give overlapping dumps
                StringBuilder where = new StringBuilder(file.toAbsolutePath().toString());
                for (MemoryImage.Region r : memory.regions()) {
                    where.append(' ').append(Long.toHexString(r.start())).append('+').append(r.size());
                }
                if (placedAt.add(where.toString())) {
                    placed.add(new Placed(m, file, memory));
                }
            } catch (ImageException | InputException e) {
                missing.add(m.path());
            }
        }
        return new Code(placed, missing, kernelMissing);
    }

    /** The device type OpenCSD's snapshot reader gives a trace unit of this kind. */
    static String deviceType(TraceUnit u) {
        return switch (u.kind()) {
            case ETMV4 -> "ETM4";
            case ETE -> "ETE";
            // ETMIDR[11:8], the major architecture version: 3 for PFT (PTM), 2 for ETMv3
            case ETMV3_PTM -> ((u.registers().getOrDefault("ETMIDR", 0L) >> 8) & 0xF) == 3 ? "PTM1.1" : "ETM3.5";
        };
    }

    /** Register names with the numbers (word offsets in the trace unit's register file) OpenCSD's snapshots give them. */
    static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("TRCCONFIGR", 0x004), Map.entry("TRCTRACEIDR", 0x010), Map.entry("TRCAUTHSTATUS", 0x3EE),
            Map.entry("TRCDEVARCH", 0x3EF), Map.entry("TRCIDR0", 0x078), Map.entry("TRCIDR1", 0x079),
            Map.entry("TRCIDR2", 0x07A), Map.entry("TRCIDR8", 0x060),
            Map.entry("ETMCR", 0x000), Map.entry("ETMIDR", 0x079), Map.entry("ETMCCER", 0x07A),
            Map.entry("ETMTRACEIDR", 0x080));

    /**
     * Writes the snapshot of {@code data} into {@code dir} (which exists and is empty). {@code symdirs} are
     * searched for the mapped files.
     */
    public static Summary write(PerfData data, Path dir, List<Path> symdirs) throws IOException {
        CoreSightInfo info = data.coreSight();
        if (info == null) {
            throw new InputException(data.file() + ": has no CoreSight trace (no AUXTRACE_INFO record of type CS_ETM), so there is no snapshot to write.");
        }
        Map<Integer, TraceUnit> units = new LinkedHashMap<>();
        for (TraceUnit u : data.traceUnits()) { // (trace IDs from AUX_OUTPUT_HW_ID where the metadata has none)
            units.putIfAbsent(u.cpu(), u);
        }
        List<AuxQueue> queues = new ArrayList<>();
        for (AuxQueue q : data.auxQueues()) {
            if (!data.auxSegments(q).isEmpty() && (q.perThread() || units.containsKey(q.cpu()))) {
                queues.add(q);
            }
        }
        if (queues.isEmpty()) {
            throw new InputException(data.file() + ": holds no AUX trace data of a CPU that AUXTRACE_INFO describes, so there is no snapshot to write.");
        }

        // memory dumps: the executable mappings whose files are found, one dump file per region (with the
        // process of each, for the cores of a per-thread buffer, which read their process's code only)
        StringBuilder dumps = new StringBuilder();
        List<Integer> dumpPids = new ArrayList<>();
        List<String> dumpTexts = new ArrayList<>();
        List<String> dumped = new ArrayList<>();
        Code code = code(data, symdirs);
        List<String> missing = code.missing();
        int n = 0;
        for (Placed p : code.placed()) {
            Mapping m = p.mapping();
            dumped.add(p.file().toString());
            for (MemoryImage.Region r : p.memory().regions()) {
                String name = String.format("mem_%d_0x%016x.bin", n++, r.start());
                try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
                    ByteBuffer b = r.bytes().duplicate();
                    byte[] chunk = new byte[1 << 16];
                    while (b.hasRemaining()) {
                        int k = Math.min(chunk.length, b.remaining());
                        b.get(chunk, 0, k);
                        out.write(chunk, 0, k);
                    }
                }
                String text = "[dump" + n + "]\n; " + m.path() + "\nfile=" + name
                        + String.format("%naddress=0x%016x%nlength=0x%x%n%n", r.start(), r.size());
                dumps.append(text);
                dumpTexts.add(text);
                dumpPids.add(m.kernel() ? -1 : m.pid());
            }
        }

        Map<Integer, long[]> cpus = new LinkedHashMap<>();
        Map<Integer, long[]> threads = new LinkedHashMap<>();
        Map<Integer, Integer> pidOfTid = ThreadTimeline.processes(data);
        StringBuilder deviceList = new StringBuilder("[snapshot]\nversion=1.0\n\n[device_list]\n");
        StringBuilder buffers = new StringBuilder();
        StringBuilder bufferList = new StringBuilder();
        StringBuilder sourceBuffers = new StringBuilder("[source_buffers]\n");
        StringBuilder coreSources = new StringBuilder("[core_trace_sources]\n");
        int device = 0;
        for (AuxQueue q : queues) {
            // a CPU's buffer has its trace unit; a thread's (per-thread recording) one device pair per CPU
            // whose trace ID its frames carry, named after the thread, whose cores read its process's code
            List<TraceUnit> bufferUnits = q.perThread() ? PerfTrace.unitsOfThread(data, q, data.auxSegments(q), units)
                    : List.of(units.get(q.cpu()));
            if (bufferUnits.isEmpty()) {
                continue;
            }
            String buffer = q.perThread() ? "ETB_t" + q.tid() : "ETB_" + q.cpu();
            String traceFile = q.perThread() ? "trace_thread" + q.tid() + ".bin" : "trace_cpu" + q.cpu() + ".bin";
            String coreDumps = dumps.toString();
            if (q.perThread()) {
                int pid = pidOfTid.getOrDefault(q.tid(), q.tid());
                StringBuilder own = new StringBuilder();
                for (int i = 0; i < dumpTexts.size(); i++) {
                    if (dumpPids.get(i) == -1 || dumpPids.get(i) == pid) {
                        own.append(dumpTexts.get(i));
                    }
                }
                coreDumps = own.toString();
            }
            long bytes = 0;
            boolean formatted = true;
            try (OutputStream out = Files.newOutputStream(dir.resolve(traceFile))) {
                byte[] chunk = new byte[1 << 16];
                for (AuxSegment s : data.auxSegments(q)) {
                    formatted = s.formatted();
                    try (InputStream in = data.openAux(s)) {
                        int k;
                        while ((k = in.read(chunk)) > 0) {
                            out.write(chunk, 0, k);
                            bytes += k;
                        }
                    }
                }
            }
            if (q.perThread()) {
                long[] t = new long[1 + bufferUnits.size()];
                t[0] = bytes;
                for (int i = 0; i < bufferUnits.size(); i++) {
                    t[1 + i] = (long) bufferUnits.get(i).cpu() << 32 | bufferUnits.get(i).traceId();
                }
                threads.put(q.tid(), t);
            } else {
                cpus.put(q.cpu(), new long[] {bufferUnits.get(0).traceId(), bytes});
            }
            String section = q.perThread() ? "buffer_t" + q.tid() : "buffer" + q.cpu();
            bufferList.append(bufferList.length() == 0 ? "" : ",").append(section);
            buffers.append("[").append(section).append("]\nname=").append(buffer).append("\nfile=").append(traceFile)
                    .append("\nformat=").append(formatted ? "coresight" : "source_data").append("\n\n");
            for (TraceUnit u : bufferUnits) {
                int cpu = u.cpu();
                String suffix = q.perThread() ? cpu + "_t" + q.tid() : Integer.toString(cpu);
                String core = "cpu_" + suffix;
                String source = "ETM_" + suffix;
                // the core's type: the recording names no core model, only the architecture its trace unit implies
                String arch = u.kind() == TraceUnit.Kind.ETMV3_PTM ? "ARMv7-A" : "ARMv8-A";
                write(dir.resolve(core + ".ini"), "[device]\nname=" + core + "\nclass=core\ntype=" + arch + "\n\n[regs]\n\n" + coreDumps);
                StringBuilder src = new StringBuilder("[device]\nname=" + source + "\nclass=trace_source\ntype=" + deviceType(u)
                        + "\n\n[regs]\n");
                for (Map.Entry<String, Long> r : u.registers().entrySet()) {
                    Integer number = NUMBERS.get(r.getKey());
                    if (number != null) { // (TS_SOURCE and later parameters are perf's, not registers)
                        src.append(r.getKey()).append(String.format("(0x%03X)=0x%08X%n", number, r.getValue()));
                    }
                }
                write(dir.resolve(source + ".ini"), src.toString());
                deviceList.append("device").append(device++).append('=').append(core).append(".ini\n");
                deviceList.append("device").append(device++).append('=').append(source).append(".ini\n");
                sourceBuffers.append(source).append('=').append(buffer).append('\n');
                coreSources.append(core).append('=').append(source).append('\n');
            }
        }
        if (cpus.isEmpty() && threads.isEmpty()) { // threads' buffers whose frames carry no described trace ID
            throw new InputException(data.file() + ": holds no AUX trace data of a CPU that AUXTRACE_INFO describes, so there is no snapshot to write.");
        }
        write(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=" + bufferList + "\n\n" + buffers + sourceBuffers + "\n" + coreSources);
        write(dir.resolve("snapshot.ini"), deviceList + "\n[trace]\nmetadata=trace.ini\n");
        return new Summary(cpus, threads, dumped, missing);
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
