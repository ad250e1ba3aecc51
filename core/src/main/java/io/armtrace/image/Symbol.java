package io.armtrace.image;

/**
 * A function or object symbol; {@code address} has the Thumb bit cleared, {@code thumb} keeps it.
 * {@code type} is the ELF symbol type (STT_FUNC, STT_OBJECT, STT_NOTYPE: assembler labels),
 * {@code binding} its binding, {@code section} the index of the section it is defined in (st_shndx;
 * 0 when not known, 0xfff1 for SHN_ABS).
 */
public record Symbol(String name, long address, long size, boolean thumb, Type type, Binding binding, int section) {
    /** ELF symbol types armtrace keeps. */
    public enum Type { FUNCTION, OBJECT, NONE }

    /** ELF symbol bindings (STB_LOCAL, STB_GLOBAL, STB_WEAK; ELF gABI "Symbol Table"). */
    public enum Binding { LOCAL, GLOBAL, WEAK }

    public Symbol {
        if (type == null) {
            type = Type.FUNCTION;
        }
        if (binding == null) {
            binding = Binding.GLOBAL;
        }
    }

    public Symbol(String name, long address, long size, boolean thumb, Type type) {
        this(name, address, size, thumb, type, Binding.GLOBAL, 0);
    }

    public Symbol(String name, long address, long size, boolean thumb) {
        this(name, address, size, thumb, Type.FUNCTION);
    }
}
