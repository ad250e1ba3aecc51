package io.armtrace.view;

import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.Event;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a capture holds, counted per kind of element: instructions and ranges, cycles, exceptions by
 * name, gaps and errors (with the first {@link #MAX_MESSAGES} of their messages), trace restarts,
 * contexts, timestamps, events, triggers, and the trace sources seen. The report shows it. Software trace
 * is not counted ({@link ProgramFlowVisitor}).
 */
final class CaptureSummary extends ProgramFlowVisitor {
    /** Messages of gaps and errors kept for the report; the rest are only counted. */
    static final int MAX_MESSAGES = 20;

    long elements;
    long instructions;
    long rangeElements;
    /** Instructions the trace counted without their path ({@link InstructionCount}). */
    long pathlessInstructions;
    long cycles;
    long gaps;
    long noImage;
    long errors;
    long traceOns;
    long exceptionReturns;
    long contexts;
    long timestamps;
    long events;
    long triggers;
    final Map<String, Long> exceptionsByName = new LinkedHashMap<>();
    final List<String> gapMessages = new ArrayList<>();
    final List<String> errorMessages = new ArrayList<>();
    final TreeSet<Integer> sources = new TreeSet<>();
    private int lastSource = -1;

    /** Counts the element's source; the visitor method then counts the element. */
    void source(int src) {
        elements++;
        if (src != lastSource) {
            sources.add(src);
            lastSource = src;
        }
    }

    @Override
    public void visit(InstructionRange r) {
        range(r.count());
    }

    /** A range of {@code count} instructions (what {@link #visit(InstructionRange)} counts). */
    void range(int count) {
        instructions += count;
        rangeElements++;
    }

    @Override
    public void visit(InstructionCount c) {
        pathlessInstructions += c.count();
    }

    @Override
    public void visit(ExceptionEntry x) {
        String name = x.name() != null ? x.name() : "exception " + x.number();
        exceptionsByName.merge(name, 1L, Long::sum);
    }

    @Override
    public void visit(ExceptionReturn x) {
        exceptionReturns++;
    }

    @Override
    public void visit(TraceOn t) {
        traceOns++;
    }

    @Override
    public void visit(Gap g) {
        gaps++;
        if (gapMessages.size() < MAX_MESSAGES) {
            gapMessages.add(String.format("source %s, byte %d: %s", sourceText(g.source()), g.offset(), g.reason()));
        }
    }

    @Override
    public void visit(NoImage n) {
        noImage++;
    }

    @Override
    public void visit(Context c) {
        contexts++;
    }

    @Override
    public void visit(Timestamp t) {
        timestamps++;
    }

    @Override
    public void visit(CycleCount c) {
        cycles += c.cycles();
    }

    @Override
    public void visit(Event e) {
        events++;
    }

    @Override
    public void visit(Trigger t) {
        triggers++;
    }

    @Override
    public void visit(DecodeError d) {
        errors++;
        if (errorMessages.size() < MAX_MESSAGES) {
            errorMessages.add(String.format("source %s%s%s: %s", sourceText(d.source()),
                    d.offset() >= 0 ? ", byte " + d.offset() : "",
                    d.address() != -1 ? ", address 0x" + TextWriter.hexDigits(d.address(), 8) : "", d.message()));
        }
    }

    /** A trace ID as people read it: 0x10, or "none" for a source that has none (-1, e.g. MTB). */
    static String sourceText(int id) {
        return id < 0 ? "none" : String.format("0x%02x", id);
    }
}
