package io.armtrace.source;

import io.armtrace.image.ElfImage;
import io.armtrace.image.FileKind;
import io.armtrace.image.LineTable;
import io.armtrace.image.ImageException;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.RawImage;
import io.armtrace.image.SymbolTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A trace snapshot directory in the format of Arm DS-5 and OpenCSD: {@code snapshot.ini} lists device
 * files (cores and trace sources, with registers and memory dumps) and names the trace metadata file
 * ({@code trace.ini}), which lists the trace buffers and says which source's trace is in which buffer
 * and which core each source traces.
 */
public final class Snapshot {

    /** A device file: {@code [device]} name, class and type, {@code [regs]}, and its memory dumps. */
    public record Device(String name, String deviceClass, String type, Registers registers,
                         List<Dump> dumps, Path file) {
    }

    /** A {@code [dump...]} section: a file placed at an address. */
    public record Dump(Path file, long address, long offset, long length, String space) {
    }

    /** A trace buffer of trace.ini. */
    public record Buffer(String section, String name, Path file, BufferFormat format) {
    }

    private final Path dir;
    private final List<Device> devices;
    private final List<Buffer> buffers;
    private final List<SnapshotSource> sources;
    private final List<String> warnings;

    private Snapshot(Path dir, List<Device> devices, List<Buffer> buffers, List<SnapshotSource> sources,
                     List<String> warnings) {
        this.dir = dir;
        this.devices = devices;
        this.buffers = buffers;
        this.sources = sources;
        this.warnings = warnings;
    }

    /**
     * What was wrong with the snapshot but did not stop it from being read, one sentence each: a memory dump
     * whose file is missing is left out of the image (the trace can still be listed, and decoded where it
     * runs in other memory), as OpenCSD does too.
     */
    public List<String> warnings() {
        return warnings;
    }

    public Path directory() {
        return dir;
    }

    public List<Device> devices() {
        return devices;
    }

    public List<Buffer> buffers() {
        return buffers;
    }

    /** Every file the snapshot consists of: its .ini files, trace buffers and memory dumps. */
    public List<Path> files() {
        List<Path> files = new ArrayList<>();
        try (var list = Files.list(dir)) {
            list.filter(p -> p.getFileName().toString().endsWith(".ini")).forEach(files::add);
        } catch (java.io.IOException e) {
            files.add(dir.resolve("snapshot.ini"));
        }
        for (Device d : devices) {
            files.add(d.file());
            for (Dump dump : d.dumps()) {
                files.add(dump.file());
            }
        }
        for (Buffer b : buffers) {
            files.add(b.file());
        }
        return files;
    }

    /** The trace sources (devices of class trace_source), in device-list order. */
    public List<SnapshotSource> sources() {
        return sources;
    }

    public Optional<SnapshotSource> source(int traceId) {
        return sources.stream().filter(s -> s.traceId() == traceId).findFirst();
    }

    public static boolean isSnapshot(Path dir) {
        return Files.isRegularFile(dir.resolve("snapshot.ini"));
    }

    public static Snapshot load(Path dir) {
        return load(dir, false);
    }

    /**
     * Reads a snapshot. Paths in its .ini files are followed as given (relative to the file that names them,
     * or absolute); with {@code confine}, a path that leads outside {@code dir} (an absolute path elsewhere,
     * {@code ..}, a symbolic link) is refused, for snapshots from someone else.
     */
    public static Snapshot load(Path dir, boolean confine) {
        Confinement paths = new Confinement(dir, confine);
        FileKind kind = FileKind.of(dir);
        if (kind == FileKind.MISSING) {
            throw new InputException(IniFile.shown(dir.toString()) + ": no such snapshot directory.");
        }
        if (kind != FileKind.DIRECTORY) {
            throw new InputException(IniFile.shown(dir.toString()) + ": is " + kind.noun() + ", not a snapshot directory.");
        }
        Path snapshotIni = dir.resolve("snapshot.ini");
        if (FileKind.of(snapshotIni) == FileKind.MISSING) {
            throw new InputException(IniFile.shown(dir.toString()) + ": not a snapshot directory (it has no snapshot.ini).");
        }
        // snapshot.ini itself may be a link out of the directory: --confine holds for every file read
        IniFile snap = IniFile.read(paths.check(dir, snapshotIni));
        IniFile.Section list = snap.section("device_list");
        if (list == null) {
            throw new InputException(IniFile.shown(snapshotIni.toString()) + ": has no [device_list] section.");
        }
        List<Device> devices = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String deviceFile : list.entries().values()) {
            devices.add(readDevice(paths.check(snapshotIni, dir.resolve(deviceFile)), paths, warnings));
        }

        List<Buffer> buffers = new ArrayList<>();
        Map<String, String> sourceToBuffer = new LinkedHashMap<>();
        Map<String, String> sourceToCore = new LinkedHashMap<>();
        String metadata = snap.get("trace", "metadata");
        if (metadata != null && !metadata.isEmpty()) {
            Path traceIni = paths.check(snapshotIni, dir.resolve(metadata));
            IniFile trace = IniFile.read(traceIni);
            String names = trace.get("trace_buffers", "buffers");
            if (names == null) {
                throw new InputException(IniFile.shown(traceIni.toString()) + ": has no [trace_buffers] buffers= line.");
            }
            for (String raw : names.split(",")) {
                String section = raw.trim();
                if (section.isEmpty()) {
                    continue;
                }
                IniFile.Section s = trace.section(section);
                if (s == null) {
                    throw new InputException(IniFile.shown(traceIni.toString()) + ": buffer section [" + IniFile.shown(section)
                            + "] is listed but missing.");
                }
                String name = s.get("name");
                String file = s.get("file");
                String format = s.get("format");
                if (file == null) {
                    throw new InputException(IniFile.shown(traceIni.toString()) + ": [" + IniFile.shown(section) + "] has no file=.");
                }
                BufferFormat f = format == null ? BufferFormat.CORESIGHT : BufferFormat.parse(format);
                if (f == null) {
                    throw new InputException(IniFile.shown(traceIni.toString()) + ": [" + IniFile.shown(section)
                            + "] format= is not one of coresight, source_data, dstream_coresight.");
                }
                Path bufferFile = paths.check(traceIni, dir.resolve(file));
                FileKind bufferKind = FileKind.of(bufferFile);
                if (bufferKind != FileKind.REGULAR) {
                    throw new InputException(IniFile.shown(traceIni.toString()) + ": [" + IniFile.shown(section) + "] names "
                            + IniFile.shown(file) + ", which " + words(bufferKind) + ".");
                }
                buffers.add(new Buffer(section, name == null ? section : name, bufferFile, f));
            }
            IniFile.Section sb = trace.section("source_buffers");
            if (sb != null) {
                sourceToBuffer.putAll(sb.entries());
            }
            IniFile.Section cts = trace.section("core_trace_sources");
            if (cts != null) {
                cts.entries().forEach((core, source) -> sourceToCore.put(source, core));
            }
        }

        List<SnapshotSource> sources = new ArrayList<>();
        for (Device d : devices) {
            if (!"trace_source".equalsIgnoreCase(d.deviceClass())) {
                continue;
            }
            int traceId = traceId(d.registers());
            String bufferName = lookup(sourceToBuffer, d.name());
            Buffer buffer = null;
            if (bufferName != null) {
                for (Buffer b : buffers) {
                    if (b.name().equalsIgnoreCase(bufferName) || b.section().equalsIgnoreCase(bufferName)) {
                        buffer = b;
                    }
                }
            } else if (buffers.size() == 1 && sourceToBuffer.isEmpty()) {
                // no [source_buffers] at all: a single buffer holds every source's trace
                buffer = buffers.get(0);
            }
            String coreName = lookup(sourceToCore, d.name());
            MemoryImage memory = new MemoryImage();
            Device core = null;
            if (coreName != null) {
                for (Device c : devices) {
                    if (c.name().equalsIgnoreCase(coreName)) {
                        core = c;
                    }
                }
            }
            ProgramImage described = ProgramImage.of(memory);
            Registers coreRegisters = new Registers();
            if (core != null) {
                described = addDumps(memory, core);
                coreRegisters = core.registers();
            }
            ProgramImage own = addDumps(memory, d);
            SymbolTable symbols = described.symbols().isEmpty() ? own.symbols() : described.symbols();
            LineTable lines = described.lines().isEmpty() ? own.lines() : described.lines();
            sources.add(new SnapshotSource(d.name(), d.type(), traceId, d.registers(), coreName, coreRegisters,
                    new ProgramImage(memory, symbols, lines),
                    buffer == null ? null : buffer.file(), buffer == null ? null : buffer.format()));
        }
        return new Snapshot(dir, List.copyOf(devices), List.copyOf(buffers), List.copyOf(sources),
                List.copyOf(warnings));
    }

    /**
     * The CoreSight trace ID of a source: ETMTRACEIDR (ETM, PTM), TRCTRACEIDR (ETMv4), the TraceBusID
     * field, bits 22:16, of ITMTCR (ITM), or the TRACEID field, bits 22:16, of STMTCSR (STM); -1 when none
     * is given.
     */
    static int traceId(Registers r) {
        if (r.has("ETMTRACEIDR")) {
            return (int) (r.get("ETMTRACEIDR", 0) & 0x7F);
        }
        if (r.has("TRCTRACEIDR")) {
            return (int) (r.get("TRCTRACEIDR", 0) & 0x7F);
        }
        if (r.has("ITMTCR")) {
            return (int) ((r.get("ITMTCR", 0) >> 16) & 0x7F);
        }
        if (r.has("STMTCSR")) {
            return (int) ((r.get("STMTCSR", 0) >> 16) & 0x7F);
        }
        return -1;
    }

    private static String lookup(Map<String, String> map, String key) {
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (e.getKey().trim().equalsIgnoreCase(key)) {
                return e.getValue().trim();
            }
        }
        return null;
    }

    /**
     * Adds a device's dumps to {@code memory}. A dump whose file is named {@code *.elf} or {@code *.axf}
     * and is an ELF file is loaded as one (its load segments at their own addresses; the section's address
     * is then not used) and its symbols and DWARF line table are returned (in an image of {@code memory}),
     * so that a snapshot can carry the program with its symbols and source lines. Any other file is raw memory, even when it starts with an ELF header (a memory dump of a
     * Linux program does).
     */
    private static ProgramImage addDumps(MemoryImage memory, Device device) {
        SymbolTable symbols = SymbolTable.EMPTY;
        LineTable lines = LineTable.EMPTY;
        for (Dump dump : device.dumps()) {
            try {
                if (isElfDump(dump.file())) {
                    ProgramImage elf = ElfImage.load(dump.file());
                    memory.addAll(elf.memory());
                    if (symbols.isEmpty()) {
                        symbols = elf.symbols();
                    }
                    if (lines.isEmpty()) {
                        lines = elf.lines();
                    }
                } else {
                    RawImage.load(memory, dump.file(), dump.address(), dump.offset(), dump.length());
                }
            } catch (ImageException e) {
                throw new InputException(device.file() + ": " + e.getMessage(), e);
            }
        }
        return new ProgramImage(memory, symbols, lines);
    }

    /**
     * The code memory of {@code source} per address space: each memory dump of its core's device and its own
     * mapped, from the start of the trace, to the space its {@code space=} key names (every space when it names
     * none). {@link SnapshotSource#image()} is the same memory with the spaces merged, which is what a trace
     * that never leaves one space needs. The dumps are read again on each call.
     */
    public io.armtrace.image.MappedCodeMemory codeMemory(SnapshotSource source) {
        io.armtrace.image.MappedCodeMemory code = new io.armtrace.image.MappedCodeMemory();
        for (Device d : devices) {
            boolean core = source.coreName() != null && d.name().equalsIgnoreCase(source.coreName());
            if (!core && !d.name().equals(source.name())) {
                continue;
            }
            for (Dump dump : d.dumps()) {
                io.armtrace.image.AddressSpace space = io.armtrace.image.AddressSpace.parse(dump.space());
                if (space == null) {
                    throw new InputException(d.file() + ": a [dump] names the memory space " + IniFile.shown(dump.space())
                            + ", which is none of EL0N, EL0S, EL1N, EL1S, EL2, EL2N, EL2S, EL3, N, S, R, ROOT or ANY.");
                }
                MemoryImage memory = new MemoryImage();
                addDumps(memory, new Device(d.name(), d.deviceClass(), d.type(), d.registers(), List.of(dump), d.file()));
                code.map(space, 0, memory);
            }
        }
        return code;
    }

    /** True if a dump is loaded as an ELF file (its load segments at their addresses), not as raw memory. */
    public static boolean isElfDump(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return (n.endsWith(".elf") || n.endsWith(".axf")) && ElfImage.looksLikeElf(file);
    }

    /** Where a snapshot's files may lie: anywhere, or (confined) inside its directory. */
    private record Confinement(Path dir, boolean on) {
        Path check(Path iniFile, Path file) {
            if (!on) {
                return file;
            }
            try {
                Path root = dir.toRealPath();
                Path real = Files.exists(file) ? file.toRealPath() : file.toAbsolutePath().normalize();
                if (real.startsWith(root)) {
                    return file;
                }
            } catch (java.io.IOException e) {
                // unresolvable: refused below
            }
            throw new InputException(IniFile.shown(iniFile.toString()) + ": names " + IniFile.shown(file.toString())
                    + ", which lies outside the snapshot directory (refused by --confine).");
        }
    }

    /** A file's kind as the rest of a sentence: "does not exist", "is a named pipe (FIFO), not a regular file". */
    private static String words(FileKind kind) {
        return kind == FileKind.MISSING ? "does not exist" : kind.refusal();
    }

    private static Device readDevice(Path file, Confinement c, List<String> warnings) {
        IniFile ini = IniFile.read(file);
        IniFile.Section dev = ini.section("device");
        if (dev == null) {
            throw new InputException(IniFile.shown(file.toString()) + ": has no [device] section.");
        }
        String name = dev.get("name");
        if (name == null || name.isEmpty()) {
            throw new InputException(IniFile.shown(file.toString()) + ": [device] has no name=.");
        }
        String cls = dev.get("class");
        String type = dev.get("type");
        Registers regs = new Registers();
        IniFile.Section r = ini.section("regs");
        if (r != null) {
            for (Map.Entry<String, String> e : r.entries().entrySet()) {
                regs.put(e.getKey(), ini.number("regs", e.getKey(), e.getValue()));
            }
        }
        List<Dump> dumps = new ArrayList<>();
        for (IniFile.Section s : ini.sections()) {
            if (!s.name().toLowerCase(Locale.ROOT).startsWith("dump")) {
                continue;
            }
            String f = s.get("file");
            String address = s.get("address");
            if (f == null || address == null) {
                throw new InputException(IniFile.shown(file.toString()) + ": [" + IniFile.shown(s.name())
                        + "] needs both file= and address=.");
            }
            Path dumpFile = c.check(file, file.getParent() == null ? Path.of(f) : file.getParent().resolve(f));
            FileKind dumpKind = FileKind.of(dumpFile);
            if (dumpKind == FileKind.MISSING && java.nio.file.Files.isSymbolicLink(dumpFile)) {
                // A link that leads nowhere (dangling, or a loop) is a mistake in the snapshot, not a dump left out.
                throw new InputException(IniFile.shown(file.toString()) + ": [" + IniFile.shown(s.name()) + "] names "
                        + IniFile.shown(f) + ", a symbolic link that leads to no file.");
            }
            if (dumpKind == FileKind.MISSING) {
                warnings.add(IniFile.shown(file.toString()) + ": [" + IniFile.shown(s.name()) + "] names " + IniFile.shown(f) + ", which does not exist; that memory is left out.");
                continue;
            }
            if (dumpKind != FileKind.REGULAR) {
                throw new InputException(IniFile.shown(file.toString()) + ": [" + IniFile.shown(s.name()) + "] names "
                        + IniFile.shown(f) + ", which " + words(dumpKind) + ".");
            }
            long addr = ini.number(s.name(), "address", address);
            String length = s.get("length");
            String offset = s.get("offset");
            dumps.add(new Dump(dumpFile, addr,
                    offset == null ? 0 : ini.number(s.name(), "offset", offset),
                    length == null ? -1 : ini.number(s.name(), "length", length),
                    s.get("space")));
        }
        return new Device(name, cls == null ? "" : cls, type == null ? "" : type, regs, List.copyOf(dumps), file);
    }
}
