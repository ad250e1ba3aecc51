package io.armtrace.view;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A buffered {@link Writer} that encodes characters straight into a byte buffer and writes the buffer to an
 * {@link OutputStream}: the bytes are exactly those of an {@link java.io.OutputStreamWriter} of the same
 * charset (malformed and unmappable input replaced, a surrogate pair split across two writes joined), but
 * a listing, which is nearly all ASCII, costs one byte store per character. Characters below 0x80 are copied
 * as bytes when the charset encodes ASCII as itself (UTF-8, US-ASCII, ISO-8859-1); everything else goes
 * through the charset's own encoder.
 *
 * <p>Not synchronized: one thread writes at a time (a {@link java.io.PrintWriter} around it locks). A failed
 * write of the stream is thrown from the call that filled the buffer, or from {@link #flush()} and
 * {@link #close()}.
 */
public final class EncodingWriter extends Writer {
    private final OutputStream out;
    private final CharsetEncoder encoder;
    private final boolean asciiAsItself;
    private final boolean utf8;
    /** Not final: a {@link io.armtrace.trace.PieceFormat.BufferTaker} stream takes it and gives back another. */
    private byte[] buf;
    private ByteBuffer bytes;
    private int pos;
    /** A high surrogate that ended the last write: its pair may start the next. */
    private char leftover;
    private boolean haveLeftover;
    private boolean closed;
    /**
     * The buffer's length while a line may be written straight into it (open, no high surrogate waiting), else 0:
     * {@link #room} then checks one bound only.
     */
    private int fastLimit;
    /**
     * {@link #out} when it takes whole buffers ({@link #takingBuffers}), else null. Not tested for with instanceof on
     * every writer: that would load the interface in every command, {@code --version} included.
     */
    private final io.armtrace.trace.PieceFormat.BufferTaker taker;

    public EncodingWriter(OutputStream out, Charset charset, int bufferSize) {
        this(out, charset, bufferSize, null);
    }

    private EncodingWriter(OutputStream out, Charset charset, int bufferSize,
                           io.armtrace.trace.PieceFormat.BufferTaker taker) {
        this.out = out;
        this.taker = taker;
        this.encoder = charset.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        this.asciiAsItself = charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)
                || charset.equals(StandardCharsets.ISO_8859_1);
        this.utf8 = charset.equals(StandardCharsets.UTF_8);
        int size = Math.max(bufferSize, 64);
        this.buf = taker != null ? taker.buffer(size) : new byte[size];
        this.bytes = ByteBuffer.wrap(buf);
        this.fastLimit = buf.length;
    }

    /**
     * The buffer of a command's output (standard output, {@code -o FILE}), in bytes: each full buffer is one
     * {@code write} system call and, through {@link java.io.FileOutputStream}, a copy into memory the JDK allocates
     * for the call. A listing of 20 GB (the JSONL of 52 MB of T32 PTM) to {@code /dev/null}: 1.0 s of writing with
     * 64 KiB buffers, 0.6 s with 1 MiB, of which 0.5 s is the copy; the whole command 12% faster at 256 KiB than at 64
     * KiB, the same as at 1 MiB (docs/performance.md, "The output's buffer").
     */
    public static final int OUTPUT_BUFFER = 1 << 18;

    /** UTF-8 with a 64 KiB buffer. */
    public EncodingWriter(OutputStream out) {
        this(out, StandardCharsets.UTF_8, 1 << 16);
    }

    /**
     * A writer that hands {@code out} its buffer whole when full ({@link io.armtrace.trace.PieceFormat.BufferTaker#take})
     * if {@code out} takes buffers so, and goes on in the one it gets back; else as the constructor.
     */
    public static EncodingWriter takingBuffers(OutputStream out, Charset charset, int bufferSize) {
        return new EncodingWriter(out, charset, bufferSize,
                out instanceof io.armtrace.trace.PieceFormat.BufferTaker t ? t : null);
    }

    /**
     * Whether the listing writers ({@link TextWriter}, {@link JsonlWriter}) writing to {@code out} make their lines
     * as bytes in place in an EncodingWriter's buffer (the fast path), rather than as text handed to {@code out}.
     */
    public static boolean listsInPlace(Writer out) {
        return ListingOutput.bufferOf(out) != null;
    }

    /**
     * A {@link PrintWriter} over this writer (it writes straight through, as {@code new PrintWriter(this,
     * autoFlush)}), through which the listing writers ({@link TextWriter}, {@link JsonlWriter}) find this writer
     * and build their lines as bytes in its buffer.
     */
    public PrintWriter printWriter(boolean autoFlush) {
        return new Printer(this, autoFlush);
    }

    /**
     * The PrintWriter of {@link #printWriter}: it knows its writer, and can be told that a write failed. A
     * subclass may print to another writer ({@code target} then null): listings then format through it as text.
     */
    public static class Printer extends PrintWriter {
        final EncodingWriter target;

        Printer(EncodingWriter target, boolean autoFlush) {
            super(target, autoFlush);
            this.target = target;
        }

        /** Prints to {@code out}; its bytes are reached in place when {@code out} is an EncodingWriter. */
        protected Printer(Writer out, boolean autoFlush) {
            super(out, autoFlush);
            this.target = out instanceof EncodingWriter e ? e : null;
        }

        /** The writer this prints to straight through, or null (a subclass printing to another writer). */
        protected final EncodingWriter encodingTarget() {
            return target;
        }

        /** As PrintWriter does with a failed write of its own: remembered for {@link #checkError()}. */
        void failed() {
            setError();
        }
    }

    /*
     * Bytes written in place (ListingOutput): a caller asks for room, writes ASCII bytes into buf from pos, and
     * sets pos past them. Only where ASCII is encoded as itself and no high surrogate waits for its pair.
     */

    /** Whether ASCII text may be written into the buffer as bytes. */
    boolean takesAsciiBytes() {
        return asciiAsItself;
    }

    /** The buffer that {@link #room} makes room in. */
    byte[] buffer() {
        return buf;
    }

    /**
     * Makes at least {@code n} bytes free in the buffer (at most its size), writing out what it holds if
     * need be, and returns the position to write at. A high surrogate left by the last write is malformed
     * now (ASCII follows) and is replaced, as the encoder would.
     */
    int room(int n) throws IOException {
        int p = pos;
        if (n <= fastLimit - p) {
            return p;
        }
        ensureOpen();
        if (haveLeftover) {
            haveLeftover = false;
            fastLimit = closed ? 0 : buf.length;
            encode(CharBuffer.wrap(new char[] {leftover}), true);
            encoder.reset();
        }
        if (buf.length - pos < n) {
            flushBuffer();
        }
        return pos;
    }

    /** Sets the position past the bytes written at {@link #room}'s position. */
    void advance(int newPos) {
        pos = newPos;
    }

    @Override
    public void write(int c) throws IOException {
        char ch = (char) c;
        if (ch < 0x80 && asciiAsItself && !haveLeftover) {
            if (pos == buf.length) {
                flushBuffer();
            }
            buf[pos++] = (byte) ch;
            return;
        }
        write(new char[] {ch}, 0, 1);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, cbuf.length);
        if (len == 0) {
            return;
        }
        ensureOpen();
        int i = off;
        int end = off + len;
        if (haveLeftover) {
            i = joinLeftover(cbuf[i], i, end);
        }
        while (i < end) {
            byte[] b = buf; // again after each flush: a BufferTaker stream gives another buffer
            if (asciiAsItself) {
                int p = pos;
                int n = Math.min(end - i, b.length - p);
                // copies the chunk as if all ASCII, a loop without an exit the compiler vectorizes; where a
                // character is not, the bytes from there on are written again below
                int any = 0;
                for (int k = 0; k < n; k++) {
                    char c = cbuf[i + k];
                    any |= c;
                    b[p + k] = (byte) c;
                }
                if (any < 0x80) {
                    i += n;
                    p += n;
                } else {
                    int stop = i + n;
                    while (i < stop && cbuf[i] < 0x80) {
                        i++;
                        p++;
                    }
                }
                pos = p;
                if (i == end) {
                    return;
                }
                if (p == b.length) {
                    flushBuffer();
                    continue;
                }
            }
            int j = i + 1;
            while (j < end && (cbuf[j] >= 0x80 || !asciiAsItself)) {
                j++;
            }
            i = encodeRun(CharBuffer.wrap(cbuf, i, j - i), j, end);
        }
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, s.length());
        if (len == 0) {
            return;
        }
        ensureOpen();
        int i = off;
        int end = off + len;
        if (utf8 && len >= 64 && !haveLeftover && !Character.isHighSurrogate(s.charAt(end - 1))) {
            // a long text in one piece, with no surrogate pair split at either end: encoded by String itself,
            // which checks and copies Latin-1 text many characters at a time; String's UTF-8 replaces a
            // malformed surrogate with '?' as the encoder does
            byte[] e = (off == 0 && len == s.length() ? s : s.substring(off, end)).getBytes(StandardCharsets.UTF_8);
            writeBytes(e);
            return;
        }
        if (haveLeftover) {
            i = joinLeftover(s.charAt(i), i, end);
        }
        while (i < end) {
            byte[] b = buf; // again after each flush: a BufferTaker stream gives another buffer
            if (asciiAsItself) {
                int p = pos;
                int stop = Math.min(end, i + (b.length - p));
                while (i < stop) {
                    char c = s.charAt(i);
                    if (c >= 0x80) {
                        break;
                    }
                    b[p++] = (byte) c;
                    i++;
                }
                pos = p;
                if (i == end) {
                    return;
                }
                if (p == b.length) {
                    flushBuffer();
                    continue;
                }
            }
            int j = i + 1;
            while (j < end && (s.charAt(j) >= 0x80 || !asciiAsItself)) {
                j++;
            }
            i = encodeRun(CharBuffer.wrap(s, i, j), j, end);
        }
    }

    /**
     * Encodes {@code run}, the characters up to index {@code runEnd} of a write ending at {@code end}. A high
     * surrogate left at the end of the run is kept for the next write when the run ends the write, and is
     * malformed (replaced) when an ASCII character follows. Returns {@code runEnd}.
     */
    private int encodeRun(CharBuffer run, int runEnd, int end) throws IOException {
        encode(run, false);
        if (run.hasRemaining()) {
            // only a lone high surrogate stays unconsumed at the end of the input
            char c = run.get();
            if (runEnd == end) {
                leftover = c;
                haveLeftover = true;
                fastLimit = 0;
            } else {
                encode(CharBuffer.wrap(new char[] {c}), true);
                encoder.reset();
            }
        }
        return runEnd;
    }

    /** The last write ended in a high surrogate: encodes it together with {@code next}, the next character. */
    private int joinLeftover(char next, int i, int end) throws IOException {
        haveLeftover = false;
        fastLimit = closed ? 0 : buf.length;
        CharBuffer pair = CharBuffer.wrap(new char[] {leftover, next});
        encode(pair, false);
        if (pair.remaining() == 2) {
            // cannot happen: a high surrogate and any character are either a pair or malformed
            throw new IllegalStateException("encoder kept both characters");
        }
        if (pair.remaining() == 1) {
            // the next character is itself a high surrogate at the end of this write
            if (i + 1 == end) {
                leftover = pair.get();
                haveLeftover = true;
                fastLimit = 0;
                return end;
            }
            return i; // encode it again with what follows
        }
        return i + 1;
    }

    private void encode(CharBuffer in, boolean endOfInput) throws IOException {
        while (true) {
            bytes.limit(buf.length).position(pos);
            CoderResult r = encoder.encode(in, bytes, endOfInput);
            pos = bytes.position();
            if (r.isOverflow()) {
                flushBuffer();
                continue;
            }
            if (r.isUnderflow()) {
                return;
            }
            r.throwException(); // not reached: errors are replaced
        }
    }

    private void writeBytes(byte[] e) throws IOException {
        if (e.length > buf.length - pos) {
            flushBuffer();
            if (e.length >= buf.length) {
                out.write(e, 0, e.length);
                return;
            }
        }
        System.arraycopy(e, 0, buf, pos, e.length);
        pos += e.length;
    }

    private void flushBuffer() throws IOException {
        if (pos > 0) {
            int n = pos;
            pos = 0;
            if (taker != null) {
                byte[] next = taker.take(buf, n);
                if (next != buf) {
                    buf = next;
                    bytes = ByteBuffer.wrap(next);
                    fastLimit = closed || haveLeftover ? 0 : next.length;
                }
                return;
            }
            out.write(buf, 0, n);
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        flushBuffer();
        out.flush();
    }

    /**
     * Gives up this writer's buffer, for a {@link io.armtrace.trace.PieceFormat.BufferTaker} stream to use again:
     * what is still in it is dropped (flush first to keep it), and the writer is closed without closing its stream.
     */
    public byte[] releaseBuffer() {
        byte[] b = buf;
        buf = new byte[0];
        bytes = ByteBuffer.wrap(buf);
        pos = 0;
        haveLeftover = false;
        closed = true;
        fastLimit = 0;
        return b;
    }

    /** Writes what is buffered (a high surrogate still waiting for its pair becomes malformed) and closes the stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (haveLeftover) {
                haveLeftover = false;
                fastLimit = closed ? 0 : buf.length;
                encode(CharBuffer.wrap(new char[] {leftover}), true);
            }
            flushBuffer();
            out.flush();
        } finally {
            closed = true;
            fastLimit = 0;
            out.close();
        }
    }
}
