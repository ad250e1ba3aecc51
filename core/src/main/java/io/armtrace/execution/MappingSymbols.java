package io.armtrace.execution;

import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/** The instruction set the ELF mapping symbols ($a, $t, $x) give for an address. */
public final class MappingSymbols {
    private MappingSymbols() {
    }

    /**
     * A32 under $a, T32 under $t (AArch32 ELF, ARM IHI 0044 "Mapping symbols"), A64 under $x (AArch64
     * ELF, ARM IHI 0056), null under $d or where no mapping symbol precedes the address.
     */
    public static Isa isaAt(SymbolTable symbols, long address) {
        return switch (symbols.mappingAt(address)) {
            case SymbolTable.MAP_ARM -> Isa.A32;
            case SymbolTable.MAP_THUMB -> Isa.T32;
            case SymbolTable.MAP_A64 -> Isa.A64;
            default -> null;
        };
    }
}
