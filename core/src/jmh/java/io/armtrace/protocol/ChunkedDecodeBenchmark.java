package io.armtrace.protocol;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.nio.file.Files;
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
 * One source decoded in pieces on 1, 2 or 4 threads ({@link ChunkedDecode}, 4 MB pieces) into a sink
 * that only counts instructions: the speedup of the parallel decode itself, without a view. Inputs: the
 * TC2 PTM source 0x13 and ETMv3 source 0x10 (conformance/TC2), each repeated to 50 MB. The
 * instruction count per decode is checked to be the same at every thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class ChunkedDecodeBenchmark {
    static final int TARGET_BYTES = 50 << 20;

    @Param({"ptm", "etm3"})
    public String input;

    @Param({"1", "2", "4"})
    public int threads;

    TraceProtocol protocol;
    DecodeInput decodeInput;
    long expected = -1;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path tc2 = Path.of(System.getProperty("user.dir")).resolve("conformance/TC2").normalize();
        int id = input.equals("ptm") ? 0x13 : 0x10;
        byte[] unit = FrameDeformatter.demultiplex(Files.readAllBytes(tc2.resolve("cstrace.bin"))).get(id);
        Registers regs = input.equals("ptm")
                ? new Registers().put("ETMCR", 0x10001000L).put("ETMIDR", 0x411CF312L).put("ETMCCER", 0x34C01AC2L)
                .put("ETMTRACEIDR", 0x13)
                : new Registers().put("ETMCR", 0x10001860L).put("ETMIDR", 0x410CF250L).put("ETMCCER", 0x344008F2L)
                .put("ETMTRACEIDR", 0x10);
        MemoryImage memory = new MemoryImage().add(0xC0008000L, Files.readAllBytes(tc2.resolve("kernel_dump.bin")),
                "kernel_dump.bin");
        int copies = (TARGET_BYTES + unit.length - 1) / unit.length;
        byte[] stream = new byte[copies * unit.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(unit, 0, stream, i * unit.length, unit.length);
        }
        protocol = Protocols.byName(input).orElseThrow();
        decodeInput = new DecodeInput(id, regs, new ProgramImage(memory, SymbolTable.EMPTY),
                TraceData.of(input + " x" + copies, stream), DecodeOptions.DEFAULT);
    }

    @Benchmark
    public long decode() throws IOException {
        long[] n = {0};
        ElementSink sink = (TraceElement e) -> {
            if (e instanceof InstructionRange r) {
                n[0] += r.count();
            }
        };
        ChunkedDecode.decode(protocol, decodeInput, sink, threads, 4L << 20);
        if (expected >= 0 && n[0] != expected) {
            throw new IllegalStateException("instructions differ: " + n[0] + " vs " + expected);
        }
        expected = n[0];
        return n[0];
    }
}
