package io.armtrace.bench;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.protocol.etm3.Etm3Config;
import io.armtrace.protocol.etm3.Etm3PacketReader;
import io.armtrace.protocol.mtb.MtbConfig;
import io.armtrace.protocol.mtb.MtbEncoder;
import io.armtrace.protocol.mtb.MtbFlow;
import io.armtrace.protocol.mtb.MtbLayout;
import io.armtrace.protocol.mtb.MtbPacketReader;
import io.armtrace.protocol.mtb.MtbProgram;
import io.armtrace.protocol.ptm.PtmConfig;
import io.armtrace.protocol.ptm.PtmEncoder;
import io.armtrace.protocol.ptm.PtmPacketReader;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.SnapshotWriter;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import io.armtrace.view.EncodingWriter;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.TextWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;

/**
 * armtrace's side of {@code bench/vs-opencsd/run.sh}: builds the inputs both tools decode, and decodes
 * them with a sink that only counts, the way the C++ driver there runs OpenCSD.
 *
 * <pre>
 * prepare OUT TC2DIR            write the inputs as single-source snapshots OUT/NAME/, each with
 *                               opencsd.args (the C++ driver's protocol, registers and images)
 * measure SNAPSHOT MODE REPEAT [MIN_SECONDS]
 *                               runs MODE at least REPEAT times and, with MIN_SECONDS, until the runs add up
 *                               to MIN_SECONDS of CPU time (at most 1000 runs; prints runs=N, which run.sh
 *                               gives the C++ driver so that both tools take the best of the same N).
 *                               MODE packets (packet reader, counting), decode (full decode into a
 *                               counting sink), elements (full decode, every element kept where the JIT
 *                               cannot drop it, nothing formatted) or text (full decode into the text listing, written to
 *                               a discarding stream through the same writers as the command line),
 *                               jsonl (the same with JSON Lines, one object per range: --ranges),
 *                               jsonl-insn (JSON Lines, one object per instruction), text-piped and
 *                               jsonl-piped (text and jsonl with the listing on a thread of its own, as
 *                               `armtrace decode` with two processors: time them by the wall clock) or
 *                               pipe-null (decode into a pipe whose other end only counts); text-helped and
 *                               jsonl-helped (the listing on its own thread, helped by the decoder's, as
 *                               `armtrace decode` runs it with two processors), text-pieces and jsonl-pieces (the
 *                               trace cut into pieces of 4 MiB, or VS_PIECE_BYTES, each decoded and formatted on
 *                               one of two threads, as `decode --jobs 2 --chunk-size 4M`); text-replay and
 *                               jsonl-replay (the listing writer alone: the decoder's calls recorded by the first
 *                               run, made again into a new writer by each) and null-replay (the same calls into a
 *                               sink that only reads them: what replaying costs)
 * mtb DUMPS REPEAT              decode a fleet of MTB dumps (OpenCSD has no MTB decoder)
 * repeat SNAPSHOT OUT BYTES     write a copy of SNAPSHOT whose trace is repeated to at least BYTES
 * encode-run OUT ELF CORE NAME BYTES CHUNK [same-run]
 *                               read a QEMU plugin log of one run of the program ELF from standard input
 *                               and encode it as PTM and as ETMv3 into OUT/NAME-ptm/ and OUT/NAME-etm3/,
 *                               each until its trace reaches BYTES (no part repeated); with same-run, both
 *                               until the PTM trace reaches BYTES, so that both hold the same instructions
 * </pre>
 *
 * The trace is read into memory before timing, as the C++ driver does; each run decodes all of it.
 * Prints one line of key=value pairs, the same keys as the C++ driver: best and median wall seconds and
 * the best CPU seconds of the decoding thread.
 */
public final class VsOpenCsd {
    static final int TARGET_BYTES = 50 << 20;

    private VsOpenCsd() {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        switch (args[0]) {
            case "prepare" -> prepare(Path.of(args[1]), Path.of(args[2]));
            case "prepare-etm4" -> prepareEtm4(Path.of(args[1]), Path.of(args[2]));
            case "measure" -> measure(Path.of(args[1]), args[2], Integer.parseInt(args[3]),
                    args.length > 4 ? Double.parseDouble(args[4]) : 0);
            case "mtb" -> mtb(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "repeat" -> repeat(Path.of(args[1]), Path.of(args[2]), Long.parseLong(args[3]));
            case "encode-run" -> encodeRun(System.in, Path.of(args[1]), Path.of(args[2]), args[3], args[4],
                    Long.parseLong(args[5]), Integer.parseInt(args[6]),
                    args.length > 7 && args[7].equals("same-run"));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    // ---- inputs

    static void prepare(Path out, Path tc2) throws IOException {
        Snapshot snap = Snapshot.load(tc2);
        for (int id : new int[] {0x10, 0x13}) {
            SnapshotSource s = snap.source(id).orElseThrow();
            byte[] raw;
            try (InputStream in = s.data().open()) {
                raw = in.readAllBytes();
            }
            byte[] unit = Arrays.copyOfRange(raw, firstAsync(raw), raw.length);
            boolean ptm = id == 0x13;
            write(out.resolve(ptm ? "ptm-tc2" : "etm3-tc2"), ptm ? "Cortex-A15" : "Cortex-A7", s.image().memory(),
                    ptm ? "PTM1.1" : "ETM3.5", s.registers(), repeatTo(unit, TARGET_BYTES));
        }
        Execution ex;
        ProgramImage img;
        try (InputStream e = resource("/groundtruth/a9-thumb.exec.gz");
             InputStream elf = resource("/groundtruth/a9-thumb.elf.gz")) {
            ex = ExecutionFormat.reader(e).readAll();
            img = ElfImage.load(new GZIPInputStream(elf).readAllBytes(), "a9-thumb.elf");
        }
        EncodeOutput enc = new PtmEncoder().returnStack(true, 15).encode(ex, img);
        write(out.resolve("ptm-a9thumb-rs"), "Cortex-A9", img.memory(), "PTM1.1", enc.registers(),
                repeatTo(enc.trace(), TARGET_BYTES));
    }

    /**
     * The ETMv4 inputs from the conformance captures in ETM4DIR: juno_r1_1's source 0x10 (Cortex-A57, Linux
     * kernel) repeated to the usual size, and bugfix-exact-match's source 0x12 (gcc's cc1, the largest
     * capture) as it is.
     */
    static void prepareEtm4(Path out, Path etm4) throws IOException {
        Object[][] inputs = {{"juno_r1_1", 0x10, "etm4-juno", true}, {"bugfix-exact-match", 0x12, "etm4-cc1", false}};
        for (Object[] in : inputs) {
            SnapshotSource s = Snapshot.load(etm4.resolve((String) in[0])).source((Integer) in[1]).orElseThrow();
            byte[] raw;
            try (InputStream i = s.data().open()) {
                raw = i.readAllBytes();
            }
            byte[] unit = Arrays.copyOfRange(raw, firstAsync(raw), raw.length);
            write(out.resolve((String) in[2]), "Cortex-A57", s.image().memory(), "ETM4", s.registers(),
                    (Boolean) in[3] ? repeatTo(unit, TARGET_BYTES) : unit);
        }
    }

    static void repeat(Path snapshot, Path out, long bytes) throws IOException {
        SnapshotSource s = Snapshot.load(snapshot).sources().get(0);
        byte[] unit;
        try (InputStream in = s.data().open()) {
            unit = in.readAllBytes();
        }
        write(out, "Cortex-A15", s.image().memory(), s.type(), s.registers(), new byte[0]);
        Path trace = out.resolve("trace_0.bin");
        try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(trace), 1 << 20)) {
            for (long n = 0; n < bytes; n += unit.length) {
                o.write(unit);
            }
        }
    }

    /** Thrown by the import's sink when every protocol's trace is large enough: the rest of the log is not read. */
    private static final class Enough extends RuntimeException {
        Enough() {
            super(null, null, false, false);
        }
    }

    /**
     * The large-footprint inputs: one run of a program under QEMU (its plugin log on standard input, as
     * tools/groundtruth/pctrace.c writes it) imported as it streams, cut into pieces of CHUNK instructions,
     * and each piece encoded with the encoders' default options as PTM and as ETMv3, appended to
     * OUT/NAME-ptm/trace_0.bin and OUT/NAME-etm3/trace_0.bin until each reaches BYTES. Every piece starts
     * with its own synchronisation, so the stream decodes as the run itself: nothing in it repeats. Writes
     * OUT/NAME-P/input.txt with the facts of each input (instructions, distinct code bytes executed,
     * instructions per trace byte) and the images the C++ driver reads.
     */
    static void encodeRun(InputStream pluginLog, Path out, Path elf, String core, String name, long bytes, int chunk,
            boolean sameRun) throws IOException {
        ProgramImage image = ElfImage.load(elf);
        String[] protocols = {"ptm", "etm3"};
        String[] types = {"PTM1.1", "ETM3.5"};
        Path[] dirs = new Path[2];
        OutputStream[] traces = new OutputStream[2];
        long[] written = new long[2];
        long[] insns = new long[2];
        java.util.BitSet[] code = {new java.util.BitSet(), new java.util.BitSet()};
        Registers[] regs = new Registers[2];
        for (int i = 0; i < 2; i++) {
            dirs[i] = out.resolve(name + "-" + protocols[i]);
            Files.createDirectories(dirs[i]);
            traces[i] = new java.io.BufferedOutputStream(Files.newOutputStream(dirs[i].resolve("trace_0.bin.part")), 1 << 20);
        }
        List<io.armtrace.execution.ExecutionEvent> piece = new ArrayList<>(chunk + 16);
        Runnable flush = () -> {
            Execution ex = new Execution(List.copyOf(piece));
            piece.clear();
            boolean more = false;
            long ptmBefore = written[0]; // with sameRun, this piece goes into both traces or neither
            for (int i = 0; i < 2; i++) {
                if ((sameRun ? ptmBefore : written[i]) >= bytes) {
                    continue;
                }
                EncodeOutput enc = Protocols.byName(protocols[i]).orElseThrow().encode(ex, image, java.util.Map.of());
                try {
                    traces[i].write(enc.trace());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                regs[i] = enc.registers();
                written[i] += enc.trace().length;
                for (io.armtrace.execution.ExecutionEvent.Step st : ex.steps()) {
                    insns[i]++;
                    if (st.address() >= 0 && st.address() + st.size() < (1L << 32)) {
                        code[i].set((int) (st.address() >>> 1), (int) ((st.address() + st.size()) >>> 1));
                    }
                }
                more |= written[sameRun ? 0 : i] < bytes;
            }
            if (insns[0] % (50L * chunk) < chunk) {
                System.err.printf("  %s: ptm %d MB, etm3 %d MB%n", name, written[0] >> 20, written[1] >> 20);
            }
            if (!more) {
                throw new Enough();
            }
        };
        long[] steps = {0};
        try (InputStream log = new java.io.BufferedInputStream(pluginLog, 1 << 20)) {
            io.armtrace.execution.QemuPluginLog.importLog(log, io.armtrace.isa.Profile.AR, image, null, e -> {
                piece.add(e);
                if (e instanceof io.armtrace.execution.ExecutionEvent.Step && ++steps[0] % chunk == 0) {
                    flush.run();
                }
            });
            if (!piece.isEmpty()) {
                flush.run();
            }
        } catch (Enough e) {
            // both traces are large enough; the program's remaining output is not needed
        }
        for (int i = 0; i < 2; i++) {
            traces[i].close();
            if (regs[i] == null) {
                throw new IOException("the QEMU log of " + elf + " holds no instructions");
            }
            write(dirs[i], core, image.memory(), types[i], regs[i], new byte[0]);
            Files.move(dirs[i].resolve("trace_0.bin.part"), dirs[i].resolve("trace_0.bin"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            long footprint = 2L * code[i].cardinality();
            String facts = String.format("program: %s, %s%none run, cut into pieces of %d instructions, each encoded as %s"
                    + " with its own synchronisation: %d instructions, %d bytes of distinct code executed (%.2f MB),"
                    + " %d bytes of trace%ninstructions per trace byte: %.2f%n", elf.getFileName(), core, chunk,
                    types[i], insns[i], footprint, footprint / 1e6, written[i], (double) insns[i] / written[i]);
            Files.writeString(dirs[i].resolve("input.txt"), facts);
            System.err.print(facts);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = VsOpenCsd.class.getResourceAsStream(name);
        if (in == null) {
            throw new IOException("resource " + name + " missing from the class path");
        }
        return in;
    }

    private static void write(Path dir, String core, MemoryImage memory, String type, Registers regs, byte[] trace)
            throws IOException {
        SnapshotWriter.write(dir, core, memory, type, regs, trace);
        StringBuilder a = new StringBuilder(type.startsWith("PTM") ? "ptm" : type.startsWith("ETM4") ? "etm4" : "etm3");
        a.append(" trace_0.bin");
        if (type.startsWith("ETM4")) {
            a.append(String.format(" 0x%08x 0x%08x 0x%08x,0x%08x,0x%08x 0x%08x", regs.get("TRCIDR0", 0x28000EA1L),
                    regs.get("TRCCONFIGR", 0), regs.get("TRCIDR1", 0x4100F403L), regs.get("TRCIDR2", 0x488),
                    regs.get("TRCIDR8", 0), regs.get("TRCTRACEIDR", 0)));
        } else {
            for (String r : new String[] {"ETMIDR", "ETMCR", "ETMCCER", "ETMTRACEIDR"}) {
                a.append(String.format(" 0x%08x", regs.get(r, 0)));
            }
        }
        List<MemoryImage.Region> regions = memory.regions();
        StringBuilder images = new StringBuilder();
        for (int i = 0; i < regions.size(); i++) {
            images.append(String.format(" mem_%d_0x%08x.bin@0x%08x", i, regions.get(i).start(), regions.get(i).start()));
        }
        Files.writeString(dir.resolve("opencsd.args"), a + "\n" + images.toString().trim() + "\n");
    }

    static byte[] repeatTo(byte[] unit, int target) {
        int copies = (target + unit.length - 1) / unit.length;
        byte[] s = new byte[copies * unit.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(unit, 0, s, i * unit.length, unit.length);
        }
        return s;
    }

    /** Offset of the first A-sync (five or more zero bytes then 0x80): a repeated copy starts in sync. */
    static int firstAsync(byte[] b) {
        int zeros = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                zeros++;
            } else {
                if (b[i] == (byte) 0x80 && zeros >= 5) {
                    return i - zeros;
                }
                zeros = 0;
            }
        }
        return 0;
    }

    // ---- measurement

    static final class Counts implements ElementSink {
        long packets;
        long elements;
        long instructions;

        @Override
        public void accept(TraceElement e) {
            elements++;
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            }
        }
    }

    /** Most runs of one measurement, whatever its time budget. */
    private static final int MAX_RUNS = 1000;

    static void measure(Path dir, String mode, int repeat, double minSeconds) throws IOException {
        SnapshotSource s = Snapshot.load(dir).sources().get(0);
        TraceProtocol protocol = Protocols.all().stream().filter(p -> p.handlesDeviceType(s.type())).findFirst()
                .orElseThrow();
        byte[] trace;
        try (InputStream in = s.data().open()) {
            trace = in.readAllBytes();
        }
        DecodeInput input = new DecodeInput(s.traceId(), s.registers(), s.image(), TraceData.of("trace", trace),
                DecodeOptions.DEFAULT);
        // a small input runs for milliseconds, so its first runs are mostly JIT warm-up: with a time budget,
        // runs go on until they add up to it, and the best of them is the steady state
        double[] seconds = new double[MAX_RUNS];
        double[] cpu = new double[MAX_RUNS];
        Counts counts = null;
        int runs = 0;
        double total = 0;
        while (runs < MAX_RUNS && (runs < repeat || total < minSeconds)) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            counts = run(protocol, input, trace, mode);
            seconds[runs] = (System.nanoTime() - t0) / 1e9;
            cpu[runs] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e9;
            total += cpu[runs];
            runs++;
        }
        print(trace.length, counts, Arrays.copyOf(seconds, runs), Arrays.copyOf(cpu, runs));
    }

    /**
     * The listing's output buffer, as `armtrace decode -o FILE` has it (EncodingWriter.OUTPUT_BUFFER); VS_OUT_BUF=BYTES
     * to try others.
     */
    private static final int OUT_BUF = Integer.parseInt(System.getenv().getOrDefault("VS_OUT_BUF",
            Integer.toString(io.armtrace.view.EncodingWriter.OUTPUT_BUFFER)));

    /** The pieces' size of the "-pieces" modes: the automatic one unless VS_PIECE_BYTES=BYTES. */
    private static final long PIECE_BYTES = Long.parseLong(System.getenv().getOrDefault("VS_PIECE_BYTES",
            Long.toString(4L << 20)));

    private static final boolean PACKET_OBJECTS = "1".equals(System.getenv("VS_PACKET_OBJECTS"));

    private static Counts run(TraceProtocol protocol, DecodeInput input, byte[] trace, String mode) throws IOException {
        Counts c = new Counts();
        switch (mode) {
            case "packets" -> {
                if (protocol.name().equals("etm4") || protocol.name().equals("ete")) {
                    // atoms and addresses without a context come as arguments, as the decoder's speculation layer
                    // takes them; VS_PACKET_OBJECTS=1 has every packet filled into the packet object (a listing's way)
                    io.armtrace.protocol.etm4.Etm4PacketListener counter = PACKET_OBJECTS ? p -> c.packets++
                            : new io.armtrace.protocol.etm4.Etm4PacketListener() {
                                @Override
                                public void packet(io.armtrace.protocol.etm4.Etm4Packet p) {
                                    c.packets++;
                                }

                                @Override
                                public void atom(io.armtrace.protocol.etm4.Etm4Packet scratch, long offset, int header,
                                        int count, int bits) {
                                    c.packets++;
                                }

                                @Override
                                public void address(io.armtrace.protocol.etm4.Etm4Packet scratch, byte[] b, int pos,
                                        int length, long offset, long address, int is) {
                                    c.packets++;
                                }
                            };
                    io.armtrace.protocol.etm4.Etm4PacketReader r = new io.armtrace.protocol.etm4.Etm4PacketReader(
                            io.armtrace.protocol.etm4.Etm4Config.of(input.registers(), protocol.name().equals("ete")),
                            counter);
                    pushAll(trace, r::push);
                    r.end();
                } else if (protocol.name().equals("ptm")) {
                    PtmPacketReader r = new PtmPacketReader(PtmConfig.of(input.registers(), input.traceId()),
                            p -> c.packets++);
                    pushAll(trace, r::push);
                    r.end();
                } else {
                    Etm3PacketReader r = new Etm3PacketReader(Etm3Config.of(input.registers()), p -> c.packets++);
                    pushAll(trace, r::push);
                    r.end();
                }
            }
            case "decode" -> protocol.decode(input, c);
            case "elements" -> {
                // every element made and handed to a sink the JIT cannot see through, nothing formatted: what
                // the decoder costs when a listing consumes its elements (the counting sink above lets the JIT
                // drop the elements it never looks at)
                Kept kept = new Kept();
                protocol.decode(input, e -> {
                    c.accept(e);
                    kept.keep(e);
                });
            }
            case "text", "text-piped" -> {
                // what `armtrace decode -o FILE` does with its output (cli.OutputFile): UTF-8 encoded straight
                // into the output's byte buffer; "-piped", the listing on a thread of its own as with two processors
                try (PrintWriter out = new EncodingWriter(OutputStream.nullOutputStream(),
                        StandardCharsets.UTF_8, OUT_BUF).printWriter(false)) {
                    TextWriter text = new TextWriter(out, input.image(), false, false);
                    decode(protocol, input, new Tee(c, text), mode.endsWith("-piped"));
                    text.end();
                }
            }
            case "jsonl", "jsonl-insn", "jsonl-piped" -> {
                // `armtrace decode --format jsonl --ranges -o FILE` (one object per range, as the text listing
                // has one line per range), or without --ranges (one object per instruction)
                try (PrintWriter out = new EncodingWriter(OutputStream.nullOutputStream(),
                        StandardCharsets.UTF_8, OUT_BUF).printWriter(false)) {
                    JsonlWriter jsonl = new JsonlWriter(out, input.image(), false, !mode.equals("jsonl-insn"));
                    decode(protocol, input, new Tee(c, jsonl), mode.endsWith("-piped"));
                    jsonl.end();
                }
            }
            case "text-helped", "jsonl-helped" -> {
                // as `armtrace decode` with two threads: the listing on the pipe's thread, helped by the decoder's
                // thread when it falls behind (ElementPipe with formats); the elements counted on the decoder's side
                boolean jsonl = mode.startsWith("jsonl");
                ProgramImage own = new ProgramImage(input.image().memory().copy(), input.image().symbols(),
                        input.image().lines());
                io.armtrace.view.ListingPieces listing = new io.armtrace.view.ListingPieces(w -> jsonl
                        ? new JsonlWriter(w, own, false, true) : new TextWriter(w, own, false, false),
                        StandardCharsets.UTF_8);
                io.armtrace.view.ListingPieces helping = new io.armtrace.view.ListingPieces(w -> jsonl
                        ? new JsonlWriter(w, input.image(), false, true) : new TextWriter(w, input.image(), false, false),
                        StandardCharsets.UTF_8);
                io.armtrace.trace.ElementPipe.decode(s -> protocol.decode(input, new Tee(c, s)), listing, helping,
                        OutputStream.nullOutputStream(), "listing");
            }
            case "text-pieces", "jsonl-pieces" -> {
                // as `armtrace decode --jobs 2 --chunk-size 4M`: pieces of the trace decoded and formatted on two
                // threads, their bytes joined in order (ChunkedDecode); only the listed elements are counted
                boolean jsonl = mode.startsWith("jsonl");
                io.armtrace.protocol.ChunkedDecode.Split split = io.armtrace.protocol.ChunkedDecode.decode(protocol,
                        input, new io.armtrace.view.ListingPieces(w -> jsonl
                                ? new JsonlWriter(w, input.image(), false, true)
                                : new TextWriter(w, input.image(), false, false), StandardCharsets.UTF_8),
                        OutputStream.nullOutputStream(), 2, PIECE_BYTES);
                c.elements = split.listed();
            }
            case "text-replay", "jsonl-replay", "null-replay" -> {
                // the listing writer alone: the decoder's calls recorded once (the first run, whose time is then
                // the decode's and the recording's), then made again into a new writer each run; "null-replay", into
                // a sink that only reads their fields: what the replay itself costs
                if (recorded == null) {
                    recorded = new Recorder();
                    protocol.decode(input, recorded);
                }
                if (mode.startsWith("null")) {
                    FieldReader reader = new FieldReader();
                    recorded.replay(reader);
                    readSum = reader.sum;
                    c.elements = recorded.calls;
                } else {
                    try (PrintWriter out = new EncodingWriter(OutputStream.nullOutputStream(),
                            StandardCharsets.UTF_8, OUT_BUF).printWriter(false)) {
                        ElementSink w = mode.startsWith("jsonl") ? new JsonlWriter(out, input.image(), false, true)
                                : new TextWriter(out, input.image(), false, false);
                        recorded.replay(w);
                        w.end();
                    }
                    c.elements = recorded.calls;
                }
                c.instructions = recorded.instructions;
            }
            case "pipe-null" -> decode(protocol, input, c, true); // what the pipe costs the decoder
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        return c;
    }

    /** Decodes into {@code sink}, through an {@link io.armtrace.trace.ElementPipe} when {@code piped}. */
    private static void decode(TraceProtocol protocol, DecodeInput input, ElementSink sink, boolean piped)
            throws IOException {
        io.armtrace.trace.ElementPipe.decode(s -> protocol.decode(input, s), sink, piped, "listing");
    }

    /**
     * Counts the elements and instructions of the stream and passes it on to a listing writer as {@code armtrace
     * decode}'s stages do: ranges and cycle counts as their fields.
     */
    static final class Tee implements ElementSink {
        private final Counts counts;
        private final ElementSink next;

        Tee(Counts counts, ElementSink next) {
            this.counts = counts;
            this.next = next;
        }

        @Override
        public void accept(TraceElement e) {
            counts.accept(e);
            next.accept(e);
        }

        @Override
        public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            counts.elements++;
            counts.instructions += count;
            next.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
        }

        @Override
        public void cycles(int source, long cycles) {
            counts.elements++;
            next.cycles(source, cycles);
        }

        @Override
        public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
            counts.elements++;
            next.traceOn(source, reason, offset);
        }
    }

    /** Where "null-replay" leaves what it read, so that the reading is not optimised away. */
    static volatile long readSum;

    /** The calls of the "-replay" modes' decode, recorded by their first run. */
    private static Recorder recorded;

    /**
     * The calls a decoder made to its sink, in order, to be made again: ranges, cycle counts and trace-ons as their
     * fields, other elements as themselves, and a change of source as an entry of its own.
     */
    static final class Recorder implements ElementSink {
        private static final byte RANGE = 0;
        private static final byte CYCLES = 1;
        private static final byte TRACE_ON = 2;
        private static final byte ELEMENT = 3;
        private static final byte SOURCE = 4;
        private static final io.armtrace.trace.Isa[] ISAS = io.armtrace.trace.Isa.values();
        private static final io.armtrace.trace.WaypointKind[] KINDS = io.armtrace.trace.WaypointKind.values();
        private static final io.armtrace.trace.CallKind[] CALLS = io.armtrace.trace.CallKind.values();
        private static final io.armtrace.trace.TraceOn.Reason[] REASONS = io.armtrace.trace.TraceOn.Reason.values();

        /** Entries, calls among them (not the changes of source), and instructions in the ranges. */
        private int n;
        long calls;
        long instructions;
        private int source = Integer.MIN_VALUE;
        private byte[] type = new byte[1 << 16];
        private long[] first = new long[1 << 16];
        private long[] second = new long[1 << 16];
        private int[] count = new int[1 << 16];
        private int[] small = new int[1 << 16];
        private Object[] ref = new Object[1 << 16];

        private void entry(int source, byte t) {
            if (source != this.source) {
                this.source = source;
                entry(source, SOURCE);
                small[n - 1] = source;
                calls--;
            }
            if (n == type.length) {
                int m = n * 2;
                type = Arrays.copyOf(type, m);
                first = Arrays.copyOf(first, m);
                second = Arrays.copyOf(second, m);
                count = Arrays.copyOf(count, m);
                small = Arrays.copyOf(small, m);
                ref = Arrays.copyOf(ref, m);
            }
            type[n++] = t;
            calls++;
        }

        @Override
        public void accept(TraceElement e) {
            entry(e.source(), ELEMENT);
            ref[n - 1] = e;
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            }
        }

        @Override
        public void range(int source, long start, long end, int cnt, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            entry(source, RANGE);
            int i = n - 1;
            first[i] = start;
            second[i] = end;
            count[i] = cnt;
            small[i] = isa.ordinal() | lastKind.ordinal() << 4 | lastCall.ordinal() << 8 | (lastExecuted ? 1 << 12 : 0)
                    | sizesIndex << 16;
            ref[i] = sizes;
            instructions += cnt;
        }

        @Override
        public void cycles(int source, long cycles) {
            entry(source, CYCLES);
            first[n - 1] = cycles;
        }

        @Override
        public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
            entry(source, TRACE_ON);
            first[n - 1] = offset;
            small[n - 1] = reason.ordinal();
        }

        /** Makes the recorded calls again, into {@code s}. */
        void replay(ElementSink s) {
            int source = -1;
            for (int i = 0; i < n; i++) {
                switch (type[i]) {
                    case RANGE -> {
                        int f = small[i];
                        s.range(source, first[i], second[i], count[i], ISAS[f & 15], KINDS[(f >>> 4) & 15],
                                CALLS[(f >>> 8) & 15], (f & 1 << 12) != 0,
                                (io.armtrace.trace.InstructionSizes) ref[i], f >>> 16);
                    }
                    case CYCLES -> s.cycles(source, first[i]);
                    case TRACE_ON -> s.traceOn(source, REASONS[small[i]], first[i]);
                    case ELEMENT -> s.accept((TraceElement) ref[i]);
                    default -> source = small[i];
                }
            }
        }
    }

    /** Reads every field of the calls it is given, and nothing else. */
    private static final class FieldReader implements ElementSink {
        long sum;

        @Override
        public void accept(TraceElement e) {
            sum += e.source();
        }

        @Override
        public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            sum += source ^ start ^ end ^ count ^ isa.ordinal() ^ lastKind.ordinal() ^ lastCall.ordinal()
                    ^ (lastExecuted ? 1 : 0) ^ sizes.uniformSize() ^ sizesIndex;
        }

        @Override
        public void cycles(int source, long cycles) {
            sum += source ^ cycles;
        }

        @Override
        public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
            sum += source ^ reason.ordinal() ^ offset;
        }
    }

    /** Keeps every element where the JIT cannot prove it unused. */
    static final class Kept {
        private final TraceElement[] last = new TraceElement[64];
        private int i;

        void keep(TraceElement e) {
            last[i] = e;
            i = (i + 1) & 63;
        }
    }

    interface Push {
        void push(byte[] b, int off, int len);
    }

    private static void pushAll(byte[] trace, Push p) {
        for (int i = 0; i < trace.length; i += 1 << 16) {
            p.push(trace, i, Math.min(1 << 16, trace.length - i));
        }
    }

    /** CPU time of the decoding thread: on a shared, loaded machine it excludes the time others ran. */
    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private static void print(long bytes, Counts c, double[] seconds, double[] cpu) {
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        double[] cpuSorted = cpu.clone();
        Arrays.sort(cpuSorted);
        System.out.printf("bytes=%d packets=%d elements=%d instructions=%d best_s=%.6f median_s=%.6f best_cpu_s=%.6f runs=%d%n",
                bytes, c.packets, c.elements, c.instructions, sorted[0], sorted[sorted.length / 2], cpuSorted[0],
                seconds.length);
        if (System.getenv("VS_EACH") != null) { // every run's CPU time in order: warm-up and drift within a launch
            StringBuilder each = new StringBuilder("cpu_s_each=");
            for (double x : cpu) {
                each.append(String.format("%.3f ", x));
            }
            System.out.println(each.toString().trim());
        }
    }

    // ---- MTB fleet

    record Dump(Registers registers, byte[] bytes, MtbProgram program) {
    }

    /**
     * Crash dumps of the Cortex-M0+ and M3 ground-truth programs stopped at random points (fixed seed),
     * buffers of 256 B to 4 KiB, half inside a 16 KiB SRAM dump; one {@link MtbProgram} per firmware.
     */
    static void mtb(int dumps, int repeat) throws IOException {
        String[] names = {"m0plus", "m3"};
        Execution[] ex = new Execution[2];
        ProgramImage[] images = new ProgramImage[2];
        MtbProgram[] programs = new MtbProgram[2];
        for (int i = 0; i < 2; i++) {
            try (InputStream e = resource("/groundtruth/" + names[i] + ".exec.gz");
                 InputStream elf = resource("/groundtruth/" + names[i] + ".elf.gz")) {
                ex[i] = ExecutionFormat.reader(e).readAll();
                images[i] = ElfImage.load(new GZIPInputStream(elf).readAllBytes(), names[i] + ".elf");
            }
            programs[i] = new MtbProgram(images[i], java.util.OptionalLong.empty());
        }
        SplittableRandom rnd = new SplittableRandom(2026);
        int[] sizes = {256, 512, 1024, 2048, 4096};
        List<Dump> fleet = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < dumps; i++) {
            int k = i % 2;
            int size = sizes[rnd.nextInt(sizes.length)];
            MtbEncoder.Options o = MtbEncoder.Options.ofSize(size)
                    .withHaltAfter(1 + rnd.nextInt(ex[k].steps().size() - 1));
            if (rnd.nextBoolean()) {
                o = o.inSram(16384, size * (long) rnd.nextInt(16384 / size), 32, i + 1);
            }
            MtbEncoder.Result r = MtbEncoder.encode(ex[k], images[k], o);
            fleet.add(new Dump(r.registers(), r.sram(), programs[k]));
            bytes += size;
        }
        double[] seconds = new double[repeat];
        double[] cpu = new double[repeat];
        Counts c = null;
        for (int i = 0; i < repeat; i++) {
            c = new Counts();
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (Dump d : fleet) {
                MtbConfig config = MtbConfig.from(d.registers());
                MtbLayout layout = config.layout(d.bytes().length);
                MtbFlow flow = new MtbFlow(d.program(), 0, 0, c);
                MtbPacketReader.read(TraceData.of("dump", d.bytes()), layout, flow);
                flow.finish(config.pc(), layout.dumpLength());
                c.packets += flow.packets();
            }
            seconds[i] = (System.nanoTime() - t0) / 1e9;
            cpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e9;
        }
        print(bytes, c, seconds, cpu);
    }
}
