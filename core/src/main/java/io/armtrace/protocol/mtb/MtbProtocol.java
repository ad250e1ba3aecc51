package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/** The Micro Trace Buffer of Cortex-M0+, M23 and M33: packet pairs in SRAM, read out after a stop. */
public final class MtbProtocol implements TraceProtocol {
    /**
     * The programs last decoded on this thread, kept for the next dumps of the same firmware (a fleet
     * of crash reports from a few firmware builds): code block cache and vector table are built once.
     */
    private static final int KEPT_PROGRAMS = 4;
    private static final ThreadLocal<MtbProgram[]> PROGRAMS = ThreadLocal.withInitial(() -> new MtbProgram[KEPT_PROGRAMS]);
    private static final ThreadLocal<int[]> NEXT_SLOT = ThreadLocal.withInitial(() -> new int[1]);

    @Override
    public String name() {
        return "mtb";
    }

    @Override
    public io.armtrace.isa.Profile profile(Registers registers) {
        return io.armtrace.isa.Profile.M; // the MTB exists on M-profile cores only
    }

    @Override
    public java.util.List<String> registerNames() {
        return java.util.List.of("POSITION", "MASTER", "FLOW", "BASE", "PC", "VTOR");
    }

    @Override
    public String title() {
        return "MTB";
    }

    @Override
    public boolean handlesDeviceType(String type) {
        return type.toUpperCase(Locale.ROOT).startsWith("MTB");
    }

    @Override
    public List<String> describe(Registers registers) {
        if (!registers.has("POSITION")) {
            return List.of("POSITION not given: the MTB buffer cannot be put in order without it");
        }
        return MtbConfig.from(registers).describe();
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        MtbConfig config = MtbConfig.from(input.registers());
        MtbLayout layout = config.layout(length(input.data()));
        if (layout.problem() != null) {
            out.packet(new io.armtrace.protocol.Packet("error", 0, 0, ": " + layout.problem()));
            return;
        }
        out.packet(new io.armtrace.protocol.Packet("buffer", layout.bufferOffset(), 0, String.format(": %d bytes at byte %d of the dump, %s, %d packets in age order%s",
                layout.bufferSize(), layout.bufferOffset(), layout.wrapped() ? "wrapped" : "not wrapped",
                layout.packetCount(), layout.note() == null ? "" : " (" + layout.note() + ")")));
        long missing = MtbPacketReader.read(input.data(), layout,
                (offset, src, dst) -> out.packet(MtbPacket.of(offset, src, dst).toPacket()));
        if (missing > 0) {
            out.packet(new io.armtrace.protocol.Packet("error", layout.dumpLength(), 0,
                    ": the dump ends " + missing + " bytes before the end of the buffer"));
        }
    }

    /** The active buffer only: the packets written since the buffer was last empty, 8 bytes each. */
    @Override
    public long traceBytes(DecodeInput input) throws IOException {
        MtbLayout layout = MtbConfig.from(input.registers()).layout(length(input.data()));
        return layout.problem() != null ? 0 : layout.packetCount() * MtbPacket.SIZE;
    }

    /**
     * A packet stands for its own 8 bytes (ARM DDI 0486, the MTB execution trace packet); the "buffer" and
     * "error" lines of the listing are notes of no bytes, and the listing goes in age order, not byte order,
     * when the buffer wrapped.
     */
    @Override
    public boolean packetsFollowEachOther() {
        return false;
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) throws IOException {
        MtbConfig config = MtbConfig.from(input.registers());
        int source = input.traceId();
        MtbLayout layout = config.layout(length(input.data()));
        if (layout.problem() != null) {
            sink.accept(new DecodeError(source, layout.problem(), -1, 0));
            return;
        }
        if (input.image() == null || input.image().memory().isEmpty()) {
            sink.accept(new DecodeError(source, "MTB packets give only branch addresses: decoding needs the program "
                    + "image (--image firmware.elf)", -1, layout.bufferOffset()));
            return;
        }
        long limit = input.options() == null ? 0 : input.options().instructionLimit();
        MtbFlow flow = new MtbFlow(program(input.image(), config.vtor()), source, limit, sink);
        long missing = MtbPacketReader.read(input.data(), layout, flow);
        if (missing > 0) {
            sink.accept(new Gap(source, "the dump ends " + missing + " bytes before the end of the MTB buffer",
                    layout.dumpLength()));
        }
        flow.finish(completesWithPc(config) ? config.pc() : OptionalLong.empty(), layout.dumpLength());
    }

    private static MtbProgram program(ProgramImage image, OptionalLong vtor) {
        MtbProgram[] kept = PROGRAMS.get();
        for (MtbProgram p : kept) {
            if (p != null && p.image() == image && p.vtor().equals(vtor)) {
                return p;
            }
        }
        int[] next = NEXT_SLOT.get();
        MtbProgram p = new MtbProgram(image, vtor);
        kept[next[0]] = p;
        next[0] = (next[0] + 1) % KEPT_PROGRAMS;
        return p;
    }

    /**
     * The PC completes the newest run only if trace was still on when the core stopped: not when the
     * TSTOP input or the watermark AUTOSTOP had switched it off (the code run since is not traced).
     */
    static boolean completesWithPc(MtbConfig c) {
        if (!c.hasMaster() || c.enabled()) {
            return true;
        }
        boolean autostop = c.flow().isPresent() && (c.flow().getAsLong() & 1) != 0;
        return !c.tstopEnabled() && !autostop;
    }

    /** Bytes in {@code data}, counted by reading it through once (dumps are small; memory stays fixed). */
    static long length(TraceData data) throws IOException {
        long n = 0;
        byte[] chunk = new byte[1 << 16];
        try (InputStream in = data.open()) {
            int r;
            while ((r = in.read(chunk)) >= 0) {
                n += r;
            }
        }
        return n;
    }

    @Override
    public EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        Map<String, String> opts = new LinkedHashMap<>(options);
        int size = (int) number(opts.remove("buffer-size"), 1024, "buffer-size");
        long sram = number(opts.remove("sram-size"), size, "sram-size");
        long offset = number(opts.remove("buffer-offset"), 0, "buffer-offset");
        long base = number(opts.remove("base"), 0x20000000L, "base");
        long[] tstart = addresses(opts.remove("tstart"), image, "tstart");
        long[] tstop = addresses(opts.remove("tstop"), image, "tstop");
        long halt = number(opts.remove("halt-after"), 0, "halt-after");
        String pc = opts.remove("pc");
        boolean recordPc = pc == null || io.armtrace.protocol.OptionValues.flag("pc", pc);
        int bits = (int) number(opts.remove("position-bits"), 32, "position-bits");
        String fill = opts.remove("fill");
        long watermark = number(opts.remove("watermark"), 0, "watermark");
        long seed = fill == null || fill.equalsIgnoreCase("zero") ? 0 : number(fill, 0, "fill");
        if (!opts.isEmpty()) {
            throw new IllegalArgumentException("unknown MTB encoder option '" + opts.keySet().iterator().next()
                    + "'; known: " + String.join(", ", encodeOptions().keySet()) + ".");
        }
        MtbEncoder.Options o = new MtbEncoder.Options(size, sram, offset, base, tstart, tstop, halt, recordPc, bits, seed,
                watermark);
        MtbEncoder.Result r = MtbEncoder.encode(execution, image, o);
        return new EncodeOutput(r.sram(), r.registers(), "MTB");
    }

    @Override
    public Map<String, String> encodeOptions() {
        return io.armtrace.protocol.EncodeOption.list(
                io.armtrace.protocol.EncodeOption.BUFFER_SIZE, "default 1024",
                io.armtrace.protocol.EncodeOption.SRAM_SIZE, "default: the buffer size",
                io.armtrace.protocol.EncodeOption.BUFFER_OFFSET, "default 0",
                io.armtrace.protocol.EncodeOption.BASE, "default 0x20000000",
                io.armtrace.protocol.EncodeOption.TSTART, "",
                io.armtrace.protocol.EncodeOption.TSTOP, "",
                io.armtrace.protocol.EncodeOption.HALT_AFTER, "default: run to the end",
                io.armtrace.protocol.EncodeOption.PC, "default yes",
                io.armtrace.protocol.EncodeOption.POSITION_BITS, "default 32",
                io.armtrace.protocol.EncodeOption.FILL, "default zero",
                io.armtrace.protocol.EncodeOption.WATERMARK, "default none");
    }

    private static long number(String v, long otherwise, String name) {
        if (v == null || v.isEmpty()) {
            return otherwise;
        }
        try {
            return Long.decode(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("MTB encoder option " + name + ": '" + v + "' is not a number.");
        }
    }

    private static long[] addresses(String v, ProgramImage image, String name) {
        if (v == null || v.isBlank()) {
            return new long[0];
        }
        List<Long> out = new ArrayList<>();
        for (String part : v.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            char c = p.charAt(0);
            if (c >= '0' && c <= '9') {
                out.add(number(p, 0, name) & ~1L);
            } else {
                Symbol s = image == null ? null : image.symbols().find(p);
                if (s == null) {
                    throw new IllegalArgumentException("MTB encoder option " + name + ": no symbol '" + p + "' in the image.");
                }
                out.add(s.address());
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
