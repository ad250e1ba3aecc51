package io.armtrace.execution;

import io.armtrace.trace.Isa;

/**
 * One event of a known execution, in the order the core performed them: the input of every encoder
 * and the truth every round-trip test compares a decode with.
 */
public sealed interface ExecutionEvent {

    /**
     * An instruction the core issued at {@code address}; {@code executed} is false when it failed its
     * condition code (it still appears in program order).
     */
    record Step(long address, Isa isa, int size, boolean executed) implements ExecutionEvent {
    }

    /**
     * The core took exception {@code number} (the architecture's vector number: for M profile the
     * exception number, 11 = SVCall, 15 = SysTick, 16+ = IRQ; for A/R profile the vector offset / 4,
     * e.g. 2 = SVC, 6 = IRQ). {@code preferredReturn} is the address the handler returns to;
     * {@code handler} the first address executed in the handler.
     */
    record ExceptionTaken(int number, long preferredReturn, long handler) implements ExecutionEvent {
    }

    /** The core returned from an exception and resumed at {@code resume}. */
    record ExceptionReturned(long resume) implements ExecutionEvent {
    }
}
