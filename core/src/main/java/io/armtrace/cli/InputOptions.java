package io.armtrace.cli;

import io.armtrace.image.ProgramImage;
import io.armtrace.image.RawImage;
import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.IniFile;
import io.armtrace.source.InputException;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The inputs that decode and packets share: a snapshot directory, or a raw trace file with options. */
final class InputOptions {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SNAPSHOT_DIR",
            description = "A DS-5/OpenCSD snapshot directory (snapshot.ini, trace.ini, device files).")
    Path snapshot;

    @Option(names = "--source", paramLabel = "ID", split = ",",
            description = "Trace source IDs to decode, one or several (e.g. 0x10 or 0x10,0x13). Default: every source of the snapshot.")
    List<String> sources;

    /** The one --source of a raw trace file, or null. */
    private String singleSource() {
        if (sources == null || sources.isEmpty()) {
            return null;
        }
        if (sources.size() > 1) {
            throw new InputException("--source " + String.join(",", sources.subList(0, Math.min(4, sources.size())))
                    + ": a raw trace file holds one source; give one ID.");
        }
        return sources.get(0);
    }

    @Option(names = "--protocol", paramLabel = "NAME", completionCandidates = ProtocolNames.class,
            description = "Protocol of a raw trace file: ${COMPLETION-CANDIDATES} (overrides the snapshot's device type).")
    String protocol;

    @Option(names = "--trace", paramLabel = "FILE", description = "Raw trace file (instead of a snapshot).")
    Path trace;

    @Option(names = "--formatted",
            description = "The --trace file is a CoreSight formatted buffer (ETB/TPIU frames); --source picks the ID.")
    boolean formatted;

    @Option(names = "--oflow",
            description = "The --trace file is an orbuculum OFLOW capture (COBS frames of tagged streams, as ORBTrace "
                    + "probes deliver SWO and parallel trace); --source picks the stream (default 1, the ITM).")
    boolean oflow;

    @Option(names = "--image", paramLabel = "FILE[@ADDR]",
            description = "Program image: an ELF file, or a raw binary at an address (file.bin@0x8000); either may be gzip-compressed (prog.elf.gz). Repeatable.")
    List<String> images = new ArrayList<>();

    @Option(names = "--reg", paramLabel = "NAME=VALUE",
            description = "Trace unit register value (ETMCR, ETMIDR, ETMCCER, ETMTRACEIDR; for MTB POSITION, MASTER, FLOW, BASE, PC; "
                    + "for ETMv4/ETE TRCCONFIGR, TRCTRACEIDR, TRCIDR0-13, TRCDEVARCH; for ITM ITMTCR, DWTCTRL; for STM STMTCSR). Repeatable.")
    List<String> regs = new ArrayList<>();

    @Option(names = "--limit", paramLabel = "N", description = "Bound on any single walk through code, in instructions (0 = the protocol's default).")
    long limit;

    @Option(names = "--confine",
            description = "Refuse a snapshot whose .ini files name files outside its directory (for snapshots from elsewhere).")
    boolean confine;

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    /** The command this mixin belongs to: where a snapshot's warnings go (standard error). */
    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec mixee;

    /** The files read by the last {@link #jobs()}: trace, images, snapshot .ini files, buffers and dumps. */
    private final List<Path> inputFiles = new ArrayList<>();

    /** The command's own input files (after {@link #jobs()}), which no output may overwrite. */
    List<Path> inputFiles() {
        List<Path> files = new ArrayList<>(inputFiles);
        if (trace != null) {
            files.add(trace);
        }
        for (String arg : images) {
            Path file = io.armtrace.image.RawImage.fileOf(arg);
            if (file != null) { // else not a file name: the image reader says so
                files.add(file);
            }
        }
        return files;
    }

    /** One source to process: its protocol and its decoder input. */
    record Job(TraceProtocol protocol, DecodeInput input, String label) {
    }

    private Registers extraRegisters() {
        Registers r = new Registers();
        for (String s : regs) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new InputException("--reg " + Messages.shorten(s) + ": expected NAME=VALUE.");
            }
            r.put(s.substring(0, eq), registerValue(s, s.substring(eq + 1)));
        }
        return r;
    }

    /** The value of a {@code --reg NAME=VALUE}: a C literal in ASCII digits, never negative. */
    static long registerValue(String option, String value) {
        try {
            return IniFile.parseNumber(value);
        } catch (NumberFormatException e) {
            throw new InputException("--reg " + Messages.shorten(option) + (IniFile.negative(value)
                    ? ": a register value is never negative (give its bits, e.g. 0xFFFFFFFF)."
                    : ": the value is not a number (C notation in ASCII digits: 4096, 0x1000 or 010000)."));
        }
    }

    /** Refuses a {@code --reg} that {@code p} does not read: a typo would otherwise be ignored silently. */
    static void checkRegisters(TraceProtocol p, Registers given) {
        for (String name : given.asMap().keySet()) {
            if (!p.registerNames().contains(name)) {
                throw new InputException("--reg " + Messages.shorten(name) + ": " + p.title()
                        + " has no register of that name; it reads " + String.join(", ", p.registerNames()) + ".");
            }
        }
    }

    /** A perf.data recording where a snapshot or trace was expected: what armtrace does with one today. */
    static InputException perfData(Path file) {
        return new InputException(file + ": is a perf.data recording (Linux perf or simpleperf); decoding recordings is not"
                + " available yet, and `armtrace info " + file + "` shows what it holds.");
    }

    /** Refuses option values that are out of range or say nothing. */
    private void checkOptions() {
        if (limit < 0) {
            throw new InputException("--limit " + limit + ": give a positive number of instructions (0 = the protocol's default).");
        }
        if (formatted && trace == null) {
            throw new InputException("--formatted says how to read a --trace FILE; a snapshot's trace.ini gives its buffers' format.");
        }
        if (oflow && trace == null) {
            throw new InputException("--oflow says how to read a --trace FILE; a snapshot's trace.ini gives its buffers' format.");
        }
        if (oflow && formatted) {
            throw new InputException("--oflow and --formatted are two framings of a --trace file; give the one it has.");
        }
    }

    private ProgramImage extraImages(ProgramImage base) {
        ProgramImage img = base;
        for (String arg : images) {
            img = RawImage.parseArgument(arg, img);
        }
        return img;
    }

    /** The device type of the core {@code s} traces ("Cortex-A57"), or null when the snapshot does not say. */
    static String coreType(Snapshot snap, SnapshotSource s) {
        if (s.coreName() == null) {
            return null;
        }
        for (Snapshot.Device d : snap.devices()) {
            if (d.name().equalsIgnoreCase(s.coreName()) && "core".equalsIgnoreCase(d.deviceClass())) {
                return d.type();
            }
        }
        return null;
    }

    /** A snapshot's warnings, one line each on the command's standard error. */
    private void warn(List<String> warnings) {
        if (mixee == null || warnings.isEmpty()) {
            return;
        }
        java.io.PrintWriter err = mixee.commandLine().getErr();
        for (String w : warnings) {
            err.println("armtrace: warning: " + Messages.shorten(w));
        }
        err.flush();
    }

    /** A trace ID as people read it: 0x10, or "none" for a source that has none (-1, e.g. MTB). */
    static String traceIdText(int id) {
        return id < 0 ? "none" : String.format("0x%02x", id);
    }

    static int parseId(String s) {
        try {
            long v = IniFile.parseNumber(s);
            if (v < 0 || v > 0x7F) {
                throw new InputException("--source " + Messages.shorten(s) + ": a trace ID is between 0x00 and 0x7f.");
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw new InputException("--source " + Messages.shorten(s) + ": not a number.");
        }
    }

    private static TraceProtocol protocolNamed(String name) {
        return Protocols.byName(name).orElseThrow(() -> new InputException(
                "--protocol " + Messages.shorten(name) + ": unknown protocol; armtrace knows " + Protocols.names() + "."));
    }

    List<Job> jobs() throws java.io.IOException {
        checkOptions();
        DecodeOptions options = new DecodeOptions(limit);
        Registers extra = extraRegisters();
        if (snapshot != null) {
            if (trace != null) {
                throw new InputException("Give either a snapshot directory or --trace FILE, not both.");
            }
            if (io.armtrace.source.perf.PerfData.looksLikePerfData(snapshot)) {
                throw perfData(snapshot);
            }
            if (Files.isRegularFile(snapshot)) {
                throw new InputException(snapshot + ": is a file, not a snapshot directory; for a raw trace file use --trace "
                        + snapshot + " --protocol NAME.");
            }
            Snapshot snap = Snapshot.load(snapshot, confine);
            warn(snap.warnings());
            inputFiles.addAll(snap.files());
            List<SnapshotSource> chosen = new ArrayList<>();
            String source = sources == null || sources.isEmpty() ? null : sources.get(0);
            if (source != null) {
                for (String text : sources) {
                    int id = parseId(text);
                    SnapshotSource s = snap.source(id).orElseThrow(() -> new InputException(
                            snapshot + ": has no trace source with ID " + String.format("0x%02x", id) + "."));
                    if (!chosen.contains(s)) {
                        chosen.add(s);
                    }
                }
            } else {
                chosen.addAll(snap.sources());
            }
            List<Job> jobs = new ArrayList<>();
            for (SnapshotSource s : chosen) {
                TraceProtocol p = protocol != null ? protocolNamed(protocol)
                        : Protocols.forDeviceType(s.type()).orElse(null);
                if (p == null) {
                    if (source != null) {
                        throw new InputException(snapshot + ": source " + s.name() + " is of type " + s.type()
                                + ", which armtrace does not decode.");
                    }
                    continue; // e.g. ITM: not ours; skipped when decoding every source
                }
                if (s.bufferFile() == null) {
                    if (source != null) {
                        throw new InputException(snapshot + ": source " + s.name() + " has no trace buffer.");
                    }
                    continue;
                }
                checkRegisters(p, extra);
                Registers r = new Registers();
                // the halted core's PC (MTB completes the newest run up to it) unless the source gives one
                long pc = s.coreRegisters().get("PC", s.coreRegisters().get("R15", -1));
                if (pc >= 0 && !s.registers().has("PC")) {
                    r.put("PC", pc);
                }
                r.putAll(p.registersForCore(coreType(snap, s))).putAll(s.registers()).putAll(extra);
                ProgramImage img = extraImages(new ProgramImage(new MemoryImage().addAll(s.image().memory()),
                        s.image().symbols(), s.image().lines()));
                jobs.add(new Job(p, new DecodeInput(s.traceId(), r, img, s.data(), options),
                        s.name() + " (" + s.type() + ", trace ID " + traceIdText(s.traceId()) + ")"));
            }
            if (jobs.isEmpty()) {
                throw new InputException(snapshot + ": has no trace source that armtrace can decode.");
            }
            return jobs;
        }
        if (trace == null) {
            throw new InputException("Nothing to decode: give a snapshot directory, or --trace FILE with --protocol.");
        }
        String problem = io.armtrace.image.FileKind.problem(trace);
        if (problem != null) {
            // a trace is read more than once (stats, packet bytes beside packets): a pipe cannot be
            throw new InputException(Messages.shorten(problem) + ".");
        }
        if (io.armtrace.source.perf.PerfData.looksLikePerfData(trace)) {
            throw perfData(trace);
        }
        if (protocol == null) {
            throw new InputException("--trace " + trace + ": say which protocol it is with --protocol ("
                    + Protocols.names() + ").");
        }
        TraceProtocol p = protocolNamed(protocol);
        checkRegisters(p, extra);
        String source = singleSource();
        int id;
        TraceData data;
        if (oflow) {
            id = source == null ? 1 : parseId(source);
            data = TraceData.oflow(trace, id);
        } else if (formatted) {
            if (source == null) {
                throw new InputException("--formatted " + trace + ": say which trace ID to take with --source ID.");
            }
            id = parseId(source);
            data = FormattedTrace.of(trace, id);
        } else {
            id = source != null ? parseId(source)
                    : extra.has("ETMTRACEIDR") ? (int) (extra.get("ETMTRACEIDR", 0) & 0x7F) : 0;
            data = TraceData.of(trace);
        }
        ProgramImage img = extraImages(ProgramImage.of(new MemoryImage()));
        return List.of(new Job(p, new DecodeInput(id, extra, img, data, options), trace.toString()));
    }
}
