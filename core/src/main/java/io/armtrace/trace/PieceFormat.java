package io.armtrace.trace;

import java.io.OutputStream;

/**
 * How {@code ChunkedDecode} turns each piece's elements into output bytes on the piece's own thread, so that
 * the pieces' bytes only have to be joined in order: a listing format (text, JSONL) seen from the decoder.
 */
public interface PieceFormat {
    /** A fresh formatter, in the state a formatter has before the first element, writing to {@code out}. */
    Formatter open(OutputStream out);

    /** One piece's formatter. */
    interface Formatter extends ElementSink {
        /**
         * The formatter's state that the bytes of elements still to come depend on, beyond those elements:
         * two formatters in equal states ({@link java.util.Objects#equals}) given equal elements write equal
         * bytes. Pieces are cut only where the two formatters' states are equal, and {@link #flush} is called
         * only there; a formatter that holds output back (a line kept until the next element shows how it ends)
         * returns a state equal to no other, so no piece is cut while it does.
         */
        Object state();

        /** Writes everything accepted so far to the stream (called where pieces may be cut, see {@link #state}). */
        void flush();
    }
}
