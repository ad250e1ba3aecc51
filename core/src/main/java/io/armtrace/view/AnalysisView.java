package io.armtrace.view;

import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;

/**
 * A view computed from one {@link TraceAnalysis} pass: it forwards the element stream to the analysis,
 * and several views can share one analysis so that the trace is read once. Every kind goes to the
 * analysis, which handles each.
 */
abstract class AnalysisView implements ElementSink, ElementVisitor {
    final TraceAnalysis analysis;

    AnalysisView(TraceAnalysis analysis) {
        this.analysis = analysis;
    }

    @Override
    public void accept(TraceElement element) {
        analysis.accept(element);
    }

    @Override
    public void visit(InstructionRange r) {
        analysis.accept(r);
    }

    @Override
    public void visit(InstructionCount c) {
        analysis.accept(c);
    }

    @Override
    public void visit(ExceptionEntry e) {
        analysis.accept(e);
    }

    @Override
    public void visit(ExceptionReturn e) {
        analysis.accept(e);
    }

    @Override
    public void visit(TraceOn t) {
        analysis.accept(t);
    }

    @Override
    public void visit(Gap g) {
        analysis.accept(g);
    }

    @Override
    public void visit(NoImage n) {
        analysis.accept(n);
    }

    @Override
    public void visit(Context c) {
        analysis.accept(c);
    }

    @Override
    public void visit(Timestamp t) {
        analysis.accept(t);
    }

    @Override
    public void visit(CycleCount c) {
        analysis.accept(c);
    }

    @Override
    public void visit(Event e) {
        analysis.accept(e);
    }

    @Override
    public void visit(Trigger t) {
        analysis.accept(t);
    }

    @Override
    public void visit(DecodeError e) {
        analysis.accept(e);
    }

    @Override
    public void visit(SoftwareMessage m) {
        analysis.accept(m);
    }

    @Override
    public void visit(LocalTimestamp t) {
        analysis.accept(t);
    }

    @Override
    public void visit(PcSample s) {
        analysis.accept(s);
    }

    @Override
    public void visit(ExceptionTrace x) {
        analysis.accept(x);
    }

    @Override
    public void visit(DataTrace d) {
        analysis.accept(d);
    }

    @Override
    public void visit(EventCounterWrap w) {
        analysis.accept(w);
    }

    @Override
    public void end() {
        analysis.end();
    }

    public TraceAnalysis analysis() {
        return analysis;
    }
}
