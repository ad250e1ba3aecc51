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
            if (input.code() != null && s.offset() != 0) {
                // the code memory counts positions in the whole input, the segment's decoder from its start
                piece = new DecodeInput(piece.traceId(), piece.registers(), piece.image(), piece.data(), piece.options(),
                        new ShiftedCode(input.code(), s.offset()));
            }
            protocol.decode(piece, s.offset() == 0 ? sink : new Shifted(sink, s.offset()));
        }
    }

    /** A segment's view of the whole input's code memory: its positions moved by the segment's offset. */
    private record ShiftedCode(io.armtrace.image.CodeMemory whole, long by) implements io.armtrace.image.CodeMemory {
        @Override
        public io.armtrace.image.MemoryImage at(io.armtrace.image.AddressSpace space, long position) {
            return whole.at(space, position + by);
        }

        @Override
        public long changesAfter(long position) {
            long c = whole.changesAfter(position + by);
            return c == Long.MAX_VALUE ? c : c - by;
        }
    }

    /**
     * Moves the offsets of a segment's elements by the segment's own offset; does not end the stream. Ranges and cycle
     * counts carry no offset: they go on as fields (a recording's later segments, nearly all its elements).
     */
    private record Shifted(ElementSink next, long by) implements io.armtrace.trace.ForwardingSink {
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
