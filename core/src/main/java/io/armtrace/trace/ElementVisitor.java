package io.armtrace.trace;

/**
 * One method per kind of {@link TraceElement}. Every view and writer implements it, so that adding a
 * kind to the sealed hierarchy fails to compile until each of them handles the kind: there are no
 * default methods. {@link TraceElement#accept} calls the method of the element's kind.
 */
public interface ElementVisitor {
    void visit(InstructionRange range);

    void visit(InstructionCount count);

    void visit(ExceptionEntry exception);

    void visit(ExceptionReturn exceptionReturn);

    void visit(TraceOn traceOn);

    void visit(Gap gap);

    void visit(NoImage noImage);

    void visit(Context context);

    void visit(Timestamp timestamp);

    void visit(CycleCount cycles);

    void visit(Event event);

    void visit(Trigger trigger);

    void visit(DecodeError error);

    // software trace (ITM, DWT, STM): the kinds of the sealed SoftwareTrace

    void visit(SoftwareMessage message);

    void visit(LocalTimestamp timestamp);

    void visit(PcSample sample);

    void visit(ExceptionTrace exception);

    void visit(DataTrace data);

    void visit(EventCounterWrap wrap);
}
