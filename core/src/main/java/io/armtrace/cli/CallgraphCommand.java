package io.armtrace.cli;

import io.armtrace.view.CallGraph;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace callgraph}: caller to callee edges with call counts and costs. */
@Command(name = "callgraph", mixinStandardHelpOptions = true,
        description = {"Writes the call graph: who called whom, how often, and the instructions executed inside the calls.",
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
        AnalysisRun.Result r = AnalysisRun.single(AnalysisRun.run(input, filter), "A call graph");
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
