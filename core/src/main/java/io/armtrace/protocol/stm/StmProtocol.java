package io.armtrace.protocol.stm;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.OptionValues;
import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.TraceFeed;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The System Trace Macrocell's MIPI STPv2 stream (CoreSight STM, Arm DDI 0444): software messages of many
 * masters and channels, with timestamps, as CoreSight SoCs write them into their trace buffers.
 */
public final class StmProtocol implements TraceProtocol {
    @Override
    public String name() {
        return "stm";
    }

    @Override
    public String title() {
        return "STPv2 (STM)";
    }

    @Override
    public List<String> registerNames() {
        return List.of("STMTCSR");
    }

    @Override
    public boolean tracesProgramFlow() {
        return false;
    }

    @Override
    public boolean handlesDeviceType(String type) {
        return type.trim().toUpperCase(Locale.ROOT).startsWith("STM");
    }

    @Override
    public List<String> describe(Registers registers) {
        return StmConfig.of(registers).describe();
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        StmPacketReader reader = new StmPacketReader(p -> out.packet(p.toPacket()));
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) throws IOException {
        StmPacketReader reader = new StmPacketReader(new StmFlow(input.traceId(), sink));
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    /** The STPv2 stream of a run of software events; STMTCSR as an STM set up for them (enabled, timestamps on). */
    @Override
    public EncodeOutput encodeSoftware(List<io.armtrace.trace.TraceElement> events, Map<String, String> options) {
        Map<String, String> opts = new LinkedHashMap<>(options);
        String id = opts.remove("trace-id");
        String v = opts.remove("version");
        if (!opts.isEmpty()) {
            throw new IllegalArgumentException("unknown STM encoder option '" + opts.keySet().iterator().next()
                    + "'; known: " + String.join(", ", encodeOptions().keySet()) + ".");
        }
        long traceId = id == null ? 0x20 : OptionValues.number("trace-id", id);
        if (traceId < 1 || traceId > 0x6F) {
            throw new IllegalArgumentException("--trace-id " + id + ": a trace ID is 0x01 to 0x6f.");
        }
        int version = v == null ? 3 : (int) OptionValues.number("version", v);
        long tcsr = StmConfig.TCSR_EN | StmConfig.TCSR_TSEN | StmConfig.TCSR_SYNCEN | (traceId << StmConfig.TCSR_TRACEID_SHIFT);
        return new EncodeOutput(new StmEncoder(version).encode(events), new StmConfig(tcsr).registers(), "STM");
    }

    @Override
    public Map<String, String> encodeOptions() {
        return io.armtrace.protocol.EncodeOption.list(
                io.armtrace.protocol.EncodeOption.TRACE_ID, "written into STMTCSR, default 0x20",
                io.armtrace.protocol.EncodeOption.VERSION, "default 3");
    }
}
