package io.armtrace.cli;

import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.TraceData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** One source taken out of a CoreSight formatted file given on the command line. */
final class FormattedTrace {
    private FormattedTrace() {
    }

    static TraceData of(Path file, int id) throws IOException {
        return TraceData.formatted(file, id, looksLikePortCapture(file));
    }

    /** Deformats {@code file} chunk by chunk and keeps the bytes of {@code id}. */
    static byte[] extract(Path file, int id) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FrameDeformatter d = new FrameDeformatter((src, b, off, len) -> {
            if (src == id) {
                out.write(b, off, len);
            }
        }, looksLikePortCapture(file));
        byte[] chunk = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(chunk)) > 0) {
                d.push(chunk, 0, n);
            }
        }
        return out.toByteArray();
    }

    /** A port capture starts with (or contains early) a full-frame sync FF FF FF 7F; a memory buffer does not. */
    static boolean looksLikePortCapture(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(64);
            for (int i = 0; i + 3 < head.length; i++) {
                if ((head[i] & 0xFF) == 0xFF && (head[i + 1] & 0xFF) == 0xFF && (head[i + 2] & 0xFF) == 0xFF
                        && head[i + 3] == 0x7F) {
                    return true;
                }
            }
            return false;
        }
    }
}
