package io.armtrace.trace;

/**
 * One item of the protocol-independent element stream: the single contract between the decoders and
 * everything that consumes their output. Every element carries the trace source ID it came from.
 */
public sealed interface TraceElement
        permits InstructionRange, ExceptionEntry, ExceptionReturn, TraceOn, Gap, NoImage, Context,
                Timestamp, CycleCount, Trigger, DecodeError, SoftwareTrace {

    /** The trace source ID (CoreSight trace ID) of the stream this element was decoded from. */
    int source();
}
