package io.armtrace.cli;

import io.armtrace.view.TraceEventWriter;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code armtrace timeline}: the capture as a Trace Event Format timeline (Perfetto UI, chrome://tracing, speedscope). */
@Command(name = "timeline", mixinStandardHelpOptions = true,
        description = {"Writes the capture as a timeline in the Trace Event Format (JSON) that Perfetto UI "
                + "(ui.perfetto.dev), chrome://tracing and speedscope open: one track per trace source, a slice per "
                + "function call and exception, ITM/STM messages, PC samples and gaps as instant events.",
                "Time is the capture's cycle counts, else its timestamps, else instructions executed; the track's name "
                        + "says which, and one unit shows as one microsecond.",
                "Examples:",
                "  armtrace timeline SNAPSHOT -o trace.json",
                "  armtrace timeline --trace swo.bin --protocol itm -o itm.json"})
final class TimelineCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> jobs = input.jobs();
        java.nio.file.Path named = input.snapshot != null ? input.snapshot : input.trace;
        // the capture's own name, not where it lies on this machine
        java.nio.file.Path last = named == null ? null : named.toAbsolutePath().normalize().getFileName();
        String title = last == null ? "capture" : last.toString();
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            TraceEventWriter timeline = new TraceEventWriter(out, Messages.shorten(title));
            for (InputOptions.Job job : jobs) {
                int id = job.input().traceId();
                String name = id >= 0 ? String.format("trace ID 0x%02x %s", id, job.protocol().title()) : job.protocol().title();
                TraceEventWriter.Track track = timeline.track(name, job.input().image());
                job.decode(track);
                track.end();
            }
            timeline.finish();
            out.flush();
            file.commit();
        }
        return 0;
    }
}
