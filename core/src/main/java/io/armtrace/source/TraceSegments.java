package io.armtrace.source;

import java.util.ArrayList;
import java.util.List;

/**
 * One source's trace as segments with breaks between them: separate AUX buffers of a recording, or the
 * pieces of a capture around data the trace unit or the sink lost. Each segment carries the global byte
 * offset of its first byte, so that elements decoded from any segment name offsets in one numbering, and
 * the reason for the break before it. A decoder meets each break as a reset: what it knew (sync, addresses,
 * context, return stack) is gone, it reports a gap at the segment's offset, and it starts over, waiting for
 * the next sync point, as OpenCSD's decoders do on a RESET.
 */
public final class TraceSegments {
    /**
     * A piece of trace without breaks: {@code data} from global byte {@code offset}, after a break whose
     * {@code reason} is given in words (null for the first segment when the trace starts with it).
     */
    public record Segment(TraceData data, long offset, String breakReason) {
        public Segment {
            if (data == null) {
                throw new IllegalArgumentException("segment without data");
            }
            if (offset < 0) {
                throw new IllegalArgumentException("segment offset " + offset + " is negative");
            }
        }
    }

    private final List<Segment> segments;

    private TraceSegments(List<Segment> segments) {
        this.segments = List.copyOf(segments);
    }

    /** A trace without breaks: one segment from offset 0. */
    public static TraceSegments of(TraceData data) {
        return new TraceSegments(List.of(new Segment(data, 0, null)));
    }

    /** The segments in order; offsets must increase. */
    public static TraceSegments of(List<Segment> segments) {
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).offset() <= segments.get(i - 1).offset()) {
                throw new IllegalArgumentException("segment offsets must increase: " + segments.get(i - 1).offset()
                        + " then " + segments.get(i).offset());
            }
        }
        return new TraceSegments(segments);
    }

    /** Builds segments laid end to end: each starts at the byte after the previous one's last. */
    public static final class Builder {
        private final List<Segment> segments = new ArrayList<>();
        private long next;

        /** Appends {@code length} bytes of {@code data} after a break for {@code reason} (null: no break before the first). */
        public Builder add(TraceData data, long length, String reason) {
            segments.add(new Segment(data, next, reason));
            next += length;
            return this;
        }

        /** Appends {@code bytes} after a break for {@code reason}. */
        public Builder add(String name, byte[] bytes, String reason) {
            return add(TraceData.of(name, bytes), bytes.length, reason);
        }

        public TraceSegments build() {
            return of(segments);
        }
    }

    public List<Segment> segments() {
        return segments;
    }
}
