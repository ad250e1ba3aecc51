package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.SoftwareEventFormat;
import io.armtrace.protocol.Protocols;
import io.armtrace.trace.TraceElement;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SWO capture larger than the heap (64 MiB through a 32 MB heap; tools/campaign runs 1 GiB through 64 MB):
 * the ITM reader streams it, and the console keeps one line per port.
 */
class SoftwareTraceSmallHeapTest {
    @Test
    void swoCaptureLargerThanTheHeapIsPrinted(@TempDir Path dir) throws Exception {
        // one stretch of a program's output: lines on port 0, PC samples, exceptions and timestamps between them
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            lines.add("port 0 \"line " + i + " of the program's output\\n\"");
            lines.add("pc 0x" + Integer.toHexString(0x08000000 + 4 * i));
            lines.add("exception " + (16 + i % 32) + " entry");
            lines.add("lts " + (1 + i % 6));
            lines.add("timestamp " + (1000L * i));
        }
        List<TraceElement> events = SoftwareEventFormat.parse(lines, "events", "itm", 0);
        byte[] stretch = Protocols.byName("itm").orElseThrow().encodeSoftware(events, Map.of()).trace();
        Path swo = dir.resolve("big.swo");
        long copies = (64L << 20) / stretch.length + 1;
        try (OutputStream out = Files.newOutputStream(swo)) {
            for (long i = 0; i < copies; i++) {
                out.write(stretch);
            }
        }
        Path console = dir.resolve("console.txt");
        SmallHeapTest.Result r = SmallHeapTest.runSmallHeap(dir, "itm", "--trace", swo.toString(), "-o", console.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        long n;
        try (var s = Files.lines(console)) {
            n = s.count();
        }
        assertThat(n).isEqualTo(2000 * copies);
        SmallHeapTest.Result last = SmallHeapTest.runSmallHeap(dir, "decode", "--protocol", "itm", "--trace", swo.toString(),
                "--last", "1");
        assertThat(last.exit()).as(last.err()).isZero();
        assertThat(last.out()).endsWith("timestamp 1999000\n");
    }
}
