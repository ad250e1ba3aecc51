package io.armtrace.image;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Symbols of a program and its ELF mapping symbols ($a, $t, $d in AArch32 files; $x, $d in AArch64
 * files), which say whether the bytes at an address are A32 code, T32 code, A64 code or data.
 */
public final class SymbolTable {
    public static final SymbolTable EMPTY = new SymbolTable(List.of(), new long[0], new byte[0]);

    /** Mapping kinds. */
    public static final byte MAP_ARM = 'a';
    public static final byte MAP_THUMB = 't';
    public static final byte MAP_DATA = 'd';
    /** $x: A64 code (ELF for the Arm 64-bit Architecture, IHI 0056 5.7.2). */
    public static final byte MAP_A64 = 'x';

    private final Symbol[] byAddress;
    private final long[] starts;
    private final long[] mapAddr;
    private final byte[] mapKind;

    public SymbolTable(List<Symbol> symbols, long[] mapAddr, byte[] mapKind) {
        this.byAddress = symbols.stream()
                .sorted(Comparator.comparingLong(Symbol::address).thenComparing(s -> -s.size()))
                .toArray(Symbol[]::new);
        this.starts = Arrays.stream(byAddress).mapToLong(Symbol::address).toArray();
        this.mapAddr = mapAddr;
        this.mapKind = mapKind;
    }

    public List<Symbol> symbols() {
        return List.of(byAddress);
    }

    public boolean isEmpty() {
        return byAddress.length == 0;
    }

    /**
     * The symbol that contains {@code addr}: the nearest one at or below it, if {@code addr} lies within
     * its size (or it has size 0 and is the nearest). Null if none.
     */
    public Symbol lookup(long addr) {
        int i = Arrays.binarySearch(starts, addr);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0) {
            return null;
        }
        // several symbols at one address (aliases, labels): take the first (largest size), whether the
        // address is that of the symbol or one inside it
        while (i > 0 && starts[i - 1] == starts[i]) {
            i--;
        }
        Symbol s = byAddress[i];
        if (s.size() == 0 || addr < s.address() + s.size()) {
            return s;
        }
        return null;
    }

    /**
     * The lowest symbol start above {@code addr}, or {@link Long#MAX_VALUE}: up to there {@link #lookup}
     * gives every address from {@code addr} on the same answer.
     */
    public long nextStart(long addr) {
        int i = Arrays.binarySearch(starts, addr);
        i = i < 0 ? -i - 1 : i + 1;
        while (i < starts.length && starts[i] <= addr) {
            i++;
        }
        return i < starts.length ? starts[i] : Long.MAX_VALUE;
    }

    /** The symbol with exactly this name, or null. */
    public Symbol find(String name) {
        for (Symbol s : byAddress) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    /**
     * The mapping symbol kind in force at {@code addr} ({@link #MAP_ARM}, {@link #MAP_THUMB},
     * {@link #MAP_A64}, {@link #MAP_DATA}) or 0 if no mapping symbol precedes it.
     */
    public byte mappingAt(long addr) {
        int i = Arrays.binarySearch(mapAddr, addr);
        if (i < 0) {
            i = -i - 2;
        }
        return i < 0 ? 0 : mapKind[i];
    }

    /** Builds a table; mapping symbols may come in any order. */
    public static SymbolTable of(List<Symbol> symbols, List<long[]> mappings) {
        List<long[]> m = new ArrayList<>(mappings);
        m.sort(Comparator.comparingLong(a -> a[0]));
        long[] addr = new long[m.size()];
        byte[] kind = new byte[m.size()];
        for (int i = 0; i < m.size(); i++) {
            addr[i] = m.get(i)[0];
            kind[i] = (byte) m.get(i)[1];
        }
        return new SymbolTable(symbols, addr, kind);
    }
}
