package io.armtrace.bench;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.InstructionRange;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A protocol's decode of a hardware capture's source (conformance/TC2, ETMv3.5) into a sink that counts
 * instructions, through nothing but the snapshot reader and the protocol registry: the figure to compare
 * before and after a change to the layers around the decoders.
 *
 * <pre>bench/run ProtocolDecodeBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProtocolDecodeBenchmark {
    @Param({"16", "17"})
    public int traceId;

    private TraceProtocol protocol;
    private DecodeInput input;

    @Setup(Level.Trial)
    public void open() {
        SnapshotSource s = Snapshot.load(Path.of("conformance/TC2")).source(traceId).orElseThrow();
        protocol = Protocols.forDeviceType(s.type()).orElseThrow();
        input = DecodeInput.of(s);
    }

    @Benchmark
    public long decode() throws IOException {
        long[] n = {0};
        protocol.decode(input, e -> {
            if (e instanceof InstructionRange r) {
                n[0] += r.count();
            }
        });
        return n[0];
    }
}
