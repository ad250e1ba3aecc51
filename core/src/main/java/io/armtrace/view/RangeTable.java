package io.armtrace.view;

import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import java.util.Arrays;

/**
 * The distinct instruction ranges of a capture, keyed by (start, end, ISA): how often each ran, how often
 * its last instruction failed its condition, its cycles, and the function it counts for. Grows with the
 * program's code, not with the trace. Part of {@link TraceAnalysis}.
 */
final class RangeTable {
    private final FunctionMap functions;
    // (start, end, isa) -> slot
    private final LongIntMap rangeSlots = new LongIntMap(1024);
    long[] rangeStart = new long[256];
    long[] rangeEnd = new long[256];
    int[] rangeCount = new int[256];
    Isa[] rangeIsa = new Isa[256];
    /** The sizes of the range's instructions: instruction i is {@code rangeSizesIndex[s] + i} of these. */
    InstructionSizes[] rangeSizes = new InstructionSizes[256];
    int[] rangeSizesIndex = new int[256];
    /** Function the range ran in when no symbol covers it (the tracked frame's). */
    int[] rangeFunction = new int[256];
    /** Function of the symbol at the range's start, or -1. */
    int[] rangeSymbol = new int[256];
    long[] rangeTimes = new long[256];
    long[] rangeLastFailed = new long[256];
    long[] rangeCycles = new long[256];
    int ranges;


    RangeTable(FunctionMap functions) {
        this.functions = functions;
    }

    /** Function of the symbol at slot {@code s}'s start, or -1. */
    int symbol(int s) {
        return rangeSymbol[s];
    }

    /** Slot {@code s} ran once more, in tracked function {@code function}; {@code lastPassed}: its last instruction too. */
    void ran(int s, int function, boolean lastPassed) {
        if (rangeFunction[s] < 0) {
            rangeFunction[s] = function;
        }
        rangeTimes[s]++;
        if (!lastPassed) {
            rangeLastFailed[s]++;
        }
    }

    void cycles(int s, long cycles) {
        rangeCycles[s] += cycles;
    }

    /** The slot of range {@code r}, made on first sight. */
    int slot(InstructionRange r) {
        // a key shared by another range (another ISA, or high address bits that the mix folds together)
        // probes on: slots are compared on the range itself
        long key = r.start() * 0x9E3779B97F4A7C15L ^ r.end();
        int s;
        while ((s = rangeSlots.get(key)) >= 0) {
            if (rangeStart[s] == r.start() && rangeEnd[s] == r.end() && rangeIsa[s] == r.isa()) {
                return s;
            }
            key++;
        }
        s = ranges++;
        if (s == rangeStart.length) {
            int n = s * 2;
            rangeStart = Arrays.copyOf(rangeStart, n);
            rangeEnd = Arrays.copyOf(rangeEnd, n);
            rangeCount = Arrays.copyOf(rangeCount, n);
            rangeIsa = Arrays.copyOf(rangeIsa, n);
            rangeSizes = Arrays.copyOf(rangeSizes, n);
            rangeSizesIndex = Arrays.copyOf(rangeSizesIndex, n);
            rangeFunction = Arrays.copyOf(rangeFunction, n);
            rangeSymbol = Arrays.copyOf(rangeSymbol, n);
            rangeTimes = Arrays.copyOf(rangeTimes, n);
            rangeLastFailed = Arrays.copyOf(rangeLastFailed, n);
            rangeCycles = Arrays.copyOf(rangeCycles, n);
        }
        rangeStart[s] = r.start();
        rangeEnd[s] = r.end();
        rangeCount[s] = r.count();
        rangeIsa[s] = r.isa();
        rangeSizes[s] = r.sizes();
        rangeSizesIndex[s] = r.sizesIndex();
        rangeFunction[s] = -1;
        rangeSymbol[s] = functions.at(r.start());
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
        for (int s = 0; s < ranges; s++) {
            long a = rangeStart[s];
            int n = rangeCount[s];
            Isa isa = rangeIsa[s];
            InstructionSizes sizes = rangeSizes[s];
            int first = rangeSizesIndex[s];
            double cyclesEach = n == 0 ? 0 : (double) rangeCycles[s] / n;
            for (int i = 0; i < n; i++) {
                int size = sizes.size(first + i);
                int f = functions.at(a);
                if (f < 0) {
                    f = rangeFunction[s];
                }
                boolean last = i == n - 1;
                long failed = last ? rangeLastFailed[s] : 0;
                v.instruction(a, isa, size, f, rangeTimes[s] - failed, failed, cyclesEach);
                a += size;
            }
        }
    }

}
