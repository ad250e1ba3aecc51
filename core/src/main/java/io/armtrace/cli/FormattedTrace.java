package io.armtrace.cli;

import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** One source taken out of a CoreSight formatted file given on the command line. */
final class FormattedTrace {
    private FormattedTrace() {
    }

    static TraceData of(Path file, int id) throws IOException {
        return io.armtrace.source.TraceInputs.rawSource(file, io.armtrace.source.TraceInputs.Framing.FORMATTED, id,
                new io.armtrace.source.Registers()).data();
    }

    /**
     * Deformats {@code file} chunk by chunk and writes the bytes of {@code id} to {@code out} as they come;
     * returns how many were written.
     */
    static long extract(Path file, int id, OutputStream out) throws IOException {
        long[] written = {0};
        IOException[] failed = {null};
        FrameDeformatter d = new FrameDeformatter((src, b, off, len) -> {
            if (src == id && failed[0] == null) {
                try {
                    out.write(b, off, len);
                    written[0] += len;
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
        }, looksLikePortCapture(file));
        byte[] chunk = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(chunk)) > 0 && failed[0] == null) {
                d.push(chunk, 0, n);
            }
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return written[0];
    }

    /** A port capture starts with (or contains early) a full-frame sync FF FF FF 7F; a memory buffer does not. */
    static boolean looksLikePortCapture(Path file) throws IOException {
        return io.armtrace.source.TraceInputs.looksLikePortCapture(file);
    }
}
