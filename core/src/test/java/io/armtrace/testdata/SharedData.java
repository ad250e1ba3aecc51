package io.armtrace.testdata;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the conformance data inside the repository ({@code conformance/} at its root): real hardware
 * trace with independent reference decodes. A clone without it is broken, so a missing file fails the
 * test that needs it instead of skipping it.
 */
public final class SharedData {
    private SharedData() {
    }

    /** The repository's {@code conformance/} directory; fails (does not skip) when it is absent. */
    public static Path conformance() {
        Path p = Path.of(System.getProperty("user.dir")).resolve("conformance").normalize();
        if (!Files.isRegularFile(p.resolve("README.md"))) {
            throw new AssertionError("conformance data missing: " + p + " (it is part of the repository;"
                    + " the tests run with the repository root as working directory)");
        }
        return p;
    }

    /** {@code conformance/NAME}, which must exist. */
    public static Path dir(String name) {
        Path p = conformance().resolve(name);
        if (!Files.exists(p)) {
            throw new AssertionError("conformance data missing: " + p);
        }
        return p;
    }

    public static Path tc2() {
        return dir("TC2");
    }

    public static Path traceCovA15() {
        return dir("trace_cov_a15");
    }
}
