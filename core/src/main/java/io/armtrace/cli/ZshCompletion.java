package io.armtrace.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A zsh completion function for the {@code armtrace} command, made from the picocli command model (the
 * same model as {@code --help}, the bash script and the manual page): subcommands with their one-line
 * descriptions, every option with its help text, the values of options that have a fixed set (enums,
 * {@code --protocol}), and files for options and parameters that name a file. The script works both
 * as a file {@code _armtrace} on {@code $fpath} and sourced ({@code source <(armtrace completion zsh)}).
 */
final class ZshCompletion {
    private ZshCompletion() {
    }

    static String script(CommandLine root) {
        String name = root.getCommandName();
        String fn = "_" + name;
        StringBuilder s = new StringBuilder();
        s.append("#compdef ").append(name).append('\n');
        s.append("# zsh completion for ").append(name).append(", generated from its command model: either put it on\n");
        s.append("# $fpath as ").append(fn).append(", or load it with: source <(").append(name).append(" completion zsh)\n\n");
        s.append(fn).append("() {\n");
        s.append("  local -a commands\n");
        s.append("  commands=(\n");
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            s.append("    ").append(quote(e.getKey() + ":" + firstLine(e.getValue().getCommandSpec()))).append('\n');
        }
        s.append("  )\n");
        s.append("  if (( CURRENT == 2 )); then\n");
        s.append("    _describe -t commands '").append(name).append(" command' commands\n");
        s.append("    return\n");
        s.append("  fi\n");
        s.append("  local cmd=${words[2]}\n");
        s.append("  shift words\n");
        s.append("  (( CURRENT-- ))\n");
        s.append("  case $cmd in\n");
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            s.append("    ").append(e.getKey()).append(")\n");
            s.append("      _arguments -s");
            for (String spec : argumentSpecs(e.getValue().getCommandSpec())) {
                s.append(" \\\n        ").append(spec);
            }
            s.append("\n      ;;\n");
        }
        s.append("  esac\n");
        s.append("}\n\n");
        // run as an autoloaded completion function, or register it when sourced
        s.append("if [ \"$funcstack[1]\" = \"").append(fn).append("\" ]; then\n");
        s.append("  ").append(fn).append(" \"$@\"\n");
        s.append("else\n");
        s.append("  compdef ").append(fn).append(' ').append(name).append('\n');
        s.append("fi\n");
        return s.toString();
    }

    /** The {@code _arguments} specifications of one subcommand's options and parameters. */
    static List<String> argumentSpecs(CommandSpec spec) {
        List<String> out = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            String[] names = o.names();
            String help = description(o.description());
            boolean repeatable = o.isMultiValue();
            StringBuilder b = new StringBuilder();
            if (names.length > 1) {
                // (-o --output){-o,--output}'[...]': either name, and not both; *{-a,--bb}: repeatable
                b.append(repeatable ? "'*'" : "'(" + String.join(" ", names) + ")'");
                b.append('{').append(String.join(",", names)).append('}');
                b.append(quote("[" + help + "]" + valueSpec(o)));
            } else {
                b.append(quote((repeatable ? "*" : "") + names[0] + "[" + help + "]" + valueSpec(o)));
            }
            out.add(b.toString());
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.hidden()) {
                continue;
            }
            String label = p.paramLabel().replaceAll("[<>]", "");
            String action = action(p.type(), p.completionCandidates());
            if (p.isMultiValue() || p.arity().max() > 1) {
                out.add(quote("*:" + escape(label) + ":" + action));
            } else {
                out.add(quote((p.index().min() + 1) + ":" + escape(label) + ":" + action));
            }
        }
        return out;
    }

    /** {@code :LABEL:ACTION} for an option that takes a value, nothing for a flag. */
    private static String valueSpec(OptionSpec o) {
        if (o.arity().max() == 0) {
            return "";
        }
        String label = o.paramLabel().replaceAll("[<>]", "");
        // a file name given as text, such as --image FILE[@ADDR], still completes as a file
        String action = label.startsWith("FILE") || label.startsWith("DIR") || label.startsWith("LOG")
                ? "_files" : action(o.type(), o.completionCandidates());
        return ":" + escape(label) + ":" + action;
    }

    /** What zsh offers for a value: a fixed set, files, or nothing (a number, a name). */
    private static String action(Class<?> type, Iterable<String> candidates) {
        if (candidates != null && candidates.iterator().hasNext()) {
            StringBuilder b = new StringBuilder("(");
            for (String c : candidates) {
                b.append(b.length() > 1 ? " " : "").append(escape(c).replace(" ", "\\ "));
            }
            return b.append(')').toString();
        }
        if (type == Path.class || type == java.io.File.class) {
            return "_files";
        }
        return " ";
    }

    private static String firstLine(CommandSpec spec) {
        String[] header = spec.usageMessage().header();
        return description(header != null && header.length > 0 ? header : spec.usageMessage().description());
    }

    private static String description(String[] lines) {
        if (lines == null || lines.length == 0) {
            return "";
        }
        String d = lines[0].replace("%n", " ").trim();
        // the first sentence: up to a full stop that a capital letter follows (not "e.g. 0x10")
        for (int i = d.indexOf(". "); i > 0; i = d.indexOf(". ", i + 1)) {
            if (i + 2 < d.length() && Character.isUpperCase(d.charAt(i + 2))) {
                d = d.substring(0, i);
                break;
            }
        }
        if (d.endsWith(".")) {
            d = d.substring(0, d.length() - 1);
        }
        return escape(d);
    }

    /** Escapes what _arguments reads specially inside a specification: brackets and colons. */
    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:");
    }

    /** A single-quoted zsh word. */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
