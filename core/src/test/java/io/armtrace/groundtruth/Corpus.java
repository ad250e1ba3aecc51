package io.armtrace.groundtruth;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The ground-truth corpus: real programs executed under QEMU (tools/groundtruth/generate.sh), each
 * an ELF file and its execution record, as test resources under {@code groundtruth/}. A round-trip
 * test of a protocol is one line per fixture:
 *
 * <pre>
 * for (String name : Corpus.names()) {
 *     Execution truth = Corpus.execution(name);
 *     ... decode(encode(truth, Corpus.image(name), Corpus.profile(name))) equals truth ...
 * }
 * </pre>
 *
 * Loaded fixtures are cached: {@link Execution} and the images are shared, do not modify the images.
 */
public final class Corpus {
    /** Bare-metal fixtures, as generate.sh names its targets: every exception is in the record. */
    private static final List<String> NAMES = List.of(
            "arm926-arm", "arm926-thumb", "a9-arm", "a9-thumb", "m3", "m0plus");
    /** Linux user-mode fixtures (qemu-arm, Cortex-A15): the kernel's side of each SVC is not in them. */
    private static final List<String> USER_MODE_NAMES = List.of("linux-arm", "linux-thumb");
    /**
     * Armv8 bare-metal fixtures, the cores ETMv4 and ETE trace: AArch64 at EL1 and EL0 (Cortex-A53),
     * Armv8-M mainline (Cortex-M33) and Armv8.1-M (Cortex-M55), every exception in the record.
     */
    private static final List<String> ARMV8_NAMES = List.of("a53-el1", "m33", "m55");
    /** Armv8 Linux user-mode fixtures (qemu-aarch64, Cortex-A57): AArch64 at EL0 only. */
    private static final List<String> ARMV8_USER_MODE_NAMES = List.of("linux-a64", "linux-a64-O0");

    private static final Map<String, Execution> EXECUTIONS = new ConcurrentHashMap<>();
    private static final Map<String, ExecutionFormat.Header> HEADERS = new ConcurrentHashMap<>();
    private static final Map<String, ProgramImage> IMAGES = new ConcurrentHashMap<>();

    private Corpus() {
    }

    /** The bare-metal fixtures: complete executions, exceptions included. */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * The Linux user-mode fixtures: static glibc programs under qemu-arm. A system call's
     * {@code svc} is a step followed directly by the next user instruction, with no exception
     * events: the kernel did not run in the record. glibc brings code the bare-metal programs lack
     * (Thumb-2 and A32 library code, {@code addls pc, pc} switch tables, VFP/NEON, exclusives).
     */
    public static List<String> userModeNames() {
        return USER_MODE_NAMES;
    }

    /**
     * The Armv8 bare-metal fixtures (for ETMv4 and ETE): {@code a53-el1}, AArch64 with a kernel at
     * EL1 in the upper half of the address space and a user part at EL0, the generic timer's
     * interrupt and SVCs from both levels (records of version 2: exception levels on every
     * {@code X} and {@code R}, synchronous exceptions with their exception class); {@code m33}
     * (Armv8-M) and {@code m55} (Armv8.1-M, with low-overhead loops and branch future), both in
     * Secure state, exceptions as in {@code m3}. Not in {@link #names()}: the older protocols'
     * round trips do not run on them.
     */
    public static List<String> armv8Names() {
        return ARMV8_NAMES;
    }

    /**
     * The Armv8 Linux user-mode fixtures: static glibc programs under qemu-aarch64 (Cortex-A57),
     * AArch64 at EL0, the workload at -O2 ({@code linux-a64}) and -O0 ({@code linux-a64-O0}). As in
     * {@link #userModeNames()}, a system call's {@code svc} is followed by the next user instruction.
     */
    public static List<String> armv8UserModeNames() {
        return ARMV8_USER_MODE_NAMES;
    }

    /** Every fixture of the corpus, in the order of the lists above. */
    public static List<String> allNames() {
        List<String> all = new java.util.ArrayList<>(NAMES);
        all.addAll(USER_MODE_NAMES);
        all.addAll(ARMV8_NAMES);
        all.addAll(ARMV8_USER_MODE_NAMES);
        return List.copyOf(all);
    }

    /** Bare-metal fixtures of one profile (A/R: ARM926 and Cortex-A9; M: Cortex-M3 and M0+). */
    public static List<String> names(Profile profile) {
        return NAMES.stream().filter(n -> profile(n) == profile).toList();
    }

    /** The recorded execution of a fixture. */
    public static Execution execution(String name) {
        return EXECUTIONS.computeIfAbsent(name, n -> {
            try (ExecutionFormat.Reader r = ExecutionFormat.reader(open(n + ".exec.gz"))) {
                HEADERS.putIfAbsent(n, r.header());
                return r.readAll();
            } catch (IOException e) {
                throw new UncheckedIOException("ground-truth fixture " + n + ": " + e.getMessage(), e);
            }
        });
    }

    /** The header of a fixture's execution record (profile and core name). */
    public static ExecutionFormat.Header header(String name) {
        return HEADERS.computeIfAbsent(name, n -> {
            try (ExecutionFormat.Reader r = ExecutionFormat.reader(open(n + ".exec.gz"))) {
                return r.header();
            } catch (IOException e) {
                throw new UncheckedIOException("ground-truth fixture " + n + ": " + e.getMessage(), e);
            }
        });
    }

    /** The architecture profile of the core that ran the fixture. */
    public static Profile profile(String name) {
        return header(name).profile();
    }

    /**
     * The core that ran the fixture: arm926ej-s, cortex-a9, cortex-a15, cortex-m3, cortex-m0plus,
     * cortex-a53, cortex-a57, cortex-m33, cortex-m55.
     */
    public static String core(String name) {
        return header(name).core();
    }

    /** The program image (ELF segments and symbols, including the $a/$t/$d mapping symbols). */
    public static ProgramImage image(String name) {
        return IMAGES.computeIfAbsent(name, n -> ElfImage.load(elfBytes(n), n + ".elf"));
    }

    /** The fixture's ELF file, decompressed. */
    public static byte[] elfBytes(String name) {
        try (InputStream in = new GZIPInputStream(open(name + ".elf.gz"))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("ground-truth fixture " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * The system property naming a directory of further fixtures (NAME.exec.gz and NAME.elf.gz pairs made
     * by tools/groundtruth from programs that are not in the repository): {@code mvn test
     * -Darmtrace.extraGroundTruth=DIR} runs every protocol's round trip on them too.
     */
    public static final String EXTRA_PROPERTY = "armtrace.extraGroundTruth";

    /** The fixtures of the {@link #EXTRA_PROPERTY} directory, or none when it is not set. */
    public static List<String> extraNames() {
        String dir = System.getProperty(EXTRA_PROPERTY);
        if (dir == null || dir.isBlank()) {
            return List.of();
        }
        java.nio.file.Path d = java.nio.file.Path.of(dir);
        try (var files = java.nio.file.Files.list(d)) {
            List<String> names = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".exec.gz")).sorted()
                    .map(f -> f.substring(0, f.length() - ".exec.gz".length()))
                    .filter(n -> java.nio.file.Files.isRegularFile(d.resolve(n + ".elf.gz")))
                    .filter(n -> !allNames().contains(n)).toList();
            if (names.isEmpty()) {
                // asked for, but not there: a run that means to test more programs must not pass on none
                throw new AssertionError(EXTRA_PROPERTY + "=" + dir + " holds no NAME.exec.gz with its NAME.elf.gz");
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(EXTRA_PROPERTY + "=" + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The fixtures an "extra ground truth" test runs: those of the {@link #EXTRA_PROPERTY} directory run by
     * a core of {@code profile} when the property is set, otherwise {@code inRepository}, fixtures of this
     * repository, so that the test runs in every clone instead of being skipped.
     */
    public static List<String> extraNamesOr(Profile profile, List<String> inRepository) {
        String dir = System.getProperty(EXTRA_PROPERTY);
        return dir == null || dir.isBlank() ? inRepository : extraNames(profile);
    }

    /** The extra fixtures run by a core of {@code profile}. */
    public static List<String> extraNames(Profile profile) {
        return extraNames().stream().filter(n -> profile(n) == profile).toList();
    }

    private static InputStream open(String file) throws IOException {
        String dir = System.getProperty(EXTRA_PROPERTY);
        if (dir != null && !dir.isBlank() && java.nio.file.Files.isRegularFile(java.nio.file.Path.of(dir, file))) {
            return java.nio.file.Files.newInputStream(java.nio.file.Path.of(dir, file));
        }
        InputStream in = Corpus.class.getResourceAsStream("/groundtruth/" + file);
        if (in == null) {
            throw new IOException("no test resource groundtruth/" + file
                    + " (known fixtures: " + String.join(", ", allNames()) + ")");
        }
        return in;
    }
}
