package io.armtrace.image;

/**
 * Where a decoder reads the code that a trace ran: memory per {@link AddressSpace}, whose contents may
 * change as the trace goes on (a process maps a library at some point of the trace, as perf's MMAP2
 * records say). A decoder asks again for the memory of a space when the trace moves to another space
 * (a context or exception-level change) or past a {@link #changesAfter point where the mappings change}.
 *
 * <p>{@link #of(ProgramImage)} is the one-space case: one program image serving every space for the whole
 * trace, which is what a single ELF file or a snapshot without {@code space=} keys gives.
 */
public interface CodeMemory {
    /**
     * The memory that code running in {@code space} reads at trace position {@code position} (a byte offset
     * in the whole trace input): every mapping for a space that covers {@code space}, made at or before
     * {@code position}. Never null; empty where nothing is mapped.
     */
    MemoryImage at(AddressSpace space, long position);

    /**
     * The first trace position after {@code position} at which {@link #at} may answer differently for some
     * space, or {@link Long#MAX_VALUE} when the mappings no longer change: a decoder need not look again
     * before it.
     */
    long changesAfter(long position);

    /** One image serving every space for the whole trace. */
    static CodeMemory of(ProgramImage image) {
        return of(image.memory());
    }

    /** One memory serving every space for the whole trace. */
    static CodeMemory of(MemoryImage memory) {
        return new CodeMemory() {
            @Override
            public MemoryImage at(AddressSpace space, long position) {
                return memory;
            }

            @Override
            public long changesAfter(long position) {
                return Long.MAX_VALUE;
            }
        };
    }
}
