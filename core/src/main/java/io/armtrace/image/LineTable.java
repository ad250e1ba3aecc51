package io.armtrace.image;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Source lines of a program: address to file and line, from the DWARF line-number programs of an ELF
 * file's {@code .debug_line} section (see {@link DwarfLineReader}). The section is read on first use,
 * so loading an ELF file for decoding alone costs nothing.
 *
 * <p>An address belongs to the last row of its sequence at or below it, as long as a later row of the
 * same sequence lies above it (the row's address range, DWARF 4 section 6.2.2); where several rows
 * share an address, the last one describes it (as binutils' addr2line does).
 */
public final class LineTable {
    public static final LineTable EMPTY = new LineTable(() -> null, "");

    /** A row of the line-number matrix as the line program produced it. */
    public record Row(long address, String file, int line, int column, boolean isStmt, boolean endSequence) {
    }

    /** A source position: the file's path as the compiler recorded it, and the line. */
    public record Location(String file, int line) {
        /** The last component of the path. */
        public String fileName() {
            int s = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
            return s < 0 ? file : file.substring(s + 1);
        }

        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    private final Supplier<DwarfLineReader> source;
    private final String name;
    private volatile Index index;
    /** DW_AT_comp_dir by line program offset, read from .debug_info when first asked for; empty without it. */
    private final Supplier<Map<Long, String>> compDirs;
    private volatile Map<String, String> compilationPaths;

    private static final class Index {
        final DwarfLineReader reader;
        final String problem;
        final long[] start;
        final long[] end;
        final int[] file;
        final int[] line;
        final Location[] locations;

        Index(DwarfLineReader reader, String problem) {
            this.reader = reader;
            this.problem = problem;
            List<DwarfLineReader.Row> rows = reader == null ? List.of() : reader.rows;
            // address ranges [row, next row of the same sequence), empty ones dropped
            // Sequences of functions the linker discarded (--gc-sections) are left at address 0; where
            // one overlaps code of a sequence that starts elsewhere, the discarded one is dropped.
            List<long[]> ranges = new ArrayList<>();
            List<long[]> atZero = new ArrayList<>();
            boolean sequenceAtZero = true;
            for (int i = 0; i + 1 < rows.size(); i++) {
                DwarfLineReader.Row r = rows.get(i);
                DwarfLineReader.Row n = rows.get(i + 1);
                if (i == 0 || rows.get(i - 1).endSequence()) {
                    sequenceAtZero = r.address() == 0;
                }
                if (r.endSequence() || n.address() <= r.address()) {
                    continue;
                }
                (sequenceAtZero ? atZero : ranges).add(new long[] {r.address(), n.address(), r.file(), r.line()});
            }
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            if (!atZero.isEmpty()) {
                long[] starts = ranges.stream().mapToLong(a -> a[0]).toArray();
                for (long[] z : atZero) {
                    int j = Arrays.binarySearch(starts, z[1]);
                    j = j < 0 ? -j - 2 : j - 1; // last range starting before z's end
                    boolean overlaps = j >= 0 && ranges.get(j)[1] > z[0];
                    if (!overlaps) {
                        ranges.add(z);
                    }
                }
                ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            }
            int k = ranges.size();
            start = new long[k];
            end = new long[k];
            file = new int[k];
            line = new int[k];
            for (int i = 0; i < k; i++) {
                long[] r = ranges.get(i);
                start[i] = r[0];
                end[i] = r[1];
                file[i] = (int) r[2];
                line[i] = (int) r[3];
            }
            locations = new Location[k];
        }
    }

    private LineTable(Supplier<DwarfLineReader> source, String name) {
        this(source, name, Map::of);
    }

    private LineTable(Supplier<DwarfLineReader> source, String name, Supplier<Map<Long, String>> compDirs) {
        this.source = source;
        this.name = name;
        this.compDirs = compDirs;
    }

    /**
     * A table over an ELF file's sections; {@code debugLineStr} and {@code debugStr} may be null (they
     * hold the strings of DWARF 5 headers). Damaged sections give an empty table and a {@link #problem()}.
     */
    public static LineTable of(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, String name) {
        if (debugLine == null) {
            return EMPTY;
        }
        return new LineTable(() -> DwarfLineReader.read(debugLine, debugLineStr, debugStr, 4, name), name);
    }

    /**
     * A table whose sections are read when first asked for; {@code addressSize} (4 or 8) is the target's,
     * which DWARF 2-4 line programs do not record. The string suppliers may be null.
     */
    static LineTable of(Supplier<byte[]> debugLine, Supplier<byte[]> debugLineStr, Supplier<byte[]> debugStr,
                        int addressSize, String name) {
        return of(debugLine, debugLineStr, debugStr, null, null, addressSize, name);
    }

    /**
     * As above, with {@code .debug_info} and {@code .debug_abbrev} (either may be null), which give each
     * unit's compilation directory for {@link #compilationPath}.
     */
    static LineTable of(Supplier<byte[]> debugLine, Supplier<byte[]> debugLineStr, Supplier<byte[]> debugStr,
                        Supplier<byte[]> debugInfo, Supplier<byte[]> debugAbbrev, int addressSize, String name) {
        Supplier<Map<Long, String>> dirs = debugInfo == null || debugAbbrev == null ? Map::of : () -> {
            try {
                return DwarfUnits.read(debugInfo.get(), debugAbbrev.get(), debugStr == null ? null : debugStr.get(),
                        debugLineStr == null ? null : debugLineStr.get(), name).compDirs;
            } catch (RuntimeException e) { // ImageException and the readers' bounds
                return Map.of(); // without the directories, paths stay as the line table has them
            }
        };
        return new LineTable(() -> DwarfLineReader.read(debugLine.get(), debugLineStr == null ? null : debugLineStr.get(),
                debugStr == null ? null : debugStr.get(), addressSize, name), name, dirs);
    }

    /**
     * The path of a source file as the compiler meant it: a file name of a DWARF 2-4 line program that is
     * relative is relative to its unit's compilation directory (DW_AT_comp_dir; DWARF 4 section 6.2.4),
     * which is put in front; absolute names, DWARF 5 names (their directory 0 is the compilation
     * directory already) and names whose unit has no known directory are returned as they are. The
     * result may still be relative, when the compiler recorded a relative compilation directory ("."
     * under -ffile-prefix-map).
     */
    public String compilationPath(String file) {
        Map<String, String> paths = compilationPaths;
        if (paths == null) {
            Index x = index();
            Map<Long, String> dirs = compDirs.get();
            Map<String, String> p = new java.util.HashMap<>();
            if (x.reader != null) {
                for (int i = 0; i < x.reader.files.size(); i++) {
                    String f = x.reader.files.get(i);
                    long unit = x.reader.fileUnits.get(i);
                    String dir = unit < 0 ? null : dirs.get(unit);
                    String joined = dir == null || f.startsWith("/") || dir.isEmpty() ? f
                            : dir.endsWith("/") ? dir + f : dir + "/" + f;
                    p.putIfAbsent(f, joined);
                }
            }
            compilationPaths = paths = p;
        }
        return paths.getOrDefault(file, file);
    }

    private Index index() {
        Index i = index;
        if (i == null) {
            synchronized (this) {
                i = index;
                if (i == null) {
                    DwarfLineReader r = null;
                    String problem = null;
                    try {
                        r = source.get();
                    } catch (ImageException e) {
                        problem = e.getMessage().startsWith(name) ? e.getMessage() : name + ": " + e.getMessage();
                    } catch (RuntimeException e) {
                        problem = name + ": damaged .debug_line section (" + e + ").";
                    }
                    i = new Index(r, problem);
                    index = i;
                }
            }
        }
        return i;
    }

    /** True when the table has no lines (no .debug_line, or it could not be read). */
    public boolean isEmpty() {
        return index().start.length == 0;
    }

    /** Why the line table could not be read, or null. */
    public String problem() {
        return index().problem;
    }

    /**
     * The source position of {@code address}, or null when no line program covers it or its row has line 0:
     * instructions that "cannot be attributed to any source line" (DWARF 5 6.2.5.1; clang emits such rows, gcc
     * seldom does), which addr2line prints as {@code FILE:?}.
     */
    public Location lookup(long address) {
        Index x = index();
        int i = Arrays.binarySearch(x.start, address);
        if (i < 0) {
            i = -i - 2;
        } else {
            while (i + 1 < x.start.length && x.start[i + 1] == address) {
                i++; // overlapping sequences: the last-sorted one starting here
            }
        }
        if (i < 0 || address >= x.end[i] || x.line[i] == 0) {
            return null;
        }
        Location l = x.locations[i];
        if (l == null) {
            int f = x.file[i];
            String path = f >= 0 && f < x.reader.files.size() ? x.reader.files.get(f) : "?";
            l = new Location(path, x.line[i]);
            x.locations[i] = l;
        }
        return l;
    }

    /**
     * The stretch of addresses around {@code address} that {@link #lookup} answers alike: from {@code start}
     * (inclusive) to {@code end} (exclusive) every address has {@code location} (null where no line program
     * covers them). Lets a caller that walks addresses in order look up a table row once per row.
     */
    public record Span(long start, long end, Location location) {
        public boolean contains(long address) {
            return address >= start && address < end;
        }
    }

    /** The {@link Span} that holds {@code address}. */
    public Span span(long address) {
        Index x = index();
        int n = x.start.length;
        int i = Arrays.binarySearch(x.start, address);
        if (i < 0) {
            i = -i - 2;
        } else {
            while (i + 1 < n && x.start[i + 1] == address) {
                i++;
            }
        }
        // i is the last row starting at or below the address, for every address up to the next row's start
        long nextStart = i + 1 < n ? x.start[i + 1] : Long.MAX_VALUE;
        if (i < 0) {
            return new Span(address, nextStart, null);
        }
        if (address >= x.end[i]) {
            return new Span(address, nextStart, null);
        }
        return new Span(x.start[i], Math.min(x.end[i], nextStart), lookup(address));
    }

    /** Every row of every line program, in the order the programs produced them. */
    public List<Row> rows() {
        Index x = index();
        if (x.reader == null) {
            return List.of();
        }
        List<Row> out = new ArrayList<>(x.reader.rows.size());
        for (DwarfLineReader.Row r : x.reader.rows) {
            String f = r.file() >= 0 && r.file() < x.reader.files.size() ? x.reader.files.get(r.file()) : "?";
            out.add(new Row(r.address(), f, r.line(), r.column(), r.isStmt(), r.endSequence()));
        }
        return out;
    }
}
