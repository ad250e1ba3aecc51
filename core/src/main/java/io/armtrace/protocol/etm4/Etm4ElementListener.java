package io.armtrace.protocol.etm4;

/** Receives the resolved ETMv4/ETE element stream in order. The element object is reused after the call returns. */
@FunctionalInterface
public interface Etm4ElementListener {
    void element(Etm4Element element);

    /**
     * {@code count} committed atoms in a row, all from the packet at {@code atom.offset}: bit i of {@code bits}
     * is the (i + 1)-th, 1 for E. {@code atom} is an ATOM element to reuse. The same as {@code count} calls of
     * {@link #element} with one atom each, which is what this does unless a listener takes them at once (an
     * atom packet holds up to 24 of them, and most of a trace's elements are atoms).
     */
    default void atoms(Etm4Element atom, int count, int bits) {
        for (int a = 0; a < count; a++) {
            atom.executed = (bits >>> a & 1) != 0;
            element(atom);
        }
    }
}
