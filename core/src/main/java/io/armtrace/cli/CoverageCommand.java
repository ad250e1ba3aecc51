package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.view.Coverage;
import io.armtrace.view.SourceFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
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
                "  armtrace coverage SNAPSHOT --image prog.elf --lcov cov.info   (genhtml cov.info -o html)",
                "  armtrace coverage SNAPSHOT --lcov cov.info --source-root ~/src/fw --exclude '*/newlib/*'"})
final class CoverageCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    FilterOptions filter;

    @Mixin
    OutputOptions output;

    @Option(names = "--lcov", paramLabel = "FILE", description = "Also write an LCOV tracefile (for genhtml) to FILE.")
    Path lcov;

    @Option(names = "--source-root", paramLabel = "DIR",
            description = "Look for source files with relative paths under DIR (default: the working directory, and the "
                    + "snapshot's and image files' directories with their parents).")
    Path sourceRoot;

    @Option(names = "--source-map", paramLabel = "FROM=TO",
            description = "Read source paths that start with FROM as starting with TO (as gcc -ffile-prefix-map). Repeatable.")
    List<String> sourceMap = new ArrayList<>();

    @Option(names = "--include", paramLabel = "GLOB",
            description = "Only source files whose path matches GLOB (* and ? as lcov --include). Repeatable.")
    List<String> include = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Leave out source files whose path matches GLOB. Repeatable.")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--source-paths", paramLabel = "MODE",
            description = "found (default): absolute paths of the source files found; those not found are left out, with a "
                    + "warning. recorded: the paths as the compiler recorded them, none looked for (for tracefiles read elsewhere).")
    SourcePaths sourcePaths = SourcePaths.found;

    enum SourcePaths { found, recorded }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<AnalysisRun.Result> results = AnalysisRun.run(input, filter);
        boolean sourceOptions = sourceRoot != null || !sourceMap.isEmpty() || !include.isEmpty() || !exclude.isEmpty()
                || spec.commandLine().getParseResult().hasMatchedOption("--source-paths");
        if (lcov == null && sourceOptions) {
            throw new InputException("--source-root, --source-map, --include, --exclude and --source-paths say how the "
                    + "--lcov tracefile names source files; add --lcov FILE.");
        }
        if (lcov != null) {
            AnalysisRun.Result r = AnalysisRun.single(results, "An LCOV tracefile");
            SourceFiles sources = sources();
            Coverage coverage = new Coverage(r.analysis());
            try (OutputFile file = OutputFile.open(lcov, spec.commandLine().getOut(), input.inputFiles(), "--lcov")) {
                coverage.writeLcov(file.writer(), "armtrace", sources);
                file.commit();
            }
            PrintWriter err = spec.commandLine().getErr();
            for (String missing : sources.missing()) {
                err.println("armtrace: " + Messages.shorten(missing) + ": source file not found; left out of the LCOV "
                        + "tracefile (--source-root or --source-map say where the sources are).");
            }
            if (r.job().input().image().lines().isEmpty()) {
                err.println("armtrace: the program image has no DWARF line tables, so the LCOV tracefile names no source "
                        + "file; give the program's ELF file (built with -g) with --image.");
            }
            err.flush();
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

    /** How the tracefile names source files, from the options and where the inputs are. */
    private SourceFiles sources() {
        java.util.Map<String, String> map = new java.util.LinkedHashMap<>();
        for (String m : sourceMap) {
            int eq = m.indexOf('=');
            if (eq <= 0) {
                throw new InputException("--source-map " + Messages.shorten(m) + ": expected FROM=TO.");
            }
            map.put(m.substring(0, eq), m.substring(eq + 1));
        }
        if (sourcePaths == SourcePaths.recorded) {
            if (sourceRoot != null) {
                throw new InputException("--source-root says where to look for sources; --source-paths recorded looks for none.");
            }
            return SourceFiles.asRecorded(map, include, exclude);
        }
        List<Path> roots = new ArrayList<>();
        if (sourceRoot != null) {
            if (!java.nio.file.Files.isDirectory(sourceRoot)) {
                throw new InputException("--source-root " + sourceRoot + ": no such directory.");
            }
            roots.add(sourceRoot);
        } else {
            // the working directory, then where the capture and the images are, and their parents: a program
            // built with -ffile-prefix-map=ROOT=. names its sources relative to its project root
            roots.add(Path.of("").toAbsolutePath());
            List<Path> places = new ArrayList<>();
            if (input.snapshot != null) {
                places.add(input.snapshot);
            }
            for (String image : input.images) {
                Path f = io.armtrace.image.RawImage.fileOf(image);
                if (f != null) {
                    places.add(f.toAbsolutePath().getParent());
                }
            }
            for (Path p : places) {
                for (Path d = p == null ? null : p.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
                    if (!roots.contains(d)) {
                        roots.add(d);
                    }
                }
            }
        }
        return new SourceFiles(roots, map, include, exclude);
    }
}
