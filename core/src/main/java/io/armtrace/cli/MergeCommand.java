package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.view.FoldedStacks;
import io.armtrace.view.LcovTracefile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code armtrace merge}: the coverage or profile of many captures added together. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Adds up LCOV tracefiles (counts summed per line, function and branch) or folded stacks "
                + "(counts summed per call path) of several captures.",
                "Examples:",
                "  armtrace merge --lcov a.info b.info -o all.info",
                "  armtrace merge --folded a.folded b.folded -o all.folded"})
final class MergeCommand implements Callable<Integer> {
    @Mixin
    OutputOptions output;

    @CommandLine.ArgGroup(multiplicity = "1")
    Kind kind;

    static final class Kind {
        @Option(names = "--lcov", description = "The files are LCOV tracefiles (armtrace coverage --lcov).")
        boolean lcov;

        @Option(names = "--folded", description = "The files are folded stacks (armtrace profile --folded).")
        boolean folded;
    }

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The files to add up.")
    List<Path> files;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        LcovTracefile lcov = new LcovTracefile();
        FoldedStacks folded = new FoldedStacks();
        for (Path f : files) {
            String problem = io.armtrace.image.FileKind.problem(f);
            if (problem != null) {
                // a device such as /dev/zero would be read as one endless line
                throw new InputException(Messages.shorten(problem) + ".");
            }
            try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                if (kind.lcov) {
                    lcov.add(r, f.toString());
                } else {
                    folded.add(r, f.toString());
                }
            } catch (NoSuchFileException e) {
                throw new InputException(Messages.shorten(f.toString()) + ": no such file.");
            } catch (IllegalArgumentException e) {
                throw new InputException(e.getMessage());
            } catch (IOException e) {
                throw new InputException(Messages.shorten(f.toString()) + ": cannot be read (" + Messages.reason(e) + ").");
            }
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), files)) {
            PrintWriter out = file.writer();
            if (kind.lcov) {
                lcov.write(out, "armtrace");
            } else {
                folded.write(out);
            }
            file.commit();
        }
        return 0;
    }
}
