package io.armtrace.image;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;

/** Raw binaries (memory dumps) placed at an address. */
public final class RawImage {
    private RawImage() {
    }

    /** Dumps up to this size are read into the heap; larger ones are memory-mapped. */
    static final long MAP_THRESHOLD = 1 << 20;
    /** A mapping covers at most this much (a ByteBuffer is indexed by int); larger dumps are several regions. */
    static final long MAX_MAPPING = 1L << 30;

    /**
     * Adds {@code length} bytes (all that remain if negative) from {@code offset} of {@code file} to
     * {@code into} at {@code address}. Large dumps are memory-mapped read-only, in regions of at most 1 GiB,
     * so that the heap does not grow with the dump and dumps over 2 GiB work.
     */
    public static void load(MemoryImage into, Path file, long address, long offset, long length) {
        long n = size(file, offset, length);
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (n <= MAP_THRESHOLD) {
                ByteBuffer b = ByteBuffer.allocate((int) n);
                while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
                    // read until the buffer is full; the size was checked above
                }
                into.add(address, b.flip(), name);
                return;
            }
            for (long done = 0; done < n; done += MAX_MAPPING) {
                long part = Math.min(MAX_MAPPING, n - done);
                into.add(address + done, ch.map(FileChannel.MapMode.READ_ONLY, offset + done, part), name);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new ImageException(file + ": cannot read the memory dump (" + e.getMessage() + ").", e);
        }
    }

    /** How many bytes {@link #load} takes from {@code file}: checks that {@code offset} is inside it. */
    public static long size(Path file, long offset, long length) {
        long fileSize;
        try {
            fileSize = Files.size(file);
        } catch (IOException e) {
            throw new ImageException(file + ": cannot read the memory dump (" + e.getMessage() + ").", e);
        }
        if (offset < 0 || offset > fileSize) {
            throw new ImageException(file + ": offset " + offset + " is beyond the end of the file ("
                    + fileSize + " bytes).");
        }
        return length < 0 ? fileSize - offset : Math.min(length, fileSize - offset);
    }

    /**
     * The file an {@code --image} argument names ({@code FILE} or {@code FILE@ADDRESS}, read as
     * {@link #parseArgument} reads it), or null when it is no file name at all.
     */
    public static Path fileOf(String arg) {
        int at = arg.lastIndexOf('@');
        try {
            return Path.of(at > 0 ? arg.substring(0, at) : arg);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * Parses a command-line image argument: {@code FILE} (an ELF file) or {@code FILE@ADDRESS} (a raw
     * binary at that address), either of them possibly gzip-compressed ({@code prog.elf.gz}), and adds
     * it to the image being built.
     */
    public static ProgramImage parseArgument(String arg, ProgramImage into) {
        int at = arg.lastIndexOf('@');
        if (at > 0) {
            Path file = path(arg.substring(0, at));
            long address;
            try {
                address = address(arg.substring(at + 1));
            } catch (NumberFormatException e) {
                throw new ImageException(shorten(arg) + ": the address after '@' is not a number (0x8000, 32768).");
            }
            refuseIfNotRegular(file);
            if (Gzip.isGzip(file)) {
                into.memory().add(address, Gzip.read(file), file.getFileName().toString());
            } else {
                load(into.memory(), file, address, 0, -1);
            }
            return into;
        }
        Path file = path(arg);
        refuseIfNotRegular(file);
        if (!looksLikeElf(file)) {
            throw new ImageException(file + ": is not an ELF file; give a raw binary as FILE@ADDRESS.");
        }
        ProgramImage elf = ElfImage.load(file);
        into.memory().addAll(elf.memory());
        // an ELF file given explicitly names the code: its symbols win over those of earlier inputs
        SymbolTable symbols = elf.symbols().isEmpty() ? into.symbols() : elf.symbols();
        LineTable lines = into.lines() == LineTable.EMPTY ? elf.lines() : into.lines();
        return new ProgramImage(into.memory(), symbols, lines);
    }

    /**
     * The address of {@code FILE@ADDRESS} in ASCII digits, as C writes it ({@code 0x} hexadecimal, a leading
     * {@code 0} octal, else decimal). Hexadecimal takes every 64-bit address, up to 0xFFFFFFFFFFFFFFFF: an
     * address of the upper half (an AArch64 kernel's) is above {@link Long#MAX_VALUE}; octal and decimal stay
     * below 2^63. {@code Long.decode}, which read it before, also took a sign and other scripts' digits
     * (full-width {@code ８}), which no address is written in.
     *
     * @throws NumberFormatException when the text is no such number
     */
    static long address(String text) {
        int radix = 10;
        int start = 0;
        if (text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X')) {
            radix = 16;
            start = 2;
        } else if (text.length() > 1 && text.charAt(0) == '0') {
            radix = 8;
            start = 1;
        }
        if (start >= text.length()) {
            throw new NumberFormatException();
        }
        long v = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            int d = c >= '0' && c <= '9' ? c - '0'
                    : radix == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : radix == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            boolean fits = radix == 16 ? (v >>> 60) == 0 : v <= (Long.MAX_VALUE - d) / radix;
            if (d < 0 || d >= radix || !fits) {
                throw new NumberFormatException();
            }
            v = v * radix + d;
        }
        return v;
    }

    /** An image must be a regular file: a named pipe would block the reader, a device never end. */
    private static void refuseIfNotRegular(Path file) {
        String problem = FileKind.problem(file);
        if (problem != null) {
            throw new ImageException(shorten(problem) + ".");
        }
    }

    private static Path path(String name) {
        try {
            return Path.of(name);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ImageException(shorten(name) + ": not a possible file name (" + e.getReason() + ").");
        }
    }

    /** At most about 200 characters of a value for an error message. */
    private static String shorten(String value) {
        return value.length() <= 200 ? value : value.substring(0, 200) + "...";
    }

    private static boolean looksLikeElf(Path file) {
        return ElfImage.looksLikeElf(file);
    }
}
