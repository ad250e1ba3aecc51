package io.armtrace.protocol.etm3;

import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ETMv3 packet reading and full decode of the TC2 capture's source 0x10 (Cortex-A7, ETMv3.5,
 * cycle-accurate, timestamps), repeated from its first A-sync to 50 MB or more. One operation is the
 * whole input: MB/s = size / time per operation. The setup prints the size and instruction count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Etm3DecodeBenchmark {
    static final int TARGET = 50 << 20;

    byte[] data;
    Etm3Config config;
    ProgramImage image;

    @Setup
    public void load() throws Exception {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("conformance/TC2").normalize();
        SnapshotSource s = Snapshot.load(dir).source(0x10).orElseThrow();
        byte[] one;
        try (InputStream in = s.data().open()) {
            one = in.readAllBytes();
        }
        int start = firstASync(one);
        int len = one.length - start;
        int copies = (TARGET + len - 1) / len;
        data = new byte[copies * len];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(one, start, data, i * len, len);
        }
        config = Etm3Protocol.config(DecodeInput.of(s));
        image = s.image();
        long[] n = decode();
        System.out.printf("%nETMv3 input: %d bytes (%d copies of %d), %d instructions, %d packets%n", data.length,
                copies, len, n[0], packets());
    }

    static int firstASync(byte[] d) {
        int zeros = 0;
        for (int i = 0; i < d.length; i++) {
            if (d[i] == 0) {
                zeros++;
            } else if ((d[i] & 0xFF) == 0x80 && zeros >= 5) {
                return i - zeros;
            } else {
                zeros = 0;
            }
        }
        return 0;
    }

    @Benchmark
    public long packets() {
        long[] count = {0};
        Etm3PacketReader r = new Etm3PacketReader(config, p -> count[0]++);
        for (int i = 0; i < data.length; i += 65536) {
            r.push(data, i, Math.min(65536, data.length - i));
        }
        r.end();
        return count[0];
    }

    @Benchmark
    public long[] decode() {
        long[] count = {0, 0};
        ElementSink sink = e -> {
            if (e instanceof InstructionRange range) {
                count[0] += range.count();
            } else {
                count[1]++;
            }
        };
        Etm3Flow flow = new Etm3Flow(config, image, sink);
        Etm3PacketReader r = new Etm3PacketReader(config, flow);
        for (int i = 0; i < data.length; i += 65536) {
            r.push(data, i, Math.min(65536, data.length - i));
        }
        r.end();
        flow.end();
        return count;
    }
}
