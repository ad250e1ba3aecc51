package io.armtrace.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine.Option;

/** Where text output goes: standard output or {@code -o FILE} (see {@link OutputFile}). */
final class OutputOptions {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    /**
     * The output; {@code inputs} are the command's own input files, which {@code -o} must not name. Commit it
     * when the command succeeded; closing it without a commit leaves an existing file as it was.
     */
    OutputFile open(PrintWriter stdout, Collection<Path> inputs) throws IOException {
        return OutputFile.open(output, stdout, inputs, "-o");
    }

    OutputFile open(PrintWriter stdout) throws IOException {
        return open(stdout, List.of());
    }
}
