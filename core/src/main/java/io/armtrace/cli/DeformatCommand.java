package io.armtrace.cli;

import io.armtrace.source.InputException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code armtrace deformat}: one source's raw trace out of a CoreSight formatted buffer. */
@Command(name = "deformat", mixinStandardHelpOptions = true,
        description = {"Takes one trace source's raw bytes out of a CoreSight formatted buffer (ETB/ETF/ETR dump or "
                + "TPIU/DSTREAM capture; frame and half-word syncs are removed where present).",
                "Example: armtrace deformat cstrace.bin --source 0x10 -o etm0.bin"})
final class DeformatCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "The formatted trace buffer.")
    Path file;

    @Option(names = "--source", required = true, paramLabel = "ID", description = "Trace ID to keep, e.g. 0x10.")
    String source;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Where to write the raw trace.")
    Path output;

    @Option(names = "--force", description = "Replace OUT if it exists.")
    boolean force;

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String problem = io.armtrace.image.FileKind.problem(file);
        if (problem != null) {
            throw new InputException(Messages.shorten(problem) + ".");
        }
        int id = InputOptions.parseId(source);
        OutputFile.refuseInput(output, java.util.List.of(file), "-o");
        if (!force && OutputFile.replacesAFile(output)) {
            throw new InputException("-o " + Messages.shorten(output.toString()) + ": already exists; add --force to replace it.");
        }
        long written;
        try (OutputFile out = OutputFile.open(output, spec.commandLine().getOut(), java.util.List.of(file), "-o")) {
            java.io.OutputStream stream = new java.io.BufferedOutputStream(out.stream(), 1 << 16);
            written = FormattedTrace.extract(file, id, stream);
            stream.flush();
            out.commit();
        }
        spec.commandLine().getErr().printf("%s: %d bytes of trace ID 0x%02x written to %s%n", file, written, id, output);
        return 0;
    }
}
