package io.armtrace.protocol;

import io.armtrace.source.TraceSegments;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.io.IOException;

/**
 * Decodes trace given as segments with breaks, for any protocol: each segment by a fresh decoder (a
 * break is a reset, as in OpenCSD), a {@link Gap} at each break, and every byte offset an element names
 * moved into the whole input's numbering.
 */
final class SegmentedDecode {
    private SegmentedDecode() {
    }

    static void decode(TraceProtocol protocol, DecodeInput input, TraceSegments segments, ElementSink sink)
            throws IOException {
        for (TraceSegments.Segment s : segments.segments()) {
            if (s.breakReason() != null) {
                sink.accept(new Gap(input.traceId(), "trace break: " + s.breakReason(), s.offset()));
            }
            DecodeInput piece = input.withData(s.data());
            protocol.decode(piece, s.offset() == 0 ? sink : new Shifted(sink, s.offset()));
        }
    }

    /** Moves the offsets of a segment's elements by the segment's own offset; does not end the stream. */
    private record Shifted(ElementSink next, long by) implements ElementSink {
        @Override
        public void accept(TraceElement e) {
            if (e instanceof Gap g) {
                e = new Gap(g.source(), g.reason(), g.offset() + by);
            } else if (e instanceof TraceOn t) {
                e = new TraceOn(t.source(), t.reason(), t.offset() + by);
            } else if (e instanceof DecodeError d) {
                e = new DecodeError(d.source(), d.message(), d.address(), d.offset() + by);
            } else if (e instanceof Trigger t) {
                e = new Trigger(t.source(), t.offset() + by);
            }
            next.accept(e);
        }
    }
}
