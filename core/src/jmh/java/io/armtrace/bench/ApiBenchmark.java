package io.armtrace.bench;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.api.ElementIterator;
import io.armtrace.api.TraceSource;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
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
 * What the library API costs over calling a protocol's decoder directly (what the command line did before
 * it opened its inputs through the API): the TC2 hardware capture's ETMv3.5 source 0x10 (conformance/TC2),
 * decoded into a sink that counts instructions, (a) by {@code TraceProtocol.decode}, (b) by {@code
 * Decoder.decode}, (c) through an {@code ElementIterator} (a decoding thread and a bounded queue).
 *
 * <pre>bench/run ApiBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ApiBenchmark {
    @Param({"16"})
    public int traceId;

    private Decoder decoder;
    private TraceSource source;

    @Setup(Level.Trial)
    public void open() {
        decoder = Decoder.openSnapshot(Path.of("conformance/TC2"), DecodeOptions.builder().source(traceId).build());
        source = decoder.sources().get(0);
    }

    /** Counts instructions, so that no element is optimized away. */
    static final class Count implements ElementSink {
        long instructions;

        @Override
        public void accept(TraceElement e) {
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            }
        }
    }

    @Benchmark
    public long protocolDecode() throws IOException {
        Count c = new Count();
        source.protocol().decode(source.input(), c);
        return c.instructions;
    }

    @Benchmark
    public long apiCallback() throws IOException {
        Count c = new Count();
        decoder.decode(source, c);
        return c.instructions;
    }

    @Benchmark
    public long apiIterator() {
        Count c = new Count();
        try (ElementIterator it = decoder.elements(source)) {
            while (it.hasNext()) {
                c.accept(it.next());
            }
        }
        return c.instructions;
    }
}
