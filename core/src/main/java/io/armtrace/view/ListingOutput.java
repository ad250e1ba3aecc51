package io.armtrace.view;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Where a listing writer puts its lines: ASCII text is written as bytes straight into the output's byte
 * buffer (an {@link EncodingWriter}'s, reached directly or through its {@link EncodingWriter#printWriter}),
 * with digits made in place, so a line costs no String, no char array and no second copy. Text that is not
 * ASCII (a symbol name, a message) goes through the output's own {@link Writer#write(String)}, so it is
 * encoded in the output's charset exactly as before. Any other writer gets the ASCII bytes as Latin-1 text
 * some 8 KiB at a time.
 *
 * <p>A line is written as: {@code int p = room(max)}, bytes into {@code buf()} from {@code p} (at most
 * {@code max}, at most {@link #MAX_LINE}), then {@link #done(int)} with the position after them. The
 * position is kept by the output between lines, so writes of others to the same output between two lines
 * stay in order.
 *
 * <p>Failed writes: through a PrintWriter they are remembered for its {@code checkError()} and otherwise
 * ignored, as the PrintWriter's own writes are; to a writer given directly they are thrown as
 * {@link UncheckedIOException}. An unchecked exception of the stream (the command line's) passes as it is.
 */
final class ListingOutput {
    /** The most bytes one {@link #room} call may ask for. */
    static final int MAX_LINE = 1024;
    private static final int OWN_BUFFER = 8192;

    private final Writer writer;
    private final EncodingWriter bytes;
    private final EncodingWriter.Printer printer;
    /** Without an EncodingWriter: the ASCII bytes of lines not yet handed to {@link #writer}. */
    private byte[] own;
    private int ownPos;

    ListingOutput(Writer out) {
        this.writer = out;
        this.printer = out instanceof EncodingWriter.Printer x ? x : null;
        EncodingWriter e = bufferOf(out);
        this.bytes = e;
        if (e == null) {
            own = new byte[OWN_BUFFER + MAX_LINE];
        }
    }

    /**
     * The writer whose byte buffer lines to {@code out} are made in place in: {@code out} itself or the one its
     * {@link EncodingWriter.Printer} prints to, where it takes ASCII as bytes; else null (lines are made in a
     * buffer of this output's own and handed to {@code out} as text).
     */
    static EncodingWriter bufferOf(Writer out) {
        EncodingWriter e = out instanceof EncodingWriter.Printer p ? p.target : out instanceof EncodingWriter x ? x : null;
        return e != null && e.takesAsciiBytes() && e.buffer().length >= MAX_LINE ? e : null;
    }

    /** The buffer to write a line into, valid until the next call of this output. */
    byte[] buf() {
        return bytes != null ? bytes.buffer() : own;
    }

    /** Makes room for {@code n} bytes (at most {@link #MAX_LINE}) and returns where to write them. */
    int room(int n) {
        if (bytes != null) {
            try {
                return bytes.room(n);
            } catch (IOException e) {
                failed(e); // through a PrintWriter: what the buffer held is lost, as the stream failed
                bytes.advance(0);
                return 0;
            }
        }
        if (ownPos > OWN_BUFFER) {
            handOver();
        }
        return ownPos;
    }

    /** The line's bytes end at {@code pos}. */
    void done(int pos) {
        if (bytes != null) {
            bytes.advance(pos);
        } else {
            ownPos = pos;
        }
    }

    /** Writes {@code text}: as bytes where it is ASCII and fits, else through the output's writer. */
    void text(CharSequence text) {
        int n = text.length();
        if (n <= MAX_LINE) {
            int p = room(n);
            byte[] b = buf();
            int i = 0;
            for (; i < n; i++) {
                char c = text.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                b[p + i] = (byte) c;
            }
            if (i == n) {
                done(p + n);
                return;
            }
        }
        // not ASCII (the bytes written above are not taken): the writer encodes it
        handOver();
        try {
            writer.write(text.toString());
        } catch (IOException e) {
            failed(e);
        }
    }

    /** Writes what is kept here to the output, then the output's buffer to its stream. */
    void flush() {
        handOver();
        try {
            writer.flush();
        } catch (IOException e) {
            failed(e);
        }
    }

    /** Hands the bytes kept here (without an EncodingWriter) to the writer, before others write to it. */
    void handOver() {
        if (own != null && ownPos > 0) {
            String s = new String(own, 0, ownPos, StandardCharsets.ISO_8859_1);
            ownPos = 0;
            try {
                writer.write(s);
            } catch (IOException e) {
                failed(e);
            }
        }
    }

    private void failed(IOException e) {
        if (printer == null) {
            throw new UncheckedIOException(e);
        }
        if (e instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
        }
        printer.failed();
    }

    /*
     * Digits written in place: each returns the position after what it wrote.
     */

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** {@code v} in lower-case hexadecimal, at least {@code digits} digits (as {@code %0Nx}); at most 16. */
    static int hex(byte[] b, int p, long v, int digits) {
        int n = Math.max(digits, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        for (int i = p + n - 1; i >= p; i--) {
            b[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
        return p + n;
    }

    /**
     * Eight bytes stored at once, in address order from the lowest byte (little-endian), to any position of a
     * byte array: the JIT makes one store of it.
     */
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The eight lower-case hex digits of {@code v}, most significant first, as eight ASCII bytes in address
     * order from the lowest byte: computed in a long (each nibble spread to a byte, then made a digit) instead
     * of digit by digit.
     */
    static long hexDigits8(int v) {
        long x = Integer.toUnsignedLong(Integer.reverseBytes(v)); // the most significant byte lowest
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL; // byte k of v in the low byte of 16-bit lane k
        long n = ((x >>> 4) & 0x000F000F000F000FL) | ((x & 0x000F000F000F000FL) << 8); // a nibble a byte
        long letter = ((n + 0x0606060606060606L) >>> 4) & 0x0101010101010101L; // 1 where the nibble is 10 or more
        return n + 0x3030303030303030L + letter * ('a' - '0' - 10);
    }

    /**
     * {@code v} in hexadecimal as {@link #hex} with at least 8 digits: one store where it fits in 32 bits.
     * Writes up to 8 bytes past the position it returns (within what {@link #room} gave).
     */
    static int hex8(byte[] b, int p, long v) {
        if (v >>> 32 != 0) {
            return hex(b, p, v, 8);
        }
        LONG_LE.set(b, p, hexDigits8((int) v));
        return p + 8;
    }

    /**
     * {@code v} in hexadecimal as {@link #hex} with at least one digit: one store where it fits in 32 bits, two
     * where it does not. Writes up to 16 bytes past its first (within what {@link #room} gave).
     */
    static int hexShortest(byte[] b, int p, long v) {
        int high = (int) (v >>> 32);
        if (high != 0) {
            // the high word's digits, then all eight of the low word's: two stores
            int n = (32 - Integer.numberOfLeadingZeros(high) + 3) >>> 2;
            LONG_LE.set(b, p, hexDigits8(high) >>> ((8 - n) << 3));
            LONG_LE.set(b, p + n, hexDigits8((int) v));
            return p + n + 8;
        }
        int n = Math.max(1, (32 - Integer.numberOfLeadingZeros((int) v) + 3) >>> 2);
        LONG_LE.set(b, p, hexDigits8((int) v) >>> ((8 - n) << 3)); // the last n digits first
        return p + n;
    }

    /** Copies the first {@code n} (at most 8) bytes of {@code s} with one store; writes 8 bytes. */
    static int ascii8(byte[] b, int p, long s, int n) {
        LONG_LE.set(b, p, s);
        return p + n;
    }

    /**
     * Copies {@code n} bytes of {@code s}, whose length is a multiple of 8 and at least {@code n}, eight at a time
     * (no call for a short copy); writes up to 7 bytes past the position it returns.
     */
    static int copy8(byte[] b, int p, byte[] s, int n) {
        for (int i = 0; i < n; i += 8) {
            LONG_LE.set(b, p + i, (long) LONG_LE.get(s, i));
        }
        return p + n;
    }

    /** {@code s}'s ASCII bytes, zeros after them to a multiple of 8 bytes, for {@link #copy8}. */
    static byte[] ascii8Padded(String s) {
        return java.util.Arrays.copyOf(ascii(s), (s.length() + 7) & ~7);
    }

    /** Up to eight ASCII bytes of {@code s} as a long for {@link #ascii8}. */
    static long asciiLong(String s) {
        long x = 0;
        for (int i = Math.min(8, s.length()) - 1; i >= 0; i--) {
            x = x << 8 | (s.charAt(i) & 0xFF);
        }
        return x;
    }

    /** {@code 0x} and {@code v} as {@link #hex}. */
    static int hex0x(byte[] b, int p, long v, int digits) {
        b[p] = '0';
        b[p + 1] = 'x';
        return hex(b, p + 2, v, digits);
    }

    /** {@code v} in decimal, with a sign when negative (as {@link Long#toString(long)}); at most 20 bytes. */
    static int decimal(byte[] b, int p, long v) {
        if (v >= 0 && v < 100) {
            // most numbers a listing writes (a range's count, a cycle count): no digit count, no loop
            if (v < 10) {
                b[p] = (byte) ('0' + v);
                return p + 1;
            }
            b[p] = TENS[(int) v];
            b[p + 1] = ONES[(int) v];
            return p + 2;
        }
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return ascii(b, p, MIN_LONG);
            }
            b[p++] = '-';
            v = -v;
        }
        int end = p + decimalDigits(v);
        int i = end;
        while (v > Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            b[--i] = ONES[r];
            b[--i] = TENS[r];
            v = q;
        }
        int w = (int) v;
        while (w >= 100) {
            int q = w / 100;
            int r = w - q * 100;
            b[--i] = ONES[r];
            b[--i] = TENS[r];
            w = q;
        }
        if (w >= 10) {
            b[--i] = ONES[w];
            b[--i] = TENS[w];
        } else {
            b[--i] = (byte) ('0' + w);
        }
        return end;
    }

    /** The ones and tens digit of 0 to 99: two digits a division. */
    private static final byte[] ONES = new byte[100];
    private static final byte[] TENS = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            ONES[i] = (byte) ('0' + i % 10);
            TENS[i] = (byte) ('0' + i / 10);
        }
    }

    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    /** 10^i for i = 0 to 18. */
    private static final long[] POWERS = new long[19];

    static {
        long x = 1;
        for (int i = 0; i < POWERS.length; i++) {
            POWERS[i] = x;
            x *= 10;
        }
    }

    /** Decimal digits of {@code v}, not negative: from its bit length (log10 2 ~ 1233 / 4096), then one compare. */
    static int decimalDigits(long v) {
        if (v < 10) {
            return 1;
        }
        int t = ((64 - Long.numberOfLeadingZeros(v)) * 1233) >>> 12; // floor(log10 v) or one less
        return t >= POWERS.length ? 19 : t + (v >= POWERS[t] ? 1 : 0);
    }

    /** Copies {@code s}, ASCII bytes. */
    static int ascii(byte[] b, int p, byte[] s) {
        System.arraycopy(s, 0, b, p, s.length);
        return p + s.length;
    }

    /** The bytes of {@code s}, which is ASCII. */
    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
