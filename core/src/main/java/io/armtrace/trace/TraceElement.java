package io.armtrace.trace;

/**
 * One item of the protocol-independent element stream: the single contract between the decoders and
 * everything that consumes their output. Every element carries the trace source ID it came from.
 *
 * <p>The kinds are closed: every view and writer implements {@link ElementVisitor}, which has one
 * method per kind, so a new kind does not compile until each of them says what it does with it (a
 * test enumerates the permitted subclasses as well).
 */
public sealed interface TraceElement
        permits InstructionRange, InstructionCount, ExceptionEntry, ExceptionReturn, TraceOn, Gap, NoImage,
                Context, Timestamp, CycleCount, Event, Trigger, DecodeError, SoftwareTrace {

    /** The trace source ID (CoreSight trace ID) of the stream this element was decoded from. */
    int source();

    /** Calls the visitor's method for this kind of element. */
    void accept(ElementVisitor visitor);
}
