package io.armtrace.protocol.etm4;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tukaani.xz.XZInputStream;

/**
 * The packet lines of an OpenCSD {@code trc_pkt_lister} listing ({@code .ppl}, or {@code .ppl.xz}):
 * {@code Idx:N; ID:hh; [0x.. 0x.. ]; NAME : description}, grouped by trace ID. Lines of decoded elements
 * (OCSD_GEN_TRC_ELEM_...) are not packets and are left out. An error message that OpenCSD printed without
 * a newline can precede a packet on the same line; the packet is still found.
 */
final class OpenCsdListing {
    /** One packet line: buffer index, raw bytes, OpenCSD's packet name and the text after "NAME : ". */
    record Line(long idx, byte[] bytes, String name, String text) {
    }

    static Map<Integer, List<Line>> read(Path file) throws IOException {
        Map<Integer, List<Line>> byId = new HashMap<>();
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".xz") ? new XZInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1), 1 << 16)) {
            String s;
            while ((s = r.readLine()) != null) {
                Line l = parse(s);
                if (l != null) {
                    byId.computeIfAbsent(id(s), k -> new ArrayList<>()).add(l);
                }
            }
        }
        return byId;
    }

    private static int id(String s) {
        int at = s.lastIndexOf("Idx:");
        int i = s.indexOf("ID:", at + 4);
        int e = s.indexOf(';', i);
        return Integer.parseInt(s.substring(i + 3, e).trim(), 16);
    }

    /** A packet line, or null for anything else. */
    static Line parse(String s) {
        int at = s.lastIndexOf("Idx:");
        if (at < 0) {
            return null;
        }
        int open = s.indexOf("; [", at);
        if (open < 0 || s.indexOf("OCSD_GEN_TRC_ELEM", at) >= 0) {
            return null;
        }
        int close = s.indexOf(']', open);
        long idx = Long.parseLong(s.substring(at + 4, s.indexOf(';', at)).trim());
        String[] hex = s.substring(open + 3, close).trim().split(" ");
        byte[] bytes = new byte[hex.length];
        for (int i = 0; i < hex.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex[i].substring(2), 16);
        }
        String rest = s.substring(close + 2).trim();
        int colon = rest.indexOf(" : ");
        String name = colon < 0 ? rest : rest.substring(0, colon);
        String text = colon < 0 ? "" : rest.substring(colon + 3);
        return new Line(idx, bytes, name.trim(), text);
    }
}
