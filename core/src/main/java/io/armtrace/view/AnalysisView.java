package io.armtrace.view;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.TraceElement;

/**
 * A view computed from one {@link TraceAnalysis} pass: it forwards the element stream to the analysis,
 * and several views can share one analysis so that the trace is read once.
 */
abstract class AnalysisView implements ElementSink {
    final TraceAnalysis analysis;

    AnalysisView(TraceAnalysis analysis) {
        this.analysis = analysis;
    }

    @Override
    public void accept(TraceElement element) {
        analysis.accept(element);
    }

    @Override
    public void end() {
        analysis.end();
    }

    public TraceAnalysis analysis() {
        return analysis;
    }
}
