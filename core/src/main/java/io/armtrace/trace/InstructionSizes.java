package io.armtrace.trace;

/**
 * The sizes of the instructions of a straight run of code, so that a view can step through an
 * {@link InstructionRange} without reading memory or decoding instructions. Immutable: a decoder hands
 * the same object to every range it takes from the same run (the flow decoders share the one their code
 * walker cached with a block of code), so that making a range allocates nothing for its sizes.
 *
 * <p>Either every instruction has one size (A32 and A64: 4 bytes; T32 code without any 32-bit, or
 * without any 16-bit, instruction), or the byte offset of each instruction from the first of the run is
 * listed, with the run's length after the last (T32 code that mixes 16- and 32-bit instructions, ARM DDI
 * 0406C A6.1), or the run is joined from consecutive parts of other runs (a range that crosses from one
 * block of code into the next: its parts are shared, only the short list of them is its own).
 */
public final class InstructionSizes {
    private static final InstructionSizes[] UNIFORM = new InstructionSizes[9];

    static {
        for (int s = 1; s < UNIFORM.length; s++) {
            UNIFORM[s] = new InstructionSizes(s, null);
        }
    }

    /** The size of every instruction, or 0 when {@link #offsets} lists them. */
    private final int uniformSize;
    /** Offset of instruction i from instruction 0, for i in [0, n]; entry n is the run's length in bytes. */
    private final int[] offsets;
    /** For a joined run: part p is instructions {@code partFrom[p]} on of {@code parts[p]}. */
    private final InstructionSizes[] parts;
    private final int[] partFrom;
    /** For a joined run: the index of part p's first instruction in this run, ascending from 0, and then the count. */
    private final int[] partFirst;
    /** For a joined run: the byte offset of part p's first instruction from this run's first, and then the length. */
    private final long[] partOffset;

    private InstructionSizes(int uniformSize, int[] offsets) {
        this.uniformSize = uniformSize;
        this.offsets = offsets;
        this.parts = null;
        this.partFrom = null;
        this.partFirst = null;
        this.partOffset = null;
    }

    private InstructionSizes(InstructionSizes[] parts, int[] partFrom, int[] partFirst, long[] partOffset) {
        this.uniformSize = 0;
        this.offsets = null;
        this.parts = parts;
        this.partFrom = partFrom;
        this.partFirst = partFirst;
        this.partOffset = partOffset;
    }

    /** Every instruction is {@code size} bytes (1 to 8); one shared object per size. */
    public static InstructionSizes uniform(int size) {
        if (size < 1 || size >= UNIFORM.length) {
            throw new IllegalArgumentException("instruction size " + size);
        }
        return UNIFORM[size];
    }

    /**
     * The run whose instruction i starts {@code offsets[i]} bytes after its first, for i below
     * {@code offsets.length - 1}; the last entry is the run's length in bytes. The array is kept, not
     * copied: whoever passes it must never change it again.
     */
    public static InstructionSizes ofOffsets(int[] offsets) {
        if (offsets.length < 1 || offsets[0] != 0) {
            throw new IllegalArgumentException("offsets must start with 0");
        }
        return new InstructionSizes(0, offsets);
    }

    /**
     * The run made of {@code counts[p]} instructions of {@code parts[p]} from its instruction
     * {@code from[p]}, for each p in order. The parts are kept, not copied (the arrays are).
     */
    public static InstructionSizes joined(InstructionSizes[] parts, int[] from, int[] counts, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("no parts");
        }
        int[] first = new int[n + 1];
        long[] offset = new long[n + 1];
        for (int p = 0; p < n; p++) {
            first[p + 1] = first[p] + counts[p];
            offset[p + 1] = offset[p] + parts[p].offset(from[p] + counts[p]) - parts[p].offset(from[p]);
        }
        return new InstructionSizes(java.util.Arrays.copyOf(parts, n), java.util.Arrays.copyOf(from, n), first, offset);
    }

    /** True when every instruction has the same size, {@link #uniformSize()}. */
    public boolean isUniform() {
        return uniformSize != 0;
    }

    /** The size of every instruction for a uniform run; 0 otherwise. */
    public int uniformSize() {
        return uniformSize;
    }

    /** Number of instructions listed; {@link Integer#MAX_VALUE} for a uniform run, which has no end. */
    public int listed() {
        if (uniformSize != 0) {
            return Integer.MAX_VALUE;
        }
        return offsets != null ? offsets.length - 1 : partFirst[parts.length];
    }

    /** Size in bytes of instruction {@code i} of the run. */
    public int size(int i) {
        if (uniformSize != 0) {
            return uniformSize;
        }
        if (offsets != null) {
            return offsets[i + 1] - offsets[i];
        }
        int p = part(i);
        return parts[p].size(partFrom[p] + i - partFirst[p]);
    }

    /** Byte offset of instruction {@code i} from the run's first instruction; i may be the count (the length). */
    public long offset(int i) {
        if (uniformSize != 0) {
            return (long) i * uniformSize;
        }
        if (offsets != null) {
            return offsets[i];
        }
        int p = part(i);
        if (p == parts.length) {
            return partOffset[p];
        }
        return partOffset[p] + parts[p].offset(partFrom[p] + i - partFirst[p]) - parts[p].offset(partFrom[p]);
    }

    /** The part instruction {@code i} of a joined run is in; the number of parts for i = the count. */
    private int part(int i) {
        int p = java.util.Arrays.binarySearch(partFirst, 0, parts.length + 1, i);
        if (p >= 0) {
            return p;
        }
        return -p - 2;
    }

    @Override
    public String toString() {
        if (uniformSize != 0) {
            return "InstructionSizes[" + uniformSize + "]";
        }
        StringBuilder b = new StringBuilder("InstructionSizes[");
        int n = listed();
        for (int i = 0; i < n && i < 16; i++) {
            b.append(i == 0 ? "" : ",").append(size(i));
        }
        return b.append(n > 16 ? ",...]" : "]").toString();
    }
}
