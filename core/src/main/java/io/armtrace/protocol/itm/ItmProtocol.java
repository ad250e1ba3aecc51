package io.armtrace.protocol.itm;

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
 * The ITM and DWT packet protocol of Cortex-M cores (ARMv7-M ARM Appendix D4, ARMv8-M ARM "ITM and DWT
 * packet protocol"): software messages on stimulus ports, and the DWT's exception trace, PC samples, data
 * trace and event counters, over SWO or a CoreSight trace port.
 */
public final class ItmProtocol implements TraceProtocol {
    @Override
    public String name() {
        return "itm";
    }

    @Override
    public String title() {
        return "ITM/DWT";
    }

    @Override
    public List<String> registerNames() {
        return List.of("ITMTCR", "DWTCTRL");
    }

    @Override
    public io.armtrace.isa.Profile profile(Registers registers) {
        return io.armtrace.isa.Profile.M; // the ITM and DWT exist on M-profile cores only
    }

    @Override
    public boolean tracesProgramFlow() {
        return false;
    }

    @Override
    public boolean handlesDeviceType(String type) {
        return type.trim().toUpperCase(Locale.ROOT).startsWith("ITM");
    }

    @Override
    public List<String> describe(Registers registers) {
        return ItmConfig.of(registers).describe();
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        ItmPacketReader reader = new ItmPacketReader(p -> out.packet(p.toPacket()));
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) throws IOException {
        ItmConfig config = ItmConfig.of(input.registers());
        ItmPacketReader reader = new ItmPacketReader(new ItmFlow(config, input.traceId(), sink));
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    /**
     * The ITM stream of a run of software events. ITM_TCR is written as an ITM set up for them: enabled, with
     * local timestamps, synchronization packets and DWT packets on, the prescaler and trace ID as asked.
     */
    @Override
    public EncodeOutput encodeSoftware(List<io.armtrace.trace.TraceElement> events, Map<String, String> options) {
        Map<String, String> opts = new LinkedHashMap<>(options);
        long traceId = number(opts, "trace-id", 1, 0x6F);
        if (traceId == 0) {
            throw new IllegalArgumentException("--trace-id 0: a trace ID is 0x01 to 0x6f.");
        }
        long prescale = number(opts, "ts-prescale", 1, 64);
        if (!opts.isEmpty()) {
            throw new IllegalArgumentException("unknown ITM encoder option '" + opts.keySet().iterator().next()
                    + "'; known: " + String.join(", ", encodeOptions().keySet()) + ".");
        }
        int code = prescale == 1 ? 0 : prescale == 4 ? 1 : prescale == 16 ? 2 : prescale == 64 ? 3 : -1;
        if (code < 0) {
            throw new IllegalArgumentException("--ts-prescale is 1, 4, 16 or 64, not " + prescale + ".");
        }
        long tcr = ItmConfig.TCR_ITMENA | ItmConfig.TCR_TSENA | ItmConfig.TCR_SYNCENA | ItmConfig.TCR_TXENA
                | ((long) code << ItmConfig.TCR_TSPRESCALE_SHIFT) | (traceId << ItmConfig.TCR_TRACEBUSID_SHIFT);
        ItmConfig config = new ItmConfig(tcr, 0, false);
        return new EncodeOutput(new ItmEncoder(config).encode(events), config.registers(), "ITM");
    }

    private static long number(Map<String, String> opts, String name, long otherwise, long max) {
        String v = opts.remove(name);
        if (v == null) {
            return otherwise;
        }
        long n = OptionValues.number(name, v);
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("--" + name + " " + v + ": out of range (0 to " + max + ").");
        }
        return n;
    }

    @Override
    public Map<String, String> encodeOptions() {
        return io.armtrace.protocol.EncodeOption.list(
                io.armtrace.protocol.EncodeOption.TRACE_ID, "written into ITM_TCR as TraceBusID, default 1",
                io.armtrace.protocol.EncodeOption.TS_PRESCALE, "default 1");
    }
}
