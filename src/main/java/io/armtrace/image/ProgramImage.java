package io.armtrace.image;

/**
 * What a decoder knows of the program: its memory and, when an ELF file supplied it, its symbols.
 */
public record ProgramImage(MemoryImage memory, SymbolTable symbols) {
    public static ProgramImage of(MemoryImage memory) {
        return new ProgramImage(memory, SymbolTable.EMPTY);
    }
}
