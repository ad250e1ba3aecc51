package io.armtrace.trace;

/**
 * The mode of an M-profile core (Armv7-M, Armv8-M): Thread mode runs applications, Handler mode runs exception
 * handlers. {@code NONE} for every other core, and for an M-profile context whose trace does not say.
 */
public enum ProcessorMode {
    NONE, THREAD, HANDLER
}
