package io.armtrace.cli;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.execution.QemuPluginLog;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.RawImage;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.EncodeOption;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.InputException;
import io.armtrace.source.SnapshotWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code armtrace encode}: the trace a trace unit would have produced for a known execution. */
@Command(name = "encode", mixinStandardHelpOptions = true,
        description = {"Synthesizes the trace that a trace unit would produce for a known execution "
                + "(an armtrace execution record or a QEMU instruction log).",
                "Protocol options follow as --NAME or --NAME=VALUE; 'armtrace encode --protocol P --list-options' lists them.",
                "Examples:",
                "  armtrace encode --protocol ptm --execution run.exec.gz --image prog.elf --return-stack=on --snapshot-out snap/",
                "  armtrace encode --protocol etm3 --execution qemu.log --image prog.elf --cycle-accurate=on -o trace.bin --stats"})
final class EncodeCommand implements Callable<Integer> {
    @Option(names = "--protocol", required = true, paramLabel = "NAME", completionCandidates = ProtocolNames.class,
            description = "${COMPLETION-CANDIDATES}.")
    String protocol;

    @Option(names = "--execution", paramLabel = "LOG",
            description = "The execution: an armtrace execution record (plain or gzip) or a QEMU plugin log (I <pc> <size> <bytes> lines).")
    Path execution;

    @Option(names = "--events", paramLabel = "FILE",
            description = "For ITM and STM: the software events to encode (text, see docs/software-events.md), instead of an execution.")
    Path events;

    @Option(names = "--image", paramLabel = "FILE[@ADDR]",
            description = "Program image (ELF, or raw binary at an address; either may be gzip-compressed). Repeatable.")
    List<String> images = new ArrayList<>();

    @Option(names = "--cpu-log", paramLabel = "LOG",
            description = "QEMU -d exec,cpu register log that gives condition pass/fail of a QEMU plugin log.")
    Path cpuLog;

    @Option(names = "--profile", paramLabel = "AR|M",
            description = "Architecture profile of a QEMU log's core: AR (ARMv7-A/R and older, default) or M (Cortex-M).")
    String profile;

    @Option(names = {"-o", "--output"}, paramLabel = "TRACE", description = "Write the trace bytes here.")
    Path output;

    @Option(names = "--snapshot-out", paramLabel = "DIR",
            description = "Write a complete snapshot directory (readable by armtrace decode and OpenCSD trc_pkt_lister).")
    Path snapshotOut;

    @Option(names = "--force", description = "Replace a --snapshot-out directory that is not empty (the new snapshot is built "
            + "beside it and swapped in; the old one stays whole if anything fails).")
    boolean force;

    @Option(names = "--core", paramLabel = "TYPE", description = "Core type for the snapshot's core device, e.g. Cortex-A9, Cortex-M3.")
    String core;

    @Option(names = "--stats", description = "Print trace size statistics: bytes, bytes per instruction, bandwidth.")
    boolean stats;

    @Option(names = "--clock", paramLabel = "MHZ", description = "Core clock for --stats bandwidth figures (default 100 MHz, at one instruction per cycle).")
    double clockMhz = 100;

    @Option(names = "--list-options", description = "List the protocol's encoder options and exit.")
    boolean listOptions;

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    @CommandLine.Unmatched
    List<String> protocolOptions = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TraceProtocol p = Protocols.byName(protocol).orElseThrow(() -> new InputException(
                "--protocol " + protocol + ": unknown protocol; armtrace knows " + Protocols.names() + "."));
        PrintWriter out = spec.commandLine().getOut();
        if (listOptions) {
            if (p.encodeOptions().isEmpty()) {
                out.println(p.title() + " has no encoder options.");
            }
            p.encodeOptions().forEach((k, v) -> out.printf("  --%-24s %s%n", k, v));
            try (OutputFile stdout = OutputFile.stdout(out)) {
                stdout.commit();
            }
            return 0;
        }
        if (events != null) {
            return encodeEvents(p, out);
        }
        if (execution == null) {
            throw new InputException("Say which execution to encode with --execution LOG.");
        }
        if (output == null && snapshotOut == null && !stats) {
            throw new InputException("Say where the trace goes: -o TRACE or --snapshot-out DIR (or --stats).");
        }
        for (Path log : cpuLog == null ? List.of(execution) : List.of(execution, cpuLog)) {
            String problem = io.armtrace.image.FileKind.problem(log);
            if (problem != null) {
                // a log is read twice (its first line says what it is): a pipe cannot be
                throw new InputException(Messages.shorten(problem) + ".");
            }
        }
        ProgramImage image = ProgramImage.of(new MemoryImage());
        for (String arg : images) {
            image = RawImage.parseArgument(arg, image);
        }
        if (image.memory().isEmpty()) {
            throw new InputException("Give the program image with --image FILE: the encoder must know the code.");
        }
        if (core != null && snapshotOut == null) {
            throw new InputException("--core names the core of a --snapshot-out snapshot; without one it says nothing.");
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--clock") && !stats) {
            throw new InputException("--clock applies to the --stats figures; add --stats.");
        }
        if (force && snapshotOut == null) {
            throw new InputException("--force replaces an existing --snapshot-out directory; there is none to replace.");
        }
        if (!(clockMhz > 0) || Double.isInfinite(clockMhz)) {
            throw new InputException("--clock " + clockMhz + ": give a positive number of MHz.");
        }
        Map<String, String> options = encodeOptions(p);
        Loaded loaded = load(image);
        if (loaded.execution().steps().isEmpty()) {
            throw new InputException(Messages.shorten(execution.toString())
                    + ": the execution has no instructions, so there is no trace to synthesize.");
        }
        if (p.encodeOptions().containsKey("profile") && !options.containsKey("profile")) {
            options.put("profile", loaded.profile().name());
        }
        if (options.containsKey("el") && loaded.el() >= 0 && !options.get("el").trim().equals(Integer.toString(loaded.el()))) {
            throw new InputException("--el " + Messages.shorten(options.get("el")) + " contradicts "
                    + Messages.shorten(execution.toString()) + ", whose header says el=" + loaded.el() + ".");
        }
        if (options.containsKey("security") && loaded.security() != null
                && !options.get("security").trim().equals(loaded.security())) {
            throw new InputException("--security " + Messages.shorten(options.get("security")) + " contradicts "
                    + Messages.shorten(execution.toString()) + ", whose header says security=" + loaded.security() + ".");
        }
        if (p.encodeOptions().containsKey("el") && !options.containsKey("el") && loaded.el() >= 0) {
            options.put("el", Integer.toString(loaded.el()));
        }
        if (p.encodeOptions().containsKey("security") && !options.containsKey("security") && loaded.security() != null) {
            options.put("security", loaded.security());
        }
        EncodeOutput enc = p.encode(loaded.execution(), image, options);
        if (output != null) {
            try (OutputFile file = OutputFile.open(output, out, inputFiles(), "-o")) {
                file.stream().write(enc.trace());
                file.commit();
            }
        }
        if (snapshotOut != null) {
            String coreType = core != null ? core : loaded.coreType();
            MemoryImage memory = image.memory();
            List<SnapshotWriter.ElfDump> elfFiles = elfDumps();
            OutputFile.writeDirectory(snapshotOut, force, "--snapshot-out", "snapshot.ini", inputFiles(),
                    dir -> SnapshotWriter.write(dir, coreType, memory, enc.deviceType(), enc.registers(), enc.trace(),
                            elfFiles));
        }
        long insns = loaded.execution().steps().size();
        if (stats) {
            double bpi = insns == 0 ? 0 : (double) enc.trace().length / insns;
            out.printf("%s trace: %d bytes for %d instructions: %.3f bytes/instruction, %.2f bits/instruction%n",
                    p.title(), enc.trace().length, insns, bpi, bpi * 8);
            out.printf("at %.0f MHz and one instruction per cycle: %.1f MB/s of trace (%.1f Mbit/s)%n",
                    clockMhz, bpi * clockMhz, bpi * clockMhz * 8);
        }
        spec.commandLine().getErr().printf("%s: %d instructions encoded as %d bytes of %s trace%n", execution, insns,
                enc.trace().length, p.title());
        try (OutputFile stdout = OutputFile.stdout(out)) {
            stdout.commit();
        }
        return 0;
    }

    /**
     * The --image ELF files (plain or gzip-compressed), to keep in a --snapshot-out snapshot as ELF dumps:
     * named as given, without .gz, ending in .elf or .axf as the snapshot reader expects of an ELF dump.
     */
    private List<SnapshotWriter.ElfDump> elfDumps() {
        List<SnapshotWriter.ElfDump> out = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String arg : images) {
            if (arg.lastIndexOf('@') > 0) {
                continue; // a raw binary at an address: the memory dumps hold it
            }
            Path file = Path.of(arg);
            String name = file.getFileName().toString().replaceAll("(?i)\\.gz$", "").replaceAll("[^A-Za-z0-9._-]", "_");
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.endsWith(".elf") && !lower.endsWith(".axf")) {
                name = name + ".elf";
            }
            String unique = name;
            for (int i = 2; !names.add(unique.toLowerCase(Locale.ROOT)); i++) {
                unique = i + "_" + name;
            }
            out.add(new SnapshotWriter.ElfDump(unique, io.armtrace.image.ElfImage.fileBytes(file)));
        }
        return out;
    }

    /** {@code --events}: software trace (ITM, STM) from a run of software events. */
    private int encodeEvents(TraceProtocol p, PrintWriter out) throws IOException {
        if (execution != null || !images.isEmpty() || cpuLog != null || profile != null || core != null) {
            throw new InputException("--events gives software events; --execution, --image, --cpu-log, --profile and "
                    + "--core describe an execution instead.");
        }
        if (output == null && snapshotOut == null && !stats) {
            throw new InputException("Say where the trace goes: -o TRACE or --snapshot-out DIR (or --stats).");
        }
        String eventsProblem = io.armtrace.image.FileKind.problem(events);
        if (eventsProblem != null) {
            throw new InputException(Messages.shorten(eventsProblem) + ".");
        }
        if (force && snapshotOut == null) {
            throw new InputException("--force replaces an existing --snapshot-out directory; there is none to replace.");
        }
        Map<String, String> options = encodeOptions(p);
        if (!p.name().equals("itm") && !p.name().equals("stm")) {
            throw new InputException("--events describes software trace: --protocol itm or stm, not " + p.name() + ".");
        }
        List<io.armtrace.trace.TraceElement> list = io.armtrace.execution.SoftwareEventFormat.read(events, p.name(), 0);
        EncodeOutput enc = p.encodeSoftware(list, options);
        if (output != null) {
            try (OutputFile file = OutputFile.open(output, out, List.of(events), "-o")) {
                file.stream().write(enc.trace());
                file.commit();
            }
        }
        if (snapshotOut != null) {
            OutputFile.writeDirectory(snapshotOut, force, "--snapshot-out", "snapshot.ini", List.of(events),
                    dir -> SnapshotWriter.writeSoftware(dir,
                    enc.deviceType(), enc.registers(), enc.trace()));
        }
        if (stats) {
            out.printf("%s trace: %d bytes for %d events: %.2f bytes/event%n", p.title(), enc.trace().length, list.size(),
                    list.isEmpty() ? 0.0 : (double) enc.trace().length / list.size());
        }
        spec.commandLine().getErr().printf("%s: %d events encoded as %d bytes of %s trace%n", events, list.size(),
                enc.trace().length, p.title());
        try (OutputFile stdout = OutputFile.stdout(out)) {
            stdout.commit();
        }
        return 0;
    }

    /** The files encode reads, which -o must not overwrite. */
    private List<Path> inputFiles() {
        List<Path> files = new ArrayList<>();
        files.add(execution);
        if (cpuLog != null) {
            files.add(cpuLog);
        }
        for (String arg : images) {
            Path file = io.armtrace.image.RawImage.fileOf(arg);
            if (file != null) { // else not a file name: the image reader says so
                files.add(file);
            }
        }
        return files;
    }

    /** The execution, its core's profile and type, and where the record states them its exception level and security state. */
    record Loaded(Execution execution, Profile profile, String coreType, int el, String security) {
        Loaded(Execution execution, Profile profile, String coreType) {
            this(execution, profile, coreType, -1, null);
        }
    }

    private Loaded load(ProgramImage image) throws IOException {
        String first = firstLine(execution);
        if (first.startsWith(ExecutionFormat.MAGIC)) {
            ExecutionFormat.Header h = ExecutionFormat.readHeader(execution);
            Execution e = ExecutionFormat.read(execution);
            return new Loaded(e, h.profile(), coreName(h.core(), h.profile()), h.el(),
                    h.security() == null ? null : h.security().word());
        }
        Profile prof = parseProfile();
        Execution e = QemuPluginLog.read(execution, prof, image, cpuLog);
        return new Loaded(e, prof, coreName(null, prof));
    }

    private Profile parseProfile() {
        if (profile == null) {
            return Profile.AR;
        }
        return switch (profile.toUpperCase(Locale.ROOT)) {
            case "AR", "A", "R" -> Profile.AR;
            case "M" -> Profile.M;
            default -> throw new InputException("--profile " + profile + ": say AR or M.");
        };
    }

    /** A core type OpenCSD knows, from the record's free-form core name. */
    static String coreName(String core, Profile profile) {
        if (core != null) {
            String c = core.toLowerCase(Locale.ROOT);
            if (c.startsWith("cortex-") && c.length() > 7) {
                return "Cortex-" + c.substring(7).toUpperCase(Locale.ROOT).replace("PLUS", "+");
            }
            if (c.startsWith("arm")) {
                return core.toUpperCase(Locale.ROOT);
            }
        }
        return profile == Profile.M ? "Cortex-M3" : "Cortex-A9";
    }

    private static String firstLine(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file)) {
            InputStream in = raw;
            java.io.BufferedInputStream b = new java.io.BufferedInputStream(raw);
            b.mark(2);
            int m0 = b.read();
            int m1 = b.read();
            b.reset();
            in = (m0 == 0x1f && m1 == 0x8b) ? new GZIPInputStream(b) : b;
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    return line.trim();
                }
            }
            return "";
        }
    }

    /** The protocol options, earlier names read as {@link EncodeOption} says (with a note on standard error). */
    private Map<String, String> encodeOptions(TraceProtocol p) {
        PrintWriter err = spec.commandLine().getErr();
        try {
            return EncodeOption.normalize(p.name(), parseOptions(protocolOptions), note -> {
                err.println("armtrace: " + note);
                err.flush();
            });
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    static Map<String, String> parseOptions(List<String> args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || a.length() == 2) {
                throw new InputException("Unexpected argument '" + a + "': protocol options are written --NAME or --NAME=VALUE.");
            }
            String body = a.substring(2);
            int eq = body.indexOf('=');
            if (eq >= 0) {
                options.put(body.substring(0, eq), body.substring(eq + 1));
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                options.put(body, args.get(++i));
            } else {
                options.put(body, "");
            }
        }
        options.forEach((name, value) -> {
            for (int c = 0; c < value.length(); c++) {
                if (value.charAt(c) > 0x7F && Character.isDigit(value.charAt(c))) {
                    // Java's number parsers take other scripts' digits (full-width, Arabic-Indic); numbers here are ASCII
                    throw new InputException("--" + Messages.shorten(name) + " " + Messages.shorten(value)
                            + ": numbers are written in ASCII digits (0-9).");
                }
            }
        });
        return options;
    }
}
