package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/** The Cortex-M ground-truth fixtures (QEMU runs of real programs) this package's tests use. */
final class Fixtures {
    private static final Map<String, Execution> EXECUTIONS = new ConcurrentHashMap<>();
    private static final Map<String, ProgramImage> IMAGES = new ConcurrentHashMap<>();

    private Fixtures() {
    }

    static Execution execution(String name) {
        return EXECUTIONS.computeIfAbsent(name, n -> {
            try (ExecutionFormat.Reader r = ExecutionFormat.reader(open(n + ".exec.gz"))) {
                return r.readAll();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static ProgramImage image(String name) {
        return IMAGES.computeIfAbsent(name, n -> {
            try (InputStream in = new GZIPInputStream(open(n + ".elf.gz"))) {
                return ElfImage.load(in.readAllBytes(), n + ".elf");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static InputStream open(String file) throws IOException {
        InputStream in = Fixtures.class.getResourceAsStream("/groundtruth/" + file);
        if (in == null) {
            throw new IOException("no test resource groundtruth/" + file);
        }
        return in;
    }
}
