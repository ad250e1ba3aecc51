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

    @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: text (default) or jsonl.")
    Format format = Format.text;

    @Option(names = "--insn", description = "Text format: list every instruction, not just ranges.")
    boolean perInstruction;

    @Option(names = "--ranges", description = "JSONL format: one object per instruction range instead of one per instruction.")
    boolean ranges;

    @Option(names = "--last", paramLabel = "N",
            description = "Show only the last N instructions (and the elements among them): what ran before a crash or halt.")
    long last;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "N",
            description = "Decode up to N sources at once (default: the number of processors). Output is the same as one at a time.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--chunk-size", paramLabel = "BYTES", converter = ByteSize.class,
            description = "With --jobs above 1, one source larger than this (default 8M; K, M, G suffixes) is cut at "
                    + "sync points and its pieces decoded at once (ETMv3, PTM). Output is the same as in one piece.")
    long chunkSize = 8L << 20;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (PrintWriter out = output.open(spec.commandLine().getOut())) {
            if (!several || threads <= 1) {
                for (InputOptions.Job job : jobs) {
                    decodeOne(job, out, several, Progress.wanted(output.output != null));
                }
            } else {
                decodeInParallel(jobs, out);
            }
        }
        return 0;
    }

    /**
     * Sources are independent streams: each decodes on its own thread into a temporary file, and the files
     * are copied to the output in source order, so the output is byte for byte that of a sequential decode
     * while memory stays bounded whatever the trace size.
     */
    private void decodeInParallel(List<InputOptions.Job> jobs, PrintWriter out) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(threads, jobs.size()), r -> {
                    Thread t = new Thread(r, "armtrace-decode");
                    t.setDaemon(true);
                    return t;
                });
        List<java.nio.file.Path> parts = new java.util.ArrayList<>();
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (InputOptions.Job job : jobs) {
                java.nio.file.Path part = java.nio.file.Files.createTempFile("armtrace-decode", ".part");
                parts.add(part);
                done.add(pool.submit(() -> {
                    try (PrintWriter w = new PrintWriter(java.nio.file.Files.newBufferedWriter(part))) {
                        decodeOne(job, w, true, false);
                    }
                    return null;
                }));
            }
            for (int i = 0; i < done.size(); i++) {
                try {
                    done.get(i).get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception ex) {
                        throw ex;
                    }
                    throw e;
                }
                out.flush();
                try (java.io.Reader r = java.nio.file.Files.newBufferedReader(parts.get(i))) {
                    r.transferTo(out);
                }
            }
        } finally {
            pool.shutdownNow();
            for (java.nio.file.Path p : parts) {
                java.nio.file.Files.deleteIfExists(p);
            }
        }
    }

    private void decodeOne(InputOptions.Job job, PrintWriter out, boolean several, boolean progress)
            throws java.io.IOException {
        ElementSink sink;
        if (format == Format.jsonl) {
            sink = new JsonlWriter(out, job.input().image(), several, ranges);
        } else {
            if (several) {
                out.println("# " + job.label() + ": " + job.protocol().title());
            }
            sink = new TextWriter(out, job.input().image(), perInstruction, several);
        }
        if (last > 0) {
            sink = new io.armtrace.view.LastInstructions(sink, last, job.input().image().memory());
        }
        long size = progress ? sizeOf(job.input().data()) : -1;
        boolean split = !several && threads > 1 && (size < 0 || size > chunkSize);
        if (progress && !split) {
            // a source split into pieces is read by several decoders at once: no single progress bar
            try (Progress bar = Progress.start("decoding " + job.label(), size)) {
                var in = job.input();
                job.protocol().decode(new io.armtrace.protocol.DecodeInput(in.traceId(), in.registers(), in.image(),
                        bar.track(in.data()), in.options()), sink);
            }
        } else if (split) {
            io.armtrace.protocol.ChunkedDecode.decode(job.protocol(), job.input(), sink, threads, chunkSize);
        } else {
            job.protocol().decode(job.input(), sink);
        }
        sink.end();
    }

    private static long sizeOf(io.armtrace.source.TraceData data) {
        try (java.io.InputStream in = data.open()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
