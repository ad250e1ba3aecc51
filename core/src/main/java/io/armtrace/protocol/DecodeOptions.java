package io.armtrace.protocol;

/**
 * Options common to every decoder. {@code instructionLimit} bounds every walk through code that the
 * protocol itself does not bound (0 = the protocol's default).
 */
public record DecodeOptions(long instructionLimit) {
    public static final DecodeOptions DEFAULT = new DecodeOptions(0);
}
