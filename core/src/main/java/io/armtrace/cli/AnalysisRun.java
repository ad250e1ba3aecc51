package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.view.TraceAnalysis;
import java.util.ArrayList;
import java.util.List;

/** Decodes every job of the inputs into a {@link TraceAnalysis}, the common first step of the analysis commands. */
final class AnalysisRun {
    record Result(InputOptions.Job job, TraceAnalysis analysis) {
    }

    private AnalysisRun() {
    }

    static List<Result> run(InputOptions input, FilterOptions filter) throws java.io.IOException {
        return run(input, filter, null);
    }

    /**
     * As {@link #run(InputOptions, FilterOptions)}; when {@code software} is not null, the software trace
     * sources left out (when no --source names them) go there, and a capture of software trace only is no
     * mistake here: the caller says whether it has anything to show ({@link #softwareOnly}). This is the
     * report's run: its analyses keep a timeline sketch.
     */
    static List<Result> run(InputOptions input, FilterOptions filter, List<InputOptions.Job> software) throws java.io.IOException {
        filter.validate();
        List<Result> out = new ArrayList<>();
        List<InputOptions.Job> jobs = new ArrayList<>(input.jobs());
        if (input.sources == null || input.sources.isEmpty()) {
            // every source of a snapshot: the ones that trace program flow; software trace (ITM, STM) has no
            // instructions to profile or cover, and is analysed only when named with --source
            if (software != null) {
                jobs.stream().filter(j -> !j.protocol().tracesProgramFlow()).forEach(software::add);
            }
            jobs.removeIf(j -> !j.protocol().tracesProgramFlow());
            if (jobs.isEmpty() && software == null) {
                throw softwareOnly(input);
            }
        }
        for (InputOptions.Job job : jobs) {
            TraceAnalysis a = new TraceAnalysis(job.input().image());
            if (software != null) {
                a.sketch(); // the report draws it
            }
            io.armtrace.trace.ElementSink sink = a;
            if (filter.active()) {
                // the analysis sees only what the filter shows; the decode is the same
                io.armtrace.view.Timeline timeline = filter.needsTimeline() ? new io.armtrace.view.Timeline() : null;
                sink = filter.wrap(a, job.input().image(), timeline);
                if (timeline != null) {
                    sink = timeline.feed(sink);
                }
            }
            job.protocol().decode(job.input(), sink);
            sink.end();
            out.add(new Result(job, a));
        }
        return out;
    }

    /** The mistake of asking a program-flow analysis of a capture that has software trace only. */
    static InputException softwareOnly(InputOptions input) {
        return new InputException((input.snapshot != null ? input.snapshot : input.trace) + ": has only software trace (ITM, STM), which has no program flow "
                + "to analyse; 'armtrace decode' lists it.");
    }

    /** For outputs that describe one program: exactly one source, or a clear message. */
    static Result single(List<Result> results, String what) {
        if (results.size() != 1) {
            throw new InputException(what + " describes one program, and the input has " + results.size()
                    + " trace sources; choose one with --source ID.");
        }
        return results.get(0);
    }
}
