package io.armtrace.image;

/**
 * A function or object symbol; {@code address} has the Thumb bit cleared, {@code thumb} keeps it.
 * {@code type} is the ELF symbol type (STT_FUNC, STT_OBJECT, STT_NOTYPE: assembler labels).
 */
public record Symbol(String name, long address, long size, boolean thumb, Type type) {
    /** ELF symbol types armtrace keeps. */
    public enum Type { FUNCTION, OBJECT, NONE }

    public Symbol {
        if (type == null) {
            type = Type.FUNCTION;
        }
    }

    public Symbol(String name, long address, long size, boolean thumb) {
        this(name, address, size, thumb, Type.FUNCTION);
    }
}
