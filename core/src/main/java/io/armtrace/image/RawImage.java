package io.armtrace.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Raw binaries (memory dumps) placed at an address. */
public final class RawImage {
    private RawImage() {
    }

    /**
     * Reads {@code length} bytes (all that remain if negative) from {@code offset} of {@code file} and
     * adds them to {@code into} at {@code address}.
     */
    public static void load(MemoryImage into, Path file, long address, long offset, long length) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ImageException(file + ": cannot read the memory dump (" + e.getMessage() + ").", e);
        }
        if (offset < 0 || offset > bytes.length) {
            throw new ImageException(file + ": offset " + offset + " is beyond the end of the file ("
                    + bytes.length + " bytes).");
        }
        long n = length < 0 ? bytes.length - offset : Math.min(length, bytes.length - offset);
        byte[] data = new byte[(int) n];
        System.arraycopy(bytes, (int) offset, data, 0, (int) n);
        into.add(address, data, file.getFileName().toString());
    }

    /**
     * Parses a command-line image argument: {@code FILE} (an ELF file) or {@code FILE@ADDRESS} (a raw
     * binary at that address), and adds it to the image being built.
     */
    public static ProgramImage parseArgument(String arg, ProgramImage into) {
        int at = arg.lastIndexOf('@');
        if (at > 0) {
            Path file = Path.of(arg.substring(0, at));
            long address;
            try {
                address = Long.decode(arg.substring(at + 1));
            } catch (NumberFormatException e) {
                throw new ImageException(arg + ": the address after '@' is not a number.");
            }
            if (!Files.isRegularFile(file)) {
                throw new ImageException(file + ": no such file.");
            }
            load(into.memory(), file, address, 0, -1);
            return into;
        }
        Path file = Path.of(arg);
        if (!Files.isRegularFile(file)) {
            throw new ImageException(file + ": no such file.");
        }
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

    private static boolean looksLikeElf(Path file) {
        return ElfImage.looksLikeElf(file);
    }
}
