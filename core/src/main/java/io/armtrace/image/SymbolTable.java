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
    /**
     * The order in which GNU objdump (binutils 2.40, compare_symbols in objdump.c) sorts the symbols of
     * an address, whose first it names an address after: symbols of the section being disassembled first
     * ({@link #nameFor} looks for those), then every other symbol, whatever its section (absolute ones
     * too), before those named like gcc2_compiled and like file names (*.o, *.a), functions first, then
     * objects, then global before weak before local, larger st_size first, names that start with '.' last,
     * and the rest by name. Checked with objdump on tools/isa-oracle/names.s: at one address a function
     * of another section wins over a label of a lower-numbered one ({@code _init} rather than a static
     * glibc program's {@code __rela_iplt_end}), and of two labels the name decides, not the section.
     */
    static final Comparator<Symbol> OBJDUMP_ORDER = Comparator.comparingLong(Symbol::address)
            .thenComparing(s -> s.name().contains("gnu_compiled") || s.name().contains("gcc2_compiled"))
            .thenComparing(s -> {
                String n = s.name();
                int l = n.length();
                return l > 2 && n.charAt(l - 2) == '.' && (n.charAt(l - 1) == 'o' || n.charAt(l - 1) == 'a');
            })
            .thenComparing(s -> s.type() != Symbol.Type.FUNCTION)
            .thenComparing(s -> s.type() != Symbol.Type.OBJECT)
            .thenComparing(s -> s.binding() == Symbol.Binding.LOCAL)
            .thenComparing(s -> s.binding() != Symbol.Binding.GLOBAL)
            .thenComparing(Comparator.comparingLong(Symbol::size).reversed())
            .thenComparing(s -> s.name().startsWith("."))
            .thenComparing(Symbol::name);

    public static final SymbolTable EMPTY = new SymbolTable(List.of(), new long[0], new byte[0], List.of());

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
    /** The symbols in objdump's order ({@link #OBJDUMP_ORDER}), and their addresses. */
    private final Symbol[] named;
    private final long[] namedStarts;
    /** Allocated sections, by start address: [start, end) and section index. */
    private final long[] sectionStart;
    private final long[] sectionEnd;
    private final int[] sectionIndex;
    /** Section index to a symbol named after the section, at its start. */
    private final java.util.Map<Integer, Symbol> sectionStarts;

    public SymbolTable(List<Symbol> symbols, long[] mapAddr, byte[] mapKind) {
        this(symbols, mapAddr, mapKind, List.of());
    }

    /** {@code sections}: the allocated sections as {start, end, index}, in any order. */
    public SymbolTable(List<Symbol> symbols, long[] mapAddr, byte[] mapKind, List<long[]> sections) {
        this(symbols, mapAddr, mapKind, sections, List.of());
    }

    /**
     * {@code nameOnly}: symbols that name addresses ({@link #nameFor}) but are no function or object of
     * their own ({@link #lookup}, {@link #find} and {@link #symbols} leave them out), such as the section
     * symbols objdump keeps for the PLT and the GOT.
     */
    public SymbolTable(List<Symbol> symbols, long[] mapAddr, byte[] mapKind, List<long[]> sections,
            List<Symbol> nameOnly) {
        this(symbols, mapAddr, mapKind, sections, nameOnly, List.of());
    }

    /**
     * {@code sectionStarts}: one symbol per allocated section, named after it, at its start: the name
     * {@link #nameFor(long)} gives an address of a section that has no symbol of its own, as objdump prints
     * {@code <.iplt+0x4>}.
     */
    public SymbolTable(List<Symbol> symbols, long[] mapAddr, byte[] mapKind, List<long[]> sections,
            List<Symbol> nameOnly, List<Symbol> sectionStarts) {
        this.sectionStarts = new java.util.HashMap<>();
        for (Symbol st : sectionStarts) {
            this.sectionStarts.put(st.section(), st);
        }
        this.byAddress = symbols.stream()
                .sorted(Comparator.comparingLong(Symbol::address).thenComparing(s -> -s.size()))
                .toArray(Symbol[]::new);
        this.starts = Arrays.stream(byAddress).mapToLong(Symbol::address).toArray();
        this.mapAddr = mapAddr;
        this.mapKind = mapKind;
        List<Symbol> all = new ArrayList<>(symbols);
        all.addAll(nameOnly);
        this.named = all.stream().sorted(OBJDUMP_ORDER).toArray(Symbol[]::new);
        this.namedStarts = Arrays.stream(named).mapToLong(Symbol::address).toArray();
        List<long[]> secs = new ArrayList<>(sections);
        secs.sort(Comparator.comparingLong(a -> a[0]));
        this.sectionStart = secs.stream().mapToLong(a -> a[0]).toArray();
        this.sectionEnd = secs.stream().mapToLong(a -> a[1]).toArray();
        this.sectionIndex = secs.stream().mapToInt(a -> (int) a[2]).toArray();
    }


    /**
     * The symbol an address is named after in a listing, as {@code objdump -d} names branch targets and
     * the addresses it prints: the nearest symbol at or below {@code address}, whatever its size (code
     * past the end of a function, or without a symbol of its own, is {@code function+offset} of the one
     * before); of several at that address the first in {@link #OBJDUMP_ORDER} that lies in the section
     * holding {@code where} (the instruction being listed), else the first of all. Below every symbol,
     * the lowest one (the name then takes a negative offset). Null when the table is empty.
     */
    public Symbol nameFor(long address, long where) {
        int n = named.length;
        if (n == 0) {
            return null;
        }
        int i = Arrays.binarySearch(namedStarts, address);
        if (i < 0) {
            i = Math.max(0, -i - 2); // the last start below the address, or the first one above all
        }
        while (i > 0 && namedStarts[i - 1] == namedStarts[i]) {
            i--;
        }
        int section = sectionOf(where);
        if (section != 0) {
            for (int j = i; j < n && namedStarts[j] == namedStarts[i]; j++) {
                if (named[j].section() == section) {
                    return named[j];
                }
            }
        }
        return named[i];
    }

    /**
     * The name of an address that is itself listed, as {@code objdump -d --prefix-addresses} names it: as
     * {@link #nameFor(long, long)}, but from the symbols of the section that holds the address only (objdump
     * requires the section there): the nearest one of that section at or below, else its lowest one above
     * (a negative offset), else, in a section without symbols, the section's own name ({@code .iplt+0x4}).
     */
    public Symbol nameFor(long address) {
        Symbol s = nameFor(address, address);
        int section = sectionOf(address);
        if (s == null || section == 0 || s.section() == section) {
            return s;
        }
        int i = Arrays.binarySearch(namedStarts, address);
        i = i < 0 ? -i - 2 : i;
        while (i + 1 < named.length && namedStarts[i + 1] <= address) {
            i++;
        }
        // down from the last start at or below to the highest address with a symbol of the section; of several
        // there, the first of the section in objdump's order
        for (int j = i; j >= 0; j--) {
            if (named[j].section() == section) {
                int k = j;
                while (k > 0 && namedStarts[k - 1] == namedStarts[j]) {
                    k--;
                }
                while (named[k].section() != section) {
                    k++;
                }
                return named[k];
            }
        }
        for (int j = i + 1; j < named.length; j++) {
            if (named[j].section() == section) {
                return named[j];
            }
        }
        return sectionStarts.getOrDefault(section, s);
    }

    /**
     * The end of the stretch from {@code address} on in which {@link #nameFor(long)} answers alike: the next
     * symbol start above it, or the end of its section, whichever comes first ({@link Long#MAX_VALUE} if none).
     */
    public long nameEnd(long address) {
        int i = Arrays.binarySearch(namedStarts, address);
        i = i < 0 ? -i - 1 : i + 1;
        while (i < namedStarts.length && namedStarts[i] <= address) {
            i++;
        }
        long end = i < namedStarts.length ? namedStarts[i] : Long.MAX_VALUE;
        int s = Arrays.binarySearch(sectionStart, address);
        s = s < 0 ? -s - 2 : s;
        if (s >= 0 && address < sectionEnd[s]) {
            end = Math.min(end, sectionEnd[s]);
        } else if (s + 1 < sectionStart.length) {
            end = Math.min(end, sectionStart[s + 1]);
        }
        return end;
    }

    /** The index of the allocated section that holds {@code address}, or 0. */
    int sectionOf(long address) {
        int s = Arrays.binarySearch(sectionStart, address);
        s = s < 0 ? -s - 2 : s;
        return s >= 0 && address < sectionEnd[s] ? sectionIndex[s] : 0;
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
        return of(symbols, mappings, List.of());
    }

    /** Builds a table with the allocated sections ({start, end, index}); mappings and sections in any order. */
    public static SymbolTable of(List<Symbol> symbols, List<long[]> mappings, List<long[]> sections) {
        return of(symbols, mappings, sections, List.of());
    }

    /** As {@link #of(List, List, List)}, with symbols that only name addresses (see the constructor). */
    public static SymbolTable of(List<Symbol> symbols, List<long[]> mappings, List<long[]> sections,
            List<Symbol> nameOnly) {
        return of(symbols, mappings, sections, nameOnly, List.of());
    }

    /** As {@link #of(List, List, List, List)}, with the sections' start symbols (see the constructor). */
    public static SymbolTable of(List<Symbol> symbols, List<long[]> mappings, List<long[]> sections,
            List<Symbol> nameOnly, List<Symbol> sectionStarts) {
        List<long[]> m = new ArrayList<>(mappings);
        m.sort(Comparator.comparingLong(a -> a[0]));
        long[] addr = new long[m.size()];
        byte[] kind = new byte[m.size()];
        for (int i = 0; i < m.size(); i++) {
            addr[i] = m.get(i)[0];
            kind[i] = (byte) m.get(i)[1];
        }
        return new SymbolTable(symbols, addr, kind, sections, nameOnly, sectionStarts);
    }
}
