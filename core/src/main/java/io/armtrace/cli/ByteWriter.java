package io.armtrace.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;

/**
 * A text output that also takes bytes already encoded in its charset: a listing whose pieces were formatted
 * on several threads is joined as bytes, without decoding and encoding it again.
 */
final class ByteWriter extends io.armtrace.view.EncodingWriter.Printer {
    private final OutputStream bytes;
    private final Charset charset;

    /** Whether {@link #close} only flushes: a command's view of standard output, which the command must not close. */
    private final boolean keepsOpen;

    ByteWriter(Writer text, boolean autoFlush, OutputStream bytes, Charset charset) {
        this(text, autoFlush, bytes, charset, false);
    }

    private ByteWriter(Writer text, boolean autoFlush, OutputStream bytes, Charset charset, boolean keepsOpen) {
        super(text, autoFlush);
        this.bytes = bytes;
        this.charset = charset;
        this.keepsOpen = keepsOpen;
    }

    /**
     * A writer into the same byte buffer as {@code out} (standard output) that closing only flushes, or null when
     * {@code out} prints to another writer. Listings reach that buffer through it and make their lines in place,
     * as they do writing to a file: through a writer that merely refused to close, they made each line as text
     * and encoded it again, and a text listing to standard output took 20% to 45% more time than one written
     * with {@code -o}.
     */
    static ByteWriter keepingOpen(ByteWriter out) {
        io.armtrace.view.EncodingWriter target = out.encodingTarget();
        return target == null ? null : new ByteWriter(target, false, out.bytes, out.charset, true);
    }

    @Override
    public void close() {
        if (keepsOpen) {
            flush();
            return;
        }
        super.close();
    }

    /** The stream under the text: flushes what was written as text first, so the two stay in order. */
    OutputStream bytes() {
        flush();
        return bytes;
    }

    /** The stream under the text, not flushed (for wrapping this writer in another). */
    OutputStream stream() {
        return bytes;
    }

    /** The charset the text is encoded in: bytes given to {@link #bytes()} must be in it. */
    Charset charset() {
        return charset;
    }

    /**
     * Where bytes for {@code out} go: its own stream when it has one, else a stream that decodes them
     * ({@code charset}) into it (an in-memory writer, as tests give).
     */
    static OutputStream bytesOf(PrintWriter out, Charset charset) {
        if (out instanceof ByteWriter b) {
            return b.bytes();
        }
        return new Decoding(out, charset);
    }

    static Charset charsetOf(PrintWriter out) {
        return out instanceof ByteWriter b ? b.charset : java.nio.charset.StandardCharsets.UTF_8;
    }

    /** Decodes bytes into a writer, a character split across two writes joined. */
    private static final class Decoding extends OutputStream {
        private final PrintWriter out;
        private final java.nio.charset.CharsetDecoder decoder;
        private final java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(1 << 16);
        private final java.nio.CharBuffer chars = java.nio.CharBuffer.allocate(1 << 16);

        Decoding(PrintWriter out, Charset charset) {
            this.out = out;
            this.decoder = charset.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                int n = Math.min(len, in.remaining());
                in.put(b, off, n);
                off += n;
                len -= n;
                in.flip();
                while (true) {
                    java.nio.charset.CoderResult r = decoder.decode(in, chars, false);
                    chars.flip();
                    out.append(chars);
                    chars.clear();
                    if (!r.isOverflow()) {
                        break;
                    }
                }
                in.compact();
            }
        }
    }
}
