package io.armtrace.protocol;

/** Told about each sync point a decoder passes; see {@link TraceProtocol#decodeFrom}. */
@FunctionalInterface
public interface SyncObserver {
    /**
     * The decoder has just processed the sync packet at byte {@code offset}; {@code state} is a value
     * (with {@code equals}) holding everything that decides its output from here on. Returns false to
     * stop decoding here.
     */
    boolean synced(long offset, Object state);
}
