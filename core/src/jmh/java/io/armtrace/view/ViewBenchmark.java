package io.armtrace.view;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.Map;
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
 * The analysis views on real decoder output: the Cortex-A9 Thumb ground-truth program encoded as
 * cycle-accurate PTM trace and decoded (about 16,000 elements for 55,000 instructions), fed
 * {@code repeat} times in a row as one long stream. Each benchmark is one whole view, from the first
 * element to the written output (to a null writer); elements/s = ops/s x elements per op (printed at
 * setup).
 *
 * <pre>bench/run ViewBenchmark -f 1 -wi 3 -i 5</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ViewBenchmark {
    @Param({"1", "100"})
    public int repeat;

    private List<TraceElement> elements;
    private ProgramImage image;

    @Setup(Level.Trial)
    public void decode() throws IOException {
        String name = "a9-thumb";
        image = Corpus.image(name);
        TraceProtocol ptm = Protocols.byName("ptm").orElseThrow();
        EncodeOutput enc = ptm.encode(Corpus.execution(name), image, Map.of("cycle-accurate", "on"));
        ElementCollector c = new ElementCollector();
        ptm.decode(new DecodeInput(0x10, enc.registers(), image, TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), c);
        elements = c.elements();
        System.out.printf("%n%d elements per pass, %d per op%n", elements.size(), (long) elements.size() * repeat);
    }

    private TraceAnalysis analyse() {
        TraceAnalysis a = new TraceAnalysis(image);
        for (int r = 0; r < repeat; r++) {
            for (TraceElement e : elements) {
                a.accept(e);
            }
        }
        a.end();
        return a;
    }

    private static PrintWriter nowhere() {
        return new PrintWriter(Writer.nullWriter());
    }

    @Benchmark
    public long analysisOnly() {
        return analyse().instructions();
    }

    @Benchmark
    public void profileByFunction() {
        new Profile(analyse()).writeTable(nowhere(), Profile.By.FUNCTION, 30);
    }

    @Benchmark
    public void profileByLine() {
        new Profile(analyse()).writeTable(nowhere(), Profile.By.LINE, 30);
    }

    @Benchmark
    public void profileFolded() {
        new Profile(analyse()).writeFolded(nowhere(), false);
    }

    @Benchmark
    public void callgraphCallgrind() {
        new CallGraph(analyse()).writeCallgrind(nowhere(), null);
    }

    @Benchmark
    public void callgraphDot() {
        new CallGraph(analyse()).writeDot(nowhere());
    }

    @Benchmark
    public void coverageLcov() {
        Coverage c = new Coverage(analyse());
        c.writeLcov(nowhere(), "bench");
        c.writeSummary(nowhere());
    }

    @Benchmark
    public void htmlReport() {
        new HtmlReport("bench").section("a9-thumb", analyse()).write(nowhere(), 25);
    }

    @Benchmark
    public void jsonlWriterForComparison() {
        JsonlWriter w = new JsonlWriter(Writer.nullWriter(), image, false);
        for (int r = 0; r < repeat; r++) {
            for (TraceElement e : elements) {
                w.accept(e);
            }
        }
        w.end();
    }
}
