package io.armtrace.testdata;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared conformance data that sits beside the project (../shared/conformance), the real
 * hardware trace with independent reference decodes. Tests that need it are skipped when it is absent.
 */
public final class SharedData {
    private SharedData() {
    }

    public static Path conformance() {
        Path p = Path.of(System.getProperty("user.dir")).resolve("../shared/conformance").normalize();
        assumeTrue(Files.isDirectory(p), "shared conformance data not present");
        return p;
    }

    public static Path tc2() {
        return conformance().resolve("TC2");
    }

    public static Path traceCovA15() {
        return conformance().resolve("trace_cov_a15");
    }
}
