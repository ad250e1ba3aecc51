package io.armtrace.protocol.ptm;

import io.armtrace.execution.Execution;
import io.armtrace.image.MemoryImage;
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

/** PFT, the protocol of the Program Trace Macrocell (Cortex-A9, A12, A15, A17): IHI 0035B. */
public final class PtmProtocol implements TraceProtocol {
    @Override
    public String name() {
        return "ptm";
    }

    @Override
    public java.util.List<String> registerNames() {
        return java.util.List.of("ETMCR", "ETMIDR", "ETMCCER", "ETMTRACEIDR");
    }

    @Override
    public String title() {
        return "PFT (PTM)";
    }

    @Override
    public boolean handlesDeviceType(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        return t.startsWith("PTM") || t.startsWith("PFT");
    }

    @Override
    public List<String> describe(Registers registers) {
        return PtmConfig.of(registers, -1).describe();
    }

    static PtmConfig config(DecodeInput input) {
        PtmConfig c = PtmConfig.of(input.registers(), Math.max(input.traceId(), 0));
        if (input.traceId() >= 0 && input.traceId() != c.traceId()) {
            c = new PtmConfig(c.etmcr(), c.etmidr(), c.etmccer(), input.traceId());
        }
        return c;
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        PtmPacketReader reader = new PtmPacketReader(config(input), k -> out.packet(k.toPacket()));
        io.armtrace.protocol.TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void packetKinds(DecodeInput input, PacketKindListener out) throws IOException {
        PtmPacketReader reader = new PtmPacketReader(config(input), k -> out.packet(k.type.name(), k.offset, k.length));
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
        PtmConfig c = config(input);
        long limit = input.options() == null ? 0 : input.options().instructionLimit();
        // without an image every address is outside it: the decoder reports NoImage and goes on
        MemoryImage memory = input.image() == null ? new MemoryImage() : input.image().memory();
        PtmFlow flow = new PtmFlow(c, memory, sink, limit > 0 ? limit * 4 : 0);
        PtmPacketReader reader = new PtmPacketReader(c, flow, start);
        boolean[] stop = {false};
        if (observer != null) {
            flow.onSync(offset -> {
                if (!stop[0] && !observer.synced(offset,
                        observer.wantsState(offset) ? new PtmState(reader.state(), flow.state()) : null)) {
                    stop[0] = true;
                }
            });
        }
        if (io.armtrace.protocol.TraceFeed.feed(input.data(), start, reader::push, () -> stop[0])) {
            reader.end();
        }
    }

    /** The whole decoder state at a sync point, for {@link SyncObserver}. */
    private record PtmState(PtmPacketReader.State reader, PtmFlow.State flow) {
    }

    @Override
    public EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        return PtmEncoder.fromOptions(options).encode(execution, image);
    }

    @Override
    public Map<String, String> encodeOptions() {
        return PtmEncoder.OPTIONS;
    }
}
