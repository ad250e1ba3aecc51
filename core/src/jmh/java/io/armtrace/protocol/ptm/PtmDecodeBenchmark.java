package io.armtrace.protocol.ptm;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Registers;
import io.armtrace.source.SnapshotWriter;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
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
 * PFT decoding speed on a stream of at least 50 MB: packets only, and full decode to instruction
 * ranges. Inputs: {@code tc2} is the real Cortex-A15 capture of conformance/TC2 (trace ID 0x13,
 * cycle-accurate, kernel code) from its first A-sync, repeated; {@code a9thumb} is the encoder's trace
 * of the Cortex-A9 Thumb-2 ground-truth program with the return stack on, repeated. One operation
 * decodes the whole stream; MB/s = size / time. The setup prints the size and the instructions per
 * decode, and writes the input as a snapshot to target/bench-data/ so that OpenCSD's trc_pkt_lister can
 * be timed on the same bytes (tools/opencsd-check/ptm.sh with PTM_BENCH=1).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class PtmDecodeBenchmark {
    static final int TARGET_BYTES = 50 << 20;

    @Param({"tc2", "a9thumb"})
    public String input;

    byte[] stream;
    PtmConfig config;
    MemoryImage memory;
    long instructionsPerDecode;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        byte[] unit;
        Registers regs;
        if (input.equals("tc2")) {
            Path tc2 = Path.of(System.getProperty("user.dir")).resolve("conformance/TC2").normalize();
            byte[] raw = FrameDeformatter.demultiplex(Files.readAllBytes(tc2.resolve("cstrace.bin"))).get(0x13);
            int first = firstAsync(raw);
            unit = java.util.Arrays.copyOfRange(raw, first, raw.length);
            regs = new Registers().put("ETMCR", 0x10001000L).put("ETMIDR", 0x411CF312L).put("ETMCCER", 0x34C01AC2L)
                    .put("ETMTRACEIDR", 0x13);
            memory = new MemoryImage().add(0xC0008000L, Files.readAllBytes(tc2.resolve("kernel_dump.bin")), "kernel_dump.bin");
        } else {
            Execution ex;
            ProgramImage img;
            try (InputStream e = PtmDecodeBenchmark.class.getResourceAsStream("/groundtruth/a9-thumb.exec.gz");
                 InputStream elf = PtmDecodeBenchmark.class.getResourceAsStream("/groundtruth/a9-thumb.elf.gz")) {
                ex = ExecutionFormat.reader(e).readAll();
                img = ElfImage.load(new GZIPInputStream(elf).readAllBytes(), "a9-thumb.elf");
            }
            EncodeOutput out = new PtmEncoder().returnStack(true, 15).encode(ex, img);
            unit = out.trace();
            regs = out.registers();
            memory = img.memory();
        }
        config = PtmConfig.of(regs, 0);
        int copies = (TARGET_BYTES + unit.length - 1) / unit.length;
        stream = new byte[copies * unit.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(unit, 0, stream, i * unit.length, unit.length);
        }
        instructionsPerDecode = fullDecode();
        System.out.printf("%n[%s] %d bytes, %d instructions per decode%n", input, stream.length, instructionsPerDecode);
        Path dir = Path.of("target/bench-data/ptm-" + input);
        if (!Files.isDirectory(dir)) {
            SnapshotWriter.write(dir, "Cortex-A15", memory, "PTM1.1", regs, stream);
        }
    }

    static int firstAsync(byte[] b) {
        int zeros = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                zeros++;
            } else {
                if (b[i] == (byte) 0x80 && zeros >= 5) {
                    return i - zeros;
                }
                zeros = 0;
            }
        }
        return 0;
    }

    static final class Counter implements io.armtrace.protocol.PacketListener<PtmPacket> {
        long packets;

        @Override
        public void packet(PtmPacket packet) {
            packets++;
        }
    }

    static final class RangeCounter implements ElementSink {
        long instructions;

        @Override
        public void accept(io.armtrace.trace.TraceElement element) {
            if (element instanceof InstructionRange r) {
                instructions += r.count();
            }
        }
    }

    @Benchmark
    public long packetsOnly() {
        Counter c = new Counter();
        PtmPacketReader r = new PtmPacketReader(config, c);
        for (int i = 0; i < stream.length; i += 1 << 16) {
            r.push(stream, i, Math.min(1 << 16, stream.length - i));
        }
        r.end();
        return c.packets;
    }

    @Benchmark
    public long fullDecode() {
        RangeCounter c = new RangeCounter();
        PtmFlow flow = new PtmFlow(config, memory.copy(), c);
        PtmPacketReader r = new PtmPacketReader(config, flow);
        for (int i = 0; i < stream.length; i += 1 << 16) {
            r.push(stream, i, Math.min(1 << 16, stream.length - i));
        }
        r.end();
        return c.instructions;
    }

}
