package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording with 1 GiB of AUX data (a sparse file: the data are holes) is indexed and all of its AUX data
 * streamed by a JVM with a 256 MiB heap: the reader keeps the AUX data in the file.
 */
class LargeRecordingTest {
    static final long BUFFER = 4L << 20;
    static final int BUFFERS = 256; // 256 x 4 MiB = 1 GiB

    @TempDir
    Path tmp;

    @Test
    void oneGibibyteOfAuxDataInA256MibHeap() throws Exception {
        PerfDataWriter w = new PerfDataWriter()
                .coreSightInfo(1, false, List.of(PerfDataWriter.etm4(0, 0x10C1, 0x10), PerfDataWriter.etm4(1, 0x10C1, 0x12)));
        for (int i = 0; i < BUFFERS; i++) {
            int cpu = i % 2;
            long offset = (i / 2) * BUFFER;
            w.aux(offset, BUFFER, 0, 1, 1, 1000 + i, cpu).auxtrace(offset, null, BUFFER, cpu, 1, cpu);
        }
        Path file = tmp.resolve("large.data");
        w.write(file);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                LargeRecordingTest.class.getName(), file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.trim()).isEqualTo("queues 2 segments 256 bytes " + (BUFFERS * BUFFER));
    }

    /** In the child JVM: reads the recording and streams every segment, counting bytes. */
    public static void main(String[] args) throws IOException {
        PerfData d = PerfData.read(Path.of(args[0]));
        long bytes = 0;
        int segments = 0;
        byte[] buf = new byte[1 << 16];
        for (AuxQueue q : d.auxQueues()) {
            for (AuxSegment s : d.auxSegments(q)) {
                segments++;
                try (InputStream in = d.openAux(s)) {
                    for (int n; (n = in.read(buf)) > 0; ) {
                        bytes += n;
                    }
                }
            }
        }
        System.out.println("queues " + d.auxQueues().size() + " segments " + segments + " bytes " + bytes);
    }
}
