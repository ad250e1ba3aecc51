package io.armtrace.cli;

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        boolean several = jobs.size() > 1;
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            for (InputOptions.Job job : jobs) {
                if (several) {
                    out.println("# " + job.label() + ": " + job.protocol().title());
                }
                String prefix = several ? "[" + InputOptions.traceIdText(job.input().traceId()) + "] " : "";
                try (PacketBytes bytes = new PacketBytes(job.input().data())) {
                    StringBuilder line = new StringBuilder(128);
                    job.protocol().packets(job.input(), new io.armtrace.protocol.PacketListener() {
                        @Override
                        public void packet(long offset, String text) {
                            packet(offset, 0, text);
                        }

                        @Override
                        public void packet(long offset, int length, String text) {
                            line.setLength(0);
                            line.append(prefix).append(String.format("%8d  ", offset));
                            if (!noBytes) {
                                try {
                                    // as wide as a 6-byte packet (an I-sync), so that most texts line up
                                    bytes.append(line, offset, length, 32);
                                } catch (java.io.IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            }
                            out.println(line.append(text));
                        }
                    });
                }
            }
            file.commit();
        }
        return 0;
    }
}
