package io.armtrace.protocol.etm4;

import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ETMv4 packet reading speed on a real workload: the trace of gcc's cc1 on a Cortex-A72/A53 in
 * conformance/etm4/bugfix-exact-match (trace ID 0x12, 974,749 bytes deformatted, 687,000 packets: atoms,
 * short and long addresses, exact matches, as real Armv8 code gives them), read once per operation, not a
 * small capture repeated. {@code packets} is the reader alone (the listener only counts, taking atoms and addresses
 * as arguments), {@code packetObjects} the same with every packet filled into the packet object, {@code elements}
 * the reader and the speculation layer, {@code decode} the whole instruction decode (reader, speculation and
 * {@link Etm4Flow} over cc1's code: 1,740,344 ranges, 7,581,461 instructions, 7.8 per trace byte; the sink
 * only counts). MB/s = 0.97 MB / time per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class Etm4PacketBenchmark {
    byte[] stream;
    Etm4Config config;
    io.armtrace.image.MemoryImage memory;
    long sink;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("conformance/etm4/bugfix-exact-match").normalize();
        SnapshotSource src = Snapshot.load(dir).source(0x12).orElseThrow();
        try (InputStream in = src.data().open()) {
            stream = in.readAllBytes();
        }
        config = Etm4Config.of(new Registers().putAll(src.registers()), false).withTraceId(0x12);
        memory = src.image().memory();
        System.out.printf("%nbugfix-exact-match 0x12: %d bytes%n", stream.length);
    }

    /** Atoms and addresses without a context as arguments (as the speculation layer takes them), the rest as objects. */
    @Benchmark
    public long packets() {
        long[] n = {0};
        Etm4PacketReader r = new Etm4PacketReader(config, new Etm4PacketListener() {
            @Override
            public void packet(Etm4Packet p) {
                n[0] += p.length;
            }

            @Override
            public void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
                n[0]++;
            }

            @Override
            public void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address, int is) {
                n[0] += length;
            }
        });
        r.push(stream, 0, stream.length);
        r.end();
        return n[0];
    }

    /** Every packet filled into the packet object (a listener with {@code packet} only, as a listing has). */
    @Benchmark
    public long packetObjects() {
        long[] n = {0};
        Etm4PacketReader r = new Etm4PacketReader(config, p -> n[0] += p.length);
        r.push(stream, 0, stream.length);
        r.end();
        return n[0];
    }

    @Benchmark
    public long elements() {
        long[] n = {0};
        Etm4Speculation s = new Etm4Speculation(config, e -> n[0] += e.offset);
        Etm4PacketReader r = new Etm4PacketReader(config, s);
        r.push(stream, 0, stream.length);
        r.end();
        s.end();
        return n[0];
    }

    @Benchmark
    public long decode() {
        long[] n = {0};
        Etm4Flow flow = new Etm4Flow(config, memory, e -> {
            if (e instanceof io.armtrace.trace.InstructionRange r) {
                n[0] += r.count();
            }
        });
        Etm4Speculation s = new Etm4Speculation(config, flow);
        Etm4PacketReader r = new Etm4PacketReader(config, s);
        r.push(stream, 0, stream.length);
        r.end();
        s.end();
        return n[0];
    }
}
