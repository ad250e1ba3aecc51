package io.armtrace.cli;

/** How the command line quotes what the user gave it: never more than a screen line of it. */
final class Messages {
    /** The longest part of an offending value an error message repeats. */
    static final int MAX_ECHO = 200;

    private Messages() {
    }

    /** {@code s}, cut to {@link #MAX_ECHO} characters with an ellipsis, characters that are not printable shown as '?'. */
    static String shorten(String s) {
        return io.armtrace.source.IniFile.shorten(s);
    }

    /**
     * A whole message as printed: every character that is not printable (a control character, a line or paragraph
     * separator, a bidirectional override) becomes '?', so that a message is one line and shows what it says.
     */
    static String printable(String message) {
        return io.armtrace.source.IniFile.printable(message);
    }

    /** The operating system's reason for an I/O failure, in a few words. */
    static String reason(java.io.IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return shorten(fse.getReason());
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : shorten(m);
    }
}
