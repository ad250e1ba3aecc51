package io.armtrace.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code armtrace completion bash}: the shell completion script, made by picocli from the same model as --help. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a shell completion script for armtrace (bash; zsh after 'autoload -U bashcompinit && bashcompinit').",
                "Examples:",
                "  source <(armtrace completion bash)",
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
        // picocli's script serves both: zsh runs it through bashcompinit
        String script = AutoComplete.bash(spec.root().name(), root);
        try (OutputFile file = OutputFile.stdout(spec.commandLine().getOut())) {
            file.writer().print(script);
            file.commit();
        }
        return 0;
    }
}
