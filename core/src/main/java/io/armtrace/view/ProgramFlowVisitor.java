package io.armtrace.view;

import io.armtrace.trace.DataTrace;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;

/**
 * A visitor of the analyses, which are made for program flow: the parts of {@link TraceAnalysis} pass
 * software trace (ITM, DWT, STM) by here, in one place. Software trace says nothing about the program's
 * flow, and it is not counted, so a capture's profile is the same with its ITM source or without.
 * {@link TraceAnalysis#accept} passes it by before any part sees it; these methods say the same to a
 * caller that visits a part directly.
 */
abstract class ProgramFlowVisitor implements ElementVisitor {

    @Override
    public final void visit(SoftwareMessage m) {
    }

    @Override
    public final void visit(LocalTimestamp t) {
    }

    @Override
    public final void visit(PcSample s) {
    }

    @Override
    public final void visit(ExceptionTrace x) {
    }

    @Override
    public final void visit(DataTrace d) {
    }

    @Override
    public final void visit(EventCounterWrap w) {
    }
}
