package io.armtrace.execution;

import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/** The instruction set the ELF mapping symbols ($a, $t) give for an address. */
public final class MappingSymbols {
    private MappingSymbols() {
    }

    /** A32 under $a, T32 under $t, null under $d or where no mapping symbol precedes the address. */
    public static Isa isaAt(SymbolTable symbols, long address) {
        return switch (symbols.mappingAt(address)) {
            case SymbolTable.MAP_ARM -> Isa.A32;
            case SymbolTable.MAP_THUMB -> Isa.T32;
            default -> null;
        };
    }
}
