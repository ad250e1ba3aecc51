package io.armtrace.image;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The decoders' hot path: instruction reads from program memory. A code walk reads halfwords and words
 * mostly in the region of the previous read; {@code jumps} reads at random addresses of several
 * regions. Regions are heap arrays, as ELF segments and small dumps are (large raw dumps are mapped).
 *
 * <pre>bench/run MemoryImageBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MemoryImageBenchmark {
    private static final int READS = 4096;
    private MemoryImage memory;
    private long[] addresses;

    @Setup
    public void setup() {
        Random r = new Random(1);
        memory = new MemoryImage();
        for (int i = 0; i < 8; i++) {
            byte[] b = new byte[256 << 10];
            r.nextBytes(b);
            memory.add(0x8000_0000L + i * (1L << 20), b, "region" + i);
        }
        addresses = new long[READS];
        for (int i = 0; i < READS; i++) {
            addresses[i] = 0x8000_0000L + r.nextInt(8) * (1L << 20) + (r.nextInt(256 << 10) & ~3);
        }
    }

    @Benchmark
    @OperationsPerInvocation(READS)
    public long sequentialHalfwordsAndWords() {
        long sum = 0;
        long a = 0x8000_0000L;
        for (int i = 0; i < READS; i++) {
            sum += memory.u16(a);
            sum += memory.u32(a + 2);
            a += 6;
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(READS)
    public long jumps() {
        long sum = 0;
        for (long a : addresses) {
            sum += memory.u32(a);
        }
        return sum;
    }
}
