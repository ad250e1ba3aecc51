package io.armtrace.cli;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace stats}: how much trace a capture is, per packet kind and per instruction. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Trace statistics: bytes, bytes per packet kind, bytes per instruction, and the trace "
                + "bandwidth at a given core clock. Takes the same inputs as decode."})
final class StatsCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @Option(names = "--clock", paramLabel = "MHZ", description = "Core clock for bandwidth figures (default 100 MHz).")
    double clockMhz = 100;

    @Option(names = "--ipc", paramLabel = "N", description = "Instructions per cycle assumed for bandwidth figures (default 1).")
    double ipc = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(clockMhz > 0) || !(ipc > 0) || Double.isInfinite(clockMhz) || Double.isInfinite(ipc)) {
            throw new io.armtrace.source.InputException((clockMhz > 0 && !Double.isInfinite(clockMhz) ? "--ipc " + ipc : "--clock " + clockMhz)
                    + ": give a positive number.");
        }
        List<InputOptions.Job> jobs = input.jobs();
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            write(jobs, file.writer());
            file.commit();
        }
        return 0;
    }

    private void write(List<InputOptions.Job> jobs, PrintWriter out) throws java.io.IOException {
        for (InputOptions.Job job : jobs) {
            long bytes = job.protocol().traceBytes(job.input());
            long dataBytes;
            try (InputStream in = job.input().data().open()) {
                dataBytes = in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            // Bytes per packet kind: a packet stands for the bytes up to the next one, or its own span only
            Map<String, long[]> kinds = new TreeMap<>();
            boolean follow = job.protocol().packetsFollowEachOther();
            KindCounts counts = new KindCounts(kinds, follow);
            job.protocol().packetKinds(job.input(), counts);
            counts.end(dataBytes);
            long[] insns = {0};
            long[] other = {0};
            String undecoded = null;
            try {
                job.decode(new ElementSink() {
                    @Override
                    public void accept(TraceElement e) {
                        if (e instanceof InstructionRange r) {
                            insns[0] += r.count();
                        } else {
                            other[0]++;
                        }
                    }
                });
            } catch (io.armtrace.protocol.UnsupportedProtocolException e) {
                undecoded = e.getMessage(); // packets only: the counts by kind below still hold
            }
            out.println(job.label() + " (" + job.protocol().title() + ")");
            if (undecoded != null) {
                out.printf("  %d bytes; %s%n", bytes, undecoded);
            } else {
                out.printf("  %d bytes, %d instructions, %d other elements%n", bytes, insns[0], other[0]);
            }
            if (insns[0] > 0) {
                double bpi = (double) bytes / insns[0];
                out.printf("  %.3f bytes per instruction (%.2f bits); %.0f instructions per KiB of trace%n", bpi, bpi * 8,
                        1024 / bpi);
                double mbps = bpi * clockMhz * ipc;
                out.printf("  at %.0f MHz and %.2f instructions per cycle: %.2f MB/s of trace (%.1f Mbit/s), %.0f M instructions/s%n",
                        clockMhz, ipc, mbps, mbps * 8, clockMhz * ipc);
            }
            out.println("  packets by kind:");
            List<Map.Entry<String, long[]>> sorted = new java.util.ArrayList<>(kinds.entrySet());
            sorted.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
            for (Map.Entry<String, long[]> e : sorted) {
                out.printf("    %-24s %8d packets %9d bytes %6.1f%%%n", e.getKey(), e.getValue()[0], e.getValue()[1],
                        bytes == 0 ? 0.0 : 100.0 * e.getValue()[1] / bytes);
            }
        }
    }

    /**
     * Packets and bytes per kind: a packet stands for the bytes up to the next one (or its own span only). The kind
     * names are the protocol's constants, so the previous packet's counters are found by identity first.
     */
    private static final class KindCounts implements io.armtrace.protocol.TraceProtocol.PacketKindListener {
        private final Map<String, long[]> kinds;
        private final boolean follow;
        private String lastKind;
        private long[] last;
        private long lastOffset;
        private int lastLength;

        KindCounts(Map<String, long[]> kinds, boolean follow) {
            this.kinds = kinds;
            this.follow = follow;
        }

        @Override
        public void packet(String kind, long offset, int length) {
            if (last != null) {
                last[1] += follow ? offset - lastOffset : lastLength;
            }
            long[] c = kind == lastKind ? last : kinds.computeIfAbsent(kind, k -> new long[2]);
            c[0]++;
            last = c;
            lastKind = kind;
            lastOffset = offset;
            lastLength = length;
        }

        void end(long dataBytes) {
            if (last != null) {
                last[1] += follow ? dataBytes - lastOffset : lastLength;
            }
        }
    }
}
