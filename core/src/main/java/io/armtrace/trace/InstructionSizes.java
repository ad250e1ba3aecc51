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
 * 0406C A6.1).
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

    private InstructionSizes(int uniformSize, int[] offsets) {
        this.uniformSize = uniformSize;
        this.offsets = offsets;
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

    /** True when every instruction has the same size, {@link #uniformSize()}. */
    public boolean isUniform() {
        return offsets == null;
    }

    /** The size of every instruction for a uniform run; 0 otherwise. */
    public int uniformSize() {
        return uniformSize;
    }

    /** Number of instructions listed; {@link Integer#MAX_VALUE} for a uniform run, which has no end. */
    public int listed() {
        return offsets == null ? Integer.MAX_VALUE : offsets.length - 1;
    }

    /** Size in bytes of instruction {@code i} of the run. */
    public int size(int i) {
        return offsets == null ? uniformSize : offsets[i + 1] - offsets[i];
    }

    /** Byte offset of instruction {@code i} from the run's first instruction. */
    public long offset(int i) {
        return offsets == null ? (long) i * uniformSize : offsets[i];
    }

    @Override
    public String toString() {
        if (offsets == null) {
            return "InstructionSizes[" + uniformSize + "]";
        }
        StringBuilder b = new StringBuilder("InstructionSizes[");
        for (int i = 0; i + 1 < offsets.length && i < 16; i++) {
            b.append(i == 0 ? "" : ",").append(size(i));
        }
        return b.append(offsets.length > 17 ? ",...]" : "]").toString();
    }
}
