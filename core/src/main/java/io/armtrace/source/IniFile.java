package io.armtrace.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The .ini dialect of DS-5/OpenCSD snapshots: {@code [section]} headers, {@code key=value} lines,
 * {@code ;} and {@code #} start a comment anywhere on a line, blank lines ignored. Section names are
 * matched case-insensitively; keys keep their spelling but are looked up case-insensitively; a key
 * given twice in a section keeps its last value.
 */
public final class IniFile {
    /**
     * One section: its name as written and its keys in order. Keys are indexed by their lower-case
     * spelling, so that reading a file and looking keys up take time linear in its size.
     */
    public static final class Section {
        private final String name;
        private final Map<String, String> entries = new LinkedHashMap<>();
        private final Map<String, String> spelling = new HashMap<>();

        Section(String name) {
            this.name = name;
        }

        public String name() {
            return name;
        }

        /** The keys as first written, in order, with their last values. */
        public Map<String, String> entries() {
            return Collections.unmodifiableMap(entries);
        }

        public String get(String key) {
            String k = spelling.get(lower(key));
            return k == null ? null : entries.get(k);
        }

        /** A key given twice keeps its last value, at the first position. */
        void put(String key, String value) {
            String k = spelling.putIfAbsent(lower(key), key);
            entries.put(k != null ? k : key, value);
        }
    }

    /** Snapshot .ini files are a few kilobytes; a larger one is not one, and reading it would take the heap. */
    static final long MAX_SIZE = 8 << 20;

    private final Path file;
    private final List<Section> sections;
    private final Map<String, Section> byName = new HashMap<>();

    private IniFile(Path file, List<Section> sections) {
        this.file = file;
        this.sections = sections;
        for (Section s : sections) {
            byName.putIfAbsent(lower(s.name()), s);
        }
    }

    public Path file() {
        return file;
    }

    public List<Section> sections() {
        return sections;
    }

    /** The first section called {@code name}, or null. */
    public Section section(String name) {
        return byName.get(lower(name));
    }

    /** The value of {@code key} in section {@code section}, or null. */
    public String get(String section, String key) {
        Section s = section(section);
        return s == null ? null : s.get(key);
    }

    public static IniFile read(Path file) {
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_SIZE) {
                throw new InputException(file + ": " + size + " bytes is too large for a snapshot .ini file (at most "
                        + MAX_SIZE + ").");
            }
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new InputException(file + ": no such file.");
        } catch (IOException e) {
            throw new InputException(file + ": cannot be read (" + e.getMessage() + ").", e);
        }
        return parse(file, text);
    }

    public static IniFile parse(Path file, String text) {
        List<Section> sections = new ArrayList<>();
        Section current = null;
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]).trim();
            if (line.isEmpty()) {
                continue;
            }
            if (line.charAt(0) == '[') {
                int close = line.indexOf(']');
                if (close < 0 || close != line.length() - 1) {
                    throw new InputException(file + " line " + (i + 1) + ": section header '" + line
                            + "' has no closing ']'.");
                }
                String name = line.substring(1, close).trim();
                if (name.isEmpty()) {
                    throw new InputException(file + " line " + (i + 1) + ": empty section name.");
                }
                current = new Section(name);
                sections.add(current);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new InputException(file + " line " + (i + 1) + ": expected 'key=value', found '" + line + "'.");
            }
            if (current == null) {
                throw new InputException(file + " line " + (i + 1) + ": '" + line + "' comes before any [section].");
            }
            String key = line.substring(0, eq).trim();
            String value = line.substring(eq + 1).trim();
            current.put(key, value);
        }
        return new IniFile(file, List.copyOf(sections));
    }

    private static String stripComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ';' || c == '#') {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /**
     * Parses a C integer literal: {@code 0x}/{@code 0X} hexadecimal, a leading {@code 0} octal, otherwise
     * decimal; an optional {@code u}/{@code l} suffix is accepted. Values up to 64 bits (unsigned).
     * Throws {@link NumberFormatException} with the text if it is not one.
     */
    public static long parseNumber(String text) {
        String t = text.trim();
        while (!t.isEmpty() && "uUlL".indexOf(t.charAt(t.length() - 1)) >= 0) {
            t = t.substring(0, t.length() - 1);
        }
        boolean negative = t.startsWith("-");
        if (negative) {
            t = t.substring(1);
        }
        long v;
        if (t.length() > 2 && (t.startsWith("0x") || t.startsWith("0X"))) {
            v = Long.parseUnsignedLong(t.substring(2), 16);
        } else if (t.length() > 1 && t.charAt(0) == '0') {
            v = Long.parseUnsignedLong(t.substring(1), 8);
        } else if (!t.isEmpty() && Character.isDigit(t.charAt(0))) {
            v = Long.parseUnsignedLong(t, 10);
        } else {
            throw new NumberFormatException("'" + text + "' is not a number");
        }
        return negative ? -v : v;
    }

    /** {@link #parseNumber} with an error that names the file, section and key. */
    public long number(String section, String key, String value) {
        try {
            return parseNumber(value);
        } catch (NumberFormatException e) {
            throw new InputException(file + ": [" + section + "] " + key + "=" + value + " is not a number.");
        }
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
