package io.armtrace.cli;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code armtrace man}: the manual page in roff (man(7) macros), written from the same command model as
 * {@code --help}, so the two never disagree. One page: the command, then a section per subcommand.
 */
@Command(name = "man", mixinStandardHelpOptions = true,
        description = {"Prints the manual page (roff) made from the commands' help.",
                "Examples:",
                "  armtrace man | man -l -",
                "  armtrace man -o armtrace.1"})
final class ManCommand implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    OutputOptions output;

    @CommandLine.Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        String page = page(spec.root(), Main.Version.version());
        try (OutputFile file = output.open(spec.commandLine().getOut())) {
            file.writer().print(page);
            file.commit();
        }
        return 0;
    }

    /** The whole page for {@code root} and its subcommands. */
    static String page(CommandSpec root, String version) {
        StringBuilder b = new StringBuilder();
        String name = root.name();
        b.append(".TH ").append(name.toUpperCase(Locale.ROOT)).append(" 1 \"\" \"").append(escape(name + " " + version))
                .append("\" \"User Commands\"\n");
        b.append(".SH NAME\n").append(escape(name)).append(" \\- ").append(escape(first(root))).append('\n');
        b.append(".SH SYNOPSIS\n.B ").append(escape(name)).append("\n.I COMMAND\n[\\fIOPTIONS\\fR]\n");
        b.append(".SH DESCRIPTION\n");
        paragraphs(b, root);
        b.append(".SH COMMANDS\n");
        for (CommandLine sub : root.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (s.name().equals("help")) {
                continue;
            }
            b.append(".TP\n.B ").append(escape(s.name())).append('\n').append(escape(first(s))).append('\n');
        }
        options(b, root);
        for (CommandLine sub : root.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (s.name().equals("help")) {
                continue;
            }
            b.append(".SH \"").append(escape(name + " " + s.name()).toUpperCase(Locale.ROOT)).append("\"\n");
            b.append(".nf\n").append(escape(sub.getHelp().synopsis(0).strip())).append("\n.fi\n");
            paragraphs(b, s);
            positionals(b, s);
            options(b, s);
        }
        b.append(".SH SEE ALSO\n").append(escape(name)).append(" COMMAND \\-\\-help; README.md and docs/ of the project.\n");
        return b.toString();
    }

    private static String first(CommandSpec s) {
        String[] d = s.usageMessage().description();
        return d.length == 0 ? "" : d[0];
    }

    /** The description: its lines, the examples kept as they are (no filling). */
    private static void paragraphs(StringBuilder b, CommandSpec s) {
        boolean examples = false;
        for (String line : s.usageMessage().description()) {
            if (line.startsWith("  ")) {
                if (!examples) {
                    b.append(".PP\n.nf\n");
                    examples = true;
                }
                b.append(escape(line.strip())).append('\n');
                continue;
            }
            if (examples) {
                b.append(".fi\n");
                examples = false;
            }
            b.append(".PP\n").append(escape(line)).append('\n');
        }
        if (examples) {
            b.append(".fi\n");
        }
    }

    private static void positionals(StringBuilder b, CommandSpec s) {
        for (PositionalParamSpec p : s.positionalParameters()) {
            b.append(".TP\n.I ").append(escape(p.paramLabel())).append('\n')
                    .append(escape(String.join(" ", p.description()))).append('\n');
        }
    }

    private static void options(StringBuilder b, CommandSpec s) {
        if (s.options().isEmpty()) {
            return;
        }
        b.append(".SS Options\n");
        for (OptionSpec o : s.options()) {
            b.append(".TP\n");
            StringBuilder names = new StringBuilder();
            for (String n : o.names()) {
                if (names.length() > 0) {
                    names.append(", ");
                }
                names.append("\\fB").append(escape(n)).append("\\fR");
            }
            if (o.typeInfo().isBoolean() == Boolean.FALSE && o.arity().max() > 0) {
                names.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
            }
            b.append(names).append('\n').append(escape(String.join(" ", o.description()))).append('\n');
        }
    }

    /** Text safe in roff: backslashes and hyphens escaped, no line starting with a control character. */
    static String escape(String text) {
        String t = text.replace("\\", "\\e").replace("-", "\\-");
        StringBuilder b = new StringBuilder(t.length() + 8);
        for (String line : t.split("\n", -1)) {
            if (b.length() > 0) {
                b.append('\n');
            }
            if (line.startsWith(".") || line.startsWith("'")) {
                b.append("\\&");
            }
            b.append(line);
        }
        return b.toString();
    }
}
