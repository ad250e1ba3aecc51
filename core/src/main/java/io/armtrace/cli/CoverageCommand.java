package io.armtrace.cli;

import io.armtrace.view.Coverage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace coverage}: which code ran, as a summary and as an LCOV tracefile. */
@Command(name = "coverage", mixinStandardHelpOptions = true,
        description = {"Reports which functions, lines and instructions ran, and which conditional instructions were seen both passing and failing.",
                "Examples:",
                "  armtrace coverage SNAPSHOT --image prog.elf",
                "  armtrace coverage SNAPSHOT --image prog.elf --lcov cov.info   (genhtml cov.info -o html)"})
final class CoverageCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    FilterOptions filter;

    @Mixin
    OutputOptions output;

    @Option(names = "--lcov", paramLabel = "FILE", description = "Also write an LCOV tracefile (for genhtml) to FILE.")
    Path lcov;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter);
        if (lcov != null) {
            AnalysisRun.Result r = AnalysisRun.single(results, "An LCOV tracefile");
            try (OutputFile file = OutputFile.open(lcov, spec.commandLine().getOut(), input.inputFiles(), "--lcov")) {
                new Coverage(r.analysis()).writeLcov(file.writer(), "armtrace");
                file.commit();
            }
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            for (AnalysisRun.Result r : results) {
                if (results.size() > 1) {
                    out.println("# " + r.job().label());
                }
                new Coverage(r.analysis()).writeSummary(out);
            }
            file.commit();
        }
        return 0;
    }
}
