package io.armtrace.cli;

import io.armtrace.view.CallGraph;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace callgraph}: caller to callee edges with call counts and costs. */
@Command(name = "callgraph", mixinStandardHelpOptions = true,
        description = {"Writes the call graph: who called whom, how often, and the instructions executed inside the calls. "
                + "From DWT PC samples (an ITM capture without program flow): the sampled functions, without calls.",
                "Examples:",
                "  armtrace callgraph SNAPSHOT --image prog.elf -o callgrind.out.1   (kcachegrind callgrind.out.1)",
                "  armtrace callgraph SNAPSHOT --image prog.elf --format dot | dot -Tsvg > calls.svg"})
final class CallgraphCommand implements Callable<Integer> {
    enum Format { callgrind, dot }

    @Mixin
    InputOptions input;

    @Mixin
    FilterOptions filter;

    @Mixin
    OutputOptions output;

    @Option(names = "--format", paramLabel = "FORMAT", description = "callgrind (default; KCachegrind, QCachegrind) or dot (Graphviz).")
    Format format = Format.callgrind;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<InputOptions.Job> softwareJobs = new java.util.ArrayList<>();
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter, softwareJobs, false);
        if (results.stream().noneMatch(x -> x.job().protocol().tracesProgramFlow())) {
            // no program flow: the sampled functions of the DWT's PC samples, if there are any
            java.util.Map<InputOptions.Job, io.armtrace.view.SoftwareTraceSummary> software = AnalysisRun.software(softwareJobs, results);
            software.values().removeIf(t -> t.samples() == 0);
            if (software.isEmpty()) {
                throw AnalysisRun.softwareOnly(input);
            }
            if (software.size() > 1) {
                throw new io.armtrace.source.InputException("A call graph describes one program, and the input has "
                        + software.size() + " sources of PC samples; choose one with --source ID.");
            }
            var e = software.entrySet().iterator().next();
            try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
                if (format == Format.dot) {
                    e.getValue().writeSampleDot(file.writer());
                } else {
                    e.getValue().writeSampleCallgrind(file.writer(), "armtrace PC samples " + e.getKey().label());
                }
                file.commit();
            }
            return 0;
        }
        AnalysisRun.Result r = AnalysisRun.single(results, "A call graph");
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            CallGraph g = new CallGraph(r.analysis());
            if (format == Format.dot) {
                g.writeDot(out);
            } else {
                g.writeCallgrind(out, "armtrace decode " + r.job().label());
            }
            file.commit();
        }
        return 0;
    }
}
