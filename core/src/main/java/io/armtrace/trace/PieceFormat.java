package io.armtrace.trace;

import java.io.OutputStream;

/**
 * How {@code ChunkedDecode} turns each piece's elements into output bytes on the piece's own thread, so that
 * the pieces' bytes only have to be joined in order: a listing format (text, JSONL) seen from the decoder.
 */
public interface PieceFormat {
    /** A fresh formatter, in the state a formatter has before the first element, writing to {@code out}. */
    Formatter open(OutputStream out);

    /**
     * A piece's stream that keeps whole buffers instead of copying them: a formatter that fills a buffer of bytes
     * hands it over full ({@link #take}) and goes on in the buffer it gets back. A piece keeps its listing until its
     * turn in the output; copied from a reused buffer, every byte of the listing was copied once more than in one
     * piece (a 50 MB PTM trace lists 1.7 GB of text).
     */
    interface BufferTaker {
        /**
         * Takes the first {@code length} bytes of {@code full} as the next bytes of the stream; the caller must not
         * touch {@code full} again, and fills the returned buffer (of the same size; {@code full} itself when the
         * stream copied the bytes instead) next.
         */
        byte[] take(byte[] full, int length) throws java.io.IOException;

        /**
         * The first buffer, of {@code size} bytes, of a formatter that writes to this stream: a new one, or one that
         * another formatter gave up ({@link Formatter#release}). Each piece's formatter used to make its own (a
         * megabyte): in a VM the kernel's first touch of that fresh memory, and its zeroing, cost the pieces of 400 MB
         * of PTM about half a second of CPU time.
         */
        default byte[] buffer(int size) {
            return new byte[size];
        }
    }

    /**
     * A listing writer that carries state from one element to the next which changes the bytes of what follows (a
     * line held back, the IT block a disassembly is in): says whether it is now in the state of a new writer.
     */
    interface Fresh {
        boolean fresh();
    }

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

        /**
         * Once the formatter is done (ended, or flushed at its last cut), its buffer, no longer used by it nor by its
         * stream, for another formatter's {@link BufferTaker#buffer}; null if it has none to give. Anything not
         * flushed is dropped, and the formatter takes no more elements.
         */
        default byte[] release() {
            return null;
        }
    }
}
