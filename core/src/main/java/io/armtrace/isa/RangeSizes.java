package io.armtrace.isa;

import io.armtrace.trace.InstructionSizes;
import java.util.Arrays;

/**
 * The instruction sizes of the range a flow decoder is building, for its
 * {@link io.armtrace.trace.InstructionRange}. While the range's instructions are consecutive
 * instructions of one cached {@link Block}, or all have one size, it only counts, and the range shares
 * the block's {@link InstructionSizes} (or a uniform one): nothing is allocated per range. Only a range
 * that mixes sizes across blocks (straight T32 code longer than a block, a walk over a not-taken
 * branch) gets an offsets array of its own. Its scratch grows with the longest such range, which lies
 * in the program image: a range covers each of its instructions once, in ascending addresses.
 */
public final class RangeSizes {
    /** The shared sizes the range's instructions are taken from, or null when {@link #merged}. */
    private InstructionSizes shared;
    private int sharedIndex;
    private int count;
    /** True when the range's offsets are in {@link #scratch}. */
    private boolean merged;
    private int[] scratch = new int[64];

    /** Starts an empty range. */
    public void clear() {
        shared = null;
        sharedIndex = 0;
        count = 0;
        merged = false;
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
        if (!merged) {
            if (count == 0) {
                shared = sizes;
                sharedIndex = from;
                count = n;
                if (from > Short.MAX_VALUE) {
                    mergeSoFar(); // a range's index into shared sizes is a short (see InstructionRange)
                }
                return;
            }
            if (sizes == shared && (sizes.isUniform() || from == sharedIndex + count)) {
                count += n;
                return;
            }
            if (shared.isUniform() && sizes.isUniform() && shared.uniformSize() == sizes.uniformSize()) {
                count += n;
                return;
            }
            mergeSoFar();
        }
        for (int i = 0; i < n; i++) {
            appendSize(sizes.size(from + i));
        }
    }

    /** Appends one instruction of {@code size} bytes (a flow that classifies instruction by instruction). */
    public void appendOne(int size) {
        if (!merged) {
            if (count == 0) {
                shared = InstructionSizes.uniform(size);
                sharedIndex = 0;
                count = 1;
                return;
            }
            if (shared.isUniform() && shared.uniformSize() == size) {
                count++;
                return;
            }
            mergeSoFar();
        }
        appendSize(size);
    }

    /** Size in bytes of instruction {@code i} of the range so far. */
    public int sizeOf(int i) {
        return merged ? scratch[i + 1] - scratch[i] : shared.size(sharedIndex + i);
    }

    /** Withdraws the last instruction (an ETMv3 cancel). */
    public void dropLast() {
        if (count > 0) {
            count--;
        }
    }

    /** The sizes to give the range: instruction i of the range is instruction {@link #index()} + i of these. */
    public InstructionSizes sizes() {
        if (!merged) {
            return shared != null ? shared : InstructionSizes.uniform(1);
        }
        return InstructionSizes.ofOffsets(Arrays.copyOf(scratch, count + 1));
    }

    /** See {@link #sizes()}; at most {@link Short#MAX_VALUE}, as {@link io.armtrace.trace.InstructionRange} keeps it. */
    public short index() {
        return (short) (merged ? 0 : sharedIndex);
    }

    private void mergeSoFar() {
        ensure(count + 1);
        long base = shared.offset(sharedIndex);
        for (int i = 0; i <= count; i++) {
            scratch[i] = (int) (shared.offset(sharedIndex + i) - base);
        }
        merged = true;
        shared = null;
    }

    private void appendSize(int size) {
        ensure(count + 2);
        scratch[count + 1] = scratch[count] + size;
        count++;
    }

    private void ensure(int n) {
        if (scratch.length < n) {
            scratch = Arrays.copyOf(scratch, Math.max(n, scratch.length * 2));
        }
    }
}
