package io.armtrace.source;

/**
 * A user-supplied input is wrong (missing file, malformed .ini, inconsistent snapshot). The message is
 * one sentence that names the file and the problem.
 */
public final class InputException extends RuntimeException {
    public InputException(String message) {
        super(message);
    }

    public InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
