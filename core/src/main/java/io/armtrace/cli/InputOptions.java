package io.armtrace.cli;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.IniFile;
import io.armtrace.source.InputException;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The inputs that decode and packets share: a snapshot directory, a perf.data recording, or a raw trace file with options. */
final class InputOptions {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SNAPSHOT_DIR",
            description = "A DS-5/OpenCSD snapshot directory (snapshot.ini, trace.ini, device files), or a perf.data recording "
                    + "(Linux perf or simpleperf; its mapped binaries found with --symdir).")
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

    @Option(names = "--symdir", paramLabel = "DIR", description = "For a perf.data recording: a directory to look for the "
            + "mapped binaries in, by build ID (DIR/.build-id/xx/...) and by file name. Repeatable; the recorded paths are tried last.")
    List<Path> symdirs = new ArrayList<>();

    @Option(names = "--vmlinux", paramLabel = "FILE", description = "For a perf.data recording: the kernel's ELF file, whose code "
            + "decodes the kernel's addresses (moved to where the recording says the kernel ran).")
    Path vmlinux;

    @Option(names = "--kallsyms", paramLabel = "FILE", description = "For a perf.data recording: a copy of /proc/kallsyms from the "
            + "recorded machine, whose symbols name kernel addresses in listings and profiles.")
    Path kallsyms;

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
    record Job(TraceProtocol protocol, DecodeInput input, String label, io.armtrace.source.TraceSegments segments,
               io.armtrace.api.TraceSource source) {
        Job(TraceProtocol protocol, DecodeInput input, String label) {
            this(protocol, input, label, null, null);
        }

        Job(TraceProtocol protocol, DecodeInput input, String label, io.armtrace.source.TraceSegments segments) {
            this(protocol, input, label, segments, null);
        }

        /** A new follower of the running thread for a recording's CPU, else null. */
        io.armtrace.trace.RunningThread runningThread() {
            return source == null ? null : source.runningThread();
        }

        /** Decodes the job into {@code sink} (segment by segment when it has segments); does not end the sink. */
        void decode(io.armtrace.trace.ElementSink sink) throws java.io.IOException {
            if (segments != null) {
                protocol.decode(input, segments, sink);
            } else {
                protocol.decode(input, sink);
            }
        }
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
        p.checkRegisterNames(given, "--reg");
    }

    /** A perf.data recording where a snapshot or trace was expected: what armtrace does with one today. */
    static InputException perfData(Path file) {
        return io.armtrace.source.TraceInputs.perfData(file);
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

    /** The device type of the core {@code s} traces ("Cortex-A57"), or null when the snapshot does not say. */
    static String coreType(Snapshot snap, SnapshotSource s) {
        return io.armtrace.source.TraceInputs.coreType(snap, s);
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
        return io.armtrace.source.TraceInputs.traceIdText(id);
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

    /** The API's options for what this command was given. */
    io.armtrace.api.DecodeOptions decodeOptions(Registers extra) {
        io.armtrace.api.DecodeOptions.Builder b = io.armtrace.api.DecodeOptions.builder()
                .instructionLimit(limit).confine(confine).protocol(protocol).warnings(w -> warn(List.of(w)))
                .framing(oflow ? io.armtrace.source.TraceInputs.Framing.OFLOW
                        : formatted ? io.armtrace.source.TraceInputs.Framing.FORMATTED
                        : io.armtrace.source.TraceInputs.Framing.PLAIN);
        extra.asMap().forEach(b::register);
        images.forEach(b::image);
        return b.build();
    }

    /** The trace IDs of {@code --source}, in order. */
    private List<Integer> sourceIds() {
        List<Integer> ids = new ArrayList<>();
        if (sources != null) {
            for (String text : sources) {
                ids.add(parseId(text));
            }
        }
        return ids;
    }

    List<Job> jobs() throws java.io.IOException {
        checkOptions();
        Registers extra = extraRegisters();
        io.armtrace.api.Decoder decoder;
        if (snapshot != null) {
            if (trace != null) {
                throw new InputException("Give either a snapshot directory or --trace FILE, not both.");
            }
            io.armtrace.api.DecodeOptions.Builder b = decodeOptions(extra).toBuilder();
            sourceIds().forEach(b::source);
            if (io.armtrace.source.perf.PerfData.looksLikePerfData(snapshot)) {
                for (Path d : symdirs) {
                    if (!java.nio.file.Files.isDirectory(d)) {
                        throw new InputException("--symdir " + Messages.shorten(d.toString()) + ": is not a directory.");
                    }
                }
                for (Path f : new Path[] {vmlinux, kallsyms}) {
                    if (f != null && !java.nio.file.Files.isRegularFile(f)) {
                        throw new InputException("--" + (f == vmlinux ? "vmlinux" : "kallsyms") + " " + Messages.shorten(f.toString())
                                + ": is not a file.");
                    }
                }
                decoder = io.armtrace.api.Decoder.openRecording(snapshot, symdirs, vmlinux, kallsyms, b.build());
            } else {
                if (vmlinux != null || kallsyms != null) {
                    throw new InputException((vmlinux != null ? "--vmlinux" : "--kallsyms") + " applies to perf.data recordings; "
                            + "give a snapshot's or a trace's program with --image.");
                }
                decoder = io.armtrace.api.Decoder.openSnapshot(snapshot, b.build());
            }
            inputFiles.addAll(decoder.files());
        } else {
            if (trace == null) {
                throw new InputException("Nothing to decode: give a snapshot directory, or --trace FILE with --protocol.");
            }
            io.armtrace.source.TraceInputs.checkTraceFile(trace);
            if (protocol == null) {
                throw new InputException("--trace " + trace + ": say which protocol it is with --protocol ("
                        + Protocols.names() + ").");
            }
            checkRegisters(io.armtrace.api.Decoder.protocolNamed(protocol), extra);
            String source = singleSource();
            io.armtrace.api.DecodeOptions.Builder b = decodeOptions(extra).toBuilder();
            if (source != null) {
                b.source(parseId(source));
            }
            decoder = io.armtrace.api.Decoder.openTrace(trace, protocol, b.build());
        }
        List<Job> jobs = new ArrayList<>();
        for (io.armtrace.api.TraceSource s : decoder.sources()) {
            jobs.add(new Job(s.protocol(), s.input(), s.label(), s.segments(), s));
        }
        return jobs;
    }
}
