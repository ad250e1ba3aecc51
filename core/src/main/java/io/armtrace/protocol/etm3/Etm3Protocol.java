package io.armtrace.protocol.etm3;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.SyncObserver;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** ETMv3 (ETMv3.0-3.5: ETM11, CoreSight ETM-A/R, ETM-M3/M4) as the registry and the command line see it. */
public final class Etm3Protocol implements TraceProtocol {
    @Override
    public String name() {
        return "etm3";
    }

    @Override
    public java.util.List<String> registerNames() {
        return java.util.List.of("ETMCR", "ETMIDR", "ETMCCER", "ETMTRACEIDR", "ARMV7M");
    }

    @Override
    public String title() {
        return "ETMv3";
    }

    @Override
    public boolean handlesDeviceType(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        return t.startsWith("ETM3") || t.startsWith("ETMV3");
    }

    @Override
    public List<String> describe(Registers registers) {
        return Etm3Config.of(registers).describe();
    }

    @Override
    public io.armtrace.isa.Profile profile(Registers registers) {
        return Etm3Config.of(registers).armv7m() ? io.armtrace.isa.Profile.M : io.armtrace.isa.Profile.AR;
    }

    static Etm3Config config(DecodeInput input) {
        Etm3Config c = Etm3Config.of(input.registers());
        if (c.traceId() == 0 && input.traceId() > 0) {
            c = new Etm3Config(c.etmcr(), c.etmidr(), c.etmccer(), input.traceId(), c.armv7m());
        }
        return c;
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        Etm3Config cfg = config(input);
        Etm3PacketReader reader = new Etm3PacketReader(cfg, p -> out.packet(p.toPacket()));
        io.armtrace.protocol.TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void packetKinds(DecodeInput input, PacketKindListener out) throws IOException {
        Etm3PacketReader reader = new Etm3PacketReader(config(input), p -> out.packet(p.kindName(), p.offset, p.length));
        io.armtrace.protocol.TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) throws IOException {
        decodeFrom(input, 0, sink, null);
    }

    @Override
    public boolean splits() {
        return true;
    }

    @Override
    public long[] splitPoints(DecodeInput input, long spacing) throws IOException {
        try (InputStream in = input.data().open()) {
            return io.armtrace.protocol.ASyncScanner.scan(in, spacing);
        }
    }

    @Override
    public void decodeFrom(DecodeInput input, long start, ElementSink sink, SyncObserver observer) throws IOException {
        Etm3Config cfg = config(input);
        Etm3Flow flow = new Etm3Flow(cfg, input.image(), sink);
        Etm3PacketReader reader = new Etm3PacketReader(cfg, flow, start);
        boolean[] stop = {false};
        if (observer != null) {
            flow.onSync(offset -> {
                if (!stop[0] && !observer.synced(offset,
                        observer.wantsState(offset) ? new Etm3State(reader.state(), flow.state()) : null)) {
                    stop[0] = true;
                }
            });
        }
        if (io.armtrace.protocol.TraceFeed.feed(input.data(), start, reader::push, () -> stop[0])) {
            reader.end();
            flow.end();
        }
    }

    /** The whole decoder state at a sync point, for {@link SyncObserver}. */
    private record Etm3State(Etm3PacketReader.State reader, Etm3Flow.State flow) {
    }

    @Override
    public EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        Etm3Encoder.Options o = Etm3Encoder.Options.parse(options);
        Etm3Encoder.Result r = new Etm3Encoder(o, image).encode(execution);
        return new EncodeOutput(r.trace(), r.config().registers(), "ETM3." + r.config().minorVersion());
    }

    @Override
    public Map<String, String> encodeOptions() {
        return Etm3Encoder.Options.DESCRIPTIONS;
    }
}
