package io.armtrace.execution;

import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Command-line import of a QEMU plugin log into an execution record, used by
 * tools/groundtruth/generate.sh:
 *
 * <pre>
 * ImportQemuLog --profile AR|M [--core NAME] [--el N] [--security secure|non-secure] [--image PROGRAM.elf]
 *     [--cpu-log LOG] -o OUT[.gz] PLUGIN_LOG
 * </pre>
 *
 * {@code --el} and {@code --security} state the exception level of the first instruction and the
 * security state of the core (the record becomes version 2, docs/execution-format.md). Prints the
 * import's counts; exits 2 when a register log was given but some instruction had no matching
 * register record (the pass/fail flags would not all be facts), or when the register log contradicts
 * the exception levels or the security state of the record.
 */
public final class ImportQemuLog {
    private ImportQemuLog() {
    }

    public static void main(String[] args) throws IOException {
        Profile profile = null;
        String core = "unknown";
        Path image = null;
        Path cpuLog = null;
        Path out = null;
        Path log = null;
        int el = ExecutionEvent.ExceptionTaken.UNKNOWN;
        ExecutionFormat.Security security = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--profile" -> profile = Profile.valueOf(args[++i]);
                case "--core" -> core = args[++i];
                case "--el" -> el = Integer.parseInt(args[++i]);
                case "--security" -> {
                    String v = args[++i];
                    security = v.equals("secure") ? ExecutionFormat.Security.SECURE
                            : v.equals("non-secure") ? ExecutionFormat.Security.NON_SECURE : null;
                    if (security == null) {
                        System.err.println("--security must be secure or non-secure, not '" + v + "'");
                        System.exit(1);
                        return;
                    }
                }
                case "--image" -> image = Path.of(args[++i]);
                case "--cpu-log" -> cpuLog = Path.of(args[++i]);
                case "-o" -> out = Path.of(args[++i]);
                default -> log = Path.of(args[i]);
            }
        }
        if (profile == null || out == null || log == null) {
            System.err.println("usage: ImportQemuLog --profile AR|M [--core NAME] [--el N] [--security secure|non-secure]"
                    + " [--image ELF] [--cpu-log LOG] -o OUT PLUGIN_LOG");
            System.exit(1);
            return;
        }
        ProgramImage img = image == null ? null : ElfImage.load(image);
        OutputStream os = Files.newOutputStream(out);
        if (out.getFileName().toString().endsWith(".gz")) {
            os = new GZIPOutputStream(os, 1 << 16);
        }
        QemuPluginLog.Stats stats;
        ExecutionFormat.Header header = new ExecutionFormat.Header(profile, core, el, security);
        try (ExecutionFormat.EventWriter w = ExecutionFormat.writer(os, header,
                "imported from a QEMU plugin log" + (cpuLog != null ? " with its register log" : ""));
                InputStream p = Files.newInputStream(log);
                InputStream c = cpuLog == null ? null : Files.newInputStream(cpuLog)) {
            stats = QemuPluginLog.importLog(p, header, img, c, w::write);
        }
        System.out.println(out.getFileName() + ": " + stats);
        if (!stats.consistent(cpuLog != null)) {
            System.exit(2);
        }
    }
}
