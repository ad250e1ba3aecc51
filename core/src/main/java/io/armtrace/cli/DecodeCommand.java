package io.armtrace.cli;

import io.armtrace.trace.ElementSink;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.TextWriter;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace decode}: trace to executed instructions. */
@Command(name = "decode", mixinStandardHelpOptions = true,
        description = {"Decodes trace into the instructions the processor executed.",
                "Examples:",
                "  armtrace decode examples/ptm-a15",
                "  armtrace decode SNAPSHOT --source 0x10 --format jsonl -o out.jsonl",
                "  armtrace decode --protocol mtb --trace buffer.bin --reg POSITION=0x20000108 --reg MASTER=0x80000006 --image fw.elf"})
final class DecodeCommand implements Callable<Integer> {
    enum Format { text, jsonl }

    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @Mixin
    FilterOptions filter;

    @Option(names = "--annotate",
            description = "Add function+offset (ELF symbols) and file:line (DWARF line tables) to every instruction "
                    + "(text --insn and JSONL insn lines) and to the start of every range.")
    boolean annotate;

    @Option(names = "--time",
            description = "Add the running cycle count and the latest timestamp where the trace has them: two columns "
                    + "in text, fields cycles and ts in JSONL.")
    boolean time;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: text (default) or jsonl.")
    Format format = Format.text;

    @Option(names = "--insn", description = "Text format: list every instruction (address, opcode, disassembly), not just ranges.")
    boolean perInstruction;

    @Option(names = "--ranges", description = "JSONL format: one object per instruction range instead of one per instruction.")
    boolean ranges;

    @Option(names = "--last", paramLabel = "N",
            description = "Show only the last N instructions (and the elements among them): what ran before a crash or halt.")
    Long last;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "N",
            description = "Threads to decode with (default: the number of processors): several sources at once, one "
                    + "large source cut into pieces (see --chunk-size), or one source's decoder beside its listing. "
                    + "Output is the same as with --jobs 1, which decodes and lists on one thread.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--chunk-size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Cut one source larger than BYTES (K, M, G suffixes, e.g. 8M) at sync points and decode its "
                    + "pieces on the --jobs threads at once (ETMv3, PTM, ETMv4); pieces whose listing would not fit in "
                    + "memory while they wait their turn are cut smaller. Output is the same as in one piece. "
                    + "Default: pieces of 4M for a source of 8M or more when there are 4 or more threads and "
                    + "processors and the listing has no --last, --time, filter or progress bar (docs/performance.md).")
    Long chunkSize;

    /**
     * The automatic split (docs/performance.md, "One source on several threads"): sources from {@link
     * #AUTO_MIN_SOURCE} on, in pieces of this size. Smaller pieces keep less of the listing in memory while it
     * waits for its turn (a listing is 10 to 40 times its trace), larger ones spend less on finding seams.
     */
    static final long AUTO_CHUNK_SIZE = 4L << 20;
    /** Two pieces at least: below this a source decodes in about a second on one thread. */
    static final long AUTO_MIN_SOURCE = 8L << 20;
    /**
     * ... with at least this many threads and processors: the pieces together take 1.0 to 1.5 times the CPU time
     * of one listing, and one thread's run already has the JIT compilers on the second processor, so on 2
     * processors --jobs 2 measured 0.89x (ETMv3) to 1.45x (PTM JSONL) the speed of --jobs 1 (50 MB, quiet
     * machine): slower on ETMv3, so not the default there. From 4 on the parallel part wins even at 1.5 times the
     * work (Amdahl's law with the measured serial fraction, 0.3%; not measured on such a machine).
     */
    static final int AUTO_MIN_PROCESSORS = 4;
    /** Whether the rule applies at all (it did not while the pieces took twice one listing's CPU time). */
    static final boolean AUTO_SPLIT = true;

    @Override
    public Integer call() throws Exception {
        checkOptions();
        filter.validate();
        if (time && last != null) {
            throw new io.armtrace.source.InputException("--time and --last cannot be combined: --last lists after the "
                    + "whole trace is read, when the running time is that of its end.");
        }
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            if (!several || threads <= 1) {
                for (InputOptions.Job job : jobs) {
                    if (!decodeOne(job, out, several, Progress.wanted(output.output != null))) {
                        warnNothingDecoded(job);
                    }
                }
            } else {
                decodeInParallel(jobs, out);
            }
            file.commit();
        }
        return 0;
    }

    /** Contradictory or meaningless options: one sentence, exit 2. */
    private void checkOptions() {
        if (last != null && last <= 0) {
            throw new io.armtrace.source.InputException("--last " + last + ": give a positive number of instructions.");
        }
        if (threads <= 0) {
            throw new io.armtrace.source.InputException("--jobs " + threads + ": give a positive number of sources to decode at once.");
        }
        if (perInstruction && ranges) {
            throw new io.armtrace.source.InputException("--insn and --ranges contradict each other: --insn lists every "
                    + "instruction in text, --ranges writes one JSONL object per range.");
        }
        if (ranges && format != Format.jsonl) {
            throw new io.armtrace.source.InputException("--ranges applies to --format jsonl only (the text format lists ranges already).");
        }
        if (perInstruction && format != Format.text) {
            throw new io.armtrace.source.InputException("--insn applies to the text format only (JSONL lists every instruction already).");
        }
    }

    /**
     * Sources are independent streams: each decodes on its own thread, and the output is byte for byte that of
     * a sequential decode. Each source formats its listing as bytes in the output's charset, in place in a buffer
     * of its own (as one source written alone: {@link io.armtrace.view.EncodingWriter#listsInPlace}). The first
     * source that has not finished writes those bytes straight to the output; the others write them to temporary
     * part files, and when a source becomes the first, what it wrote so far is copied to the output as bytes, its
     * part file deleted, and the rest of it goes straight to the output. So memory stays bounded whatever the
     * trace size, and every byte of output is on disk once: in the output or in one part file. (Until the
     * listings were joined as bytes, every source's lines were made as text, and a part file was decoded and
     * encoded again on its way out: two sources on two threads took 60% more time than one after the other.)
     */
    private void decodeInParallel(List<InputOptions.Job> jobs, PrintWriter out) throws Exception {
        java.nio.charset.Charset charset = ByteWriter.charsetOf(out);
        java.io.OutputStream output = ByteWriter.bytesOf(out, charset); // what out holds as text is written first
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(threads, jobs.size()), r -> {
                    Thread t = new Thread(r, "armtrace-decode");
                    t.setDaemon(true);
                    return t;
                });
        List<Handoff> parts = new java.util.ArrayList<>();
        try {
            List<java.util.concurrent.Future<Boolean>> done = new java.util.ArrayList<>();
            for (int i = 0; i < jobs.size(); i++) {
                Handoff part = i == 0 ? new Handoff(output) : new Handoff(OutputFile.temporaryFile("armtrace-decode"));
                parts.add(part);
                InputOptions.Job job = jobs.get(i);
                done.add(pool.submit(() -> {
                    PrintWriter w = new io.armtrace.view.EncodingWriter(part, charset,
                            io.armtrace.view.EncodingWriter.OUTPUT_BUFFER).printWriter(false);
                    boolean decoded = decodeOne(job, w, true, false);
                    w.flush();
                    if (w.checkError()) {
                        part.rethrow();
                    }
                    return decoded;
                }));
            }
            for (int i = 0; i < done.size(); i++) {
                if (i > 0) {
                    parts.get(i).becomeFirst(output);
                }
                try {
                    if (!done.get(i).get()) {
                        warnNothingDecoded(jobs.get(i));
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception ex) {
                        throw ex;
                    }
                    throw e;
                }
            }
            output.flush();
        } finally {
            pool.shutdownNow();
            for (Handoff p : parts) {
                p.discard();
            }
        }
    }

    /**
     * One source's listing bytes during a parallel decode: a part file until the source becomes the first
     * unfinished one, then the command's output itself.
     */
    static final class Handoff extends java.io.OutputStream {
        private java.nio.file.Path partFile;
        private java.io.OutputStream target;
        private java.io.IOException failure;

        Handoff(java.io.OutputStream output) {
            this.target = output;
        }

        Handoff(java.nio.file.Path partFile) throws java.io.IOException {
            this.partFile = partFile;
            try {
                this.target = java.nio.file.Files.newOutputStream(partFile);
            } catch (java.io.IOException e) {
                throw OutputFile.temporaryFailure(e);
            }
        }

        /** Copies what was written so far to {@code output}, deletes the part file and writes through from now on. */
        synchronized void becomeFirst(java.io.OutputStream output) throws java.io.IOException {
            if (partFile == null) {
                return;
            }
            try {
                target.close();
            } catch (java.io.IOException e) {
                throw OutputFile.temporaryFailure(e);
            }
            if (failure != null) {
                throw failure;
            }
            java.io.InputStream r;
            try {
                r = java.nio.file.Files.newInputStream(partFile);
            } catch (java.io.IOException e) {
                throw OutputFile.temporaryFailure(e);
            }
            try (r) {
                r.transferTo(output); // a failed write to the output is thrown unchecked by the output itself
            } catch (java.io.IOException e) {
                throw OutputFile.temporaryFailure(e); // so a checked one is the part file's
            }
            OutputFile.discard(partFile);
            partFile = null;
            target = output;
        }

        /** Deletes the part file if it is still there. */
        synchronized void discard() {
            if (partFile != null) {
                try {
                    target.close();
                } catch (java.io.IOException e) {
                    // deleted anyway
                }
                OutputFile.discard(partFile);
                partFile = null;
            }
        }

        synchronized void rethrow() throws java.io.IOException {
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        public void write(int b) throws java.io.IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        /**
         * A failed write to a part file (a full temporary directory) ends this source's decode at once, as an
         * unchecked {@link OutputFile.OutputFailure} naming the directory; one to the command's output is thrown
         * by the output itself.
         */
        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            try {
                target.write(b, off, len);
            } catch (java.io.IOException e) {
                throw partFailure(e);
            }
        }

        @Override
        public synchronized void flush() throws java.io.IOException {
            try {
                target.flush();
            } catch (java.io.IOException e) {
                throw partFailure(e);
            }
        }

        private java.io.UncheckedIOException partFailure(java.io.IOException e) {
            if (failure == null) {
                failure = partFile != null ? OutputFile.temporaryFailure(e) : e;
            }
            return new java.io.UncheckedIOException(failure);
        }

        /** The listing's writer closing: a part file is flushed (closed when copied out), the output stays open. */
        @Override
        public synchronized void close() throws java.io.IOException {
            flush();
        }
    }

    /** Decodes one source; returns false when its trace held no synchronization point (nothing decoded). */
    private boolean decodeOne(InputOptions.Job job, PrintWriter out, boolean several, boolean progress)
            throws java.io.IOException {
        ElementSink sink;
        // decoder -> timeline (running time) -> filter -> --last -> writer; the writer reads the timeline
        io.armtrace.view.Timeline timeline = time || filter.needsTimeline() ? new io.armtrace.view.Timeline() : null;
        // a recording's CPU: pid, tid, cpu and time columns, as perf script shows them (not with --last, which
        // writes instructions after the whole trace is read, when the thread is that of its end)
        io.armtrace.trace.RunningThread thread = last == null ? job.runningThread() : null;
        // the bar counts the stored bytes (the file, formatted or not) against their size: no extra pass over the trace
        long size = progress ? job.input().data().storedBytes() : -1;
        // a plain listing: each piece formats its own elements, and only bytes are joined
        boolean plain = last == null && timeline == null && thread == null && !filter.active();
        long pieceSize = pieceSize(job, several, plain, progress);
        boolean split = pieceSize > 0 && (size < 0 || size > pieceSize);
        boolean piped = !split && piped(several);
        // on the pipe's thread the stages read memory through a copy of their own: its last-read cache is not shared
        io.armtrace.image.ProgramImage image = piped ? ownMemory(job.input().image()) : job.input().image();
        if (format == Format.text && several) {
            out.println("# " + job.label() + ": " + job.protocol().title());
        }
        sink = listingWriter(job, image, out, several, timeline, thread);
        if (last != null) {
            sink = new io.armtrace.view.LastInstructions(sink, last);
        }
        sink = filter.wrap(sink, image, timeline);
        if (timeline != null) {
            sink = timeline.feed(sink);
        }
        if (thread != null) {
            sink = thread.feed(sink);
        }
        SyncSeen seen = new SyncSeen(sink);
        sink = seen;
        if (split && plain && job.segments() == null) {
            io.armtrace.protocol.ChunkedDecode.Split done = io.armtrace.protocol.ChunkedDecode.decode(job.protocol(),
                    job.input(), new io.armtrace.view.ListingPieces(w -> listingWriter(job, job.input().image(), w, false, null, null),
                            ByteWriter.charsetOf(out)),
                    ByteWriter.bytesOf(out, ByteWriter.charsetOf(out)), threads, pieceSize);
            out.flush();
            return done.listed() > 0;
        }
        if (split) {
            io.armtrace.protocol.ChunkedDecode.decode(job.protocol(), job.input(), sink, threads, pieceSize);
            sink.end();
            return seen.any;
        }
        if (piped && plain) {
            // the listing on the pipe's thread, and the decoder's thread formats batches itself when that one falls
            // behind: only bytes are joined, as in pieces (each side reads memory through its own image)
            java.nio.charset.Charset charset = ByteWriter.charsetOf(out);
            boolean any = io.armtrace.trace.ElementPipe.decode(s -> decodeWhole(job, s, progress, size),
                    new io.armtrace.view.ListingPieces(w -> listingWriter(job, image, w, false, null, null), charset),
                    new io.armtrace.view.ListingPieces(w -> listingWriter(job, job.input().image(), w, false, null, null),
                            charset),
                    ByteWriter.bytesOf(out, charset), "armtrace-listing");
            out.flush();
            return any;
        }
        // piped: the decoder on this thread, the listing (and the stages before it) on the pipe's
        io.armtrace.trace.ElementPipe.decode(s -> decodeWhole(job, s, progress, size), sink, piped, "armtrace-listing");
        return seen.any;
    }

    /** Decodes {@code job} in one piece into {@code sink}, with a progress bar over {@code size} bytes if asked. */
    private static void decodeWhole(InputOptions.Job job, ElementSink sink, boolean progress, long size)
            throws java.io.IOException {
        if (job.segments() != null) {
            // a recording's AUX buffers: each decoded from a reset, one after the other
            job.decode(sink);
        } else if (progress) {
            try (Progress bar = Progress.start("decoding " + job.label(), size)) {
                var in = job.input();
                job.protocol().decode(in.withData(bar.track(in.data())), sink);
            }
        } else {
            job.decode(sink);
        }
    }

    /**
     * Whether one source decoded in one piece has its listing made on a second thread ({@link
     * io.armtrace.trace.ElementPipe}): when the command may use two threads ({@code --jobs}, by default the
     * processors) and is not decoding several sources at once already (docs/performance.md, "The decoder and its
     * listing side by side").
     */
    private boolean piped(boolean several) {
        return !several && threads >= 2;
    }

    /**
     * The size of the pieces one source is cut into, or 0 to decode it in one piece: as {@code --chunk-size} says;
     * without it, as {@link #automaticPieceSize} says.
     */
    private long pieceSize(InputOptions.Job job, boolean several, boolean plain, boolean progress) {
        if (several || threads <= 1 || job.segments() != null) {
            return 0;
        }
        if (chunkSize != null) {
            return chunkSize;
        }
        return automaticPieceSize(job.input().data().storedBytes(), plain && !progress, job.protocol().splits(),
                threads, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The rule without --chunk-size, for one source of {@code storedBytes}: pieces of {@link #AUTO_CHUNK_SIZE} when
     * the source is at least {@link #AUTO_MIN_SOURCE}, its protocol splits, the listing is plain (each piece formats
     * its own: no --last, --time or filter stage, which sees the whole stream, and no progress bar, which follows one
     * decoder) and there are at least {@link #AUTO_MIN_PROCESSORS} threads ({@code --jobs}, by default the
     * processors) and processors. {@code --jobs 1} decodes in one piece.
     */
    static long automaticPieceSize(long storedBytes, boolean plain, boolean splits, int threads, int processors) {
        return AUTO_SPLIT && plain && splits && storedBytes >= AUTO_MIN_SOURCE && threads >= AUTO_MIN_PROCESSORS
                && processors >= AUTO_MIN_PROCESSORS ? AUTO_CHUNK_SIZE : 0;
    }

    /** {@code image} with a copy of its memory (made ready for reading from several threads first), or null. */
    static io.armtrace.image.ProgramImage ownMemory(io.armtrace.image.ProgramImage image) {
        return image == null ? null
                : new io.armtrace.image.ProgramImage(image.memory().copy(), image.symbols(), image.lines());
    }

    /** The writer {@code armtrace decode} makes for {@code job}, writing to {@code out}, reading {@code image}. */
    ElementSink listingWriter(InputOptions.Job job, io.armtrace.image.ProgramImage image, PrintWriter out,
                              boolean several, io.armtrace.view.Timeline timeline,
                              io.armtrace.trace.RunningThread thread) {
        if (format == Format.jsonl) {
            return new JsonlWriter(out, image, several, ranges).annotate(annotate,
                            job.protocol().profile(job.input().registers()))
                    .time(time ? timeline : null).thread(thread);
        }
        return new TextWriter(out, image, perInstruction, several,
                job.protocol().profile(job.input().registers()))
                .annotate(annotate).time(time ? timeline : null).thread(thread);
    }

    /**
     * Notices a decode that produced nothing but gaps: an empty or too-short trace, or one without a
     * synchronization point, which would otherwise print nothing at all.
     */
    private static final class SyncSeen implements ElementSink {
        private final ElementSink next;
        boolean any;

        SyncSeen(ElementSink next) {
            this.next = next;
        }

        @Override
        public void accept(io.armtrace.trace.TraceElement e) {
            if (!(e instanceof io.armtrace.trace.Gap)) {
                any = true;
            }
            next.accept(e);
        }

        // ranges, cycle counts and trace-ons are passed on as fields, so a listing writer makes no element for them
        @Override
        public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            any = true;
            next.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
        }

        @Override
        public void cycles(int source, long cycles) {
            any = true;
            next.cycles(source, cycles);
        }

        @Override
        public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
            any = true;
            next.traceOn(source, reason, offset);
        }

        @Override
        public void end() {
            next.end();
        }
    }

    private void warnNothingDecoded(InputOptions.Job job) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("armtrace: " + Messages.shorten(job.label()) + ": no synchronization point found in the trace; nothing was decoded.");
        err.flush();
    }
}
