package io.armtrace.protocol;

/** Asked for a protocol or a feature of one that armtrace does not provide (yet): one sentence. */
public final class UnsupportedProtocolException extends RuntimeException {
    public UnsupportedProtocolException(String message) {
        super(message);
    }
}
