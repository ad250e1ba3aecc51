package io.armtrace.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where text output goes: standard output or {@code -o FILE}. */
final class OutputOptions {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    /** A writer for the output; closing it closes the file but leaves standard output open. */
    PrintWriter open(PrintWriter stdout) throws IOException {
        if (output == null) {
            return new PrintWriter(new BufferedWriter(new NonClosing(stdout), 1 << 16), false);
        }
        return new PrintWriter(Files.newBufferedWriter(output, StandardCharsets.UTF_8), false);
    }

    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
