package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
 * Decodes a fleet of MTB crash dumps, as a service that receives them from many devices would: dumps
 * of the Cortex-M0+ and M3 ground-truth programs stopped at random points, buffers of 256 B to 4 KiB,
 * half of them inside a larger SRAM dump, with the halted PC. Reports fleets/s plus packets/s and
 * instructions/s (auxiliary counters). {@code decodeFleet} keeps one {@link MtbProgram} (code block
 * cache, vector table) per firmware across dumps, as a crash-report service would;
 * {@code decodeFleetViaProtocol} goes through the command line's entry, which starts afresh per dump.
 *
 * <pre>bench/run MtbDecodeBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MtbDecodeBenchmark {

    @Param({"2000"})
    public int dumps;

    record Dump(Registers registers, byte[] bytes, ProgramImage image, MtbProgram program, long packets) {
    }

    private final List<Dump> fleet = new ArrayList<>();

    @Setup(Level.Trial)
    public void makeFleet() {
        SplittableRandom rnd = new SplittableRandom(2026);
        String[] names = {"m0plus", "m3"};
        MtbProgram[] programs = {new MtbProgram(Fixtures.image("m0plus"), java.util.OptionalLong.empty()),
            new MtbProgram(Fixtures.image("m3"), java.util.OptionalLong.empty())};
        int[] sizes = {256, 512, 1024, 2048, 4096};
        for (int i = 0; i < dumps; i++) {
            String name = names[i % 2];
            Execution ex = Fixtures.execution(name);
            ProgramImage image = Fixtures.image(name);
            int size = sizes[rnd.nextInt(sizes.length)];
            MtbEncoder.Options o = MtbEncoder.Options.ofSize(size).withHaltAfter(1 + rnd.nextInt(ex.steps().size() - 1));
            if (rnd.nextBoolean()) {
                o = o.inSram(16384, size * (long) rnd.nextInt(16384 / size), 32, i + 1);
            }
            MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
            fleet.add(new Dump(r.registers(), r.sram(), image, programs[i % 2], r.bufferPackets()));
        }
    }

    /** Packets and instructions decoded, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        public long packets;
        public long instructions;
    }

    static final class CountingSink implements ElementSink {
        long instructions;
        long elements;

        @Override
        public void accept(TraceElement e) {
            elements++;
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            }
        }
    }

    @Benchmark
    public long decodeFleet(Counts counts) throws IOException {
        long total = 0;
        for (Dump d : fleet) {
            CountingSink sink = new CountingSink();
            MtbConfig config = MtbConfig.from(d.registers());
            MtbLayout layout = config.layout(d.bytes().length);
            MtbFlow flow = new MtbFlow(d.program(), 0, 0, sink);
            MtbPacketReader.read(TraceData.of("dump", d.bytes()), layout, flow);
            flow.finish(config.pc(), layout.dumpLength());
            counts.packets += flow.packets();
            counts.instructions += flow.instructions();
            total += sink.elements;
        }
        return total;
    }

    /** The same fleet through the protocol entry the command line uses (counts the dump length first). */
    @Benchmark
    public long decodeFleetViaProtocol(Counts counts) throws IOException {
        MtbProtocol p = new MtbProtocol();
        long total = 0;
        for (Dump d : fleet) {
            CountingSink sink = new CountingSink();
            p.decode(new DecodeInput(0, d.registers(), d.image(), TraceData.of("dump", d.bytes()), DecodeOptions.DEFAULT),
                    sink);
            counts.instructions += sink.instructions;
            counts.packets += d.packets();
            total += sink.elements;
        }
        return total;
    }
}
