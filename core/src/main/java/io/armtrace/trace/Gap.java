package io.armtrace.trace;

/**
 * Trace was lost or could not be decoded from byte {@code offset} of the source's stream on: corrupt
 * data, a capture starting mid-packet, a hole in the buffer. Decoding resumes at the next sync point.
 */
public record Gap(int source, String reason, long offset) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
