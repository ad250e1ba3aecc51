package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The Cortex-M ground-truth fixtures (QEMU runs of real programs) this package's tests use: the
 * corpus's {@code m0plus} and {@code m3}, plus any NAME.exec.gz / NAME.elf.gz pairs in the directory
 * named by the system property {@code armtrace.extraGroundTruth} (programs not in the repository,
 * built and imported the same way by tools/groundtruth).
 */
final class Fixtures {
    static final String EXTRA = "armtrace.extraGroundTruth";

    private static final Map<String, Execution> EXECUTIONS = new ConcurrentHashMap<>();
    private static final Map<String, ProgramImage> IMAGES = new ConcurrentHashMap<>();

    private Fixtures() {
    }

    static Execution execution(String name) {
        if (Corpus.names().contains(name)) {
            return Corpus.execution(name);
        }
        return EXECUTIONS.computeIfAbsent(name, n -> {
            try (ExecutionFormat.Reader r = ExecutionFormat.reader(open(n + ".exec.gz"))) {
                return r.readAll();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static ProgramImage image(String name) {
        if (Corpus.names().contains(name)) {
            return Corpus.image(name);
        }
        return IMAGES.computeIfAbsent(name, n -> {
            try (InputStream in = new GZIPInputStream(open(n + ".elf.gz"))) {
                return ElfImage.load(in.readAllBytes(), n + ".elf");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The corpus's Cortex-M fixtures and the extra ones. */
    static java.util.List<String> names() {
        java.util.List<String> names = new java.util.ArrayList<>(java.util.List.of("m0plus", "m3"));
        String dir = System.getProperty(EXTRA);
        if (dir != null) {
            try (var files = java.nio.file.Files.list(java.nio.file.Path.of(dir))) {
                files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".exec.gz")).sorted()
                        .forEach(f -> names.add(f.substring(0, f.length() - ".exec.gz".length())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return names;
    }

    private static InputStream open(String file) throws IOException {
        String dir = System.getProperty(EXTRA);
        if (dir != null && java.nio.file.Files.isRegularFile(java.nio.file.Path.of(dir, file))) {
            return java.nio.file.Files.newInputStream(java.nio.file.Path.of(dir, file));
        }
        InputStream in = Fixtures.class.getResourceAsStream("/groundtruth/" + file);
        if (in == null) {
            throw new IOException("no test resource groundtruth/" + file);
        }
        return in;
    }
}
