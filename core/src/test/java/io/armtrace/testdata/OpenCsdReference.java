package io.armtrace.testdata;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The outputs of OpenCSD's trc_pkt_lister that tools/opencsd-check/swtrace.sh stores (and checks, where
 * Debian's libopencsd-bin is installed, that trc_pkt_lister still prints). A missing file fails the test.
 */
public final class OpenCsdReference {
    private OpenCsdReference() {
    }

    /** {@code tools/opencsd-check/swtrace/NAME}. */
    public static Path swtrace(String name) {
        Path p = Path.of(System.getProperty("user.dir")).resolve("tools/opencsd-check/swtrace").resolve(name).normalize();
        if (!Files.isRegularFile(p)) {
            throw new AssertionError("OpenCSD reference missing: " + p + " (tools/opencsd-check/swtrace.sh --update makes it)");
        }
        return p;
    }

    /** The lines of a stored output, gunzipped when its name ends in .gz. */
    public static List<String> lines(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            String text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            List<String> out = new ArrayList<>();
            for (String l : text.split("\n", -1)) {
                out.add(l);
            }
            return out;
        }
    }

    /**
     * The bytes of trace ID {@code id} in a {@code -o_raw_unpacked} listing: the "Frame Data; ... ID_DATA[0xID];"
     * lines, in order.
     */
    public static byte[] rawUnpacked(List<String> lines, int id) {
        String tag = String.format("ID_DATA[0x%02x];", id);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (String l : lines) {
            int at = l.indexOf(tag);
            if (!l.startsWith("Frame Data;") || at < 0) {
                continue;
            }
            for (String b : l.substring(at + tag.length()).trim().split("\\s+")) {
                if (!b.isEmpty()) {
                    out.write(Integer.parseInt(b, 16));
                }
            }
        }
        return out.toByteArray();
    }
}
