package io.armtrace.image;

/** A program image could not be read; the message is one sentence naming the file and the problem. */
public final class ImageException extends RuntimeException {
    public ImageException(String message, Throwable cause) {
        super(message, cause);
    }

    public ImageException(String message) {
        super(message);
    }
}
