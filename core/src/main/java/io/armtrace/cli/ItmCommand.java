package io.armtrace.cli;

import io.armtrace.source.InputException;
import io.armtrace.view.StimulusConsole;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code armtrace itm}: the text a Cortex-M program wrote to its ITM stimulus ports (printf over SWO). */
@Command(name = "itm", mixinStandardHelpOptions = true,
        description = {"Prints what a program wrote to ITM stimulus ports, as the console of each port (the printf "
                + "use of SWO): characters a line at a time, flushed at each newline.",
                "Takes an SWO capture (--trace FILE), a TPIU capture (--trace FILE --formatted --source ID) or a snapshot "
                        + "with an ITM source.",
                "Examples:",
                "  armtrace itm --trace swo.bin",
                "  armtrace itm --trace swo.bin --port 0,1 -o console.txt",
                "  armtrace itm --trace tpiu.bin --formatted --source 1 --port 0"})
final class ItmCommand implements Callable<Integer> {
    @Mixin
    InputOptions input;

    @Mixin
    OutputOptions output;

    @Option(names = "--port", paramLabel = "N", split = ",",
            description = "Stimulus ports to print, 0 to 255 (default 0, where ITM_SendChar writes). With several, "
                    + "each line starts with [port N].")
    List<Integer> ports = new ArrayList<>(List.of(0));

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        int[] chosen = new int[ports.size()];
        for (int i = 0; i < chosen.length; i++) {
            int p = ports.get(i);
            if (p < 0 || p > 255) {
                throw new InputException("--port " + p + ": stimulus ports are 0 to 255.");
            }
            for (int j = 0; j < i; j++) {
                if (chosen[j] == p) {
                    throw new InputException("--port " + p + " is given twice.");
                }
            }
            chosen[i] = p;
        }
        if (input.protocol == null && input.trace != null) {
            input.protocol = "itm";
        }
        if (input.protocol != null && !input.protocol.equalsIgnoreCase("itm")) {
            throw new InputException("--protocol " + input.protocol + ": armtrace itm reads ITM trace only.");
        }
        List<InputOptions.Job> jobs = new ArrayList<>(input.jobs());
        jobs.removeIf(j -> !j.protocol().name().equals("itm"));
        if (jobs.isEmpty()) {
            throw new InputException(input.snapshot + ": has no ITM trace source.");
        }
        if (jobs.size() > 1) {
            throw new InputException(input.snapshot + ": has " + jobs.size() + " ITM sources; choose one with --source ID.");
        }
        InputOptions.Job job = jobs.get(0);
        long bytes;
        long losses;
        try (OutputFile file = output.open(spec.commandLine().getOut(), input.inputFiles())) {
            PrintWriter out = file.writer();
            StimulusConsole console = new StimulusConsole(out, chosen).flushEachLine(output.output == null);
            job.decode(console);
            console.end();
            bytes = console.bytes();
            losses = console.losses();
            file.commit();
        }
        PrintWriter err = spec.commandLine().getErr();
        if (losses > 0) {
            err.println("armtrace: " + Messages.shorten(job.label()) + ": " + losses + (losses == 1 ? " place" : " places")
                    + " where the ITM overflowed or the trace was damaged: characters may be missing there.");
        }
        if (bytes == 0) {
            err.println("armtrace: " + Messages.shorten(job.label()) + ": nothing was written to stimulus port"
                    + (chosen.length > 1 ? "s " : " ") + ports.toString().replaceAll("[\\[\\] ]", "") + ".");
        }
        err.flush();
        return 0;
    }
}
