package io.armtrace.cli;

import io.armtrace.image.ImageException;
import io.armtrace.protocol.UnsupportedProtocolException;
import io.armtrace.source.InputException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code armtrace} command. */
@Command(name = "armtrace", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Decodes Arm program-flow trace (ETMv1/v2, ETMv3, PFT/PTM, ETMv4, ETE, MTB; raw, formatted, snapshots and "
                + "perf.data recordings) into the instructions the processor executed, and software trace (ITM/DWT, STM) into its messages; synthesizes trace from known "
                + "executions.")
public final class Main implements Runnable {
    /** Exit code for a user mistake or bad input file. */
    public static final int EXIT_USAGE = 2;

    /**
     * The subcommands' names, in the order {@code --help} lists them. They are added by {@link #commandLine(String[])}
     * rather than named in the annotation: picocli builds the model of every subcommand it is given (options,
     * converters, help text, by reflection), which was most of a short run's time.
     */
    private static final String[] NAMES = {"decode", "packets", "itm", "info", "deformat", "encode", "stats", "merge",
        "profile", "callgraph", "coverage", "report", "autofdo", "convert", "timeline", "completion", "man", "help"};

    /** The subcommand called {@code name}; a class is loaded only when its command is made. */
    private static Object newCommand(String name) {
        return switch (name) {
            case "decode" -> new DecodeCommand();
            case "packets" -> new PacketsCommand();
            case "itm" -> new ItmCommand();
            case "info" -> new InfoCommand();
            case "deformat" -> new DeformatCommand();
            case "encode" -> new EncodeCommand();
            case "stats" -> new StatsCommand();
            case "merge" -> new MergeCommand();
            case "profile" -> new ProfileCommand();
            case "callgraph" -> new CallgraphCommand();
            case "coverage" -> new CoverageCommand();
            case "report" -> new ReportCommand();
            case "autofdo" -> new AutofdoCommand();
            case "convert" -> new ConvertCommand();
            case "timeline" -> new TimelineCommand();
            case "completion" -> new CompletionCommand();
            case "man" -> new ManCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** The whole command, every subcommand in it (completion scripts, the manual page, tests). */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        for (String name : NAMES) {
            cl.addSubcommand(name, newCommand(name));
        }
        return cl;
    }

    /**
     * The command as far as {@code args} need it: with only the subcommand that {@code args} start with, and whole
     * otherwise (top-level help, an unknown command, and the subcommands that describe all the others: help,
     * completion, man). What picocli prints and parses is the same either way, as a subcommand's parsing, help and
     * messages do not depend on its siblings.
     */
    static CommandLine commandLine(String[] args) {
        if (args.length > 0 && java.util.Arrays.asList(NAMES).contains(args[0])
                && !List.of("help", "completion", "man").contains(args[0])) {
            CommandLine cl = new CommandLine(new Main());
            cl.addSubcommand(args[0], newCommand(args[0]));
            return cl;
        }
        return commandLine();
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: say what to do, e.g. 'armtrace decode DIR'.");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"armtrace " + version()};
        }

        /** The pom's version, which the build writes into version.properties (on the test classpath too). */
        static String version() {
            try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    java.util.Properties p = new java.util.Properties();
                    p.load(in);
                    String v = p.getProperty("version");
                    if (v != null && !v.isEmpty() && !v.startsWith("${")) {
                        return v;
                    }
                }
            } catch (java.io.IOException e) {
                // fall through to the manifest
            }
            String v = Main.class.getPackage().getImplementationVersion();
            return v == null ? "development build" : v;
        }
    }

    /**
     * Heap set aside at start and let go when the heap runs out, so that saying so (and ending) finds room: without
     * it, in a heap of a few megabytes the handler below ran out of heap itself now and then, and the command hung.
     */
    private static volatile byte[] reserve;

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            System.exit(run(args, standardOutput(), err)); // loads no more than it needs (StartupTest)
        }
        reserve = new byte[256 << 10];
        // made now: by then even joining strings may find no room
        byte[] outOfMemory = (outOfMemorySentence() + System.lineSeparator()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof OutOfMemoryError) {
                // a thread of the command's that ran out of heap while handing over its failure (a FutureTask left
                // completing for ever): what waits for it would never hear, so the command ends here, its temporary
                // files deleted by the shutdown hook; the other threads may take the room let go first, so if
                // saying so or ending fails for want of heap, the JVM stops at once
                try {
                    reserve = null;
                    System.err.write(outOfMemory, 0, outOfMemory.length);
                    System.err.flush();
                    System.exit(1);
                } catch (Throwable again) {
                    Runtime.getRuntime().halt(1);
                }
            }
            try {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                e.printStackTrace();
            } catch (Throwable again) {
                // saying it found no heap (in a heap of a few megabytes): the thread that died may be one the command
                // waits for, so rather than hang, say what ran out and stop
                try {
                    reserve = null;
                    if (again instanceof OutOfMemoryError) {
                        System.err.write(outOfMemory, 0, outOfMemory.length);
                        System.err.flush();
                    }
                } finally {
                    Runtime.getRuntime().halt(1);
                }
            }
        });
        System.exit(run(args, standardOutput(), err));
    }

    /** The exit code of a lost output, after its one sentence (none when the reader went away). */
    private static int outputLost(OutputFile.OutputFailure f, PrintWriter err, boolean showStack) {
        if (f.readerGone()) {
            // as objdump, perf or trc_pkt_lister under "| head": quiet, but not a success (128 + SIGPIPE)
            return OutputFile.EXIT_READER_GONE;
        }
        err.println("armtrace: " + Messages.printable(f.getMessage()));
        if (showStack) {
            f.printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    /** The output failure inside {@code t} (as thrown by a failed write, or wrapped once), or null. */
    private static OutputFile.OutputFailure outputFailureIn(Throwable t) {
        for (int depth = 0; t != null && depth < 4; depth++, t = t.getCause()) {
            if (t instanceof OutputFile.OutputFailure f) {
                return f;
            }
            if (!(t instanceof java.io.UncheckedIOException) && !(t instanceof java.util.concurrent.ExecutionException)) {
                return null;
            }
        }
        return null;
    }

    /**
     * Standard output in the platform's charset, as {@code new PrintWriter(System.out, true)} writes it, but
     * encoded straight into a byte buffer and written to descriptor 1 directly: {@code System.out} swallows write
     * errors, and a command whose reader has gone must stop at the first failed write (see
     * {@link OutputFile.StandardOutput}).
     */
    static PrintWriter standardOutput() {
        return standardOutput(new java.io.FileOutputStream(java.io.FileDescriptor.out), Path.of("/proc/self/fd/1"));
    }

    /** {@link #standardOutput()} over another stream ({@code descriptor}: where to tell a pipe from a file, or null). */
    static PrintWriter standardOutput(java.io.OutputStream stream, Path descriptor) {
        OutputFile.StandardOutput bytes = new OutputFile.StandardOutput(stream, descriptor);
        java.nio.charset.Charset charset = java.nio.charset.Charset.defaultCharset();
        return new ByteWriter(new io.armtrace.view.EncodingWriter(bytes, charset,
                io.armtrace.view.EncodingWriter.OUTPUT_BUFFER), true, bytes, charset);
    }

    /**
     * One sentence for the user. The project's own exceptions carry one; library exceptions (a number that
     * does not parse, an I/O failure) are put into words here rather than shown as the library's text.
     */
    static String messageOf(Throwable t) {
        if (t instanceof java.nio.file.NoSuchFileException nsf) {
            return Messages.shorten(nsf.getFile()) + ": no such file.";
        }
        if (t instanceof java.nio.file.AccessDeniedException ade) {
            return Messages.shorten(ade.getFile()) + ": permission denied.";
        }
        if (t instanceof java.nio.file.FileSystemException fse) {
            return Messages.shorten(fse.getFile()) + ": " + Messages.reason(fse) + ".";
        }
        if (t instanceof NumberFormatException) {
            String m = t.getMessage() == null ? "" : t.getMessage();
            int q = m.indexOf('"');
            String value = q >= 0 && m.endsWith("\"") && m.length() > q + 1 ? m.substring(q + 1, m.length() - 1) : m;
            return "'" + Messages.shorten(value) + "' is not a number where the command expected one.";
        }
        if (t instanceof InputException || t instanceof ImageException || t instanceof UnsupportedProtocolException) {
            return capped(t.getMessage() == null ? t.toString() : t.getMessage());
        }
        if (t instanceof java.io.IOException io) {
            return "Reading or writing a file failed: " + Messages.reason(io) + ".";
        }
        if (t instanceof IllegalArgumentException && t.getMessage() != null) {
            return capped(t.getMessage());
        }
        return "internal error (" + t.getClass().getSimpleName() + "); please report it with the --debug output.";
    }

    /** A sentence that quotes a long value whole is cut: nobody reads a screenful of one file name. */
    private static String capped(String message) {
        return message.length() <= 3 * Messages.MAX_ECHO ? message : message.substring(0, 3 * Messages.MAX_ECHO) + "...";
    }

    /**
     * A decimal option value in ASCII digits (an optional sign) between {@code min} and {@code max}; else a picocli
     * conversion error in picocli's own words ("'x' is not an int").
     */
    static long asciiNumber(String value, long min, long max, String what) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0x7F && Character.isDigit(c)) {
                throw new CommandLine.TypeConversionException("'" + Messages.shorten(value)
                        + "' is not " + what + ": numbers are written in ASCII digits (0-9)");
            }
        }
        try {
            long v = Long.parseLong(value);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new CommandLine.TypeConversionException("'" + Messages.shorten(value) + "' is not " + what);
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
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // what picocli would print for the same words, without the half of a short run it takes to set up
            try {
                for (String line : new Version().getVersion()) {
                    out.println(line);
                }
                out.flush();
            } catch (RuntimeException e) {
                // the byte writer of standard output reports a failed write by throwing, as in a listing
                OutputFile.OutputFailure lost = outputFailureIn(e);
                if (lost == null) {
                    throw e;
                }
                return outputLost(lost, err, showStack);
            }
            return out.checkError() ? standardOutputLost(err, showStack) : 0;
        }
        CommandLine cl = commandLine(args);
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // picocli's own int and long converters are Integer.valueOf and Long.valueOf, which take other scripts'
        // digits (--jobs ２): numbers on this command line are ASCII
        CommandLine.ITypeConverter<Integer> ints = v -> (int) asciiNumber(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "an int");
        CommandLine.ITypeConverter<Long> longs = v -> asciiNumber(v, Long.MIN_VALUE, Long.MAX_VALUE, "a long");
        cl.registerConverter(Integer.class, ints);
        cl.registerConverter(int.class, ints);
        cl.registerConverter(Long.class, longs);
        cl.registerConverter(long.class, longs);
        cl.setParameterExceptionHandler((ex, arguments) -> {
            // picocli's sentence quotes the offending value whole: cut it, and point to --help instead of
            // printing the whole usage
            String m = ex.getMessage() == null ? "bad command line" : ex.getMessage();
            err.println("armtrace: " + (m.length() > Messages.MAX_ECHO + 100 ? m.substring(0, Messages.MAX_ECHO + 100) + "..." : m)
                    + (m.endsWith(".") ? "" : ".") + " See '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            err.flush();
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            OutputFile.OutputFailure lost = outputFailureIn(ex);
            if (lost != null) {
                // lost output: not the user's mistake, but never success
                return outputLost(lost, err, showStack);
            }
            Throwable t = ex;
            if (t instanceof java.io.UncheckedIOException && t.getCause() != null) {
                t = t.getCause();
            }
            if (t instanceof io.armtrace.protocol.ChunkedDecode.TemporaryFileFailure tsf) {
                return outputLost(OutputFile.temporaryFailure(tsf), err, showStack);
            }
            boolean userError = t instanceof InputException || t instanceof ImageException
                    || t instanceof UnsupportedProtocolException || t instanceof IllegalArgumentException
                    || t instanceof java.io.IOException;
            err.println("armtrace: " + Messages.printable(messageOf(t)));
            if (showStack || !userError) {
                t.printStackTrace(err);
            }
            err.flush();
            return userError ? EXIT_USAGE : 1;
        });
        // picocli prints --help, --version and usage itself, and shows a stack trace for anything they throw: a
        // failed write there ends the command as any other
        CommandLine.IExecutionStrategy strategy = cl.getExecutionStrategy();
        cl.setExecutionStrategy(parseResult -> {
            try {
                return strategy.execute(parseResult);
            } catch (RuntimeException e) {
                OutputFile.OutputFailure lost = outputFailureIn(e);
                if (lost == null) {
                    throw e;
                }
                return outputLost(lost, err, showStack);
            }
        });
        int code;
        try {
            code = cl.execute(args);
            if (code != 0) {
                return code; // said already; a failed write to standard output as well changes nothing
            }
            // what picocli printed and left in the buffer
            out.flush();
        } catch (RuntimeException e) {
            OutputFile.OutputFailure lost = outputFailureIn(e);
            if (lost == null) {
                throw e;
            }
            return outputLost(lost, err, showStack);
        } catch (OutOfMemoryError e) {
            return outOfMemory(e, err, showStack);
        }
        if (code == 0 && out.checkError()) {
            return standardOutputLost(err, showStack);
        }
        return code;
    }

    /**
     * The exit code of a command that ran out of heap, after one sentence saying how to give it more: what it wrote
     * is incomplete. By the time the error reaches here, what the command held is garbage, so there is room to say so.
     */
    static int outOfMemory(OutOfMemoryError e, PrintWriter err, boolean showStack) {
        reserve = null;
        err.println(outOfMemorySentence());
        if (showStack) {
            e.printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    /** What {@link #outOfMemory} says. */
    static String outOfMemorySentence() {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        return "armtrace: out of memory (a Java heap of " + mb + " MB); any output is incomplete. Give Java more with "
                + "ARMTRACE_JAVA_OPTS=\"-Xss8m -Xmx" + Math.max(1, (2 * mb + 1023) >> 10) + "g\", or decode with --jobs 1.";
    }

    /** The exit code when what was printed to standard output did not all get there, after its sentence. */
    private static int standardOutputLost(PrintWriter err, boolean showStack) {
        return outputLost(new OutputFile.OutputFailure("standard output: writing failed (disk full, or the reader "
                + "went away); the output is incomplete."), err, showStack);
    }
}
