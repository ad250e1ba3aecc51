package io.armtrace.view;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.Context;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.Trigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * A capture as a timeline in the Trace Event Format (the JSON that Perfetto UI, chrome://tracing and
 * speedscope read): one track (a "thread" of the one "process") per trace source, with a slice per
 * function activation from the call stack {@link TraceAnalysis} tracks (calls, exceptions, the outermost
 * function the trace starts in), slices for the exceptions that DWT exception trace reports, and
 * instant events for software messages (ITM stimulus writes, STM data), PC samples, data trace and gaps.
 *
 * <p>Each track runs on its own clock, chosen from the first {@link #WINDOW} elements of its stream:
 * cycles when the capture counts them, else timestamps (ITM local timestamps summed, or global
 * timestamps from the first one on), else a count (instructions executed, one per software trace
 * element). One clock unit is written as one microsecond, the format's unit; the track's name says
 * which clock it is.
 *
 * <p>Events stream out as the decode produces them: memory is the call-stack analysis (which grows
 * with the program, not the trace), the clock window, and at most {@link #LEVELS} open slices per
 * track. Slices always nest: every begin event gets its end event on the same track, at a gap, when
 * frames are abandoned, and when the stream ends.
 */
public final class TraceEventWriter {
    /** Elements a track looks at before it chooses its clock. */
    static final int WINDOW = 1 << 14;
    /** Open slices drawn per track; deeper frames are tracked but not drawn. */
    static final int LEVELS = 128;

    /** What a track's time counts. */
    public enum Clock {
        CYCLES("cycles"), TIMESTAMPS("timestamps"), LOCAL_TIMESTAMPS("local timestamp ticks"), COUNT("instructions");

        final String label;

        Clock(String label) {
            this.label = label;
        }
    }

    private final JsonGenerator g;
    private int tracks;
    private boolean finished;

    /** Starts the document on {@code out}; {@code title} names the process (the capture). */
    public TraceEventWriter(Writer out, String title) {
        try {
            g = new JsonFactory().createGenerator(out);
            g.writeStartObject();
            g.writeArrayFieldStart("traceEvents");
            metadata("process_name", 0, title);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A new track named {@code name}; the elements of one trace source go to it, and its {@link Track#end()}
     * closes its slices. {@code image} gives the function names.
     */
    public Track track(String name, ProgramImage image) {
        return new Track(++tracks, name, image);
    }

    /** Ends the document and flushes it (the writer stays open). */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        try {
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("generator", "armtrace");
            g.writeEndObject();
            g.writeEndObject();
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void metadata(String what, int tid, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", what);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", 1);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeEndObject();
    }

    private interface JsonWrite {
        void run() throws IOException;
    }

    private static void io(JsonWrite w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The elements of one trace source, written as they come. */
    public final class Track implements ElementSink, ElementVisitor, CallStack.Frames {
        private final int tid;
        private final String name;
        private final TraceAnalysis analysis;
        private List<TraceElement> window = new ArrayList<>();
        private boolean sawLocal;
        private boolean sawTimestamp;
        private boolean sawFlow;
        private Clock clock;
        private boolean ended;

        private long now;
        private long origin = -1;

        /** Names of the open slices, outermost first: slice {@code i} is call-stack level {@code i - base}. */
        private final String[] open = new String[LEVELS];
        private int depth;
        /** Outermost slices whose frames the call stack forgot when it was full (see {@link #outermostDropped}). */
        private int base;
        private String pendingException;

        /** Exceptions DWT exception trace shows as entered and not yet left, innermost last. */
        private final int[] swExceptions = new int[LEVELS];
        private final String[] swNames = new String[LEVELS];
        private int swDepth;

        private long slices;
        private long instants;

        Track(int tid, String name, ProgramImage image) {
            this.tid = tid;
            this.name = name;
            this.analysis = new TraceAnalysis(image);
            analysis.frames(this);
        }

        /** The clock chosen, or null before {@link #WINDOW} elements or the end. */
        public Clock clock() {
            return clock;
        }

        /** Slices begun so far (each ends too). */
        public long slices() {
            return slices;
        }

        /** Instant events written so far. */
        public long instants() {
            return instants;
        }

        @Override
        public void accept(TraceElement e) {
            if (clock != null) {
                handle(e);
                return;
            }
            window.add(e);
            if (e instanceof InstructionRange || e instanceof InstructionCount) {
                sawFlow = true;
            }
            if (e instanceof LocalTimestamp) {
                sawLocal = true;
            } else if (e instanceof Timestamp) {
                sawTimestamp = true;
            }
            if (e instanceof CycleCount) {
                choose(Clock.CYCLES);
            } else if (window.size() >= WINDOW) {
                choose(sawLocal ? Clock.LOCAL_TIMESTAMPS : sawTimestamp ? Clock.TIMESTAMPS : Clock.COUNT);
            }
        }

        private void choose(Clock c) {
            clock = c;
            try {
                // a count of software trace elements alone is a count of messages
                String label = c == Clock.COUNT && !sawFlow ? "messages" : c.label;
                metadata("thread_name", tid, name + " (" + label + ")");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<TraceElement> held = window;
            window = null;
            for (TraceElement e : held) {
                handle(e);
            }
        }

        private void handle(TraceElement e) {
            e.accept(this);
        }

        /** Program flow goes to the call stack, whose changes come back as opened/closed/moved at the current time. */
        private void flow(TraceElement e) {
            analysis.accept(e);
        }

        @Override
        public void visit(InstructionRange r) {
            flow(r);
            if (clock == Clock.COUNT) {
                now += Math.max(0, r.count());
            }
        }

        /** A range from the decoder, once the clock is chosen: to the analysis as its fields (as {@link #visit}). */
        @Override
        public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            if (clock == null) {
                ElementSink.super.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes,
                        sizesIndex);
                return;
            }
            analysis.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
            if (clock == Clock.COUNT) {
                now += Math.max(0, count);
            }
        }

        /** Cycles of what came before it: what follows starts later. */
        @Override
        public void visit(CycleCount c) {
            flow(c);
            if (clock == Clock.CYCLES && c.cycles() > 0) {
                now += c.cycles();
            }
        }

        @Override
        public void visit(InstructionCount c) {
            flow(c);
            if (clock == Clock.COUNT) {
                now += Math.max(0, c.count());
            }
        }

        @Override
        public void visit(Timestamp t) {
            if (clock == Clock.TIMESTAMPS) {
                if (origin < 0) {
                    origin = t.value();
                }
                // a timestamp before the first (a wrap, damaged trace) does not turn time back
                now = Math.max(now, t.value() - origin);
            }
            flow(t);
        }

        @Override
        public void visit(ExceptionEntry x) {
            pendingException = x.name() != null ? x.name() : "exception " + x.number();
            flow(x);
        }

        @Override
        public void visit(ExceptionReturn x) {
            flow(x);
        }

        @Override
        public void visit(Gap gap) {
            // the call stack empties itself; the exceptions DWT said were active are unknown from here
            io(() -> {
                closeSoftwareExceptions(0);
                instant("gap", "gap", "reason", gap.reason(), "offset", gap.offset());
            });
            flow(gap);
        }

        @Override
        public void visit(TraceOn t) {
            if (t.reason() == TraceOn.Reason.OVERFLOW) {
                // an ITM overflow lost packets, exits among them perhaps
                io(() -> closeSoftwareExceptions(0));
            }
            flow(t);
        }

        @Override
        public void visit(NoImage n) {
            io(() -> instant("no image", "gap", "address", "0x" + Long.toHexString(n.address()), null, 0));
            flow(n);
        }

        @Override
        public void visit(Context c) {
            flow(c);
        }

        @Override
        public void visit(Event e) {
            io(() -> instant("event " + e.number(), "event", null, null, null, 0));
            flow(e);
        }

        @Override
        public void visit(Trigger t) {
            io(() -> instant("trigger", "event", null, null, "offset", t.offset()));
            flow(t);
        }

        @Override
        public void visit(DecodeError d) {
            io(() -> instant("decode error", "gap", "reason", d.message(), "offset", d.offset()));
            flow(d);
        }

        // ---- software trace: no program flow, one count each on the COUNT clock

        @Override
        public void visit(SoftwareMessage m) {
            String label = m.master() == SoftwareMessage.NO_MASTER
                    ? (m.kind() == SoftwareMessage.Kind.DATA ? "port " + m.channel() : m.kind().name().toLowerCase())
                    : (m.kind() == SoftwareMessage.Kind.DATA ? "M" + m.master() + " C" + m.channel()
                    : m.kind().name().toLowerCase() + " M" + m.master() + " C" + m.channel());
            io(() -> instant(label, "message", "value", "0x" + Long.toHexString(m.value()), "bits", m.bits()));
            software();
        }

        @Override
        public void visit(LocalTimestamp t) {
            if (clock == Clock.LOCAL_TIMESTAMPS && t.ticks() > 0) {
                now += t.ticks();
            }
            software();
        }

        @Override
        public void visit(PcSample s) {
            int f = analysis.functions().at(s.address());
            String where = s.sleep() ? "sleep" : f >= 0 ? analysis.functions().name(f) : String.format("0x%08x", s.address());
            io(() -> instant(where, "pc sample", "pc", "0x" + Long.toHexString(s.address()), null, 0));
            software();
        }

        @Override
        public void visit(ExceptionTrace x) {
            io(() -> softwareException(x));
            software();
        }

        @Override
        public void visit(DataTrace d) {
            io(() -> instant("comparator " + d.comparator(), "data trace", d.kind().name().toLowerCase().replace('_', ' '),
                    "0x" + Long.toHexString(d.value()), null, 0));
            software();
        }

        @Override
        public void visit(EventCounterWrap w) {
            io(() -> instant("counter wrap", "event", "counters", Integer.toString(w.counters()), null, 0));
            software();
        }

        private void software() {
            if (clock == Clock.COUNT) {
                now++;
            }
        }

        /** DWT exception trace (ARMv7-M ARM, Appendix D4: exception trace packet): entered, exited, returned to. */
        private void softwareException(ExceptionTrace x) throws IOException {
            switch (x.function()) {
                case ENTRY -> {
                    if (swDepth < LEVELS) {
                        swNames[swDepth] = x.name();
                        swExceptions[swDepth++] = x.number();
                        begin(x.name(), "exception");
                    }
                }
                case EXIT -> closeSoftwareExceptions(swDepth - 1);
                case RETURN -> {
                    // returned to thread mode (0), or to the exception number given: anything inside it has
                    // ended even if its exit packet was lost
                    if (x.number() == 0) {
                        closeSoftwareExceptions(0);
                    } else {
                        for (int i = swDepth - 1; i >= 0; i--) {
                            if (swExceptions[i] == x.number()) {
                                closeSoftwareExceptions(i + 1);
                                break;
                            }
                        }
                    }
                }
                default -> throw new IllegalStateException(x.function().name());
            }
        }

        private void closeSoftwareExceptions(int level) throws IOException {
            while (swDepth > Math.max(0, level)) {
                swDepth--;
                endSlice(swNames[swDepth]);
            }
        }

        // ------------------------------------------------------------ the call stack's changes

        @Override
        public void opened(int level, int function, byte kind) {
            String fn = analysis.functions().name(function);
            String slice;
            String category;
            if (kind == CallStack.FRAME_EXCEPTION) {
                slice = (pendingException != null ? pendingException : "exception") + ": " + fn;
                category = "exception";
                pendingException = null;
            } else {
                slice = fn;
                category = kind == CallStack.FRAME_CALL ? "call" : "frame";
            }
            int at = level + base;
            try {
                closeTo(at);
                if (at == depth && depth < LEVELS) {
                    open[depth++] = slice;
                    begin(slice, category);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void closed(int level) {
            try {
                closeTo(level == 0 ? 0 : level + base);
                if (level == 0) {
                    base = 0;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void moved(int level, int function) {
            int at = level + base;
            if (at < depth) {
                try {
                    closeTo(at);
                    String slice = analysis.functions().name(function);
                    open[depth++] = slice;
                    begin(slice, "tail call");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void outermostDropped() {
            // the slice stays open (slices cannot end out of order); it ends when the stack empties
            base = Math.min(base + 1, LEVELS);
        }

        private void closeTo(int level) throws IOException {
            while (depth > level) {
                String slice = open[--depth];
                open[depth] = null;
                g.writeStartObject();
                g.writeStringField("name", slice);
                g.writeStringField("ph", "E");
                g.writeNumberField("pid", 1);
                g.writeNumberField("tid", tid);
                g.writeNumberField("ts", now);
                g.writeEndObject();
            }
        }

        private void begin(String slice, String category) throws IOException {
            slices++;
            g.writeStartObject();
            g.writeStringField("name", slice);
            g.writeStringField("cat", category);
            g.writeStringField("ph", "B");
            g.writeNumberField("pid", 1);
            g.writeNumberField("tid", tid);
            g.writeNumberField("ts", now);
            g.writeEndObject();
        }

        /** Ends the innermost software exception slice (kept apart from {@link #open}: no call stack on such a track). */
        private void endSlice(String slice) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", slice);
            g.writeStringField("ph", "E");
            g.writeNumberField("pid", 1);
            g.writeNumberField("tid", tid);
            g.writeNumberField("ts", now);
            g.writeEndObject();
        }

        private void instant(String label, String category, String key, String value, String numberKey, long number)
                throws IOException {
            instants++;
            g.writeStartObject();
            g.writeStringField("name", label);
            g.writeStringField("cat", category);
            g.writeStringField("ph", "i");
            g.writeStringField("s", "t");
            g.writeNumberField("pid", 1);
            g.writeNumberField("tid", tid);
            g.writeNumberField("ts", now);
            if (key != null || numberKey != null) {
                g.writeObjectFieldStart("args");
                if (key != null) {
                    g.writeStringField(key, value);
                }
                if (numberKey != null) {
                    g.writeNumberField(numberKey, number);
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }

        /** The stream ended: every open slice ends at the last time. */
        @Override
        public void end() {
            if (ended) {
                return;
            }
            ended = true;
            if (clock == null) {
                choose(sawLocal ? Clock.LOCAL_TIMESTAMPS : sawTimestamp ? Clock.TIMESTAMPS : Clock.COUNT);
            }
            analysis.end();
            try {
                closeTo(0);
                closeSoftwareExceptions(0);
                g.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
