package io.armtrace.cli;

import io.armtrace.image.ImageException;
import io.armtrace.protocol.UnsupportedProtocolException;
import io.armtrace.source.InputException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code armtrace} command. */
@Command(name = "armtrace", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Decodes Arm program-flow trace (ETMv1/v2, ETMv3, PFT/PTM, MTB) into the instructions the "
                + "processor executed, and synthesizes trace from known executions.",
        subcommands = {DecodeCommand.class, PacketsCommand.class, InfoCommand.class, DeformatCommand.class,
                EncodeCommand.class, StatsCommand.class, MergeCommand.class,
                ProfileCommand.class, CallgraphCommand.class, CoverageCommand.class, ReportCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** Exit code for a user mistake or bad input file. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: say what to do, e.g. 'armtrace decode DIR'.");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"armtrace " + (v == null ? "development build" : v)};
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        boolean debug = false;
        for (String a : args) {
            if (a.equals("--debug")) {
                debug = true;
            }
        }
        final boolean showStack = debug;
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            Throwable t = ex;
            if (t instanceof java.io.UncheckedIOException && t.getCause() != null) {
                t = t.getCause();
            }
            boolean userError = t instanceof InputException || t instanceof ImageException
                    || t instanceof UnsupportedProtocolException || t instanceof IllegalArgumentException
                    || t instanceof java.io.IOException;
            String message = t.getMessage() == null ? t.toString() : t.getMessage();
            if (t instanceof java.nio.file.NoSuchFileException nsf) {
                message = nsf.getFile() + ": no such file.";
            }
            err.println("armtrace: " + message);
            if (showStack || !userError) {
                t.printStackTrace(err);
            }
            err.flush();
            return userError ? EXIT_USAGE : 1;
        });
        return cl.execute(args);
    }
}
