package io.armtrace.trace;

/**
 * Decoding found something that contradicts the program image or the protocol (a walk that overran
 * its bound, an address that is not reachable, a reserved encoding). {@code address} is the code
 * address concerned (-1 if none), {@code offset} the byte offset in the stream (-1 if none).
 */
public record DecodeError(int source, String message, long address, long offset) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
