package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.InstructionOracleTest.Table;
import io.armtrace.trace.Isa;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Classification throughput on real code: the first {@value #N} instructions of an ISA oracle table,
 * one after another in memory,
 * classified one by one ({@code classify}, what a block walk costs per instruction), and walked into
 * blocks with a cache that is cleared before every pass ({@code walk}, the cost of a block-cache miss
 * per instruction). Scores are instructions per second.
 *
 * <pre>bench/run ClassifierBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClassifierBenchmark {
    static final int N = 8192;

    @Param({"a64-O2", "a9-arm"})
    public String table;

    private long[] addresses;
    private Isa isa;
    private MemoryImage image;
    private InstructionClassifier classifier;
    private CodeWalker walker;
    private final Insn insn = new Insn();

    @Setup(Level.Trial)
    public void load() throws IOException {
        Table t = InstructionOracleTest.load(table);
        int n = Math.min(N, t.rows().size());
        // laid out one after another from the first row's address, so that every table is one region of
        // memory (the A64 tables hold one row per distinct word, at scattered addresses)
        addresses = new long[n];
        java.io.ByteArrayOutputStream code = new java.io.ByteArrayOutputStream();
        long base = t.rows().get(0).address();
        for (int i = 0; i < n; i++) {
            addresses[i] = base + code.size();
            code.writeBytes(t.rows().get(i).bytes());
        }
        isa = t.rows().get(0).isa();
        image = new MemoryImage().add(base, code.toByteArray(), "code");
        classifier = new InstructionClassifier(t.profile());
        walker = new CodeWalker(image, classifier, true, 4096);
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long classify() {
        long h = 0;
        for (long a : addresses) {
            classifier.classify(image, a, isa, 0, insn);
            h += insn.kind.ordinal() + insn.target;
        }
        return h;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long walk() {
        walker.clearCache();
        long h = 0;
        for (int i = 0; i < addresses.length; ) {
            Block b = walker.block(addresses[i], isa);
            h += b.target();
            i += Math.max(1, b.count());
        }
        return h;
    }
}
