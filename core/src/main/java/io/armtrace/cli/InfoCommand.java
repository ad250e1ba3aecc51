package io.armtrace.cli;

import io.armtrace.image.MemoryImage;
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
                + "their memory regions; trace buffers with format and size.")
final class InfoCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SNAPSHOT_DIR", description = "The snapshot directory.")
    Path dir;

    @Option(names = "--protocol", paramLabel = "NAME",
            description = "Without a snapshot: explain the --reg values of this protocol's trace unit (etm2, etm3, ptm, mtb).")
    String protocol;

    @Option(names = "--reg", paramLabel = "NAME=VALUE", description = "A register value to explain. Repeatable.")
    java.util.List<String> regs = new java.util.ArrayList<>();

    @Option(names = "--debug", description = "Show stack traces for errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (dir == null) {
            return explainRegisters(out);
        }
        Snapshot s = Snapshot.load(dir);
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
                out.printf("    trace in %s (%s), %s%n", s.directory().relativize(src.bufferFile()),
                        src.bufferFormat().iniName(), bytes < 0 ? "size unknown" : bytes + " bytes of its own trace");
            }
            src.registers().asMap().forEach((k, v) -> {
                if (k.startsWith("ETMCR") || k.startsWith("ETMIDR") || k.startsWith("ETMCCER")
                        || k.startsWith("ETMTRACEIDR") || k.startsWith("POSITION") || k.startsWith("MASTER")
                        || k.startsWith("FLOW") || k.startsWith("BASE") || k.equals("ITMTCR")) {
                    out.printf("    %-12s = 0x%08x%n", k, v);
                }
            });
            if (p != null) {
                for (String line : p.describe(src.registers())) {
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
                MemoryImage m = new MemoryImage();
                io.armtrace.image.RawImage.load(m, dump.file(), dump.address(), dump.offset(), dump.length());
                long size = m.regions().get(0).data().length;
                out.printf("    0x%08x-0x%08x  %7d bytes  %s%s%n", dump.address(), dump.address() + size, size,
                        s.directory().relativize(dump.file()), dump.space() == null ? "" : "  (space " + dump.space() + ")");
            }
        }
        out.println();
        out.println("Trace buffers:");
        for (Snapshot.Buffer b : s.buffers()) {
            long size = Files.size(b.file());
            out.printf("  %s: %s, %s, %d bytes", b.name(), s.directory().relativize(b.file()), b.format().iniName(), size);
            if (b.format().formatted()) {
                Map<Integer, byte[]> ids = FrameDeformatter.demultiplex(Files.readAllBytes(b.file()),
                        b.format() == io.armtrace.source.BufferFormat.DSTREAM_CORESIGHT);
                StringBuilder sb = new StringBuilder();
                ids.forEach((id, bytes) -> sb.append(sb.isEmpty() ? "" : ", ").append(String.format("0x%02x: %d", id, bytes.length)));
                out.print("; bytes per trace ID: " + (sb.isEmpty() ? "none" : sb));
            }
            out.println();
        }
        out.flush();
        return 0;
    }

    private int explainRegisters(PrintWriter out) {
        if (protocol == null) {
            throw new io.armtrace.source.InputException(
                    "Give a snapshot directory, or --protocol NAME with --reg NAME=VALUE to explain register values.");
        }
        TraceProtocol p = Protocols.byName(protocol).orElseThrow(() -> new io.armtrace.source.InputException(
                "--protocol " + protocol + ": unknown protocol; armtrace knows " + Protocols.names() + "."));
        io.armtrace.source.Registers r = new io.armtrace.source.Registers();
        for (String reg : regs) {
            int eq = reg.indexOf('=');
            if (eq <= 0) {
                throw new io.armtrace.source.InputException("--reg " + reg + ": expected NAME=VALUE.");
            }
            try {
                r.put(reg.substring(0, eq), io.armtrace.source.IniFile.parseNumber(reg.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new io.armtrace.source.InputException("--reg " + reg + ": the value is not a number.");
            }
        }
        out.println(p.title() + " trace unit:");
        r.asMap().forEach((k, v) -> out.printf("  %-12s = 0x%08x%n", k, v));
        for (String line : p.describe(r)) {
            out.println("  " + line);
        }
        out.flush();
        return 0;
    }

    private static long bytesOf(SnapshotSource src) {
        try (InputStream in = src.data().open()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            return -1;
        }
    }
}
