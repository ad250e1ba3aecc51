package io.armtrace.source;

import io.armtrace.image.FileKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    /**
     * Reads a snapshot .ini file. It must be a regular file (a named pipe would block for ever, a device such
     * as /dev/zero never ends), and it is read with the {@link #MAX_SIZE} bound whatever it is.
     */
    public static IniFile read(Path file) {
        String problem = FileKind.problem(file);
        if (problem != null) {
            throw new InputException(shown(problem) + ".");
        }
        byte[] bytes;
        try {
            bytes = FileKind.readAtMost(file, (int) MAX_SIZE);
        } catch (NoSuchFileException e) {
            throw new InputException(shown(file.toString()) + ": no such file.");
        } catch (IOException e) {
            throw new InputException(shown(file.toString()) + ": cannot be read (" + shown(String.valueOf(e.getMessage())) + ").", e);
        }
        if (bytes == null) {
            throw new InputException(shown(file.toString()) + ": is too large for a snapshot .ini file (at most "
                    + MAX_SIZE + " bytes).");
        }
        return parse(file, new String(bytes, StandardCharsets.ISO_8859_1));
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
                    throw new InputException(where(file, i) + ": a section header has no closing ']' at its end.");
                }
                String name = line.substring(1, close).trim();
                if (name.isEmpty()) {
                    throw new InputException(where(file, i) + ": empty section name.");
                }
                current = new Section(name);
                sections.add(current);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                // the line itself is not repeated: the file may not be a snapshot file at all (a link to
                // someone's secrets), and its text is not ours to print
                throw new InputException(where(file, i) + ": expected a [section] header or a key=value line.");
            }
            if (current == null) {
                throw new InputException(where(file, i) + ": a key=value line comes before any [section].");
            }
            String key = line.substring(0, eq).trim();
            String value = line.substring(eq + 1).trim();
            current.put(key, value);
        }
        return new IniFile(file, List.copyOf(sections));
    }

    private static String where(Path file, int index) {
        return shown(String.valueOf(file)) + " line " + (index + 1);
    }

    /** The longest name from a file that a message repeats. */
    private static final int MAX_SHOWN = 120;

    /**
     * A name taken from a file or the command line (a key, a section, a path), as a message may show it: at most
     * {@link #MAX_SHOWN} characters, and printable ones only (a control character, a line or paragraph separator,
     * a bidirectional override or an unpaired surrogate becomes '?'), so that a message is one line that says
     * what it says.
     */
    public static String shown(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > MAX_SHOWN ? printable(s.substring(0, MAX_SHOWN)) + "..." : printable(s);
    }

    /**
     * How an error message quotes a value the user gave: at most 200 characters, with an ellipsis when cut,
     * characters that are not printable shown as '?'.
     */
    public static String shorten(String s) {
        if (s == null) {
            return "";
        }
        return printable(s.length() > 200 ? s.substring(0, 200) + "..." : s);
    }

    /** {@code s} with every character that is not printable (see {@link #shown}) replaced by '?'. */
    public static String printable(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            if (!printable(s, i)) {
                if (b == null) {
                    b = new StringBuilder(s.length()).append(s, 0, i);
                }
                b.append('?');
            } else if (b != null) {
                b.append(s.charAt(i));
            }
        }
        return b == null ? s : b.toString();
    }

    private static boolean printable(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.PRIVATE_USE, Character.UNASSIGNED -> false;
            default -> true;
        };
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
     * decimal; an optional {@code u}/{@code l} suffix is accepted. Values up to 64 bits (unsigned), ASCII digits
     * only (Java's own parsers also take other scripts' digits, such as full-width ones, which no C compiler or
     * snapshot writer does) and no sign: register values, addresses, offsets and lengths are never negative.
     * Throws {@link NumberFormatException} if it is not one.
     */
    public static long parseNumber(String text) {
        String t = text.trim();
        int end = t.length();
        while (end > 0 && "uUlL".indexOf(t.charAt(end - 1)) >= 0) {
            end--;
        }
        int radix = 10;
        int start = 0;
        if (end > 2 && t.charAt(0) == '0' && (t.charAt(1) == 'x' || t.charAt(1) == 'X')) {
            radix = 16;
            start = 2;
        } else if (end > 1 && t.charAt(0) == '0') {
            radix = 8;
            start = 1;
        }
        if (start >= end) {
            throw new NumberFormatException("not a number");
        }
        long limit = Long.divideUnsigned(-1L, radix);
        long v = 0;
        for (int i = start; i < end; i++) {
            int d = asciiDigit(t.charAt(i), radix);
            if (d < 0) {
                throw new NumberFormatException(t.charAt(0) == '-' ? "negative" : "not a number");
            }
            if (Long.compareUnsigned(v, limit) > 0) {
                throw new NumberFormatException("more than 64 bits");
            }
            long next = v * radix + d;
            if (Long.compareUnsigned(next, v * radix) < 0) {
                throw new NumberFormatException("more than 64 bits");
            }
            v = next;
        }
        return v;
    }

    /** The value of an ASCII digit of {@code radix} (0-9, a-f, A-F), or -1. */
    static int asciiDigit(char c, int radix) {
        int d;
        if (c >= '0' && c <= '9') {
            d = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            d = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
            d = c - 'A' + 10;
        } else {
            return -1;
        }
        return d < radix ? d : -1;
    }

    /** True when {@code text} starts with a minus sign (after blanks): a negative number, which no value here is. */
    public static boolean negative(String text) {
        return text.trim().startsWith("-");
    }

    /** {@link #parseNumber} with an error that names the file, section and key (the value is not repeated). */
    public long number(String section, String key, String value) {
        try {
            return parseNumber(value);
        } catch (NumberFormatException e) {
            throw new InputException(shown(String.valueOf(file)) + ": [" + shown(section) + "] " + shown(key)
                    + (negative(value) ? " is negative; it must be 0 or more." : " is not a number (C notation: 123, 0x7b or 0173)."));
        }
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
