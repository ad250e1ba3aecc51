package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.trace.ElementSink;
import io.armtrace.view.AutoFdoProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code armtrace autofdo}: the AutoFDO text profile of one or more captures, for create_llvm_prof. */
@Command(name = "autofdo", mixinStandardHelpOptions = true,
        description = {"Writes the AutoFDO text profile (executed address ranges and taken branches with counts, as "
                + "'create_llvm_prof --profiler text' reads it) of one program; several inputs add up into one profile.",
                "Examples:",
                "  armtrace autofdo --protocol mtb --trace buffer.bin --reg POSITION=0x20000108 --image fw.elf -o fw.afdo",
                "  armtrace autofdo run1/ run2/ run3/ --image prog.elf -o prog.afdo",
                "  create_llvm_prof --profiler text --profile prog.afdo --binary prog.elf --out prog.prof"})
final class AutofdoCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @Parameters(index = "1..*", paramLabel = "MORE", description = "More snapshot directories, added into the same profile "
            + "(--image, --reg and --protocol apply to each).")
    List<Path> more = new ArrayList<>();

    @Option(names = "--binary", paramLabel = "REGEX",
            description = "Profile only the binaries whose path matches REGEX (a Java regular expression, found anywhere in the path).")
    String binary;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Pattern pattern = null;
        if (binary != null) {
            try {
                pattern = Pattern.compile(binary);
            } catch (PatternSyntaxException e) {
                throw new InputException("--binary " + Messages.shorten(binary) + ": not a regular expression ("
                        + Messages.shorten(e.getDescription()) + ").");
            }
        }
        Pattern p = pattern;
        AutoFdoProfile profile = new AutoFdoProfile(path -> p == null || p.matcher(path).find());
        List<Path> inputs = new ArrayList<>();
        if (input.snapshot != null) {
            inputs.add(input.snapshot);
        }
        inputs.addAll(more);
        List<Path> read = new ArrayList<>();
        if (inputs.isEmpty()) {
            decode(profile); // --trace FILE, or the message that says what to give
            read.addAll(input.inputFiles());
        } else {
            for (Path in : inputs) {
                input.snapshot = in;
                decode(profile); // a snapshot, or a perf.data recording per CPU with the binaries it maps
                read.addAll(input.inputFiles());
                read.add(in);
            }
        }
        List<AutoFdoProfile.Counts> binaries = profile.binaries();
        if (binaries.isEmpty()) {
            throw new InputException("No instructions of " + (pattern == null ? "a program image" : "a binary matching --binary "
                    + Messages.shorten(binary)) + " were decoded, so there is no profile to write; give the program with --image FILE.");
        }
        if (binaries.size() > 1) {
            List<String> names = binaries.stream().map(c -> c.binary().path()).limit(5).toList();
            throw new InputException("The trace ran in " + binaries.size() + " binaries (" + String.join(", ", names)
                    + (binaries.size() > 5 ? ", ..." : "") + ") and an AutoFDO profile describes one: choose it with --binary REGEX.");
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), read)) {
            profile.write(file.writer());
            file.commit();
        }
        return 0;
    }

    /** Every program-flow source of the current input, into the profile. */
    private void decode(AutoFdoProfile profile) throws java.io.IOException {
        List<InputOptions.Job> jobs = new ArrayList<>(input.jobs());
        // software trace (ITM, STM) has no instructions; it is decoded only when named with --source
        if (input.sources == null || input.sources.isEmpty()) {
            jobs.removeIf(j -> !j.protocol().tracesProgramFlow());
        }
        for (InputOptions.Job job : jobs) {
            ElementSink sink = profile.stream(job.input().image().memory(), job.input().code());
            job.decode(sink);
            sink.end();
        }
    }
}
