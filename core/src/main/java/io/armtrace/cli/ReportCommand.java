package io.armtrace.cli;

import io.armtrace.view.HtmlReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace report}: one self-contained HTML page about a capture. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Writes a single self-contained HTML page: capture summary, top functions, coverage, and what the DWT "
                + "reported (exception trace with the time in each handler, PC samples by function).",
                "Example:",
                "  armtrace report SNAPSHOT --image prog.elf -o report.html"})
final class ReportCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    FilterOptions filter;

    @Mixin
    OutputOptions output;

    @Option(names = "--top", paramLabel = "N", description = "Functions in the top list (default 25).")
    int top = 25;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (top <= 0) {
            throw new io.armtrace.source.InputException("--top " + top + ": give a positive number of functions.");
        }
        List<InputOptions.Job> softwareJobs = new java.util.ArrayList<>();
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter, softwareJobs, true);
        // the DWT's exception trace and PC samples of the software sources, where they say anything
        List<io.armtrace.view.SoftwareTraceSummary> software = new java.util.ArrayList<>();
        List<InputOptions.Job> softwareShown = new java.util.ArrayList<>();
        for (InputOptions.Job job : softwareJobs) {
            io.armtrace.view.SoftwareTraceSummary t = new io.armtrace.view.SoftwareTraceSummary(job.input().image());
            job.decode(t);
            t.end();
            if (t.hasContent()) {
                software.add(t);
                softwareShown.add(job);
            }
        }
        if (results.isEmpty() && software.isEmpty()) {
            throw AnalysisRun.softwareOnly(input);
        }
        HtmlReport report = new HtmlReport("armtrace report" + (input.snapshot != null ? ": " + input.snapshot.getFileName()
                : input.trace != null ? ": " + input.trace.getFileName() : ""));
        if (input.snapshot != null) {
            report.input("snapshot " + input.snapshot);
        }
        if (input.trace != null) {
            report.input("trace " + input.trace + (input.protocol != null ? " (" + input.protocol + ")" : ""));
        }
        for (String i : input.images) {
            report.input("image " + i);
        }
        for (AnalysisRun.Result r : results) {
            report.section(r.job().label() + ": " + r.job().protocol().title(), r.analysis());
        }
        for (int i = 0; i < software.size(); i++) {
            InputOptions.Job job = softwareShown.get(i);
            report.software(job.label() + ": " + job.protocol().title(), software.get(i));
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            report.write(file.writer(), top);
            file.commit();
        }
        return 0;
    }
}
