package io.armtrace.isa;

import io.armtrace.trace.InstructionSizes;
import java.util.Arrays;

/**
 * The instruction sizes of the range a flow decoder is building, for its
 * {@link io.armtrace.trace.InstructionRange}. The range is kept as its parts: consecutive instructions
 * of one cached {@link Block}, or of one size. While it has one part, the range shares that part's
 * {@link InstructionSizes} (a block's, or a uniform one) with an index into it: nothing is allocated per
 * range. A range that crosses from one block into the next with sizes of both kinds (straight T32 code
 * longer than a block, a walk over a not-taken branch) gets a joined {@code InstructionSizes} of its
 * own, a short list of the shared parts. The list of parts grows with the blocks a range passes, which
 * lie in the program image: a range covers each of its instructions once, in ascending addresses.
 */
public final class RangeSizes {
    private InstructionSizes[] partSizes = new InstructionSizes[8];
    private int[] partFrom = new int[8];
    private int[] partCount = new int[8];
    private int parts;
    private int count;

    /** Starts an empty range. */
    public void clear() {
        parts = 0;
        count = 0;
    }

    /** Number of instructions so far. */
    public int count() {
        return count;
    }

    /** Appends instructions {@code from} to {@code from + n - 1} of block {@code b} (nothing, and no block needed, if n is 0). */
    public void append(Block b, int from, int n) {
        if (n > 0) {
            append(b.sizes(), from, n);
        }
    }

    /** Appends instructions {@code from} to {@code from + n - 1} of the run {@code sizes} describes. */
    public void append(InstructionSizes sizes, int from, int n) {
        if (n <= 0) {
            return;
        }
        count += n;
        if (parts > 0) {
            int k = parts - 1;
            InstructionSizes last = partSizes[k];
            boolean continues = last == sizes && (sizes.isUniform() || partFrom[k] + partCount[k] == from);
            if (continues || (last.isUniform() && sizes.isUniform() && last.uniformSize() == sizes.uniformSize())) {
                partCount[k] += n;
                return;
            }
        }
        if (parts == partSizes.length) {
            int m = parts * 2;
            partSizes = Arrays.copyOf(partSizes, m);
            partFrom = Arrays.copyOf(partFrom, m);
            partCount = Arrays.copyOf(partCount, m);
        }
        partSizes[parts] = sizes;
        partFrom[parts] = sizes.isUniform() ? 0 : from;
        partCount[parts] = n;
        parts++;
    }

    /** Appends one instruction of {@code size} bytes (a flow that classifies instruction by instruction). */
    public void appendOne(int size) {
        append(InstructionSizes.uniform(size), 0, 1);
    }

    /** Size in bytes of instruction {@code i} of the range so far. */
    public int sizeOf(int i) {
        for (int k = parts - 1; k >= 0; k--) {
            int first = count - sum(k);
            if (i >= first) {
                return partSizes[k].size(partFrom[k] + i - first);
            }
        }
        throw new IndexOutOfBoundsException("instruction " + i + " of " + count);
    }

    /** Instructions in parts {@code k} and after. */
    private int sum(int k) {
        int n = 0;
        for (int j = k; j < parts; j++) {
            n += partCount[j];
        }
        return n;
    }

    /** Withdraws the last instruction (a cancel). */
    public void dropLast() {
        if (count == 0) {
            return;
        }
        count--;
        if (--partCount[parts - 1] == 0) {
            parts--;
        }
    }

    /**
     * The sizes to give the range: instruction i of the range is instruction {@link #index()} + i of
     * these. Shared (no allocation) while the range has one part.
     */
    public InstructionSizes sizes() {
        if (parts == 0) {
            return InstructionSizes.uniform(1);
        }
        if (parts == 1 && partFrom[0] <= Short.MAX_VALUE) {
            return partSizes[0];
        }
        return InstructionSizes.joined(partSizes, partFrom, partCount, parts);
    }

    /**
     * See {@link #sizes()}; at most {@link Short#MAX_VALUE}, as {@link io.armtrace.trace.InstructionRange}
     * keeps it (a range further into its part gets joined sizes of its own, from 0).
     */
    public short index() {
        return (short) (parts == 1 && partFrom[0] <= Short.MAX_VALUE ? partFrom[0] : 0);
    }
}
