package io.armtrace.bench;

import io.armtrace.execution.SoftwareEventFormat;
import io.armtrace.protocol.itm.ItmConfig;
import io.armtrace.protocol.itm.ItmFlow;
import io.armtrace.protocol.itm.ItmPacketReader;
import io.armtrace.protocol.stm.StmPacketReader;
import io.armtrace.protocol.stm.StmFlow;
import io.armtrace.protocol.Protocols;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reads 16 MiB of ITM (printf lines, PC samples, exception trace, timestamps) and of STM (32-bit messages of
 * a few masters and channels, a third of them timestamped), made by the encoders from random events: packets
 * only (the reader), and packets to elements into a sink that counts them. Reports MB/s; the auxiliary
 * counters are packets/s and elements/s.
 *
 * <pre>bench/run SoftwareTraceBenchmark -f 1 -wi 2 -i 3</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class SoftwareTraceBenchmark {
    private static final int SIZE = 16 << 20;
    private byte[] itm;
    private byte[] stm;

    @Setup(Level.Trial)
    public void makeTrace() {
        SplittableRandom r = new SplittableRandom(21);
        List<String> itmLines = new ArrayList<>();
        List<String> stmLines = new ArrayList<>();
        for (int i = 0; i < 20000; i++) {
            switch (r.nextInt(5)) {
                case 0 -> itmLines.add("port " + r.nextInt(4) + " \"line " + i + " of the output\\n\"");
                case 1 -> itmLines.add("pc 0x" + Integer.toHexString(0x08000000 + 2 * r.nextInt(1 << 16)));
                case 2 -> itmLines.add("exception " + (16 + r.nextInt(64)) + " " + (r.nextBoolean() ? "entry" : "exit"));
                case 3 -> itmLines.add("lts " + (1 + r.nextInt(5000)));
                default -> itmLines.add("timestamp " + 1000L * i);
            }
            if (r.nextInt(8) == 0) {
                stmLines.add("master 0x" + Integer.toHexString(r.nextInt(4)));
                stmLines.add("channel " + r.nextInt(32));
            }
            stmLines.add("d32 0x" + Integer.toHexString(r.nextInt()) + (r.nextInt(3) == 0 ? " ts=" + 1000L * i : ""));
        }
        itm = repeat(Protocols.byName("itm").orElseThrow().encodeSoftware(
                SoftwareEventFormat.parse(itmLines, "bench", "itm", 1), Map.of()).trace());
        stm = repeat(Protocols.byName("stm").orElseThrow().encodeSoftware(
                SoftwareEventFormat.parse(stmLines, "bench", "stm", 1), Map.of()).trace());
    }

    private static byte[] repeat(byte[] unit) {
        byte[] out = new byte[SIZE];
        for (int i = 0; i < SIZE; i += unit.length) {
            System.arraycopy(unit, 0, out, i, Math.min(unit.length, SIZE - i));
        }
        return out;
    }

    /** Packets and elements, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        public long packets;
        public long elements;
        public long megabytes;
    }

    @Benchmark
    public long itmPackets(Counts c) {
        long[] n = {0};
        ItmPacketReader reader = new ItmPacketReader(p -> n[0]++);
        reader.push(itm, 0, itm.length);
        reader.end();
        c.packets += n[0];
        c.megabytes += SIZE >> 20;
        return n[0];
    }

    @Benchmark
    public long itmElements(Counts c) {
        long[] n = {0};
        ItmPacketReader reader = new ItmPacketReader(new ItmFlow(new ItmConfig(0, 0, false), 1, e -> n[0]++));
        reader.push(itm, 0, itm.length);
        reader.end();
        c.elements += n[0];
        c.megabytes += SIZE >> 20;
        return n[0];
    }

    @Benchmark
    public long stmPackets(Counts c) {
        long[] n = {0};
        StmPacketReader reader = new StmPacketReader(p -> n[0]++);
        reader.push(stm, 0, stm.length);
        reader.end();
        c.packets += n[0];
        c.megabytes += SIZE >> 20;
        return n[0];
    }

    @Benchmark
    public long stmElements(Counts c) {
        long[] n = {0};
        StmPacketReader reader = new StmPacketReader(new StmFlow(1, (TraceElement e) -> n[0]++));
        reader.push(stm, 0, stm.length);
        reader.end();
        c.elements += n[0];
        c.megabytes += SIZE >> 20;
        return n[0];
    }
}
