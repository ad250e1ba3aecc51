package io.armtrace.protocol.etm2;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Decodes a large ETMv1/ETMv2 trace port capture: the ARM926 ground-truth program (ARM code) run eight
 * times over, about 450,000 instructions and well over a million cycles, as armtrace's per-cycle records.
 * Reports captures/s plus cycles/s and instructions/s (auxiliary counters).
 *
 * <pre>bench/run Etm2DecodeBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Etm2DecodeBenchmark {

    @Param({"2"})
    public int version;

    @Param({"8"})
    public int width;

    private byte[] capture;
    private Registers regs;
    private ProgramImage image;
    private long cycles;

    @Setup(Level.Trial)
    public void encode() {
        Execution one = Corpus.execution("arm926-arm");
        List<ExecutionEvent> events = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            events.addAll(one.events());
        }
        image = Corpus.image("arm926-arm");
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        capture = Etm2Encoder.encode(new Execution(events), image.memory(), Etm2Encoder.Options.of(cfg));
        cycles = (capture.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
        regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
    }

    /** Cycles and instructions decoded, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        public long cycles;
        public long instructions;
    }

    @Benchmark
    public long decode(Counts counts) {
        long[] n = {0};
        ElementSink sink = new ElementSink() {
            @Override
            public void accept(TraceElement e) {
                if (e instanceof InstructionRange r) {
                    n[0] += r.count();
                }
            }
        };
        Etm2Protocol.decode(capture, regs, image.memory(), sink);
        counts.cycles += cycles;
        counts.instructions += n[0];
        return n[0];
    }
}
