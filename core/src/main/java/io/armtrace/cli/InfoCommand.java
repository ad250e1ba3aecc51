package io.armtrace.cli;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code armtrace info}: what is in a snapshot. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Describes a snapshot: trace sources with protocol, trace ID and registers in words; cores and "
                + "their memory regions; trace buffers with format and size. Or a perf.data recording (Linux perf, "
                + "Android simpleperf): features, command line, trace units and registers, AUX data per CPU with "
                + "lost data, processes, mappings and build IDs, record counts.")
final class InfoCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SNAPSHOT_DIR", description = "The snapshot directory, or a perf.data recording.")
    Path dir;

    @Option(names = "--protocol", paramLabel = "NAME", completionCandidates = ProtocolNames.class,
            description = "Without a snapshot: explain the --reg values of this protocol's trace unit (${COMPLETION-CANDIDATES}).")
    String protocol;

    @Option(names = "--reg", paramLabel = "NAME=VALUE", description = "A register value to explain. Repeatable.")
    java.util.List<String> regs = new java.util.ArrayList<>();

    @picocli.CommandLine.Mixin
    OutputOptions output;

    @Option(names = "--confine",
            description = "Refuse a snapshot whose .ini files name files outside its directory (for snapshots from elsewhere).")
    boolean confine;

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (dir != null && io.armtrace.source.perf.PerfData.looksLikePerfData(dir)) {
            io.armtrace.source.perf.PerfData recording = io.armtrace.source.perf.PerfData.read(dir);
            try (OutputFile file = output.open(spec.commandLine().getOut(), java.util.List.of(dir))) {
                PerfDataInfo.print(recording, file.writer());
                file.commit();
            }
            return 0;
        }
        Snapshot s = dir == null ? null : Snapshot.load(dir, confine);
        if (s != null && !s.warnings().isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            for (String w : s.warnings()) {
                err.println("armtrace: warning: " + Messages.shorten(w));
            }
            err.flush();
        }
        try (OutputFile file = output.open(spec.commandLine().getOut(), s == null ? java.util.List.of() : s.files())) {
            if (s == null) {
                explainRegisters(file.writer());
            } else {
                describe(s, file.writer());
            }
            file.commit();
        }
        return 0;
    }

    private void describe(Snapshot s, PrintWriter out) throws IOException {
        out.println("Snapshot " + dir);
        out.println();
        out.println("Trace sources:");
        for (SnapshotSource src : s.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            out.printf("  %s: %s, trace ID %s, %s%n", src.name(), src.type(),
                    src.traceId() < 0 ? "none" : String.format("0x%02x", src.traceId()),
                    p == null ? "not a protocol armtrace decodes" : "protocol " + p.name() + " (" + p.title() + ")");
            if (src.coreName() != null) {
                out.println("    traces core " + src.coreName());
            }
            if (src.bufferFile() != null) {
                long bytes = bytesOf(src);
                out.printf("    trace in %s (%s), %s%n", shown(s, src.bufferFile()),
                        src.bufferFormat().iniName(), bytes < 0 ? "size unknown" : bytes + " bytes of its own trace");
            }
            src.registers().asMap().forEach((k, v) -> {
                if (Protocols.isTraceUnitRegister(k, p)) {
                    out.printf("    %-12s = 0x%08x%n", k, v);
                }
            });
            if (p != null) {
                io.armtrace.source.Registers r = new io.armtrace.source.Registers()
                        .putAll(p.registersForCore(InputOptions.coreType(s, src))).putAll(src.registers());
                for (String line : p.describe(r)) {
                    out.println("    " + line);
                }
            }
        }
        out.println();
        out.println("Cores and memory:");
        for (Snapshot.Device d : s.devices()) {
            if (!"core".equalsIgnoreCase(d.deviceClass())) {
                continue;
            }
            out.printf("  %s: %s%n", d.name(), d.type());
            if (d.dumps().isEmpty()) {
                out.println("    no memory dumps");
            }
            for (Snapshot.Dump dump : d.dumps()) {
                if (Snapshot.isElfDump(dump.file())) {
                    // an ELF dump is its load segments at their own addresses (see Snapshot), not the file at address=
                    for (io.armtrace.image.MemoryImage.Region r : io.armtrace.image.ElfImage.load(dump.file()).memory().regions()) {
                        out.printf("    0x%08x-0x%08x  %7d bytes  %s (ELF load segment)%n", r.start(),
                                r.end(), r.size(), shown(s, dump.file()));
                    }
                    continue;
                }
                long size = io.armtrace.image.RawImage.size(dump.file(), dump.offset(), dump.length());
                out.printf("    0x%08x-0x%08x  %7d bytes  %s%s%n", dump.address(), dump.address() + size, size,
                        shown(s, dump.file()), dump.space() == null ? "" : "  (space " + dump.space() + ")");
            }
        }
        out.println();
        out.println("Trace buffers:");
        for (Snapshot.Buffer b : s.buffers()) {
            long size = Files.size(b.file());
            out.printf("  %s: %s, %s, %d bytes", b.name(), shown(s, b.file()), b.format().iniName(), size);
            if (b.format().formatted()) {
                Map<Integer, Long> ids = counted.get(b.file());
                if (ids == null) {
                    try (InputStream in = Files.newInputStream(b.file())) {
                        ids = FrameDeformatter.bytesPerSource(in, b.format());
                    }
                    counted.put(b.file(), ids);
                }
                StringBuilder sb = new StringBuilder();
                ids.forEach((id, bytes) -> sb.append(sb.isEmpty() ? "" : ", ").append(String.format("0x%02x: %d", id, bytes)));
                out.print("; bytes per trace ID: " + (sb.isEmpty() ? "none" : sb));
            }
            out.println();
        }
    }

    private int explainRegisters(PrintWriter out) {
        if (protocol == null) {
            throw new io.armtrace.source.InputException(
                    "Give a snapshot directory, or --protocol NAME with --reg NAME=VALUE to explain register values.");
        }
        TraceProtocol p = io.armtrace.api.Decoder.protocolNamed(protocol);
        io.armtrace.source.Registers r = new io.armtrace.source.Registers();
        for (String reg : regs) {
            int eq = reg.indexOf('=');
            if (eq <= 0) {
                throw new io.armtrace.source.InputException("--reg " + Messages.shorten(reg) + ": expected NAME=VALUE.");
            }
            r.put(reg.substring(0, eq), InputOptions.registerValue(reg, reg.substring(eq + 1)));
        }
        InputOptions.checkRegisters(p, r);
        out.println(p.title() + " trace unit:");
        r.asMap().forEach((k, v) -> out.printf("  %-12s = 0x%08x%n", k, v));
        for (String line : p.describe(r)) {
            out.println("  " + line);
        }
        out.flush();
        return 0;
    }

    /** A snapshot's file as its .ini files name it: relative to the snapshot when inside it, else as given. */
    private static Path shown(Snapshot s, Path file) {
        Path dir = s.directory().toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return f.startsWith(dir) ? dir.relativize(f) : file;
    }

    /** Bytes per trace ID of each formatted buffer, counted in one pass however many sources share it. */
    private final Map<Path, Map<Integer, Long>> counted = new java.util.HashMap<>();

    private long bytesOf(SnapshotSource src) {
        try {
            if (!src.bufferFormat().formatted()) {
                return Files.size(src.bufferFile());
            }
            Map<Integer, Long> ids = counted.get(src.bufferFile());
            if (ids == null) {
                try (InputStream in = Files.newInputStream(src.bufferFile())) {
                    ids = FrameDeformatter.bytesPerSource(in, src.bufferFormat());
                }
                counted.put(src.bufferFile(), ids);
            }
            return ids.getOrDefault(src.traceId(), 0L);
        } catch (IOException e) {
            return -1;
        }
    }
}
