package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code profile} of DWT periodic PC samples: the QEMU run of the Cortex-M0+ program sampled every 61st
 * instruction (as the DWT samples every POSTCNT period), made into an SWO capture by the ITM encoder, and
 * profiled with the program's ELF: the samples per function are the ground truth's samples counted with its
 * symbols, and the folded stacks and the callgrind profile of {@code callgraph} give the same.
 */
class PcSampleProfileTest {
    @TempDir
    Path dir;

    @Test
    void samplesPerFunctionAreTheRunsOwn() throws IOException {
        String name = "m0plus";
        ProgramImage image = Corpus.image(name);
        List<TraceElement> events = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        int i = 0;
        for (ExecutionEvent.Step s : Corpus.execution(name).steps()) {
            if (++i % 61 == 0) {
                events.add(new PcSample(0, s.address(), false));
                Symbol sym = image.symbols().lookup(s.address());
                expected.merge(sym == null ? "[no symbol]" : sym.name(), 1L, Long::sum);
            }
        }
        EncodeOutput enc = Protocols.byName("itm").orElseThrow().encodeSoftware(events, Map.of());
        Path swo = dir.resolve("swo.bin");
        Files.write(swo, enc.trace());
        Path elf = dir.resolve("m0plus.elf");
        Files.write(elf, Corpus.elfBytes(name));

        CliTest.Result r = ViewCommandsTest.run("profile", "--trace", swo.toString(), "--protocol", "itm", "--image", elf.toString(),
                "--top", "0");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo(events.size() + " PC samples");
        Map<String, Long> got = new TreeMap<>();
        for (String l : lines.subList(2, lines.size())) {
            String[] f = l.trim().split("\\s+");
            got.put(f[3], Long.parseLong(f[0]));
        }
        assertThat(expected).hasSizeGreaterThan(5);
        assertThat(got).isEqualTo(expected);

        CliTest.Result folded = ViewCommandsTest.run("profile", "--trace", swo.toString(), "--protocol", "itm", "--image",
                elf.toString(), "--folded");
        Map<String, Long> stacks = new TreeMap<>();
        folded.out().lines().forEach(l -> stacks.put(l.substring(0, l.lastIndexOf(' ')), Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))));
        assertThat(stacks).isEqualTo(expected);

        CliTest.Result byLine = ViewCommandsTest.run("profile", "--trace", swo.toString(), "--protocol", "itm", "--image",
                elf.toString(), "--by", "line", "--top", "0");
        assertThat(byLine.exit()).isZero();
        long total = byLine.out().lines().skip(2).mapToLong(l -> Long.parseLong(l.trim().split("\\s+")[0])).sum();
        assertThat(total).isEqualTo(events.size());
        assertThat(byLine.out()).contains(".c:");

        // callgraph: the callgrind profile of the samples, a cost line per sampled function
        CliTest.Result cg = ViewCommandsTest.run("callgraph", "--trace", swo.toString(), "--protocol", "itm", "--image",
                elf.toString());
        assertThat(cg.exit()).as(cg.err()).isZero();
        assertThat(cg.out()).contains("events: Samples", "summary: " + events.size());
        Map<String, Long> costs = new TreeMap<>();
        List<String> cgLines = cg.out().lines().toList();
        for (int k = 0; k < cgLines.size(); k++) {
            if (cgLines.get(k).startsWith("fn=")) {
                costs.put(cgLines.get(k).substring(3), Long.parseLong(cgLines.get(k + 1).split(" ")[1]));
            }
        }
        assertThat(costs).isEqualTo(expected);
    }
}
