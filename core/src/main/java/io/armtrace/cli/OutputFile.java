package io.armtrace.cli;

import io.armtrace.image.FileKind;
import io.armtrace.source.InputException;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One output of a command, written so that lost output never looks like success: a file is written to a
 * temporary file beside it and renamed into place only by {@link #commit()}, after every write has been
 * checked, so a run that fails or is interrupted leaves an existing file untouched and never a half-written
 * line. A symbolic link is followed to the file it names, and that file is replaced (the link stays a link).
 * A target that is not a regular file (a device such as {@code /dev/null}, a named pipe, or a descriptor the
 * caller opened: {@code /dev/stdout}, {@code /dev/fd/N}, {@code /proc/self/fd/N}) is written directly, as there
 * is nothing to rename over. Standard output (no file) is written through.
 *
 * <p>The first write that fails ends the command: it is thrown as an {@link java.io.UncheckedIOException} around
 * an {@link OutputFailure} (which {@link java.io.PrintWriter} does not swallow), so a decode whose reader has
 * gone does not go on for minutes. When the output was a pipe or socket whose reader went away (EPIPE), the
 * failure says so ({@link OutputFailure#readerGone()}) and the command ends quietly with exit code 141, as a
 * shell reports a program killed by SIGPIPE; any other failure (a full disk) is one sentence and exit code 1.
 *
 * <p>Closing without {@link #commit()} discards the temporary file. Temporary files are also deleted when
 * the JVM is stopped by SIGINT or SIGTERM (a shutdown hook).
 */
final class OutputFile implements Closeable {
    /** Temporary files to delete if the JVM stops before they are renamed or removed. */
    private static final Set<Path> TEMPORARY = ConcurrentHashMap.newKeySet();
    /**
     * Directories that {@link #writeDirectory} moved aside, with the path they were moved from: if the JVM stops
     * before the new directory is in place, the old one is moved back.
     */
    private static final Map<Path, Path> ASIDE = new ConcurrentHashMap<>();
    private static volatile boolean hookInstalled;
    /** Symbolic links followed at most, as the kernel's own limit (Linux MAXSYMLINKS, 40). */
    private static final int MAX_LINKS = 40;
    /** The longest file name in bytes (NAME_MAX of Linux and the BSDs' file systems). */
    static final int NAME_MAX = 255;
    /** Exit code of a command whose reader went away: 128 + SIGPIPE (13), what a shell shows for a program SIGPIPE killed. */
    static final int EXIT_READER_GONE = 141;

    /** The output as the user named it (for messages); null for standard output. */
    private final Path target;
    /** The file the temporary file is renamed to: {@code target} after its symbolic links. */
    private final Path file;
    private final Path temporary;
    private final OutputStream stream;
    private final CheckedStream checked;
    private final PrintWriter writer;
    private final PrintWriter stdout;
    private boolean committed;

    private OutputFile(Path target, Path file, Path temporary, OutputStream raw, boolean toReader, PrintWriter stdout) {
        this.target = target;
        this.file = file;
        this.temporary = temporary;
        this.stdout = stdout;
        if (raw != null) {
            this.checked = new CheckedStream(raw, toReader);
            this.stream = checked;
            // encodes straight into a byte buffer of EncodingWriter.OUTPUT_BUFFER bytes (a listing is nearly all ASCII:
            // one byte store per character)
            this.writer = new ByteWriter(new io.armtrace.view.EncodingWriter(checked, StandardCharsets.UTF_8,
                    io.armtrace.view.EncodingWriter.OUTPUT_BUFFER),
                    false, checked, StandardCharsets.UTF_8);
        } else {
            this.checked = null;
            this.stream = null;
            // standard output buffers itself (Main.standardOutput, EncodingWriter.OUTPUT_BUFFER bytes); listings make
            // their lines in place in that buffer, through a writer that closing only flushes (ByteWriter.keepingOpen)
            if (stdout instanceof ByteWriter b) {
                ByteWriter direct = ByteWriter.keepingOpen(b);
                this.writer = direct != null ? direct : new ByteWriter(new NonClosing(stdout), false, b.stream(), b.charset());
            } else {
                this.writer = new PrintWriter(new NonClosing(stdout), false);
            }
        }
    }

    /** Standard output, checked for write errors at {@link #commit()}. */
    static OutputFile stdout(PrintWriter stdout) {
        return new OutputFile(null, null, null, null, false, stdout);
    }

    /**
     * {@code target}, or standard output when {@code target} is null. {@code inputs} are the command's own
     * input files: naming one of them as the output (by any path, link or hard link) is refused.
     */
    static OutputFile open(Path target, PrintWriter stdout, Collection<Path> inputs, String option) throws IOException {
        if (target == null) {
            return stdout(stdout);
        }
        Resolved where = resolve(target, option);
        refuseInput(target, inputs, option);
        FileKind kind = FileKind.of(where.path());
        if (kind == FileKind.DIRECTORY) {
            throw new InputException(option + " " + Messages.shorten(target.toString()) + ": is a directory, not a file.");
        }
        if (where.descriptor() || (kind != FileKind.REGULAR && kind != FileKind.MISSING)) {
            // a device, a pipe, or a descriptor the caller opened (its file, if it is one, was opened by the
            // shell as the caller wanted it: appended to, not replaced behind its back)
            OutputStream direct;
            try {
                direct = where.descriptor()
                        ? Files.newOutputStream(where.path(), StandardOpenOption.WRITE, StandardOpenOption.APPEND)
                        : Files.newOutputStream(where.path(), StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new OutputFailure(Messages.shorten(target.toString()) + ": cannot be written ("
                        + Messages.reason(e) + ").", e);
            }
            return new OutputFile(target, where.path(), null, direct, FileKind.hasReader(where.path()), null);
        }
        Path file = where.path();
        Path dir = file.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new InputException(option + " " + Messages.shorten(target.toString())
                    + ": its directory does not exist.");
        }
        installHook();
        Path temp = null;
        OutputStream out = null;
        try {
            for (int attempt = 0; out == null; attempt++) {
                temp = dir.resolve(temporaryName(file.getFileName().toString(), ".part"));
                TEMPORARY.add(temp);
                try {
                    // created like any new file (the umask applies), not with createTempFile's owner-only permissions
                    out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    TEMPORARY.remove(temp);
                    if (attempt == 10) {
                        throw e;
                    }
                }
            }
            if (kind == FileKind.REGULAR) {
                try {
                    Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(file));
                } catch (UnsupportedOperationException | IOException e) {
                    // not a POSIX file system: the new file keeps the default permissions
                }
            }
        } catch (IOException e) {
            if (out != null) {
                out.close();
            }
            if (temp != null) {
                discard(temp);
            }
            throw new OutputFailure(Messages.shorten(target.toString()) + ": cannot be written ("
                    + Messages.reason(e) + ").", e);
        }
        return new OutputFile(target, file, temp, out, false, null);
    }

    /**
     * True when writing {@code target} replaces an existing regular file (after its links); false for a new file,
     * a device, a pipe or a descriptor such as /dev/stdout, which are written to, not replaced.
     */
    static boolean replacesAFile(Path target) {
        Resolved where = resolve(target, "-o");
        return !where.descriptor() && FileKind.of(where.path()) == FileKind.REGULAR;
    }

    /** A path after its symbolic links; {@code descriptor} when it is an open file descriptor's entry in /proc. */
    record Resolved(Path path, boolean descriptor) {
    }

    /**
     * Follows the symbolic links of {@code target} one by one, as the kernel would, to the file they name (which
     * need not exist: a dangling link names the file to create). It stops at a link that is an entry of a
     * process's descriptor table ({@code /proc/PID/fd/N}, which {@code /dev/stdout} and {@code /dev/fd/N} point to):
     * such a link names an open file, not a path, and must be opened as it is.
     */
    static Resolved resolve(Path target, String option) {
        Path cur = target.toAbsolutePath();
        for (int hops = 0; hops <= MAX_LINKS; hops++) {
            if (!Files.isSymbolicLink(cur)) {
                return new Resolved(cur, false);
            }
            Path parent = cur.getParent();
            if (isDescriptorTable(parent)) {
                return new Resolved(cur, true);
            }
            Path link;
            try {
                link = Files.readSymbolicLink(cur);
            } catch (IOException e) {
                return new Resolved(cur, false);
            }
            // a relative link is relative to the directory that holds it; the kernel resolves parent's own links
            cur = parent.resolve(link);
        }
        throw new InputException(option + " " + Messages.shorten(target.toString()) + ": too many levels of symbolic links.");
    }

    /** True for /proc/PID/fd and /proc/PID/task/TID/fd (and so /proc/self/fd and /dev/fd, which point there). */
    private static boolean isDescriptorTable(Path dir) {
        if (dir == null) {
            return false;
        }
        try {
            Path real = dir.toRealPath();
            int n = real.getNameCount();
            return n >= 3 && real.getName(0).toString().equals("proc") && real.getName(n - 1).toString().equals("fd");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * A hidden name beside {@code base} for a temporary file or directory: {@code .BASE.RANDOM.TAG}, with BASE cut
     * so that the whole is at most {@link #NAME_MAX} bytes in UTF-8 (a target whose own name is near the limit
     * must still get one).
     */
    static String temporaryName(String base, String tag) {
        String unique = "." + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + tag;
        int room = NAME_MAX - 1 - unique.length();
        int bytes = 0;
        int end = 0;
        while (end < base.length()) {
            int cp = base.codePointAt(end);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + n > room) {
                break;
            }
            bytes += n;
            end += Character.charCount(cp);
        }
        return "." + base.substring(0, end) + unique;
    }

    /**
     * Refuses {@code target} when it is one of {@code inputs}: the same file (device and inode), whichever path,
     * symbolic link or hard link names it.
     */
    static void refuseInput(Path target, Collection<Path> inputs, String option) {
        if (!Files.exists(target)) {
            return;
        }
        for (Path in : inputs) {
            try {
                if (in != null && Files.exists(in) && Files.isSameFile(target, in)) {
                    throw new InputException(option + " " + Messages.shorten(target.toString())
                            + ": is one of the command's own input files; write the output somewhere else.");
                }
            } catch (IOException e) {
                // cannot tell: the write itself will report the problem
            }
        }
    }

    /** Text output. */
    PrintWriter writer() {
        return writer;
    }

    /** Binary output (files only). */
    OutputStream stream() {
        if (stream == null) {
            throw new IllegalStateException("binary output needs a file");
        }
        return stream;
    }

    /** What the user called this output in messages. */
    String name() {
        return target == null ? "standard output" : Messages.shorten(target.toString());
    }

    /**
     * Flushes, checks that every byte was written, and moves the file into place.
     *
     * @throws OutputFailure when anything could not be written
     */
    void commit() throws IOException {
        writer.flush();
        boolean failed = writer.checkError();
        if (target == null) {
            if (failed || stdout.checkError()) {
                throw new OutputFailure("standard output: writing failed (disk full, or the reader went away); the output is incomplete.");
            }
            committed = true;
            return;
        }
        IOException cause = checked.failure;
        if (!failed && cause == null) {
            try {
                checked.close();
            } catch (IOException e) {
                cause = e;
            }
        }
        if (cause instanceof OutputFailure f) {
            throw f;
        }
        if (failed || cause != null) {
            throw new OutputFailure(name() + ": writing failed" + (cause == null ? "" : " (" + Messages.reason(cause) + ")")
                    + "; " + (temporary == null ? "the output is incomplete." : "the file was left as it was."), cause);
        }
        if (temporary != null) {
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new OutputFailure(name() + ": cannot be replaced (" + Messages.reason(e) + ").", e);
            }
            TEMPORARY.remove(temporary);
        }
        committed = true;
    }

    /** Without a {@link #commit()}: drops the temporary file, leaving the target as it was. */
    @Override
    public void close() {
        if (target == null) {
            if (!committed) {
                writer.flush(); // what was written to standard output stays written
            }
            return;
        }
        try {
            checked.close();
        } catch (IOException e) {
            // the output is discarded, or commit() already reported the failure
        }
        if (!committed && temporary != null) {
            discard(temporary);
        }
    }

    /**
     * A temporary file of the command's own (e.g. a per-source part) in the JVM's temporary directory, deleted on
     * every exit path. A failure to create it is an {@link OutputFailure} that names the directory.
     */
    static Path temporaryFile(String prefix) throws IOException {
        installHook();
        try {
            Path p = Files.createTempFile(prefix, ".part");
            TEMPORARY.add(p);
            return p;
        } catch (IOException e) {
            throw temporaryFailure(e);
        }
    }

    /** The JVM's temporary directory ({@code java.io.tmpdir}), where part files go. */
    static String temporaryDirectory() {
        return String.valueOf(System.getProperty("java.io.tmpdir"));
    }

    /**
     * A failed write or creation of a temporary file: the output is lost as surely as with a full disk, so it is an
     * {@link OutputFailure} (exit 1), and its sentence names the directory and how to choose another.
     */
    static OutputFailure temporaryFailure(IOException e) {
        if (e instanceof OutputFailure f) {
            return f;
        }
        return new OutputFailure("temporary directory " + Messages.shorten(temporaryDirectory()) + ": writing failed ("
                + Messages.reason(e) + "); free some space there or choose another with ARMTRACE_JAVA_OPTS=-Djava.io.tmpdir=DIR.", e);
    }

    /**
     * Writes a directory the way {@link #open} writes a file: into a new directory beside {@code target} (created
     * like any directory, so the umask sets its mode), put in place by one rename when {@code contents} succeeded.
     * A link to a directory is followed: the directory it names is replaced, the link stays. An existing directory
     * that is not empty is refused unless {@code force} (what it holds would be lost); with {@code force} it is
     * replaced as a whole: moved aside by one rename, the new one renamed in, and only then deleted, so that on
     * any failure the old directory is moved back whole. {@code marker} is the file that makes the directory what
     * it is (a snapshot's {@code snapshot.ini}), named in the refusal. A directory that holds subdirectories, or
     * one of the command's {@code inputs}, is refused even with {@code force}: it is not one armtrace wrote, and
     * replacing it would delete what the user keeps there.
     */
    static void writeDirectory(Path target, boolean force, String option, String marker, Collection<Path> inputs,
                               DirectoryContents contents) throws IOException {
        String named = option + " " + Messages.shorten(target.toString());
        Path where = resolve(target, option).path();
        FileKind kind = FileKind.of(where);
        if (kind != FileKind.MISSING && kind != FileKind.DIRECTORY) {
            throw new InputException(named + ": is " + kind.noun() + ", not a directory.");
        }
        Path parent = where.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new InputException(named + ": its parent directory does not exist.");
        }
        boolean replace = false;
        if (kind == FileKind.DIRECTORY) {
            List<Path> entries;
            try (var list = Files.list(where)) {
                entries = list.toList();
            }
            if (!entries.isEmpty()) {
                if (!force) {
                    throw new InputException(named + (Files.exists(where.resolve(marker), LinkOption.NOFOLLOW_LINKS)
                            ? ": already exists (it has a " + marker + "); add --force to replace it."
                            : ": is not empty; add --force to replace what it holds, or choose a new or empty directory."));
                }
                for (Path e : entries) {
                    if (Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS)) {
                        throw new InputException(named + ": holds subdirectories (" + Messages.shorten(e.getFileName().toString())
                                + "), so it is not a directory armtrace wrote; --force replaces only a directory of files.");
                    }
                }
                Path real = where.toRealPath();
                for (Path in : inputs) {
                    if (in != null && Files.exists(in) && in.toRealPath().startsWith(real)) {
                        throw new InputException(named + ": holds " + Messages.shorten(in.toString())
                                + ", one of the command's own input files; write the output somewhere else.");
                    }
                }
                replace = true;
            }
        }
        installHook();
        Path fresh;
        try {
            fresh = createDirectoryBeside(where, ".new");
        } catch (IOException e) {
            throw new OutputFailure(Messages.shorten(target.toString()) + ": cannot be written (" + Messages.reason(e) + ").", e);
        }
        try {
            contents.writeInto(fresh);
            if (!replace) {
                // a missing or empty directory: rename(2) puts the new one in its place at once
                Files.move(fresh, where, StandardCopyOption.ATOMIC_MOVE);
            } else {
                swap(where, fresh);
            }
        } catch (IOException e) {
            throw new OutputFailure(Messages.shorten(target.toString()) + ": writing failed (" + Messages.reason(e)
                    + (replace ? "); the directory was left as it was." : ")."), e);
        } finally {
            discard(fresh);
        }
    }

    /** A new empty directory beside {@code where}, with the mode the umask gives, registered for deletion. */
    private static Path createDirectoryBeside(Path where, String tag) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path dir = where.resolveSibling(temporaryName(where.getFileName().toString(), tag));
            TEMPORARY.add(dir);
            try {
                return Files.createDirectory(dir);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                TEMPORARY.remove(dir);
                if (attempt == 10) {
                    throw e;
                }
            } catch (IOException e) {
                TEMPORARY.remove(dir);
                throw e;
            }
        }
    }

    /**
     * Puts {@code fresh} in the place of the non-empty directory {@code where}. rename(2) cannot replace a
     * non-empty directory, so the old one is renamed aside first, then the new one in; if that fails, the old one
     * is renamed back. Either way one whole directory is in place, never a mixture, and between the two renames a
     * shutdown (SIGINT, SIGTERM) puts the old one back.
     */
    private static void swap(Path where, Path fresh) throws IOException {
        Path aside = where.resolveSibling(temporaryName(where.getFileName().toString(), ".old"));
        rememberAside(aside, where);
        try {
            Files.move(where, aside, StandardCopyOption.ATOMIC_MOVE);
            try {
                Files.move(fresh, where, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                try {
                    Files.move(aside, where, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException back) {
                    e.addSuppressed(back);
                }
                throw e;
            }
        } finally {
            ASIDE.remove(aside);
        }
        TEMPORARY.add(aside);
        discard(aside); // the old directory, now replaced
    }

    /** Registers {@code aside} as the directory moved away from {@code where}, to be put back on a shutdown. */
    static void rememberAside(Path aside, Path where) {
        installHook();
        ASIDE.put(aside, where);
    }

    /** What {@link #writeDirectory} puts into the new directory. */
    interface DirectoryContents {
        void writeInto(Path dir) throws IOException;
    }

    /** Deletes a temporary file (or directory with its files) and forgets it. */
    static void discard(Path temp) {
        try {
            if (Files.isDirectory(temp, LinkOption.NOFOLLOW_LINKS)) {
                try (var files = Files.walk(temp)) {
                    for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
            Files.deleteIfExists(temp);
        } catch (IOException | java.io.UncheckedIOException e) {
            // nothing more can be done; the shutdown hook tries again
            return;
        }
        TEMPORARY.remove(temp);
    }

    /** The temporary files that exist now (for tests). */
    static Set<Path> temporaryFiles() {
        return Set.copyOf(TEMPORARY);
    }

    /** What the shutdown hook does: puts back any directory moved aside, then deletes every temporary file. */
    static void discardAll() {
        for (Map.Entry<Path, Path> e : ASIDE.entrySet()) {
            try {
                if (!Files.exists(e.getValue(), LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(e.getKey(), e.getValue(), StandardCopyOption.ATOMIC_MOVE);
                } else {
                    // the new directory is in place: the old one is what remains to delete
                    TEMPORARY.add(e.getKey());
                }
                ASIDE.remove(e.getKey());
            } catch (IOException x) {
                // left where it is, whole, under its hidden name
            }
        }
        for (Path p : TEMPORARY) {
            discard(p);
        }
    }

    private static void installHook() {
        if (!hookInstalled) {
            synchronized (OutputFile.class) {
                if (!hookInstalled) {
                    Runtime.getRuntime().addShutdownHook(new Thread(OutputFile::discardAll, "armtrace-cleanup"));
                    hookInstalled = true;
                }
            }
        }
    }

    /**
     * A write to the output failed: the command must not report success. Exit code 1, or 141 without a word when
     * {@link #readerGone()}.
     */
    static final class OutputFailure extends IOException {
        private final boolean readerGone;

        OutputFailure(String message) {
            this(message, null, false);
        }

        OutputFailure(String message, Throwable cause) {
            this(message, cause, false);
        }

        OutputFailure(String message, Throwable cause, boolean readerGone) {
            super(message, cause);
            this.readerGone = readerGone;
        }

        /** The output was a pipe (or socket) whose reader went away: nobody wants the rest, and nobody is told. */
        boolean readerGone() {
            return readerGone;
        }

        /** The failure of a write to {@code name}, thrown as an unchecked exception so that it ends the command. */
        static java.io.UncheckedIOException of(String name, IOException e, boolean toReader, String left) {
            if (e instanceof OutputFailure f) {
                return new java.io.UncheckedIOException(f);
            }
            return new java.io.UncheckedIOException(new OutputFailure(name + ": writing failed (" + Messages.reason(e) + "); "
                    + left, e, readerWentAway(e, toReader)));
        }
    }

    /**
     * True when a failed write means that the reader at the other end went away (EPIPE): the output is a pipe or a
     * socket (a pipe has no disk to fill), or the system said so ("Broken pipe", where it speaks English).
     */
    static boolean readerWentAway(IOException e, boolean toReader) {
        String m = e.getMessage();
        return toReader || (m != null && m.toLowerCase(java.util.Locale.ROOT).contains("broken pipe"));
    }

    /**
     * Standard output as a byte stream whose first failed write ends the command (an unchecked
     * {@link OutputFailure}), rather than being swallowed as {@link System#out} swallows it. {@code descriptor} is
     * where the process's descriptor 1 can be looked at ({@code /proc/self/fd/1}), to tell a pipe whose reader
     * went away from a full disk whatever language the system's messages are in.
     */
    static final class StandardOutput extends FailFastStream {
        private final Path descriptor;

        StandardOutput(OutputStream out, Path descriptor) {
            super(out);
            this.descriptor = descriptor;
        }

        @Override
        java.io.UncheckedIOException failed(IOException e) {
            boolean pipe = descriptor != null && FileKind.hasReader(descriptor);
            java.io.UncheckedIOException u = OutputFailure.of("standard output", e, pipe, "the output is incomplete.");
            failure = u.getCause();
            return u;
        }
    }

    /**
     * A byte stream whose first failed write or flush is thrown unchecked ({@link #failed}), and thrown again from
     * every write and flush after it.
     */
    abstract static class FailFastStream extends java.io.FilterOutputStream {
        IOException failure;

        FailFastStream(OutputStream out) {
            super(out);
        }

        /** The unchecked exception to throw for a failed write or flush; sets {@link #failure}. */
        abstract java.io.UncheckedIOException failed(IOException e);

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (failure != null) {
                throw new java.io.UncheckedIOException(failure);
            }
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw failed(e);
            }
        }

        @Override
        public void flush() {
            if (failure != null) {
                throw new java.io.UncheckedIOException(failure);
            }
            try {
                out.flush();
            } catch (IOException e) {
                throw failed(e);
            }
        }
    }

    /**
     * Remembers the first write error and throws it, as an unchecked {@link OutputFailure} naming the file, from
     * this write and every one after it: PrintWriter would swallow an IOException, and the command would go on.
     */
    private final class CheckedStream extends FailFastStream {
        private final boolean toReader;
        private boolean closed;

        CheckedStream(OutputStream out, boolean toReader) {
            super(out);
            this.toReader = toReader;
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                throw failed(e).getCause();
            }
        }

        @Override
        java.io.UncheckedIOException failed(IOException e) {
            java.io.UncheckedIOException u = OutputFailure.of(name(), e, toReader,
                    temporary == null ? "the output is incomplete." : "the file was left as it was.");
            if (failure == null) {
                failure = u.getCause();
            }
            return u;
        }
    }

    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
