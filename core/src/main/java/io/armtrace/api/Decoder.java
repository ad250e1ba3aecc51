package io.armtrace.api;

import io.armtrace.image.CodeMemory;
import io.armtrace.image.MappedCodeMemory;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.InputException;
import io.armtrace.source.IniFile;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceInputs;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An opened trace: the sources of a snapshot directory, or the one source of a raw trace file or MTB dump,
 * each ready to decode into an {@link ElementSink} or through an {@link ElementIterator}.
 *
 * <pre>{@code
 * Decoder d = Decoder.openSnapshot(Path.of("capture"), DecodeOptions.DEFAULT);
 * try (ElementIterator it = d.elements()) {
 *     while (it.hasNext()) {
 *         TraceElement e = it.next();
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Mistakes in what is opened (a missing file, a malformed snapshot, an unknown protocol or register)
 * throw {@link InputException}, whose message is one sentence naming the file and the problem. Bad trace
 * data never throws: it becomes {@link io.armtrace.trace.Gap} and other elements. A decoder holds no
 * open file between calls; each decode reads its inputs afresh, and different sources may be decoded on
 * different threads at once.
 */
public final class Decoder {
    private final List<TraceSource> sources;
    private final DecodeOptions options;
    private final List<Path> files;

    private Decoder(List<TraceSource> sources, DecodeOptions options, List<Path> files) {
        this.sources = List.copyOf(sources);
        this.options = options;
        this.files = List.copyOf(files);
    }

    /**
     * Opens a DS-5/OpenCSD snapshot directory ({@code snapshot.ini}, {@code trace.ini} and device files): the
     * sources {@code options} chooses (every source whose device type armtrace decodes, when it chooses
     * none), each with its core's memory dumps as program image plus {@code options}' images.
     *
     * @param dir the snapshot directory
     * @param options what to open and how to decode
     * @return the opened snapshot
     */
    public static Decoder openSnapshot(Path dir, DecodeOptions options) {
        Snapshot snap = TraceInputs.openSnapshot(dir, options.confine());
        snap.warnings().forEach(options.warnings());
        boolean named = !options.sources().isEmpty();
        TraceProtocol forced = options.protocol() == null ? null : protocolNamed(options.protocol());
        List<TraceSource> out = new ArrayList<>();
        for (SnapshotSource s : TraceInputs.choose(snap, dir, options.sources())) {
            TraceProtocol p = forced != null ? forced : Protocols.forDeviceType(s.type()).orElse(null);
            if (p == null) {
                if (named) {
                    throw new InputException(dir + ": source " + s.name() + " is of type " + s.type()
                            + ", which armtrace does not decode.");
                }
                continue; // not a trace source armtrace decodes: left out when decoding every source
            }
            if (s.bufferFile() == null) {
                if (named) {
                    throw new InputException(dir + ": source " + s.name() + " has no trace buffer.");
                }
                continue;
            }
            Registers extra = options.registers();
            p.checkRegisterNames(extra, "--reg");
            Registers r = TraceInputs.registers(s, p.registersForCore(TraceInputs.coreType(snap, s)), extra);
            ProgramImage img = TraceInputs.image(s.image(), options.images());
            out.add(new TraceSource(p, new DecodeInput(s.traceId(), r, img, s.data(), options.decoderOptions(),
                    codeMemory(snap, s, img, options)), TraceInputs.label(s)));
        }
        if (out.isEmpty()) {
            throw new InputException(dir + ": has no trace source that armtrace can decode.");
        }
        return new Decoder(out, options, snap.files());
    }

    /**
     * Opens a raw trace file of protocol {@code protocol} (etm2, etm3, ptm, mtb, etm4, ete, itm, stm), laid out
     * as {@link DecodeOptions#framing()} says, with the trace unit's registers and program images from
     * {@code options}. A formatted file needs the trace ID of the source to take ({@link
     * DecodeOptions.Builder#source}).
     *
     * @param file the raw trace file
     * @param protocol the protocol name (etm2, etm3, ptm, mtb, etm4, ete, itm, stm)
     * @param options what to open and how to decode
     * @return the opened trace file
     * @throws java.io.IOException if a file cannot be read
     */
    public static Decoder openTrace(Path file, String protocol, DecodeOptions options) throws IOException {
        TraceInputs.checkTraceFile(file);
        if (protocol == null) {
            throw new InputException("--trace " + file + ": say which protocol it is with --protocol ("
                    + Protocols.names() + ").");
        }
        TraceProtocol p = protocolNamed(protocol);
        Registers extra = options.registers();
        p.checkRegisterNames(extra, "--reg");
        if (options.sources().size() > 1) {
            throw new InputException(file + ": a raw trace file holds one source; give one trace ID.");
        }
        Integer id = options.sources().isEmpty() ? null : options.sources().get(0);
        TraceInputs.RawSource raw = TraceInputs.rawSource(file, options.framing(), id, extra);
        ProgramImage img = TraceInputs.image(ProgramImage.of(new MemoryImage()), options.images());
        return new Decoder(List.of(new TraceSource(p, new DecodeInput(raw.traceId(), extra, img, raw.data(),
                options.decoderOptions()), file.toString())), options,
                List.of(file));
    }

    /**
     * Opens an MTB RAM dump (the SRAM holding the Micro Trace Buffer): the registers {@code POSITION} (and
     * {@code BASE}, {@code MASTER}, {@code FLOW}, {@code PC} as the capture has them) and the program image come
     * from {@code options}; docs/mtb.md says where to read them.
     *
     * @param dump the MTB SRAM dump
     * @param options what to open and how to decode
     * @return the opened dump
     * @throws java.io.IOException if a file cannot be read
     */
    public static Decoder openMtb(Path dump, DecodeOptions options) throws IOException {
        return openTrace(dump, "mtb", options);
    }

    /**
     * Opens a perf.data recording (Linux perf or simpleperf) of CoreSight trace: per CPU with AUX data, its
     * trace unit's protocol and registers, and its AUX buffers as segments (a break, and a gap element,
     * between buffers and where AUX data was lost); code from the executable mappings whose binaries are
     * found in {@code symdirs} (by build ID or file name) or at their recorded paths. Each binary not found is
     * named once through {@link DecodeOptions#warnings()}; its code gives no_image elements.
     *
     * @param recording the perf.data file
     * @param symdirs directories holding the mapped binaries
     * @param options what to open and how to decode (sources are trace IDs; images are added)
     * @return the opened recording
     */
    public static Decoder openRecording(Path recording, List<Path> symdirs, DecodeOptions options) {
        return openRecording(recording, symdirs, null, null, options);
    }

    /**
     * As {@link #openRecording(Path, List, DecodeOptions)}, with the kernel: {@code vmlinux}, the kernel's ELF
     * file, gives the code of the kernel's own mapping (moved by the address space layout randomisation the
     * recording shows); {@code kallsyms}, a copy of the recorded machine's /proc/kallsyms, names kernel
     * addresses. Either may be null; without {@code vmlinux}, a recording with a kernel mapping says once
     * through {@link DecodeOptions#warnings()} that its code gives no_image elements.
     *
     * @param recording the perf.data file
     * @param symdirs directories holding the mapped binaries
     * @param vmlinux the kernel's ELF file, or null
     * @param kallsyms the kernel's symbols as /proc/kallsyms lists them, or null
     * @param options what to open and how to decode (sources are trace IDs; images are added)
     * @return the opened recording
     */
    public static Decoder openRecording(Path recording, List<Path> symdirs, Path vmlinux, Path kallsyms, DecodeOptions options) {
        io.armtrace.source.perf.PerfData data = io.armtrace.source.perf.PerfData.read(recording);
        io.armtrace.source.perf.PerfTrace trace = io.armtrace.source.perf.PerfTrace.open(data, symdirs, vmlinux);
        io.armtrace.image.SymbolTable symbols = kallsyms == null ? null : io.armtrace.source.perf.Kallsyms.read(kallsyms);
        if (trace.kernelMissing() != null) {
            options.warnings().accept(recording + ": the kernel's code (" + IniFile.shorten(trace.kernelMissing()) + ") was not"
                    + " given (give --vmlinux FILE, the kernel's ELF file); its code gives no_image elements.");
        }
        List<String> missing = trace.missing();
        for (int i = 0; i < Math.min(5, missing.size()); i++) {
            options.warnings().accept(recording + ": the mapped binary " + IniFile.shorten(missing.get(i)) + " was not found (give"
                    + " --symdir DIR holding it by file name or build ID); its code gives no_image elements.");
        }
        if (missing.size() > 5) {
            options.warnings().accept(recording + ": " + (missing.size() - 5) + " more mapped binaries were not found; their code"
                    + " gives no_image elements.");
        }
        ProgramImage base = kallsyms == null ? ProgramImage.of(trace.memory()) : new ProgramImage(trace.memory(), symbols);
        List<TraceSource> out = new ArrayList<>();
        for (io.armtrace.source.perf.PerfTrace.Cpu c : trace.cpus()) {
            if (!options.sources().isEmpty() && !options.sources().contains(c.unit().traceId())) {
                continue;
            }
            TraceProtocol p = options.protocol() != null ? protocolNamed(options.protocol())
                    : Protocols.forDeviceType(c.deviceType()).orElseThrow(() -> new InputException(recording + ": CPU " + c.cpu()
                            + " has a trace unit of type " + c.deviceType() + ", which armtrace does not decode."));
            Registers extra = options.registers();
            p.checkRegisterNames(extra, "--reg");
            Registers r = new Registers().putAll(c.registers()).putAll(extra);
            try {
                p.describe(r); // the configuration the decoder builds: registers that contradict each other are refused here
            } catch (IllegalArgumentException e) {
                throw new InputException(recording + ": the trace unit registers of CPU " + c.cpu() + " (AUXTRACE_INFO"
                        + (extra.asMap().isEmpty() ? "" : " and --reg") + ") cannot be decoded: " + e.getMessage());
            }
            ProgramImage img = TraceInputs.image(base, options.images());
            // code per process over time where the trace says which process runs (its context ID), and no
            // images were added by hand (those serve every process)
            io.armtrace.image.CodeMemory code = options.images().isEmpty() ? trace.code(c) : null;
            DecodeInput in = code == null ? new DecodeInput(c.unit().traceId(), r, img, c.data(), options.decoderOptions())
                    : new DecodeInput(c.unit().traceId(), r, img, c.data(), options.decoderOptions(), code);
            out.add(new TraceSource(p, in, c.label(), c.segments(), () -> trace.threads(c)));
        }
        for (int id : options.sources()) {
            if (trace.cpus().stream().noneMatch(c -> c.unit().traceId() == id)) {
                throw new InputException(recording + ": has no CPU trace with ID " + String.format("0x%02x", id) + ".");
            }
        }
        return new Decoder(out, options, List.of(recording));
    }

    /**
     * The sources to decode, in the order {@link #decode(ElementSink)} decodes them.
     *
     * @return the sources
     */
    public List<TraceSource> sources() {
        return sources;
    }

    /**
     * The files this input consists of: a snapshot's .ini files, trace buffers and memory dumps, or the raw
     * trace file (not the extra images of the options).
     *
     * @return the input files
     */
    public List<Path> files() {
        return files;
    }

    /**
     * The options this input was opened with.
     *
     * @return the options
     */
    public DecodeOptions options() {
        return options;
    }

    /**
     * Decodes every source, one after the other, into {@code sink}, then calls {@link ElementSink#end()}
     * once. Each element names its source ({@link io.armtrace.trace.TraceElement#source()}).
     *
     * @param sink receives the elements
     * @throws java.io.IOException if a file cannot be read
     */
    public void decode(ElementSink sink) throws IOException {
        for (TraceSource s : sources) {
            s.decode(sink);
        }
        sink.end();
    }

    /**
     * Decodes {@code source} into {@code sink}, then calls {@link ElementSink#end()}.
     *
     * @param source one of {@link #sources()}
     * @param sink receives the elements
     * @throws java.io.IOException if a file cannot be read
     */
    public void decode(TraceSource source, ElementSink sink) throws IOException {
        source.decode(sink);
        sink.end();
    }

    /**
     * The elements of every source, in the order of {@link #decode(ElementSink)}; close it when done.
     *
     * @return an iterator to close when done
     */
    public ElementIterator elements() {
        return new ElementIterator(sink -> {
            for (TraceSource s : sources) {
                s.decode(sink);
            }
        }, options.batchSize(), options.queuedBatches());
    }

    /**
     * The elements of {@code source}; close it when done.
     *
     * @param source one of {@link #sources()}
     * @return an iterator to close when done
     */
    public ElementIterator elements(TraceSource source) {
        return new ElementIterator(source::decode, options.batchSize(),
                options.queuedBatches());
    }

    /**
     * The protocol named {@code name}, or one sentence listing those armtrace knows.
     *
     * @param name the protocol name
     * @return the protocol
     */
    public static TraceProtocol protocolNamed(String name) {
        return Protocols.byName(name).orElseThrow(() -> new InputException(
                "--protocol " + IniFile.shorten(name) + ": unknown protocol; armtrace knows " + Protocols.names() + "."));
    }

    /**
     * A source's memory per space: the snapshot's dumps in the spaces they name when any names one, with the
     * options' images serving every space; otherwise the one merged image.
     */
    private static CodeMemory codeMemory(Snapshot snap, SnapshotSource s, ProgramImage img, DecodeOptions options) {
        boolean spaces = false;
        for (Snapshot.Device d : snap.devices()) {
            if (d.name().equals(s.name()) || (s.coreName() != null && d.name().equalsIgnoreCase(s.coreName()))) {
                for (Snapshot.Dump dump : d.dumps()) {
                    spaces |= dump.space() != null && !dump.space().isBlank();
                }
            }
        }
        if (!spaces) {
            return CodeMemory.of(img);
        }
        MappedCodeMemory code = snap.codeMemory(s);
        ProgramImage extra = TraceInputs.image(ProgramImage.of(new MemoryImage()), options.images());
        if (!extra.memory().isEmpty()) {
            code.map(io.armtrace.image.AddressSpace.ANY, 0, extra.memory());
        }
        return code;
    }
}
