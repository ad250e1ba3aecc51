package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;

/**
 * The Cortex-M ground-truth fixtures (QEMU runs of real programs) this package's tests use: the
 * corpus's {@code m0plus} and {@code m3}, plus any NAME.exec.gz / NAME.elf.gz pairs in the directory
 * named by the system property {@code armtrace.extraGroundTruth} (programs not in the repository,
 * built and imported the same way by tools/groundtruth); {@link Corpus} reads both.
 */
final class Fixtures {

    private Fixtures() {
    }

    static Execution execution(String name) {
        return Corpus.execution(name);
    }

    static ProgramImage image(String name) {
        return Corpus.image(name);
    }

    /** The corpus's Cortex-M fixtures and the extra ones ({@link Corpus#EXTRA_PROPERTY}). */
    static java.util.List<String> names() {
        java.util.List<String> names = new java.util.ArrayList<>(java.util.List.of("m0plus", "m3"));
        names.addAll(Corpus.extraNames(io.armtrace.isa.Profile.M));
        return names;
    }
}
