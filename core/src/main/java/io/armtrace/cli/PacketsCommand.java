package io.armtrace.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code armtrace packets}: the packet listing people use to debug a capture. */
@Command(name = "packets", mixinStandardHelpOptions = true,
        description = {"Lists the trace packets, one line each with its byte offset in the source's stream.",
                "Takes the same inputs as decode."})
final class PacketsCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (PrintWriter out = output.open(spec.commandLine().getOut())) {
            for (InputOptions.Job job : jobs) {
                if (several) {
                    out.println("# " + job.label() + ": " + job.protocol().title());
                }
                String prefix = several ? String.format("[0x%02x] ", job.input().traceId()) : "";
                job.protocol().packets(job.input(), (offset, text) -> {
                    out.print(prefix);
                    out.printf("%8d  ", offset);
                    out.println(text);
                });
            }
        }
        return 0;
    }
}
