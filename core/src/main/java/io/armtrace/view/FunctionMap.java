package io.armtrace.view;

import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Numbers the functions of a program for the views: first one per symbol (in address order), then,
 * for code no symbol covers, one per entry address the trace reached it by (a call target, or where
 * tracing picked up), named by that address. Each function has a number from 0 up, a name, an entry
 * address and, for symbols, an end.
 */
final class FunctionMap {
    /** Name of the function that stands for "not known" (a call whose target the trace did not show). */
    static final String UNKNOWN = "[unknown]";

    private final long[] starts;
    private final long[] ends;
    private final Symbol[] symbols;
    private final List<String> names = new ArrayList<>();
    private final List<Long> entries = new ArrayList<>();
    private final LongIntMap synthetic = new LongIntMap(64);
    private int unknown = -1;

    FunctionMap(SymbolTable table) {
        // Code symbols only: functions, and labels (no type) that do not lie in data
        List<Symbol> code = new ArrayList<>();
        for (Symbol s : table.symbols()) {
            if (s.type() == Symbol.Type.FUNCTION
                    || (s.type() == Symbol.Type.NONE && table.mappingAt(s.address()) != SymbolTable.MAP_DATA)) {
                code.add(s);
            }
        }
        code.sort(Comparator.comparingLong(Symbol::address).thenComparing(s -> -s.size()));
        // several symbols at one address: keep the first (largest)
        List<Symbol> unique = new ArrayList<>();
        for (Symbol s : code) {
            if (unique.isEmpty() || unique.get(unique.size() - 1).address() != s.address()) {
                unique.add(s);
            }
        }
        int n = unique.size();
        symbols = unique.toArray(new Symbol[0]);
        starts = new long[n];
        ends = new long[n];
        for (int i = 0; i < n; i++) {
            Symbol s = symbols[i];
            starts[i] = s.address();
            // a symbol without size reaches to the next one
            ends[i] = s.size() > 0 ? s.address() + s.size() : (i + 1 < n ? unique.get(i + 1).address() : s.address() + 4);
            names.add(s.name());
            entries.add(s.address());
        }
    }

    /** The function of the symbol covering {@code address}, or -1. */
    int at(long address) {
        int i = Arrays.binarySearch(starts, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i >= 0 && address < ends[i] ? i : -1;
    }

    /** The function at {@code address}: its symbol's, or one named after the address. */
    int atOrEntry(long address) {
        int f = at(address);
        return f >= 0 ? f : entry(address);
    }

    /** A function without symbol entered at {@code address}. */
    int entry(long address) {
        int f = synthetic.get(address);
        if (f < 0) {
            f = names.size();
            names.add(String.format("0x%08x", address));
            entries.add(address);
            synthetic.put(address, f);
        }
        return f;
    }

    int unknown() {
        if (unknown < 0) {
            unknown = names.size();
            names.add(UNKNOWN);
            entries.add(-1L);
        }
        return unknown;
    }

    int count() {
        return names.size();
    }

    String name(int f) {
        return names.get(f);
    }

    long entryAddress(int f) {
        return entries.get(f);
    }

    /** The symbol of function {@code f}, or null for functions named after an address. */
    Symbol symbol(int f) {
        return f < symbols.length ? symbols[f] : null;
    }

    /** End (exclusive) of a symbol's function; -1 for the others. */
    long end(int f) {
        return f < symbols.length ? ends[f] : -1;
    }

    int symbolCount() {
        return symbols.length;
    }
}
