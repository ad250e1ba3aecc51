package io.armtrace.source.perf;

import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.source.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's symbols as /proc/kallsyms lists them, one a line: address in hex, type letter, name, and for
 * a module's symbols the module in brackets. The code symbols (types t and T, W and w) name kernel addresses
 * in listings and profiles; the rest are left out. Read line by line, so a file of any size reads in bounded
 * memory per symbol kept.
 */
public final class Kallsyms {
    /** More symbols than any kernel has: the file is something else. */
    static final int MAX_SYMBOLS = 5_000_000;

    private Kallsyms() {
    }

    /** The code symbols of {@code file}; one sentence naming the file when it is not a kallsyms listing. */
    public static SymbolTable read(Path file) {
        List<Symbol> symbols = new ArrayList<>();
        boolean anyAddress = false;
        int lineNumber = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                if (f.length < 3 || f[1].length() != 1 || f[0].length() > 16) {
                    throw new InputException(file + ": line " + lineNumber + " is not 'ADDRESS TYPE NAME' as /proc/kallsyms lists"
                            + " symbols, so this is not a kallsyms file.");
                }
                long address;
                try {
                    address = Long.parseUnsignedLong(f[0], 16);
                } catch (NumberFormatException e) {
                    throw new InputException(file + ": line " + lineNumber + " starts with '" + io.armtrace.source.IniFile.shorten(f[0])
                            + "', not a hex address, so this is not a kallsyms file.");
                }
                anyAddress |= address != 0;
                char type = f[1].charAt(0);
                if ("tTwW".indexOf(type) < 0 || symbols.size() >= MAX_SYMBOLS) {
                    continue;
                }
                String name = f.length > 3 ? f[2] + " " + f[3] : f[2];
                symbols.add(new Symbol(name, address, 0, false, Symbol.Type.FUNCTION,
                        Character.isUpperCase(type) ? Symbol.Binding.GLOBAL : Symbol.Binding.LOCAL, 0));
            }
        } catch (IOException e) {
            throw new InputException(file + ": cannot be read (" + e.getMessage() + ").");
        }
        if (!symbols.isEmpty() && !anyAddress) {
            throw new InputException(file + ": lists every symbol at address 0, as the kernel shows /proc/kallsyms to users"
                    + " without permission; copy it as root (or with kernel.kptr_restrict=0).");
        }
        return SymbolTable.of(symbols, List.of());
    }
}
