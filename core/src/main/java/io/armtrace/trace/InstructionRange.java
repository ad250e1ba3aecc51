package io.armtrace.trace;

/**
 * A run of {@code count} instructions executed one after another from {@code start}; {@code end} is the
 * address just past the last one, whose address is {@link #lastAddress()}. All instructions of a range
 * but the last passed their condition code (or had none); {@code lastExecuted} says whether the last one
 * did. A range is in one ISA.
 *
 * <p>The range says what the views need, so that they neither read memory nor decode instructions:
 * {@code lastKind} tells what the last instruction is as a waypoint (branch, indirect branch, exception
 * call or return, barrier, or none), {@code lastCall} whether it is a branch with link or a return, and
 * {@code sizes} gives the size of every instruction: instruction i of the range is instruction
 * {@code sizesIndex + i} of the run {@code sizes} describes ({@link #sizeOf}, {@link #addressOf}). A
 * decoder shares one {@link InstructionSizes} between the ranges it takes from the same code.
 *
 * <p>Two ranges are equal when their fields other than the sizes are equal and their instructions have
 * the same sizes, however the sizes are held.
 */
public record InstructionRange(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                               CallKind lastCall, boolean lastExecuted, InstructionSizes sizes, short sizesIndex)
        implements TraceElement {
    /*
     * Why the last instruction's address is computed and the index is a short: a range is the element
     * decoders make most of (one per waypoint), and these keep it at the 56 bytes it took before it carried
     * sizes, which allocation-bound decoding (PFT with the return stack) measurably depends on. The index
     * is into a walker's block, which holds at most a few thousand instructions (a range that would start
     * further in gets joined sizes of its own, from 0).
     */

    /** A range whose instructions are instructions 0 to count - 1 of {@code sizes}. */
    public InstructionRange(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                            CallKind lastCall, boolean lastExecuted, InstructionSizes sizes) {
        this(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, (short) 0);
    }

    /**
     * A range of instructions of one size, {@code (end - start) / count} bytes, whose last instruction is
     * neither a call nor a return (or whose maker cannot tell). A range of a state with one instruction
     * size (A32, A64) always qualifies; T32 code that mixes sizes needs the canonical constructor.
     *
     * @throws IllegalArgumentException if the instructions cannot all have one size, or the last one
     *                                  is not at {@code lastAddress}
     */
    public InstructionRange(int source, long start, long end, int count, Isa isa, long lastAddress,
                            WaypointKind lastKind, boolean lastExecuted) {
        this(source, start, end, count, isa, lastKind, CallKind.NONE, lastExecuted, oneSize(start, end, count, isa));
        if (lastAddress() != lastAddress) {
            throw new IllegalArgumentException(String.format("the last of %d instructions from 0x%x to 0x%x is at "
                    + "0x%x, not 0x%x", count, start, end, lastAddress(), lastAddress));
        }
    }

    private static InstructionSizes oneSize(long start, long end, int count, Isa isa) {
        if (isa == Isa.A32 || isa == Isa.A64) {
            return InstructionSizes.uniform(4);
        }
        long bytes = end - start;
        if (count <= 0 || bytes % count != 0 || bytes / count < 1 || bytes / count > 8) {
            throw new IllegalArgumentException(String.format(
                    "%d %s instructions in %d bytes do not have one size", count, isa, bytes));
        }
        return InstructionSizes.uniform((int) (bytes / count));
    }

    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }

    /** Size in bytes of instruction {@code i} of the range, 0 for the first. */
    public int sizeOf(int i) {
        return sizes.size(sizesIndex + i);
    }

    /** Address of instruction {@code i} of the range, 0 for the first. */
    public long addressOf(int i) {
        return start + (sizes.offset(sizesIndex + i) - sizes.offset(sizesIndex));
    }

    /** Address of the last instruction. */
    public long lastAddress() {
        return lastAddress(start, count, sizes, sizesIndex);
    }

    /**
     * The address of the last instruction of the range these fields describe (as {@link ElementSink#range} hands
     * them over), for a sink that takes them without making the element.
     */
    public static long lastAddress(long start, int count, InstructionSizes sizes, int sizesIndex) {
        return count > 0 ? start + (sizes.offset(sizesIndex + count - 1) - sizes.offset(sizesIndex)) : start;
    }

    /** Size in bytes of the last instruction. */
    public int lastSize() {
        return count > 0 ? sizeOf(count - 1) : 0;
    }

    /**
     * The instructions {@code from} to {@code from + n - 1} of this range as a range of their own: the
     * last one keeps this range's ending when it is this range's last instruction; otherwise the piece
     * ends with no waypoint and its last instruction passed its condition (every instruction of a range
     * but the last did). Shares this range's sizes.
     */
    public InstructionRange slice(int from, int n) {
        if (from < 0 || n < 1 || from + n > count) {
            throw new IndexOutOfBoundsException("instructions " + from + ".." + (from + n - 1) + " of " + count);
        }
        boolean endsRange = from + n == count;
        long first = addressOf(from);
        long pieceEnd = addressOf(from + n - 1) + sizeOf(from + n - 1);
        int index = sizesIndex + from;
        InstructionSizes s = sizes;
        if (index > Short.MAX_VALUE) { // a slice far into a long range: its own offsets
            int[] offsets = new int[n + 1];
            for (int i = 0; i < n; i++) {
                offsets[i + 1] = offsets[i] + sizeOf(from + i);
            }
            s = InstructionSizes.ofOffsets(offsets);
            index = 0;
        }
        return new InstructionRange(source, first, pieceEnd, n, isa, endsRange ? lastKind : WaypointKind.NONE,
                endsRange ? lastCall : CallKind.NONE, !endsRange || lastExecuted, s, (short) index);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof InstructionRange r)) {
            return false;
        }
        if (source != r.source || start != r.start || end != r.end || count != r.count || isa != r.isa
                || lastKind != r.lastKind || lastCall != r.lastCall || lastExecuted != r.lastExecuted) {
            return false;
        }
        if (sizes == r.sizes && sizesIndex == r.sizesIndex) {
            return true;
        }
        for (int i = 0; i < count; i++) {
            if (sizeOf(i) != r.sizeOf(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Integer.hashCode(source);
        h = 31 * h + Long.hashCode(start);
        h = 31 * h + Long.hashCode(end);
        h = 31 * h + count;
        h = 31 * h + isa.hashCode();
        h = 31 * h + lastKind.hashCode();
        h = 31 * h + lastCall.hashCode();
        return 31 * h + Boolean.hashCode(lastExecuted);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("InstructionRange[source=").append(source)
                .append(", start=0x").append(Long.toHexString(start)).append(", end=0x").append(Long.toHexString(end))
                .append(", count=").append(count).append(", isa=").append(isa)
                .append(", last=0x").append(Long.toHexString(lastAddress())).append(' ').append(lastKind)
                .append(' ').append(lastCall).append(lastExecuted ? "" : " failed").append(", sizes=");
        for (int i = 0; i < count && i < 16; i++) {
            b.append(i == 0 ? "" : ",").append(sizeOf(i));
        }
        return b.append(count > 16 ? ",...]" : "]").toString();
    }
}
