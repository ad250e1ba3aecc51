package io.armtrace.view;

import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;

/** Names code addresses as {@code function+0xOFFSET} from a symbol table. */
public final class Symbolizer {
    private final SymbolTable symbols;

    public Symbolizer(SymbolTable symbols) {
        this.symbols = symbols;
    }

    public boolean available() {
        return !symbols.isEmpty();
    }

    /** {@code name} or {@code name+0x12}, or null when no symbol covers the address. */
    public String name(long address) {
        Symbol s = symbols.lookup(address);
        if (s == null) {
            return null;
        }
        long off = address - s.address();
        return off == 0 ? s.name() : s.name() + "+0x" + Long.toHexString(off);
    }

    /** The name of the function that contains the address, or null. */
    public String function(long address) {
        Symbol s = symbols.lookup(address);
        return s == null ? null : s.name();
    }
}
