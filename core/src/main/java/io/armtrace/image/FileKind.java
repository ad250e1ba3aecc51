package io.armtrace.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What a path names, after symbolic links: armtrace reads its inputs (ELF images, memory dumps, snapshot
 * {@code .ini} files, trace buffers, execution logs) by size, offset and more than once, which only a
 * regular file allows. A named pipe blocks the reader until someone writes to it (for ever, when nobody
 * does), and a device such as {@code /dev/zero} never ends; both are refused before they are opened, in
 * words that say what the path is instead.
 */
public enum FileKind {
    REGULAR("a file", null),
    MISSING("nothing", "no such file"),
    DIRECTORY("a directory", "is a directory, not a file"),
    FIFO("a named pipe (FIFO)", "is a named pipe (FIFO), not a regular file"),
    DEVICE("a device", "is a device, not a regular file"),
    SOCKET("a socket", "is a socket, not a regular file"),
    OTHER("a special file", "is a special file, not a regular file");

    /** File type bits of st_mode (POSIX {@code <sys/stat.h>}): S_IFMT and the types armtrace tells apart. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFSOCK = 0140000;

    private final String noun;
    private final String refusal;

    FileKind(String noun, String refusal) {
        this.noun = noun;
        this.refusal = refusal;
    }

    /** What it is, to finish "is ...": "a directory", "a named pipe (FIFO)", "a device". */
    public String noun() {
        return noun;
    }

    /** What is wrong with a path where a regular file is expected: "no such file", "is a directory, ..."; null for a regular file. */
    public String refusal() {
        return refusal;
    }

    /** The kind of {@code file}, following symbolic links (a dangling link is {@link #MISSING}). */
    public static FileKind of(Path file) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            return MISSING;
        }
        if (a.isRegularFile()) {
            return REGULAR;
        }
        if (a.isDirectory()) {
            return DIRECTORY;
        }
        try {
            int type = ((Integer) Files.getAttribute(file, "unix:mode")) & S_IFMT;
            return switch (type) {
                case S_IFIFO -> FIFO;
                case S_IFCHR, S_IFBLK -> DEVICE;
                case S_IFSOCK -> SOCKET;
                default -> OTHER;
            };
        } catch (IOException | RuntimeException e) {
            return OTHER; // no POSIX file modes here: not a regular file, whatever it is
        }
    }

    /** {@code file} + ": " + what it is instead, when it is not a regular file; null when it is one. */
    public static String problem(Path file) {
        FileKind k = of(file);
        return k == REGULAR ? null : file + ": " + k.refusal;
    }

    /** True when a write to {@code file} goes to a reader at the other end (a named pipe or a socket). */
    public static boolean hasReader(Path file) {
        FileKind k = of(file);
        return k == FIFO || k == SOCKET;
    }

    /**
     * The whole of a regular file of at most {@code max} bytes, read with that bound (a file that grows while
     * it is read cannot make this take more); null when the file has more.
     */
    public static byte[] readAtMost(Path file, int max) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) > max) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(max);
            return in.read() < 0 ? bytes : null;
        }
    }
}
