package io.armtrace.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One output of a command, written so that lost output never looks like success: a file is written to a
 * temporary file beside it and renamed into place only by {@link #commit()}, after every write has been
 * checked, so a run that fails or is interrupted leaves an existing file untouched and never a half-written
 * line. Standard output (no file) is written through and checked for errors at commit. A target that is
 * not a regular file (a device such as {@code /dev/null}, a pipe) is written directly, as there is nothing
 * to rename over.
 *
 * <p>Closing without {@link #commit()} discards the temporary file. Temporary files are also deleted when
 * the JVM is stopped by SIGINT or SIGTERM (a shutdown hook).
 */
final class OutputFile implements Closeable {
    /** Temporary files to delete if the JVM stops before they are renamed or removed. */
    private static final Set<Path> TEMPORARY = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;

    private final Path target;
    private final Path temporary;
    private final OutputStream stream;
    private final CheckedStream checked;
    private final PrintWriter writer;
    private final PrintWriter stdout;
    private boolean committed;

    private OutputFile(Path target, Path temporary, OutputStream raw, PrintWriter stdout) {
        this.target = target;
        this.temporary = temporary;
        this.stdout = stdout;
        if (raw != null) {
            this.checked = new CheckedStream(raw);
            this.stream = checked;
            // encodes straight into a 64 KiB byte buffer (a listing is nearly all ASCII: one byte store per character)
            this.writer = new PrintWriter(new io.armtrace.view.EncodingWriter(checked, StandardCharsets.UTF_8, 1 << 16),
                    false);
        } else {
            this.checked = null;
            this.stream = null;
            // standard output buffers itself (Main.standardOutput: 64 KiB of encoded bytes); a listing's
            // lines come in batches, so they reach that buffer without another copy
            this.writer = new PrintWriter(new NonClosing(stdout), false);
        }
    }

    /** Standard output, checked for write errors at {@link #commit()}. */
    static OutputFile stdout(PrintWriter stdout) {
        return new OutputFile(null, null, null, stdout);
    }

    /**
     * {@code target}, or standard output when {@code target} is null. {@code inputs} are the command's own
     * input files: naming one of them as the output is refused.
     */
    static OutputFile open(Path target, PrintWriter stdout, Collection<Path> inputs, String option) throws IOException {
        if (target == null) {
            return stdout(stdout);
        }
        refuseInput(target, inputs, option);
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            if (Files.isDirectory(target)) {
                throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                        + ": is a directory, not a file.");
            }
            return new OutputFile(target, null, Files.newOutputStream(target), null);
        }
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                    + ": its directory does not exist.");
        }
        installHook();
        Path temp;
        try {
            // created like any new file (the umask applies), not with createTempFile's owner-only permissions
            temp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(System.nanoTime() ^ ProcessHandle.current().pid()) + ".part");
            Files.newOutputStream(temp, java.nio.file.StandardOpenOption.CREATE_NEW).close();
            if (Files.isRegularFile(target)) {
                try {
                    Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
                } catch (UnsupportedOperationException | IOException e) {
                    // not a POSIX file system: the new file keeps the default permissions
                }
            }
        } catch (IOException e) {
            throw new OutputFailure(Messages.shorten(target.toString()) + ": cannot be written ("
                    + Messages.reason(e) + ").", e);
        }
        TEMPORARY.add(temp);
        try {
            return new OutputFile(target, temp, Files.newOutputStream(temp), null);
        } catch (IOException | RuntimeException e) {
            discard(temp);
            throw e;
        }
    }

    /** Refuses {@code target} when it is one of {@code inputs} (compared as real paths). */
    static void refuseInput(Path target, Collection<Path> inputs, String option) {
        if (!Files.exists(target)) {
            return;
        }
        try {
            Path real = target.toRealPath();
            for (Path in : inputs) {
                if (in != null && Files.exists(in) && in.toRealPath().equals(real)) {
                    throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                            + ": is one of the command's own input files; write the output somewhere else.");
                }
            }
        } catch (IOException e) {
            // cannot resolve: the write itself will report the problem
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
        if (failed || cause != null) {
            throw new OutputFailure(name() + ": writing failed" + (cause == null ? "" : " (" + Messages.reason(cause) + ")")
                    + "; " + (temporary == null ? "the output is incomplete." : "the file was left as it was."), cause);
        }
        if (temporary != null) {
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
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

    /** A temporary file of the command's own (e.g. a per-source part), deleted on every exit path. */
    static Path temporaryFile(String prefix) throws IOException {
        installHook();
        Path p = Files.createTempFile(prefix, ".part");
        TEMPORARY.add(p);
        return p;
    }

    /**
     * Writes a directory the way {@link #open} writes a file: into a temporary directory beside {@code target},
     * moved into place when {@code contents} succeeded. {@code marker} is the file that makes the directory
     * what it is (a snapshot's {@code snapshot.ini}): a target that has one is refused unless {@code force}.
     * Into an existing directory the new files are moved one by one, the old marker removed first and the new
     * one moved last, so an interrupted run never leaves a marker over half-written contents; other files of
     * the directory (a README) stay.
     */
    static void writeDirectory(Path target, boolean force, String option, String marker, DirectoryContents contents)
            throws IOException {
        boolean exists = Files.exists(target);
        if (exists && !Files.isDirectory(target)) {
            throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                    + ": is a file, not a directory.");
        }
        if (exists && Files.exists(target.resolve(marker)) && !force) {
            throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                    + ": already exists (it has a " + marker + "); add --force to replace it.");
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new io.armtrace.source.InputException(option + " " + Messages.shorten(target.toString())
                    + ": its parent directory does not exist.");
        }
        installHook();
        Path temp = Files.createTempDirectory(parent, "." + target.getFileName() + ".");
        TEMPORARY.add(temp);
        try {
            contents.writeInto(temp);
            if (!exists) {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(target.resolve(marker));
                List<Path> files;
                try (var list = Files.list(temp)) {
                    files = list.filter(f -> !f.getFileName().toString().equals(marker)).toList();
                }
                for (Path f : files) {
                    Files.move(f, target.resolve(f.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                }
                if (Files.exists(temp.resolve(marker))) {
                    Files.move(temp.resolve(marker), target.resolve(marker), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new OutputFailure(Messages.shorten(target.toString()) + ": writing failed (" + Messages.reason(e)
                    + ").", e);
        } finally {
            discard(temp);
        }
    }

    /** What {@link #writeDirectory} puts into the new directory. */
    interface DirectoryContents {
        void writeInto(Path dir) throws IOException;
    }

    /** Deletes a temporary file (or directory with its files) and forgets it. */
    static void discard(Path temp) {
        try {
            if (Files.isDirectory(temp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try (var files = Files.walk(temp)) {
                    for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            // nothing more can be done; the shutdown hook tries again
            return;
        }
        TEMPORARY.remove(temp);
    }

    /** The temporary files that exist now (for tests). */
    static Set<Path> temporaryFiles() {
        return Set.copyOf(TEMPORARY);
    }

    /** Deletes every temporary file: what the shutdown hook does. */
    static void discardAll() {
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

    /** A write to the output failed: the command must not report success. Exit code 1. */
    static final class OutputFailure extends IOException {
        OutputFailure(String message) {
            super(message);
        }

        OutputFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Remembers the first write error, which PrintWriter would otherwise swallow, and reports it (to a caller
     * that writes bytes directly) as an {@link OutputFailure} naming the file.
     */
    private final class CheckedStream extends java.io.FilterOutputStream {
        IOException failure;
        private boolean closed;

        CheckedStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw remember(e);
            }
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
                throw remember(e);
            }
        }

        private IOException remember(IOException e) {
            if (failure == null) {
                failure = e;
            }
            return new OutputFailure(name() + ": writing failed (" + Messages.reason(e) + ")"
                    + (temporary == null ? "; the output is incomplete." : "; the file was left as it was."), e);
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
