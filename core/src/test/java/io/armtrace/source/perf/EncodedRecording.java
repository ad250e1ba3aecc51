package io.armtrace.source.perf;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.protocol.ASyncScanner;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.etm4.Etm4Protocol;
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
 * Recordings with exact ground truth: a program of the ground-truth corpus (run under QEMU), its trace made
 * by the ETMv4/ETE encoder, written as perf would record it on one CPU, with the program's binary in a
 * symbol directory. {@link #cut} splits the trace at A-syncs into the pieces the AUX records report, so that
 * a decoder that resets at every piece (as perf's and armtrace's do) loses nothing at the seams.
 */
final class EncodedRecording {
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

        Cpu(int cpu, String fixture, boolean ete, int traceId) {
            this.cpu = cpu;
            this.fixture = fixture;
            this.ete = ete;
            this.traceId = traceId;
            Map<String, String> options = new HashMap<>();
            options.put("el", Integer.toString(Corpus.header(fixture).el()));
            options.put("trace-id", Integer.toString(traceId));
            EncodeOutput enc = new Etm4Protocol(ete).encode(Corpus.execution(fixture), Corpus.image(fixture), options);
            this.trace = enc.trace();
            this.registers = enc.registers();
            try {
                long[] later = ASyncScanner.scan(new ByteArrayInputStream(trace), 1, 11);
                this.syncs = new long[later.length + 1];
                System.arraycopy(later, 0, syncs, 1, later.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The AUXTRACE_INFO block of this CPU's trace unit, in the layout of header {@code version}. */
        long[] block(long version) {
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
