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

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (PrintWriter out = output.open(spec.commandLine().getOut())) {
            for (InputOptions.Job job : jobs) {
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
                if (Progress.wanted(output.output != null)) {
                    long size = sizeOf(job.input().data());
                    try (Progress bar = Progress.start("decoding " + job.label(), size)) {
                        var in = job.input();
                        job.protocol().decode(new io.armtrace.protocol.DecodeInput(in.traceId(), in.registers(), in.image(),
                                bar.track(in.data()), in.options()), sink);
                    }
                } else {
                    job.protocol().decode(job.input(), sink);
                }
                sink.end();
            }
        }
        return 0;
    }

    private static long sizeOf(io.armtrace.source.TraceData data) {
        try (java.io.InputStream in = data.open()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
