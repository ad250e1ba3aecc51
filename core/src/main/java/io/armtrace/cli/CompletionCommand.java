package io.armtrace.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code armtrace completion bash|zsh}: the shell completion script, made from the same command model as --help
 * (bash: picocli's generator; zsh: {@link ZshCompletion}, a native {@code _arguments} function).
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a shell completion script for armtrace: bash or zsh.",
                "Examples:",
                "  source <(armtrace completion bash)",
                "  source <(armtrace completion zsh)        (or save it as _armtrace in a directory of $fpath)",
                "  armtrace completion bash > /etc/bash_completion.d/armtrace"})
final class CompletionCommand implements Callable<Integer> {
    enum Shell { bash, zsh }

    @Parameters(index = "0", arity = "0..1", paramLabel = "SHELL", description = "bash (default) or zsh.")
    Shell shell = Shell.bash;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws java.io.IOException {
        CommandLine root = spec.root().commandLine();
        String script = shell == Shell.zsh ? ZshCompletion.script(root) : AutoComplete.bash(spec.root().name(), root);
        try (OutputFile file = OutputFile.stdout(spec.commandLine().getOut())) {
            file.writer().print(script);
            file.commit();
        }
        return 0;
    }
}
