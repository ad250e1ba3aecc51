package io.armtrace.protocol.etm2;

import io.armtrace.execution.Execution;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.EncodeOption;
import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ETMv1/ETMv2: the PIPESTAT + TRACEPKT trace port of ETM7, ETM9 and ETM10 (ARM7, ARM9, ARM10 cores).
 * Reads the three capture formats of docs/etm2-capture-formats.md.
 */
public final class Etm2Protocol implements TraceProtocol {

    @Override
    public String name() {
        return "etm2";
    }

    @Override
    public java.util.List<String> registerNames() {
        return java.util.List.of("ETMCR", "ETMIDR");
    }

    @Override
    public String title() {
        return "ETMv1/ETMv2";
    }

    @Override
    public boolean handlesDeviceType(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.startsWith("ETM1") || t.startsWith("ETM2") || t.startsWith("ETMV1") || t.startsWith("ETMV2");
    }

    @Override
    public List<String> describe(Registers registers) {
        return Etm2Config.from(registers, null).describe();
    }

    /** Configuration from the registers, with a cycle capture's own header standing in for missing ones. */
    static Etm2Config config(Registers regs, Etm2Capture.Header h) {
        Etm2Config c = Etm2Config.from(regs, null);
        if (h != null) {
            if (h.version() == 1 || h.version() == 2) {
                if (regs == null || !regs.has("ETMIDR")) {
                    c = c.withVersion(h.version());
                }
            }
            if (h.portWidth() == 4 || h.portWidth() == 8 || h.portWidth() == 16) {
                if (regs == null || !regs.has("ETMCR")) {
                    c = c.withPortWidth(h.portWidth());
                }
            }
        }
        return c;
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        Holder h = new Holder();
        Etm2CycleRing.Listener quiet = new Etm2CycleRing.Listener() {
            @Override
            public void cycle(long cycle, int status, long target, io.armtrace.trace.Isa isa, boolean cancel,
                              boolean known) {
            }

            @Override
            public void sync(long cycle, int reason, long address, io.armtrace.trace.Isa isa, boolean implied) {
            }

            @Override
            public void contextId(long cycle, long id) {
            }

            @Override
            public void trigger(long cycle) {
                out.packet(new io.armtrace.protocol.Packet("trigger", cycle, 0, ""));
            }

            @Override
            public void lost(long cycle, String reason) {
                out.packet(new io.armtrace.protocol.Packet("lost", cycle, 0, ": " + reason));
            }

            @Override
            public void error(long cycle, String message) {
                out.packet(new io.armtrace.protocol.Packet("error", cycle, 0, ": " + message));
            }
        };
        try (InputStream in = input.data().open()) {
            Etm2Capture.read(in, hdr -> {
                h.cfg = config(input.registers(), hdr);
                h.reader = Etm2CycleRing.forConfig(h.cfg, quiet);
                h.reader.setLister(out);
                return h.cfg;
            }, new Forward(h));
        }
        if (h.reader != null) {
            h.reader.end();
        }
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) throws IOException {
        Holder h = new Holder();
        MemoryImage mem = input.image() == null ? new MemoryImage() : input.image().memory();
        try (InputStream in = input.data().open()) {
            Etm2Capture.read(in, hdr -> {
                h.cfg = config(input.registers(), hdr);
                h.flow = new Etm2Flow(h.cfg, mem, sink, input.traceId());
                h.reader = Etm2CycleRing.forConfig(h.cfg, h.flow);
                return h.cfg;
            }, new Forward(h));
        }
        if (h.reader != null) {
            h.reader.end();
            h.flow.end();
        } else {
            sink.end();
        }
    }

    /** Decodes a capture held in memory (tests, benchmarks). */
    static void decode(byte[] capture, Registers regs, MemoryImage mem, ElementSink sink) {
        try {
            new Etm2Protocol().decode(new DecodeInput(0, regs, ProgramImage.of(mem),
                    io.armtrace.source.TraceData.of("capture", capture), io.armtrace.protocol.DecodeOptions.DEFAULT),
                    sink);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final class Holder {
        Etm2Config cfg;
        Etm2CycleRing reader;
        Etm2Flow flow;
    }

    private record Forward(Holder h) implements Etm2CycleSink {
        @Override
        public void cycle(int pipestat, int tracepkt, boolean tracesync) {
            h.reader.cycle(pipestat, tracepkt, tracesync);
        }

        @Override
        public void lost(long position, String why) {
            h.reader.lost(position, why);
        }
    }

    @Override
    public EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        Map<String, String> cfgOpts = new LinkedHashMap<>();
        Etm2Encoder.Options o = Etm2Encoder.Options.of(Etm2Config.DEFAULT);
        int sync = 1024;
        boolean full = false;
        int fifo = 45;
        Etm2Capture.Format fmt = Etm2Capture.Format.CYCLES;
        long ctx = 0;
        long trigger = -1;
        boolean folding = false;
        boolean stall = true;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String v = e.getValue() == null ? "" : e.getValue().trim();
            switch (e.getKey()) {
                case "etm-version", "port-width", "cycle-accurate", "half-rate", "context-id-size", "branch-broadcast" ->
                        cfgOpts.put(e.getKey(), v);
                case "sync-period" -> sync = Etm2Config.parseInt(e.getKey(), v);
                case "full-address" -> full = Etm2Config.parseBool(e.getKey(), v.toLowerCase(Locale.ROOT));
                case "fifo-bytes" -> fifo = Etm2Config.parseInt(e.getKey(), v);
                case "stall" -> stall = Etm2Config.parseBool(e.getKey(), v.toLowerCase(Locale.ROOT));
                case "context-id" -> ctx = Etm2Config.parseInt(e.getKey(), v);
                case "trigger-cycle" -> trigger = Etm2Config.parseInt(e.getKey(), v);
                case "branch-folding" -> folding = Etm2Config.parseBool(e.getKey(), v.toLowerCase(Locale.ROOT));
                case "capture-format" -> fmt = switch (v.toLowerCase(Locale.ROOT)) {
                    case "cycles", "binary" -> Etm2Capture.Format.CYCLES;
                    case "csv", "text" -> Etm2Capture.Format.CSV;
                    case "etb" -> Etm2Capture.Format.ETB;
                    default -> throw new IllegalArgumentException(
                            "--capture-format must be cycles, csv or etb, not '" + v + "'.");
                };
                default -> throw new IllegalArgumentException("Unknown ETMv1/ETMv2 encode option --" + e.getKey()
                        + "; known: " + String.join(", ", encodeOptions().keySet()) + ".");
            }
        }
        Etm2Config cfg = Etm2Config.from(null, cfgOpts);
        if (sync < 16) {
            throw new IllegalArgumentException("--sync-period must be at least 16 cycles, not " + sync + ".");
        }
        if (fifo < 8 || fifo > 120) {
            throw new IllegalArgumentException("--fifo-bytes must be between 8 and 120, not " + fifo + ".");
        }
        if (folding && cfg.version() != 2) {
            throw new IllegalArgumentException("--branch-folding needs ETMv2 (branch phantoms are ETMv2 PIPESTATs).");
        }
        o = new Etm2Encoder.Options(cfg, sync, full, fifo, fmt, ctx, trigger, folding, stall);
        MemoryImage mem = image == null ? new MemoryImage() : image.memory();
        byte[] bytes = Etm2Encoder.encode(execution, mem, o);
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        return new EncodeOutput(bytes, regs, cfg.version() == 1 ? "ETM1.3" : "ETM2.0");
    }

    @Override
    public Map<String, String> encodeOptions() {
        return EncodeOption.list(
                EncodeOption.ETM_VERSION, "default 2",
                EncodeOption.PORT_WIDTH, "default 8",
                EncodeOption.CYCLE_ACCURATE, "default on; off drops trace-disabled cycles as a capture device may",
                EncodeOption.HALF_RATE, "",
                EncodeOption.CONTEXT_ID_SIZE, "default 0",
                EncodeOption.CONTEXT_ID, "default 0",
                EncodeOption.BRANCH_BROADCAST, "",
                EncodeOption.FULL_ADDRESS, "",
                EncodeOption.SYNC_PERIOD, "cycles between synchronization points (ETMSYNCFR), default 1024",
                EncodeOption.FIFO_BYTES, "default 45",
                EncodeOption.STALL, "default on",
                EncodeOption.BRANCH_FOLDING, "",
                EncodeOption.TRIGGER_CYCLE, "default none",
                EncodeOption.CAPTURE_FORMAT, "default cycles");
    }
}
