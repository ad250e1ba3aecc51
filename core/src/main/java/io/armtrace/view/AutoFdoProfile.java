package io.armtrace.view;

import io.armtrace.image.ElfImage;
import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The profile that AutoFDO's {@code create_llvm_prof --profiler text} reads, counted from the element
 * stream: per binary, how often each straight-line run of instructions executed, and how often each
 * taken branch went from its source to its target.
 *
 * <p>A run is what a last-branch record describes: from the target of one taken branch (or the first
 * instruction after a break in the flow) up to the next instruction that changes the flow, whatever
 * conditional branches it fell through on the way. A run is written as its first and last instruction's
 * addresses ({@code create_llvm_prof} counts the run's size as {@code last - first + 1} bytes). Runs
 * are joined across the decoder's ranges, so the profile does not depend on where a protocol happens
 * to split ranges (an ETMv4 not-taken atom, an MTB buffer that records taken branches only). A branch
 * is counted only when the decoder saw both its source and the first instruction at its target with
 * nothing between but, at most, the return from an exception (no exception, gap, trace restart or context
 * change).
 *
 * <p>Addresses are written as offsets from the binary's first loadable segment, which is how AutoFDO
 * turns them back into the binary's own virtual addresses. Address counts (sampled program counters)
 * are a section of the format that program-flow trace has nothing for: it is written empty.
 *
 * <p>Several streams (cores, captures, recordings) add into one profile: {@link #stream} gives each its
 * own sink.
 */
public final class AutoFdoProfile {
    /** A program file: its path as the user named it, its build ID (hex) or null, and where its first load segment is. */
    public record Binary(String path, String buildId, long base) {
        String key() {
            return buildId != null ? "id:" + buildId : "path:" + path;
        }
    }

    /** A run of instructions from {@code first} to {@code last} (both instruction addresses). */
    public record Run(long first, long last) {
    }

    /** A taken branch from the instruction at {@code from} to the one at {@code to}. */
    public record Branch(long from, long to) {
    }

    /** The counts of one binary, in its absolute addresses. */
    public static final class Counts {
        private final Binary binary;
        private final PairCounts runs = new PairCounts();
        private final PairCounts branches = new PairCounts();

        Counts(Binary binary) {
            this.binary = binary;
        }

        public Binary binary() {
            return binary;
        }

        /** Runs and how often each executed, ordered by address. */
        public Map<Run, Long> runs() {
            Map<Run, Long> out = new TreeMap<>((a, b) -> a.first != b.first ? Long.compareUnsigned(a.first, b.first)
                    : Long.compareUnsigned(a.last, b.last));
            runs.forEach((first, last, n) -> out.put(new Run(first, last), n));
            return out;
        }

        /** Taken branches and how often each was taken, ordered by address. */
        public Map<Branch, Long> branches() {
            Map<Branch, Long> out = new TreeMap<>((a, b) -> a.from != b.from ? Long.compareUnsigned(a.from, b.from)
                    : Long.compareUnsigned(a.to, b.to));
            branches.forEach((from, to, n) -> out.put(new Branch(from, to), n));
            return out;
        }

    }

    private final Map<String, Counts> counts = new LinkedHashMap<>();
    private final Predicate<String> wanted;

    /** A profile of the binaries whose path {@code wanted} accepts. */
    public AutoFdoProfile(Predicate<String> wanted) {
        this.wanted = wanted;
    }

    public AutoFdoProfile() {
        this(p -> true);
    }

    /** The binaries that have counts, ordered by path. */
    public List<Counts> binaries() {
        List<Counts> out = new ArrayList<>();
        for (Counts c : counts.values()) {
            if (!c.runs.isEmpty() || !c.branches.isEmpty()) {
                out.add(c);
            }
        }
        out.sort((a, b) -> a.binary.path.compareTo(b.binary.path));
        return out;
    }

    /**
     * A sink for one element stream whose code lies in {@code memory}: each region of it belongs to the
     * file it was loaded from (see {@link #binaryOf}).
     */
    public ElementSink stream(MemoryImage memory) {
        return new Stream(memory, null);
    }

    /**
     * A sink for one element stream whose code lies in {@code code}, per address space: a range belongs to the
     * binary that the space of the last context element (its context ID, the thread where perf recorded) maps
     * at its address, so that two processes with different programs at one address each count in their own
     * program. Where the trace has said no context yet, or the space maps nothing at an address, every space's
     * code together ({@code memory}) answers. The latest
     * mappings of a space are used (a process that maps another binary over one it ran is not told apart).
     */
    public ElementSink stream(MemoryImage memory, io.armtrace.image.CodeMemory code) {
        return new Stream(memory, code);
    }

    /**
     * Writes the profile: for each binary, the run counts, the (empty) address counts and the branch
     * counts, then its build ID and path as comment lines, as {@code simpleperf inject} writes them.
     */
    public void write(PrintWriter out) {
        for (Counts c : binaries()) {
            long base = c.binary.base;
            Map<Run, Long> runs = c.runs();
            out.println(runs.size());
            runs.forEach((r, n) -> out.println(Long.toHexString(r.first - base) + "-" + Long.toHexString(r.last - base) + ":"
                    + Long.toUnsignedString(n)));
            out.println(0);
            Map<Branch, Long> branches = c.branches();
            out.println(branches.size());
            branches.forEach((b, n) -> out.println(Long.toHexString(b.from - base) + "->" + Long.toHexString(b.to - base) + ":"
                    + Long.toUnsignedString(n)));
            if (c.binary.buildId != null) {
                out.println("// build_id: 0x" + c.binary.buildId);
            }
            out.println("// " + c.binary.path);
            out.println();
        }
    }

    /**
     * The binary a memory region was loaded from. An ELF file's load segments are named
     * "FILE segment N" and a relocatable file's sections "FILE .SECTION" by the image reader; their
     * binary is FILE, whose first load segment and build ID its headers give. Any other region (a raw
     * memory dump) is a binary of its own, based where it is loaded.
     */
    static Binary binaryOf(MemoryImage.Region region, MemoryImage memory) {
        String name = region.name() == null ? "memory" : region.name();
        String file = null;
        int seg = name.lastIndexOf(" segment ");
        if (seg > 0) {
            file = name.substring(0, seg);
        } else {
            int sec = name.lastIndexOf(" .");
            if (sec > 0) {
                file = name.substring(0, sec);
            }
        }
        if (file != null) {
            Path p = Path.of(file);
            if (Files.isRegularFile(p)) {
                try {
                    ElfImage.Description d = ElfImage.describe(p);
                    for (ElfImage.Segment s : d.segments()) {
                        if (s.isLoad()) {
                            return new Binary(file, d.buildIdHex(), s.vaddr());
                        }
                    }
                    // a relocatable file (a kernel module) has no segments: offsets from where it was placed
                    return new Binary(file, d.buildIdHex(), lowestOf(file, memory));
                } catch (RuntimeException e) {
                    // not readable as ELF after all: the region stands for itself below
                }
            }
        }
        return new Binary(name, null, region.start());
    }

    private static long lowestOf(String file, MemoryImage memory) {
        long low = -1;
        for (MemoryImage.Region r : memory.regions()) {
            if (r.name() != null && r.name().startsWith(file + " ") && Long.compareUnsigned(r.start(), low) < 0) {
                low = r.start();
            }
        }
        return low;
    }

    /** Counts for the binary of a region, created on first use; null when the binary is not wanted. */
    private Counts countsFor(MemoryImage.Region region, MemoryImage memory, Map<String, Counts> byRegionName) {
        String name = String.valueOf(region.name());
        if (byRegionName.containsKey(name)) {
            return byRegionName.get(name);
        }
        Binary b = binaryOf(region, memory);
        Counts c = null;
        if (wanted.test(b.path)) {
            c = counts.computeIfAbsent(b.key(), k -> new Counts(b));
        }
        byRegionName.put(name, c);
        return c;
    }

    /** The state of one element stream: the run being followed and the branch whose target is awaited. */
    private final class Stream implements ElementSink, ElementVisitor {
        /** Every space's code together: where the current space maps nothing at an address (a snapshot's
         * memory of one exception level, say), the range still finds its binary here. */
        private final MemoryImage merged;
        private final io.armtrace.image.CodeMemory code;
        private final Map<Long, MemoryImage> byContext = new HashMap<>();
        private MemoryImage memory;
        private final Map<String, Counts> byRegionName = new HashMap<>();
        private boolean open;
        private long runFirst;
        private long runEnd;
        private long runLast;
        private Isa runIsa;
        private boolean pending;
        private long branchFrom;
        /** The last stretch of {@code cachedIn} whose binary was looked up: [cacheStart, cacheEnd) has {@code cached}. */
        private MemoryImage cachedIn;
        private long cacheStart;
        private long cacheEnd;
        private Counts cached;
        private final long[] bounds = new long[2];

        Stream(MemoryImage memory, io.armtrace.image.CodeMemory code) {
            this.merged = memory;
            this.code = code;
            this.memory = code == null ? memory : spaceMemory(io.armtrace.image.AddressSpace.ANY_CONTEXT);
        }

        /** The code of the space with context ID {@code contextId} (any: -1), as the code memory maps it last. */
        private MemoryImage spaceMemory(long contextId) {
            return byContext.computeIfAbsent(contextId, id -> code.at(id < 0 ? io.armtrace.image.AddressSpace.ANY
                    : io.armtrace.image.AddressSpace.ANY.withContextId(id), Long.MAX_VALUE));
        }

        @Override
        public void accept(TraceElement e) {
            e.accept(this);
        }

        @Override
        public void visit(InstructionRange r) {
            ran(r.start(), r.end(), r.lastAddress(), r.isa(), r.lastKind(), r.lastExecuted());
        }

        /** A range from the decoder as its fields: the same as {@link #visit}, without making the element. */
        @Override
        public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                          io.armtrace.trace.CallKind lastCall, boolean lastExecuted,
                          io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            ran(start, end, InstructionRange.lastAddress(start, count, sizes, sizesIndex), isa, lastKind, lastExecuted);
        }

        private void ran(long start, long end, long last, Isa isa, WaypointKind k, boolean lastExecuted) {
            if (pending) {
                branch(branchFrom, start);
                pending = false;
            }
            if (open && start == runEnd && isa == runIsa) {
                runEnd = end;
                runLast = last;
            } else {
                close();
                open = true;
                runFirst = start;
                runEnd = end;
                runLast = last;
                runIsa = isa;
            }
            // an exception call (SVC, BKPT) leaves the run through the exception entry that follows it, which
            // interrupts the flow; where no entry follows (an emulator's semihosting), the code goes on
            if (lastExecuted && (k == WaypointKind.DIRECT_BRANCH || k == WaypointKind.INDIRECT_BRANCH
                    || k == WaypointKind.EXCEPTION_RETURN)) {
                // the flow leaves the run here; if the next thing seen is code, that is the branch's target
                close();
                pending = true;
                branchFrom = last;
            }
        }

        /**
         * The flow is interrupted between two ranges: an exception or a return from one, lost trace, code
         * without an image, a restart of tracing, a decode error, or instructions whose
         * addresses are unknown. Neither the run nor a pending branch goes on across it.
         */
        private void interrupt() {
            close();
            pending = false;
        }

        private void close() {
            if (!open) {
                return;
            }
            open = false;
            Counts c = countsAt(runFirst);
            if (c != null && c == countsAt(runLast)) {
                c.runs.add(runFirst, runLast);
            }
        }

        private void branch(long from, long to) {
            Counts c = countsAt(from);
            if (c != null && c == countsAt(to)) {
                c.branches.add(from, to);
            }
        }

        private Counts countsAt(long address) {
            if (cachedIn == memory && Long.compareUnsigned(address - cacheStart, cacheEnd - cacheStart) < 0) {
                return cached;
            }
            MemoryImage.Region region = memory.regionAt(address, bounds);
            if (region == null) {
                if (memory != merged) {
                    region = merged.regionAt(address);
                    return region == null ? null : countsFor(region, merged, byRegionName);
                }
                return null;
            }
            // the binary of a region is fixed once found (byRegionName), so the stretch it supplies keeps it
            Counts c = countsFor(region, memory, byRegionName);
            cachedIn = memory;
            cacheStart = bounds[0];
            cacheEnd = bounds[1];
            cached = c;
            return c;
        }

        @Override
        public void end() {
            interrupt();
        }

        @Override
        public void visit(InstructionCount count) {
            interrupt();
        }

        @Override
        public void visit(ExceptionEntry exception) {
            interrupt();
        }

        @Override
        public void visit(ExceptionReturn exceptionReturn) {
            // the returning instruction transfers control to the resume address: a branch like any other
            // (the decoders that see an M-profile exception return as a plain branch count it so too)
            close();
        }

        @Override
        public void visit(TraceOn traceOn) {
            interrupt();
        }

        @Override
        public void visit(Gap gap) {
            interrupt();
        }

        @Override
        public void visit(NoImage noImage) {
            interrupt();
        }

        @Override
        public void visit(Context context) {
            // a context element (ETMv4 sends one with the target address of many branches, perf's CONTEXTIDR
            // writes one at each switch) says which process runs, not that the flow stopped: the run ends
            // here, but a branch waiting for its target still gets it (as perf counts it); a target in
            // another binary is not counted (see branch)
            close();
            if (code != null && context.contextId() >= 0) {
                memory = spaceMemory(context.contextId());
            }
        }

        @Override
        public void visit(DecodeError error) {
            interrupt();
        }

        // timestamps, cycle counts, events, triggers and software trace annotate the flow without interrupting it

        @Override
        public void visit(Timestamp timestamp) {
        }

        @Override
        public void visit(CycleCount cycles) {
        }

        @Override
        public void visit(Event event) {
        }

        @Override
        public void visit(Trigger trigger) {
        }

        @Override
        public void visit(SoftwareMessage message) {
        }

        @Override
        public void visit(LocalTimestamp timestamp) {
        }

        @Override
        public void visit(PcSample sample) {
        }

        @Override
        public void visit(ExceptionTrace exception) {
        }

        @Override
        public void visit(DataTrace data) {
        }

        @Override
        public void visit(EventCounterWrap wrap) {
        }
    }
}
