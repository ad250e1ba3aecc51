package io.armtrace.protocol.etm4;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.TraceFeed;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * ETMv4 (ETMv4.0-4.6: the trace units of Armv8 cores, Cortex-A53 ... X, Neoverse, R52, M33/M55/M85) and ETE
 * (Armv9's Embedded Trace Extension) as the registry and the command line see them: one class, two entries
 * ({@code etm4} and {@code ete}), since ETE's packets are ETMv4's with a few changed and added.
 */
public final class Etm4Protocol implements TraceProtocol {
    private final boolean ete;

    public Etm4Protocol(boolean ete) {
        this.ete = ete;
    }

    @Override
    public String name() {
        return ete ? "ete" : "etm4";
    }

    @Override
    public String title() {
        return ete ? "ETE" : "ETMv4";
    }

    @Override
    public List<String> registerNames() {
        return Etm4Config.REGISTERS;
    }

    @Override
    public io.armtrace.isa.Profile profile(Registers registers) {
        return registers.get("ARMV8M", 0) != 0 || registers.get("ARMV7M", 0) != 0 ? io.armtrace.isa.Profile.M
                : io.armtrace.isa.Profile.AR;
    }

    /** An M-profile core type (Cortex-M7: Armv7-M; Cortex-M23, M33, M35P, M52, M55, M85: Armv8-M) implies ARMV7M or ARMV8M. */
    @Override
    public Registers registersForCore(String coreType) {
        Registers r = new Registers();
        String t = coreType == null ? "" : coreType.trim().toUpperCase(Locale.ROOT);
        if (t.startsWith("CORTEX-M")) {
            String model = t.substring("CORTEX-M".length());
            boolean v7 = model.equals("7") || model.equals("3") || model.equals("4") || model.startsWith("0") || model.equals("1");
            r.put(v7 ? "ARMV7M" : "ARMV8M", 1);
        }
        return r;
    }

    /** Snapshot device types: ETM4 and ETM4.0 ... ETM4.6 (OpenCSD and DS-5 also write ETMv4), or ETE. */
    @Override
    public boolean handlesDeviceType(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        if (ete) {
            return t.equals("ETE") || t.startsWith("ETE.") || t.startsWith("ETEV");
        }
        return t.equals("ETM4") || t.startsWith("ETM4.") || t.equals("ETMV4") || t.startsWith("ETMV4.");
    }

    @Override
    public List<String> describe(Registers registers) {
        return config(registers, -1).describe();
    }

    /**
     * The configuration of a source: its registers, with the snapshot's trace ID when it has one. A
     * configuration that contradicts itself is a mistake in the registers given: one sentence.
     */
    Etm4Config config(Registers registers, int traceId) {
        Etm4Config c = Etm4Config.of(registers, ete);
        String wrong = c.contradiction(registers);
        if (wrong != null) {
            throw new IllegalArgumentException(title() + " registers contradict each other: " + wrong);
        }
        return traceId >= 0 ? c.withTraceId(traceId) : c;
    }

    Etm4Config config(DecodeInput input) {
        return config(input.registers(), input.traceId());
    }

    @Override
    public void packets(DecodeInput input, PacketListener<io.armtrace.protocol.Packet> out) throws IOException {
        Etm4Config c = config(input);
        boolean m = c.isMProfile();
        Etm4PacketReader reader = new Etm4PacketReader(c, p -> out.packet(p.toPacket(m)));
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public void packetKinds(DecodeInput input, PacketKindListener out) throws IOException {
        Etm4PacketReader reader = new Etm4PacketReader(config(input), new Etm4PacketListener() {
            @Override
            public void packet(Etm4Packet p) {
                out.packet(p.kind().name(), p.offset, p.length);
            }

            @Override
            public void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
                out.packet(Etm4Packet.atomKind(header).name(), offset, 1);
            }

            @Override
            public void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address, int is) {
                out.packet(Etm4Packet.addressKind(b[pos] & 0xFF).name(), offset, length);
            }
        });
        TraceFeed.feed(input.data(), reader::push);
        reader.end();
    }

    @Override
    public io.armtrace.protocol.EncodeOutput encode(io.armtrace.execution.Execution execution,
            io.armtrace.image.ProgramImage image, java.util.Map<String, String> options) {
        String profile = options.get("profile");
        if (!ete && profile != null && profile.trim().equalsIgnoreCase("M")) {
            return Etm4MEncoder.fromOptions(options).encode(execution, image);
        }
        return Etm4Encoder.fromOptions(options, ete).encode(execution, image);
    }

    @Override
    public java.util.Map<String, String> encodeOptions() {
        return Etm4Encoder.OPTIONS;
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
        try (java.io.InputStream in = input.data().open()) {
            return io.armtrace.protocol.ASyncScanner.scan(in, spacing, 11);
        }
    }

    @Override
    public void decodeFrom(DecodeInput input, long start, ElementSink sink, io.armtrace.protocol.SyncObserver observer)
            throws IOException {
        Etm4Config c = config(input);
        // without an image every address is outside it: the flow reports NoImage and goes on
        // code per address space: the snapshot's dumps in the spaces they name (one memory for all otherwise)
        io.armtrace.image.CodeMemory code = input.code() != null ? input.code()
                : io.armtrace.image.CodeMemory.of(input.image() == null ? new io.armtrace.image.MemoryImage()
                        : input.image().memory());
        Etm4Flow flow = new Etm4Flow(c, code, sink);
        Etm4Speculation spec = new Etm4Speculation(c, flow);
        boolean[] stop = {false};
        long[] synced = {-1};
        Etm4PacketReader[] reader = {null};
        Etm4PacketListener packets = spec;
        if (observer != null) {
            flow.onSync(offset -> synced[0] = offset);
            // the states are compared once the trace info packet is wholly processed
            Runnable check = () -> {
                if (synced[0] >= 0) {
                    long at = synced[0];
                    synced[0] = -1;
                    if (!stop[0] && !observer.synced(at, observer.wantsState(at)
                            ? java.util.List.of(reader[0].syncState(), spec.syncState(), flow.state()) : null)) {
                        stop[0] = true;
                    }
                }
            };
            // atoms and addresses reach the speculation layer as arguments here too, as without an observer
            packets = new Etm4PacketListener() {
                @Override
                public void packet(Etm4Packet k) {
                    spec.packet(k);
                    check.run();
                }

                @Override
                public void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
                    spec.atom(scratch, offset, header, count, bits);
                    check.run();
                }

                @Override
                public void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address,
                        int is) {
                    spec.address(scratch, b, pos, length, offset, address, is);
                    check.run();
                }
            };
        }
        reader[0] = new Etm4PacketReader(c, packets, start);
        Etm4PacketReader r = reader[0];
        if (TraceFeed.feed(input.data(), start, r::push, () -> stop[0])) {
            r.end();
            spec.end();
            flow.end();
        }
    }
}
