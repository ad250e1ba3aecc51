package io.armtrace.view;

import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import java.util.Arrays;

/**
 * The distinct instruction ranges of a capture, keyed by (start, end, ISA): how often each ran, how often
 * its last instruction failed its condition, its cycles, and the function it counts for. Grows with the
 * program's code, not with the trace. Part of {@link TraceAnalysis}.
 *
 * <p>Layout: what the stream reads and writes per range is one slot of eight longs ({@link #data}), so that
 * a range costs one or two cache lines however large the program; a table per field cost a miss per field
 * on a program with tens of thousands of ranges. A slot also remembers the two slots that last followed it:
 * code runs in loops, so the next range is nearly always one of them and the hash index is seldom read.
 */
final class RangeTable {
    /** Longs per slot, and the words of a slot. */
    private static final int W = 8;
    private static final int START = 0;
    private static final int END = 1;
    /** count (bits 0-31), ISA ordinal (32-39), sizes index (40-63, signed). */
    private static final int SHAPE = 2;
    private static final int TIMES = 3;
    private static final int FAILED = 4;
    private static final int CYCLES = 5;
    /** symbol's function (bits 0-31, -1 none), tracked function (32-63, -1 not yet). */
    private static final int FUNCS = 6;
    /** the two slots that followed this one most recently (bits 0-31 the newer), -1 none. */
    private static final int NEXT = 7;
    private static final long NO_NEXT = -1L;
    private static final Isa[] ISAS = Isa.values();

    private final FunctionMap functions;
    // (start, end, isa) -> slot
    private final LongIntMap rangeSlots = new LongIntMap(1024);
    private long[] data = new long[256 * W];
    /** The sizes of the range's instructions: instruction i is {@code sizesIndex + i} of these (read at the end). */
    private InstructionSizes[] rangeSizes = new InstructionSizes[256];
    int ranges;
    /** The slot of the previous range, whose successors the next lookup tries first; -1 none. */
    private int previous = -1;

    RangeTable(FunctionMap functions) {
        this.functions = functions;
    }

    /** Function of the symbol at slot {@code s}'s start, or -1. */
    int symbol(int s) {
        return (int) data[s * W + FUNCS];
    }

    /** Slot {@code s} ran once more, in tracked function {@code function}; {@code lastPassed}: its last instruction too. */
    void ran(int s, int function, boolean lastPassed) {
        long[] d = data;
        int i = s * W;
        long f = d[i + FUNCS];
        if (f < 0) { // the tracked function is not set yet (the high half is -1)
            d[i + FUNCS] = (long) function << 32 | (f & 0xFFFF_FFFFL);
        }
        d[i + TIMES]++;
        if (!lastPassed) {
            d[i + FAILED]++;
        }
    }

    void cycles(int s, long cycles) {
        data[s * W + CYCLES] += cycles;
    }

    /** The slot of the range, made on first sight. */
    int slot(long start, long end, int count, Isa isa, InstructionSizes sizes, int sizesIndex) {
        long[] d = data;
        int p = previous;
        long next = p >= 0 ? d[p * W + NEXT] : NO_NEXT;
        int n = (int) next;
        if (n >= 0 && same(d, n, start, end, isa)) {
            previous = n;
            return n;
        }
        int n2 = (int) (next >> 32);
        if (n2 >= 0 && same(d, n2, start, end, isa)) {
            // the older of the two followed again: it becomes the newer
            d[p * W + NEXT] = (long) n << 32 | n2;
            previous = n2;
            return n2;
        }
        int s = find(start, end, count, isa, sizes, sizesIndex);
        if (p >= 0) {
            data[p * W + NEXT] = (long) n << 32 | s;
        }
        previous = s;
        return s;
    }

    private static boolean same(long[] d, int s, long start, long end, Isa isa) {
        int i = s * W;
        return d[i + START] == start && d[i + END] == end && (int) (d[i + SHAPE] >>> 32 & 0xFF) == isa.ordinal();
    }

    private int find(long start, long end, int count, Isa isa, InstructionSizes sizes, int sizesIndex) {
        // a key shared by another range (another ISA, or high address bits that the mix folds together)
        // probes on: slots are compared on the range itself
        long key = start * 0x9E3779B97F4A7C15L ^ end;
        int s;
        while ((s = rangeSlots.get(key)) >= 0) {
            if (same(data, s, start, end, isa)) {
                return s;
            }
            key++;
        }
        s = ranges++;
        if ((s + 1) * W > data.length) {
            data = Arrays.copyOf(data, data.length * 2);
            rangeSizes = Arrays.copyOf(rangeSizes, rangeSizes.length * 2);
        }
        long[] d = data;
        int i = s * W;
        d[i + START] = start;
        d[i + END] = end;
        d[i + SHAPE] = (count & 0xFFFF_FFFFL) | (long) isa.ordinal() << 32 | (long) sizesIndex << 40;
        d[i + FUNCS] = -1L << 32 | (functions.at(start) & 0xFFFF_FFFFL);
        d[i + NEXT] = NO_NEXT;
        rangeSizes[s] = sizes;
        rangeSlots.put(key, s);
        return s;
    }

    /** Receives each distinct executed instruction once, with its totals. */
    interface InstructionVisitor {
        /**
         * @param function the function it counts for (its symbol's, else the tracked frame's)
         * @param passed   executions that passed their condition (or had none)
         * @param failed   executions that failed their condition
         * @param cycles   cycles attributed to it (a range's cycles shared among its instructions)
         */
        void instruction(long address, Isa isa, int size, int function, long passed, long failed, double cycles);
    }

    /**
     * Expands every distinct range once and calls the visitor per instruction of it; an instruction that
     * is in several distinct ranges is visited once per range.
     */
    void forEachInstruction(InstructionVisitor v) {
        long[] d = data;
        for (int s = 0; s < ranges; s++) {
            int w = s * W;
            long a = d[w + START];
            long shape = d[w + SHAPE];
            int n = (int) shape;
            Isa isa = ISAS[(int) (shape >>> 32 & 0xFF)];
            int first = (int) (shape >> 40); // signed, as stored
            InstructionSizes sizes = rangeSizes[s];
            long times = d[w + TIMES];
            long lastFailed = d[w + FAILED];
            int tracked = (int) (d[w + FUNCS] >> 32);
            double cyclesEach = n == 0 ? 0 : (double) d[w + CYCLES] / n;
            for (int i = 0; i < n; i++) {
                int size = sizes.size(first + i);
                int f = functions.at(a);
                if (f < 0) {
                    f = tracked;
                }
                boolean last = i == n - 1;
                long failed = last ? lastFailed : 0;
                v.instruction(a, isa, size, f, times - failed, failed, cyclesEach);
                a += size;
            }
        }
    }

}
