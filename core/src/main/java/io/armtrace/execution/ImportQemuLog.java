package io.armtrace.execution;

import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Command-line import of a QEMU plugin log into an execution record, used by
 * tools/groundtruth/generate.sh:
 *
 * <pre>
 * ImportQemuLog --profile AR|M [--core NAME] [--image PROGRAM.elf] [--cpu-log LOG] -o OUT[.gz] PLUGIN_LOG
 * </pre>
 *
 * Prints the import's counts; exits 2 when a register log was given but some instruction had no
 * matching register record (the pass/fail flags would not all be facts).
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
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--profile" -> profile = Profile.valueOf(args[++i]);
                case "--core" -> core = args[++i];
                case "--image" -> image = Path.of(args[++i]);
                case "--cpu-log" -> cpuLog = Path.of(args[++i]);
                case "-o" -> out = Path.of(args[++i]);
                default -> log = Path.of(args[i]);
            }
        }
        if (profile == null || out == null || log == null) {
            System.err.println("usage: ImportQemuLog --profile AR|M [--core NAME] [--image ELF] [--cpu-log LOG] -o OUT PLUGIN_LOG");
            System.exit(1);
            return;
        }
        ProgramImage img = image == null ? null : ElfImage.load(image);
        OutputStream os = Files.newOutputStream(out);
        if (out.getFileName().toString().endsWith(".gz")) {
            os = new GZIPOutputStream(os, 1 << 16);
        }
        QemuPluginLog.Stats stats;
        try (ExecutionFormat.EventWriter w = ExecutionFormat.writer(os, new ExecutionFormat.Header(profile, core),
                "imported from a QEMU plugin log" + (cpuLog != null ? " with its register log" : ""))) {
            stats = QemuPluginLog.importLog(log, profile, img, cpuLog, w::write);
        }
        System.out.println(out.getFileName() + ": " + stats);
        if (cpuLog != null && stats.cpuUnmatched > 0) {
            System.exit(2);
        }
    }
}
