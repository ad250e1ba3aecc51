package io.armtrace.view;

import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;

/**
 * Names code addresses as {@code function+0xOFFSET} from a symbol table, after the symbol objdump names
 * them after ({@link SymbolTable#nameFor}): the nearest one at or below, past its size too.
 */
public final class Symbolizer {
    private final SymbolTable symbols;

    public Symbolizer(SymbolTable symbols) {
        this.symbols = symbols;
    }

    public boolean available() {
        return !symbols.isEmpty();
    }

    /** {@code name} or {@code name+0x12} ({@code name-0x12} below every symbol), or null without symbols. */
    public String name(long address) {
        Symbol s = symbols.nameFor(address);
        if (s == null) {
            return null;
        }
        long off = address - s.address();
        return off == 0 ? s.name() : off > 0 ? s.name() + "+0x" + Long.toHexString(off)
                : s.name() + "-0x" + Long.toHexString(-off);
    }

    /** The name of the symbol the address is named after, or null without symbols. */
    public String function(long address) {
        Symbol s = symbols.nameFor(address);
        return s == null ? null : s.name();
    }
}
