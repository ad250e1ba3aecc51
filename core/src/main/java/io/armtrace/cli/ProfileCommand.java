package io.armtrace.cli;

import io.armtrace.view.Profile;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace profile}: instructions (and cycles) per function or source line, or folded stacks. */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = {"Counts executed instructions (and cycles, where the trace has them) per function or per source line.",
                "Examples:",
                "  armtrace profile --protocol mtb --trace buffer.bin --reg POSITION=0x20000108 --image fw.elf --top 20",
                "  armtrace profile SNAPSHOT --image prog.elf --by line",
                "  armtrace profile SNAPSHOT --image prog.elf --folded -o out.folded   (flamegraph.pl out.folded > fg.svg)"})
final class ProfileCommand implements Callable<Integer> {
    enum By { function, line }

    @Mixin
    InputOptions input;

    @Mixin
    FilterOptions filter;

    @Mixin
    OutputOptions output;

    @Option(names = "--by", paramLabel = "WHAT", description = "Rows of the table: function (default) or line (needs DWARF line information in the ELF image).")
    By by = By.function;

    @Option(names = "--top", paramLabel = "N", description = "Show the N heaviest rows (default 30; 0 = all).")
    int top = 30;

    @Option(names = "--folded", description = "Write folded stacks (Brendan Gregg's format for flamegraph.pl and speedscope) instead of a table.")
    boolean folded;

    @Option(names = "--cycles", description = "With --folded: weigh stacks by cycles instead of instructions (needs cycle-accurate trace).")
    boolean cycles;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (top < 0) {
            throw new io.armtrace.source.InputException("--top " + top + ": give a number of rows, 0 for all.");
        }
        if (folded && by == By.line) {
            throw new io.armtrace.source.InputException("--folded writes call stacks of functions; --by line applies to the table only.");
        }
        if (cycles && !folded) {
            throw new io.armtrace.source.InputException("--cycles applies to --folded only (the table shows cycles where the trace has them).");
        }
        if (folded && spec.commandLine().getParseResult().hasMatchedOption("--top")) {
            throw new io.armtrace.source.InputException("--top applies to the table; --folded writes every call stack.");
        }
        List<InputOptions.Job> softwareJobs = new java.util.ArrayList<>();
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter, softwareJobs, false);
        if (results.stream().noneMatch(r -> r.job().protocol().tracesProgramFlow())) {
            // no program flow: the statistical profile of the DWT's PC samples, if there are any
            return samples(AnalysisRun.software(softwareJobs, results));
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            for (AnalysisRun.Result r : results) {
                Profile p = new Profile(r.analysis());
                if (folded) {
                    // several sources (cores): each under a root frame of its own
                    p.writeFolded(out, cycles, results.size() > 1 ? "[" + r.job().label() + "]" : null);
                    continue;
                }
                if (results.size() > 1) {
                    out.println("# " + r.job().label());
                }
                p.writeTable(out, by == By.line ? Profile.By.LINE : Profile.By.FUNCTION, top);
                if (results.size() > 1) {
                    out.println();
                }
            }
            file.commit();
        }
        return 0;
    }

    private int samples(java.util.Map<InputOptions.Job, io.armtrace.view.SoftwareTraceSummary> software) throws java.io.IOException {
        software.values().removeIf(t -> t.samples() == 0);
        if (software.isEmpty()) {
            throw AnalysisRun.softwareOnly(input);
        }
        if (filter.active()) {
            throw new io.armtrace.source.InputException("the filters choose decoded instructions; a profile of PC samples "
                    + "has none to choose from.");
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            for (java.util.Map.Entry<InputOptions.Job, io.armtrace.view.SoftwareTraceSummary> e : software.entrySet()) {
                String label = e.getKey().label();
                if (folded) {
                    e.getValue().writeSampleFolded(out, software.size() > 1 ? "[" + label + "]" : null);
                    continue;
                }
                if (software.size() > 1) {
                    out.println("# " + label);
                }
                e.getValue().writeSampleTable(out, by == By.line, top);
                if (software.size() > 1) {
                    out.println();
                }
            }
            file.commit();
        }
        return 0;
    }
}
