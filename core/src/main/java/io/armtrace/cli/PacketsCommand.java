package io.armtrace.cli;

import io.armtrace.protocol.PacketListing;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace packets}: the packet listing people use to debug a capture. */
@Command(name = "packets", mixinStandardHelpOptions = true,
        description = {"Lists the trace packets, one line each with its byte offset in the source's stream.",
                "Each packet's raw bytes follow its offset, as OpenCSD's trc_pkt_lister shows them.",
                "Takes the same inputs as decode."})
final class PacketsCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @Option(names = "--no-bytes", description = "Leave out the raw bytes of each packet.")
    boolean noBytes;

    enum Format { text, jsonl }

    @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: text (default) or jsonl, one "
            + "object per packet: src (trace ID, when several sources), offset, kind, length, bytes (hex), text.")
    Format format = Format.text;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            for (InputOptions.Job job : jobs) {
                if (several && format == Format.text) {
                    out.println("# " + job.label() + ": " + job.protocol().title());
                }
                int src = several ? job.input().traceId() : -1;
                String prefix = several ? "[" + InputOptions.traceIdText(job.input().traceId()) + "] " : "";
                try (PacketListing listing = new PacketListing(job.input().data(), !noBytes)) {
                    job.protocol().packets(job.input(), p -> {
                        try {
                            out.println(format == Format.jsonl ? listing.jsonLine(src, p) : listing.line(prefix, p));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                }
            }
            file.commit();
        }
        return 0;
    }
}
