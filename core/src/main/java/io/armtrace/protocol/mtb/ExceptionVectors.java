package io.armtrace.protocol.mtb;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * Names M-profile exceptions by their handler address, from the program image's vector table: entry
 * {@code n} (at table + 4n) holds the handler of exception {@code n}, with bit 0 set (Thumb). Exception
 * numbers are the architecture's (ARMv6-M / ARMv7-M / ARMv8-M: 1 Reset, 2 NMI, 3 HardFault, ...,
 * 11 SVCall, 14 PendSV, 15 SysTick, 16 + n IRQn).
 */
final class ExceptionVectors {
    /** Common names of the vector table symbol in startup code. */
    private static final String[] TABLE_SYMBOLS = {"__isr_vector", "__Vectors", "g_pfnVectors", "vectors",
        "__vector_table", "_vectors", "isr_vector", "__vectors", "vector_table", "_vector_table",
        "exception_table", "__isr_vectors"};
    /** 16 system vectors + at most 480 interrupts (ARMv8-M). */
    private static final int MAX_ENTRIES = 16 + 480;

    static final ExceptionVectors NONE = new ExceptionVectors(-1, new long[0], new int[0]);

    private final long table;
    /** Handler addresses (Thumb bit clear), sorted, with the exception numbers that use each. */
    private final long[] handlers;
    private final int[] numbers;

    private ExceptionVectors(long table, long[] handlers, int[] numbers) {
        this.table = table;
        this.handlers = handlers;
        this.numbers = numbers;
    }

    /** Address of the vector table, -1 if none was found. */
    long table() {
        return table;
    }

    static ExceptionVectors find(ProgramImage image, OptionalLong vtor) {
        if (image == null) {
            return NONE;
        }
        MemoryImage m = image.memory();
        if (vtor.isPresent()) {
            return read(image, vtor.getAsLong());
        }
        if (plausible(m, 0)) {
            return read(image, 0);
        }
        for (String name : TABLE_SYMBOLS) {
            Symbol s = image.symbols().find(name);
            if (s != null && plausible(m, s.address())) {
                return read(image, s.address());
            }
        }
        for (MemoryImage.Region r : m.regions()) {
            if (plausible(m, r.start())) {
                return read(image, r.start());
            }
        }
        return NONE;
    }

    /** The Reset entry is a Thumb address of code in the image. */
    private static boolean plausible(MemoryImage m, long table) {
        long reset = m.u32(table + 4);
        return reset > 0 && (reset & 1) != 0 && m.u16(reset & ~1L) >= 0;
    }

    private static ExceptionVectors read(ProgramImage image, long table) {
        MemoryImage m = image.memory();
        int limit = MAX_ENTRIES;
        Symbol s = image.symbols().lookup(table);
        if (s != null && s.address() == table && s.size() >= 8) {
            limit = (int) Math.min(MAX_ENTRIES, s.size() / 4);
        }
        long[] h = new long[limit];
        int[] n = new int[limit];
        int count = 0;
        for (int i = 1; i < limit; i++) {
            long v = m.u32(table + 4L * i);
            if (v < 0) {
                break;
            }
            if (v == 0) {
                continue;
            }
            if ((v & 1) == 0 || m.u16(v & ~1L) < 0) {
                if (i >= 16) {
                    break; // past the system vectors, a word that is no handler ends the table
                }
                continue;
            }
            h[count] = v & ~1L;
            n[count] = i;
            count++;
        }
        // sort by handler address, keeping exception numbers in ascending order for equal handlers
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        final long[] hh = h;
        Arrays.sort(order, (a, b) -> hh[a] != hh[b] ? Long.compare(hh[a], hh[b]) : Integer.compare(a, b));
        long[] handlers = new long[count];
        int[] numbers = new int[count];
        for (int i = 0; i < count; i++) {
            handlers[i] = h[order[i]];
            numbers[i] = n[order[i]];
        }
        return new ExceptionVectors(table, handlers, numbers);
    }

    /** The exception number whose handler starts at {@code handler}; -1 if none or several. */
    int number(long handler) {
        int i = Arrays.binarySearch(handlers, handler);
        if (i < 0) {
            return -1;
        }
        boolean several = (i > 0 && handlers[i - 1] == handler) || (i + 1 < handlers.length && handlers[i + 1] == handler);
        return several ? -1 : numbers[i];
    }

    boolean isHandler(long handler) {
        return Arrays.binarySearch(handlers, handler) >= 0;
    }

    /** Name for the exception whose handler starts at {@code handler}; null if the table does not say. */
    String name(long handler) {
        int i = Arrays.binarySearch(handlers, handler);
        if (i < 0) {
            return null;
        }
        while (i > 0 && handlers[i - 1] == handler) {
            i--;
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (int j = i; j < handlers.length && handlers[j] == handler; j++) {
            if (shown == 3) {
                sb.append("/...");
                break;
            }
            if (shown > 0) {
                sb.append('/');
            }
            sb.append(nameOf(numbers[j]));
            shown++;
        }
        return sb.toString();
    }

    /** Architectural name of M-profile exception {@code n}; "exception n" for a reserved number. */
    static String nameOf(int n) {
        String name = io.armtrace.trace.MProfileExceptions.name(n);
        return name != null ? name : "exception " + n;
    }
}
