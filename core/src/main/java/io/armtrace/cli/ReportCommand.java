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
        description = {"Writes a single self-contained HTML page: capture summary, top functions, coverage.",
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
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter);
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
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            report.write(file.writer(), top);
            file.commit();
        }
        return 0;
    }
}
