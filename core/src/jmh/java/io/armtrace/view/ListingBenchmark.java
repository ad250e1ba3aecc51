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
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
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
 * Per-instruction listings of real decoder output, plain and annotated: the Cortex-A9 Thumb ground-truth
 * program (C, DWARF 5 line tables, ELF symbols) encoded as cycle-accurate PTM trace with timestamps,
 * decoded once, and fed {@code repeat} times in a row (200 passes: 11 million instructions per op) to
 * the writer, which writes to a null writer. "annotated" is {@code decode --insn --annotate --time}:
 * function+offset, file:line, running cycles and timestamp on every line.
 *
 * <pre>bench/run ListingBenchmark -f 1 -wi 1 -i 3</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class ListingBenchmark {
    @Param({"200"})
    public int repeat;

    private List<TraceElement> elements;
    private ProgramImage image;

    @Setup(Level.Trial)
    public void decode() throws IOException {
        String name = "a9-thumb";
        image = Corpus.image(name);
        TraceProtocol ptm = Protocols.byName("ptm").orElseThrow();
        EncodeOutput enc = ptm.encode(Corpus.execution(name), image, Map.of("cycle-accurate", "on", "timestamps", "on"));
        ElementCollector c = new ElementCollector();
        ptm.decode(new DecodeInput(0x10, enc.registers(), image, TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), c);
        elements = c.elements();
        long insns = 0;
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                insns += r.count();
            }
        }
        System.out.printf("%n%d elements, %d instructions per pass; %d instructions per op%n", elements.size(), insns,
                insns * repeat);
    }

    private long feed(ElementSink sink) {
        for (int r = 0; r < repeat; r++) {
            for (TraceElement e : elements) {
                sink.accept(e);
            }
        }
        sink.end();
        return elements.size();
    }

    private static PrintWriter nowhere() {
        return new PrintWriter(Writer.nullWriter());
    }

    @Benchmark
    public long textPlain() {
        return feed(new TextWriter(nowhere(), image, true, false));
    }

    @Benchmark
    public long textAnnotated() {
        Timeline t = new Timeline();
        return feed(t.feed(new TextWriter(nowhere(), image, true, false).annotate(true).time(t)));
    }

    @Benchmark
    public long jsonlPlain() {
        return feed(new JsonlWriter(nowhere(), image, false));
    }

    @Benchmark
    public long jsonlAnnotated() {
        Timeline t = new Timeline();
        return feed(t.feed(new JsonlWriter(nowhere(), image, false).annotate(true).time(t)));
    }

    /**
     * The filter stage in front of the plain JSONL writer: two address ranges that leave out one halfword in
     * the middle of the code, so that the ranges crossing it are split and everything else passes.
     */
    @Benchmark
    public long jsonlFiltered() {
        return feed(new ElementFilter(new JsonlWriter(nowhere(), image, false),
                List.of(new ElementFilter.AddressRange(0, 0x60010800), new ElementFilter.AddressRange(0x60010802, Long.MAX_VALUE)),
                null, null, null));
    }
}
