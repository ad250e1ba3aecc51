package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.source.perf.PerfData;
import io.armtrace.source.perf.PerfSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code armtrace convert}: a perf.data recording as an OpenCSD snapshot directory. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        description = {"Writes a perf.data recording of CoreSight trace as an OpenCSD snapshot: per CPU its trace unit's "
                + "registers and its AUX trace data, and memory dumps of the mapped binaries that are found, so that "
                + "OpenCSD's trc_pkt_lister (and 'armtrace packets') read the same trace.",
                "Examples:",
                "  armtrace convert perf.data --symdir ./binaries --snapshot-out snap/",
                "  trc_pkt_lister -ss_dir snap/ -pkt_mon"})
final class ConvertCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RECORDING", description = "A perf.data recording (Linux perf or simpleperf).")
    Path recording;

    @Option(names = "--snapshot-out", paramLabel = "DIR", required = true, description = "The snapshot directory to write.")
    Path snapshotOut;

    @Option(names = "--force", description = "Replace a --snapshot-out directory that is not empty (the new snapshot is built "
            + "beside it and swapped in; the old one stays whole if anything fails).")
    boolean force;

    @Option(names = "--symdir", paramLabel = "DIR", description = "A directory to look for the mapped binaries in, by "
            + "build ID (DIR/.build-id/xx/...) and by file name. Repeatable; the recorded paths are tried last.")
    List<Path> symdirs = new ArrayList<>();

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String problem = io.armtrace.image.FileKind.problem(recording);
        if (problem != null) {
            throw new InputException(Messages.shorten(problem) + ".");
        }
        if (!PerfData.looksLikePerfData(recording)) {
            throw new InputException(recording + ": is not a perf.data recording (no PERFILE2 header); convert reads recordings only.");
        }
        for (Path d : symdirs) {
            if (!Files.isDirectory(d)) {
                throw new InputException("--symdir " + Messages.shorten(d.toString()) + ": is not a directory.");
            }
        }
        PerfData data = PerfData.read(recording);
        PerfSnapshot.Summary[] summary = new PerfSnapshot.Summary[1];
        OutputFile.writeDirectory(snapshotOut, force, "--snapshot-out", "snapshot.ini", List.of(recording),
                dir -> summary[0] = PerfSnapshot.write(data, dir, symdirs));
        java.io.PrintWriter out = spec.commandLine().getOut();
        for (Map.Entry<Integer, long[]> e : summary[0].cpus().entrySet()) {
            out.printf("CPU %d: trace ID %s, %d bytes of trace%n", e.getKey(), InputOptions.traceIdText((int) e.getValue()[0]),
                    e.getValue()[1]);
        }
        for (Map.Entry<Integer, long[]> e : summary[0].threads().entrySet()) {
            StringBuilder ids = new StringBuilder();
            for (int i = 1; i < e.getValue().length; i++) {
                ids.append(i == 1 ? "" : ", ").append("CPU ").append(e.getValue()[i] >>> 32).append(" trace ID ")
                        .append(InputOptions.traceIdText((int) e.getValue()[i]));
            }
            out.printf("thread %d: %d bytes of trace (%s)%n", e.getKey(), e.getValue()[0], ids);
        }
        out.printf("memory dumps of %d mapped files%s%n", summary[0].dumps().size(), summary[0].missing().isEmpty() ? ""
                : "; " + summary[0].missing().size() + " executable mappings have no file found (give --symdir DIR)");
        out.flush();
        return 0;
    }
}
