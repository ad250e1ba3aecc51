package io.armtrace.protocol;

import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.BooleanSupplier;

/**
 * Feeds a source's trace bytes, from a byte offset on, to a packet reader that takes them in chunks (the
 * byte-stream protocols, ETMv3 and PFT): one loop for a whole decode, a packet listing and a piece of a
 * chunked decode alike.
 */
public final class TraceFeed {
    /** The input side of a packet reader. */
    @FunctionalInterface
    public interface ByteReader {
        void push(byte[] data, int off, int len);
    }

    private static final int CHUNK = 1 << 16;

    private TraceFeed() {
    }

    /**
     * Pushes the bytes of {@code data} from {@code start} to {@code reader} until the end, or until
     * {@code stop} says so (asked before every chunk); returns true when the end was reached.
     */
    public static boolean feed(TraceData data, long start, ByteReader reader, BooleanSupplier stop) throws IOException {
        byte[] buf = new byte[CHUNK];
        try (InputStream in = data.open()) {
            in.skipNBytes(start);
            int n;
            while (!stop.getAsBoolean() && (n = in.read(buf)) > 0) {
                reader.push(buf, 0, n);
            }
        }
        return !stop.getAsBoolean();
    }

    /** Pushes all of {@code data} to {@code reader}. */
    public static void feed(TraceData data, ByteReader reader) throws IOException {
        feed(data, 0, reader, () -> false);
    }
}
