package io.armtrace.view;

import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The symbol that names a code address in a range line ({@code "  <name+0xOFFSET>"}, the symbol of
 * {@link SymbolTable#nameFor(long)}), found per line without a search of the symbol table: a binary search per
 * line cost more than the rest of the line, and a cache of one entry per range start address (tens of thousands
 * of them on a large program) missed the processor's caches.
 *
 * <p>Kept by 4 KiB page of addresses: a page's stretches, where {@code nameFor} answers alike
 * ({@link SymbolTable#nameEnd}), as a short sorted array of starts, made when the page is first met; a lookup is
 * the page's slot in a direct-mapped cache of {@value #PAGES} pages and a search of its few stretches (a page of
 * code holds a few functions). The names are kept once per symbol as ASCII bytes. Memory is bounded by the cache
 * and the program's symbols, whatever the trace.
 */
final class RangeNames {
    /** No symbol names the address. */
    static final int NO_SYMBOL = -1;
    /** The symbol's name is not ASCII, or longer than {@link #NAME_MAX}: the line is made as text. */
    static final int NOT_IN_PLACE = -2;
    /** The longest name kept as bytes. */
    static final int NAME_MAX = 512;

    private static final int PAGE_SHIFT = 12;
    private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;
    private static final int PAGES = 1 << 10;

    private final SymbolTable symbols;
    /** Per slot: the page number plus one (0: empty), its stretches' starts and what names each. */
    private final long[] pageKey = new long[PAGES];
    private final int[][] pageStarts = new int[PAGES][];
    private final int[][] pageWhere = new int[PAGES][];

    /** Per symbol met: {@code "  <name"} in ASCII (padded for {@link ListingOutput#copy8}), its length, address. */
    private byte[][] names = new byte[16][];
    private int[] lengths = new int[16];
    private long[] addresses = new long[16];
    private int count;
    private final Map<Symbol, Integer> index = new IdentityHashMap<>();

    RangeNames(SymbolTable symbols) {
        this.symbols = symbols;
    }

    /**
     * What names {@code address}: an entry for {@link #name}, {@link #nameLength} and {@link #symbolAddress}, or
     * {@link #NO_SYMBOL} or {@link #NOT_IN_PLACE}.
     */
    int where(long address) {
        if (Long.compareUnsigned(address - lastStart, lastLength) < 0) { // the last line's stretch: the usual case
            return lastWhere;
        }
        long page = address >>> PAGE_SHIFT;
        int slot = (int) ((page * 0x9E3779B97F4A7C15L) >>> (64 - 10));
        if (pageKey[slot] != page + 1) {
            fill(slot, page);
        }
        int[] starts = pageStarts[slot];
        int offset = (int) address & PAGE_MASK;
        int lo = 0;
        int hi = starts.length - 1;
        while (lo < hi) { // the last stretch that starts at or below the offset (the first starts at 0)
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        long pageBase = page << PAGE_SHIFT;
        lastStart = pageBase + starts[lo];
        lastLength = (lo + 1 < starts.length ? starts[lo + 1] : PAGE_MASK + 1) - starts[lo];
        return lastWhere = pageWhere[slot][lo];
    }

    /** The stretch found last: its start, length (0 at first: nothing matches) and what names it. */
    private long lastStart;
    private long lastLength;
    private int lastWhere;

    /** {@code "  <name"} of entry {@code e}, padded with zeros to a multiple of 8 bytes. */
    byte[] name(int e) {
        return names[e];
    }

    int nameLength(int e) {
        return lengths[e];
    }

    long symbolAddress(int e) {
        return addresses[e];
    }

    /** Makes the stretches of {@code page} in slot {@code slot}, as offsets in the page (unsigned throughout). */
    private void fill(int slot, long page) {
        long base = page << PAGE_SHIFT;
        int[] starts = new int[4];
        int[] where = new int[4];
        int n = 0;
        for (long offset = 0; offset <= PAGE_MASK; ) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, n * 2);
                where = Arrays.copyOf(where, n * 2);
            }
            long a = base + offset;
            starts[n] = (int) offset;
            where[n] = entry(symbols.nameFor(a));
            n++;
            long step = symbols.nameEnd(a) - a; // the stretch's length: at least 1 unless it runs to the end
            if (step <= 0 || step > PAGE_MASK) {
                break;
            }
            offset += step;
        }
        pageKey[slot] = page + 1;
        pageStarts[slot] = Arrays.copyOf(starts, n);
        pageWhere[slot] = Arrays.copyOf(where, n);
    }

    private int entry(Symbol s) {
        if (s == null) {
            return NO_SYMBOL;
        }
        Integer known = index.get(s);
        if (known != null) {
            return known;
        }
        String text = "  <" + s.name();
        int e = NOT_IN_PLACE;
        if (s.name().length() <= NAME_MAX && text.chars().allMatch(c -> c < 0x80)) {
            e = count++;
            if (e == names.length) {
                names = Arrays.copyOf(names, e * 2);
                lengths = Arrays.copyOf(lengths, e * 2);
                addresses = Arrays.copyOf(addresses, e * 2);
            }
            names[e] = ListingOutput.ascii8Padded(text);
            lengths[e] = text.length();
            addresses[e] = s.address();
        }
        index.put(s, e);
        return e;
    }
}
