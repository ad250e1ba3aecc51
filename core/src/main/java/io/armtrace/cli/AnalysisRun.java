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

    /**
     * Whether the analysis runs on a thread beside the decoder: with two processors or more (a test compares both
     * ways).
     */
    static boolean piped = Runtime.getRuntime().availableProcessors() >= 2;

    static List<Result> run(InputOptions input, FilterOptions filter) throws java.io.IOException {
        return run(input, filter, null, false);
    }

    /**
     * As {@link #run(InputOptions, FilterOptions)}; when {@code software} is not null, the software trace
     * sources left out (when no --source names them) go there, and a capture of software trace only is no
     * mistake here: the caller says whether it has anything to show ({@link #softwareOnly}). With
     * {@code sketch} the analyses keep a timeline sketch (for the report).
     */
    static List<Result> run(InputOptions input, FilterOptions filter, List<InputOptions.Job> software, boolean sketch)
            throws java.io.IOException {
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
            if (sketch) {
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
            // piped: the decoder on this thread, the analysis on the pipe's (docs/performance.md, "The decoder and
            // its listing side by side")
            io.armtrace.trace.ElementPipe.decode(job::decode, sink, piped, "armtrace-analysis");
            out.add(new Result(job, a));
        }
        return out;
    }

    /**
     * The software trace sources among {@code jobs} (and those of {@code results}, named with --source), each
     * decoded into a {@link io.armtrace.view.SoftwareTraceSummary}: what the DWT said, for the views that show it.
     */
    static java.util.LinkedHashMap<InputOptions.Job, io.armtrace.view.SoftwareTraceSummary> software(
            List<InputOptions.Job> jobs, List<Result> results) throws java.io.IOException {
        List<InputOptions.Job> all = new ArrayList<>(jobs);
        results.stream().map(Result::job).filter(j -> !j.protocol().tracesProgramFlow()).forEach(all::add);
        java.util.LinkedHashMap<InputOptions.Job, io.armtrace.view.SoftwareTraceSummary> out = new java.util.LinkedHashMap<>();
        for (InputOptions.Job job : all) {
            io.armtrace.view.SoftwareTraceSummary t = new io.armtrace.view.SoftwareTraceSummary(job.input().image());
            job.decode(t);
            t.end();
            out.put(job, t);
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
