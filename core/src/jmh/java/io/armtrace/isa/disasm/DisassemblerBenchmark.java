package io.armtrace.isa.disasm;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.InstructionOracleTest;
import io.armtrace.isa.InstructionOracleTest.Row;
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
 * Disassembly throughput on real code: the first {@value #N} instructions of an ISA oracle table
 * (compiled newlib/libgcc and C programs; a64-O2: glibc and libm for AArch64), each disassembled from its encoding ({@code uncached}), and
 * the same instructions walked through a {@link DisassemblyCache} a second time round ({@code cached},
 * what a listing of a hot loop costs). Scores are instructions per second.
 *
 * <pre>bench/run DisassemblerBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DisassemblerBenchmark {
    static final int N = 8192;

    @Param({"a9-arm", "a9-thumb", "a64-O2"})
    public String table;

    private int[] opcodes;
    private int[] sizes;
    private long[] addresses;
    private Isa[] isas;
    private Disassembler disassembler;
    private DisassemblyCache cache;

    @Setup(Level.Trial)
    public void load() throws IOException {
        Table t = InstructionOracleTest.load(table);
        int n = Math.min(N, t.rows().size());
        opcodes = new int[n];
        sizes = new int[n];
        addresses = new long[n];
        isas = new Isa[n];
        for (int i = 0; i < n; i++) {
            Row r = t.rows().get(i);
            opcodes[i] = r.opcode();
            sizes[i] = r.size();
            addresses[i] = r.address();
            isas[i] = r.isa();
        }
        disassembler = new Disassembler(t.profile());
        MemoryImage image = InstructionOracleTest.image(t.rows().subList(0, n));
        cache = new DisassemblyCache(disassembler, image, SymbolTable.EMPTY);
        cached(); // fill the cache
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public int uncached() {
        int h = 0;
        for (int i = 0; i < opcodes.length; i++) {
            h += disassembler.disassemble(opcodes[i], sizes[i], isas[i], addresses[i], 0, null).mnemonic().length();
        }
        return h;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public int cached() {
        int h = 0;
        for (int i = 0; i < opcodes.length; i++) {
            String s = cache.text(addresses[i], isas[i], sizes[i]);
            h += s == null ? 0 : s.length();
        }
        return h;
    }
}
