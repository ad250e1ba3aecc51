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

    /**
     * Whether {@link #synced} at {@code offset} uses its state; when not, the decoder passes null instead of making
     * one (an allocation per sync point: decoding in pieces made 330 MB of states for 52 MB of PTM, where only a
     * piece's first few and those past its end are compared).
     */
    default boolean wantsState(long offset) {
        return true;
    }
}
