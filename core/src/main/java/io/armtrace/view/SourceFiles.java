package io.armtrace.view;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where the source files that a program's line tables name are on this machine, so that an LCOV
 * tracefile names files genhtml can open, from any working directory: every path written is absolute.
 *
 * <p>A path the compiler recorded (joined to its compilation directory, {@code LineTable.compilationPath})
 * is first rewritten by the prefix map ({@code --source-map FROM=TO}, as GCC's -ffile-prefix-map: the
 * longest FROM that is a whole-component prefix); an absolute path is then taken as it is, a relative one
 * is looked for under the search roots in order ({@code --source-root DIR}, or else the working directory,
 * the capture's directory and the image files' directories, each with its parent directories: a program
 * built with {@code -ffile-prefix-map=ROOT=.} names its sources relative to its project's root, above
 * the capture). {@code --include}/{@code --exclude} patterns are matched as lcov matches them: shell
 * wildcards against the whole path, {@code *} also across '/'. A file that is excluded is left out; one
 * that cannot be found is left out and reported ({@link #missing}), since genhtml stops at the first
 * source file it cannot read.
 */
public final class SourceFiles {
    private final List<Path> roots;
    private final boolean recorded;
    private final Map<String, String> prefixMap;
    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final Map<String, String> resolved = new HashMap<>();
    private final Set<String> missing = new LinkedHashSet<>();

    /**
     * @param roots     directories relative paths are looked for under, in order
     * @param prefixMap path prefix rewrites (FROM to TO), applied before looking
     * @param include   lcov-style patterns a file must match one of (none: every file)
     * @param exclude   lcov-style patterns a file must match none of
     */
    public SourceFiles(List<Path> roots, Map<String, String> prefixMap, List<String> include, List<String> exclude) {
        this(roots, false, prefixMap, include, exclude);
    }

    private SourceFiles(List<Path> roots, boolean recorded, Map<String, String> prefixMap, List<String> include,
                        List<String> exclude) {
        this.roots = List.copyOf(roots);
        this.recorded = recorded;
        this.prefixMap = new LinkedHashMap<>(prefixMap);
        this.include = include.stream().map(SourceFiles::glob).toList();
        this.exclude = exclude.stream().map(SourceFiles::glob).toList();
    }

    /**
     * Paths as the compiler recorded them (joined to the compilation directory), rewritten by the prefix
     * map, none looked for and none left out but by the patterns: for tracefiles that are added up
     * elsewhere, away from the sources (the fleet job).
     */
    public static SourceFiles asRecorded(Map<String, String> prefixMap, List<String> include, List<String> exclude) {
        return new SourceFiles(List.of(), true, prefixMap, include, exclude);
    }

    /**
     * The path to write for a source file, absolute and normalized, or null to leave the file out
     * (excluded, or not found: then {@link #missing} has it).
     */
    public String resolve(String recorded) {
        return resolved.computeIfAbsent(recorded, this::find);
    }

    /** The recorded paths of the files that were not found, in the order they were asked for. */
    public Set<String> missing() {
        return missing;
    }

    private String find(String recordedPath) {
        String mapped;
        Path p;
        try {
            // lexically normalized first ("./src/a.c", "libgcc/../../x.S"), as a source tree is named
            mapped = mapPrefix(normalized(recordedPath));
            p = Path.of(mapped).normalize();
            mapped = p.toString().isEmpty() ? mapped : p.toString();
        } catch (InvalidPathException e) {
            return null; // not a file name on this system: nothing to open
        }
        if (recorded) {
            return selected(mapped) ? mapped : null;
        }
        List<Path> candidates = new ArrayList<>();
        if (p.isAbsolute()) {
            candidates.add(p);
        } else {
            for (Path root : roots) {
                candidates.add(root.resolve(p).toAbsolutePath().normalize());
            }
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                String path = c.toAbsolutePath().normalize().toString();
                return selected(path) ? path : null;
            }
        }
        String shown = candidates.isEmpty() ? mapped : candidates.get(0).toAbsolutePath().normalize().toString();
        if (selected(shown) || selected(mapped)) {
            missing.add(recordedPath);
        }
        return null;
    }

    private static String normalized(String path) {
        String n = Path.of(path).normalize().toString();
        return n.isEmpty() ? path : n;
    }

    private boolean selected(String path) {
        if (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(path).matches())) {
            return false;
        }
        return exclude.stream().noneMatch(p -> p.matcher(path).matches());
    }

    private String mapPrefix(String path) {
        String best = null;
        for (String from : prefixMap.keySet()) {
            String f = from.endsWith("/") && from.length() > 1 ? from.substring(0, from.length() - 1) : from;
            boolean whole = path.equals(f) || path.startsWith(f.endsWith("/") ? f : f + "/");
            if (whole && (best == null || f.length() > best.length())) {
                best = from;
            }
        }
        if (best == null) {
            return path;
        }
        String f = best.endsWith("/") && best.length() > 1 ? best.substring(0, best.length() - 1) : best;
        return prefixMap.get(best) + path.substring(f.length());
    }

    /** An lcov pattern as a regular expression: '*' any characters, '?' one, the rest literal. */
    static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '*' || c == '?') {
                if (!literal.isEmpty()) {
                    re.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                re.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            re.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
