package io.armtrace.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a file that was given where a snapshot directory belongs is, so that the message names it rather
 * than suggesting a reading that cannot work. One place reads the magic numbers.
 */
public final class InputKind {
    /**
     * The first eight bytes of a perf.data recording (Linux perf and Android simpleperf): the header's
     * magic "PERFILE2" (tools/perf/Documentation/perf.data-file-format.txt, "The file starts with a
     * perf_header").
     */
    private static final byte[] PERF_MAGIC = {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2'};

    private InputKind() {
    }

    /** True when {@code file} starts with the perf.data header's magic. */
    public static boolean isPerfRecording(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(PERF_MAGIC.length);
            return java.util.Arrays.equals(head, PERF_MAGIC);
        } catch (IOException e) {
            return false; // unreadable: the caller's own message says so
        }
    }

    /** The sentence for a regular file given where a snapshot directory belongs. */
    public static String notASnapshot(Path file) {
        if (isPerfRecording(file)) {
            return file + ": is a perf.data recording (PERFILE2 header), not a snapshot directory.";
        }
        return file + ": is a file, not a snapshot directory; for a raw trace file use --trace " + file
                + " --protocol NAME.";
    }
}
