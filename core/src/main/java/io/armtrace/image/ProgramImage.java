package io.armtrace.image;

/**
 * What a decoder knows of the program: its memory and, when an ELF file supplied them, its symbols
 * and source lines.
 */
public record ProgramImage(MemoryImage memory, SymbolTable symbols, LineTable lines) {
    public ProgramImage {
        if (lines == null) {
            lines = LineTable.EMPTY;
        }
    }

    public ProgramImage(MemoryImage memory, SymbolTable symbols) {
        this(memory, symbols, LineTable.EMPTY);
    }

    public static ProgramImage of(MemoryImage memory) {
        return new ProgramImage(memory, SymbolTable.EMPTY);
    }
}
