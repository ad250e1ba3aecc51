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
     * The core took exception {@code number}, with {@code preferredReturn} the address the handler
     * returns to and {@code handler} the first address executed in the handler.
     *
     * <p>{@code number} is the architecture's: for M profile the exception number (11 = SVCall,
     * 15 = SysTick, 16+ = IRQ); for an exception taken to AArch32 state on A/R profile the vector
     * offset / 4 (2 = SVC, 6 = IRQ); for an exception taken to AArch64 state the vector offset / 0x80
     * (Arm DDI 0487, "Vector offsets from vector table base address": 0-3 from the current exception
     * level with SP_EL0, 4-7 with SP_ELx, 8-11 from a lower one in AArch64, 12-15 in AArch32; within
     * each group synchronous, IRQ, FIQ, SError).
     *
     * <p>{@code el} is the exception level the exception is taken to, {@code exceptionClass} the
     * ESR_ELx.EC of a synchronous exception taken to AArch64 (0x15 = SVC in AArch64 state); each is
     * {@link #UNKNOWN} where the record does not say (AArch32 and M-profile records).
     */
    record ExceptionTaken(int number, long preferredReturn, long handler, int el, int exceptionClass)
            implements ExecutionEvent {
        /** An exception level or exception class the record does not state. */
        public static final int UNKNOWN = -1;

        public ExceptionTaken {
            if (el < UNKNOWN || el > 3) {
                throw new IllegalArgumentException("exception level " + el + " is not 0 to 3");
            }
            if (exceptionClass < UNKNOWN || exceptionClass > 0x3f) {
                throw new IllegalArgumentException("exception class " + exceptionClass + " is not 0 to 0x3f");
            }
        }

        /** An exception without exception level and class (AArch32 and M profile). */
        public ExceptionTaken(int number, long preferredReturn, long handler) {
            this(number, preferredReturn, handler, UNKNOWN, UNKNOWN);
        }
    }

    /**
     * The core returned from an exception and resumed at {@code resume}, at exception level
     * {@code el} ({@link ExceptionTaken#UNKNOWN} where the record does not say).
     */
    record ExceptionReturned(long resume, int el) implements ExecutionEvent {
        public ExceptionReturned {
            if (el < ExceptionTaken.UNKNOWN || el > 3) {
                throw new IllegalArgumentException("exception level " + el + " is not 0 to 3");
            }
        }

        /** A return without exception level (AArch32 and M profile). */
        public ExceptionReturned(long resume) {
            this(resume, ExceptionTaken.UNKNOWN);
        }
    }
}
