package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The writer's bytes are the JDK's OutputStreamWriter's, for every kind of character and way of writing it. */
class EncodingWriterTest {

    /** Mostly ASCII, with two- and three-byte characters, surrogate pairs and lone surrogates. */
    private static String randomText(SplittableRandom rnd, int length) {
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            int kind = rnd.nextInt(20);
            if (kind < 12) {
                sb.append((char) rnd.nextInt(0x80));
            } else if (kind < 14) {
                sb.append((char) (0x80 + rnd.nextInt(0x780))); // two bytes in UTF-8
            } else if (kind < 16) {
                char c = (char) (0x800 + rnd.nextInt(0xF800 - 0x800));
                sb.append(Character.isSurrogate(c) ? 'x' : c); // three bytes
            } else if (kind < 18) {
                sb.appendCodePoint(0x10000 + rnd.nextInt(0x100000)); // a surrogate pair, four bytes
            } else if (kind == 18) {
                sb.append((char) (0xD800 + rnd.nextInt(0x400))); // a lone high surrogate (or one that pairs)
            } else {
                sb.append((char) (0xDC00 + rnd.nextInt(0x400))); // a lone low surrogate
            }
        }
        return sb.toString();
    }

    /** Writes {@code text} in random pieces, through every write method, with flushes in between. */
    private static void writeInPieces(Writer w, String text, SplittableRandom rnd) throws IOException {
        int i = 0;
        while (i < text.length()) {
            int n = Math.min(text.length() - i, rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(300));
            switch (rnd.nextInt(4)) {
                case 0 -> w.write(text, i, n);
                case 1 -> {
                    char[] c = ("##" + text.substring(i, i + n) + "#").toCharArray();
                    w.write(c, 2, n);
                }
                case 2 -> {
                    for (int k = 0; k < n; k++) {
                        w.write(text.charAt(i + k));
                    }
                }
                default -> w.append(text, i, i + n);
            }
            if (rnd.nextInt(10) == 0) {
                w.flush();
            }
            i += n;
        }
    }

    private static byte[] encode(Charset cs, String text, long seed, boolean ours, int buffer) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Writer w = ours ? new EncodingWriter(bytes, cs, buffer) : new OutputStreamWriter(bytes, cs)) {
            writeInPieces(w, text, new SplittableRandom(seed));
        }
        return bytes.toByteArray();
    }

    @Test
    void randomTextEncodesAsOutputStreamWriterDoes() throws IOException {
        SplittableRandom rnd = new SplittableRandom(20261125);
        for (Charset cs : new Charset[] {StandardCharsets.UTF_8, StandardCharsets.US_ASCII, StandardCharsets.ISO_8859_1,
                StandardCharsets.UTF_16BE}) {
            for (int round = 0; round < 300; round++) {
                String text = randomText(rnd, rnd.nextInt(2000));
                long seed = rnd.nextLong();
                int buffer = rnd.nextBoolean() ? 64 : 1 << 16; // the small buffer fills mid-character
                assertThat(encode(cs, text, seed, true, buffer))
                        .as("%s, round %d", cs, round)
                        .isEqualTo(encode(cs, text, seed, false, buffer));
            }
        }
    }

    /**
     * A stream that takes the writer's full buffers (as a piece of a split decode does) and gives back a fresh one
     * or, every third time, copies the bytes and gives back the same buffer. It keeps what each taken buffer held
     * when taken, so that a write into a buffer after it was handed over shows.
     */
    private static final class Taker extends OutputStream implements io.armtrace.trace.PieceFormat.BufferTaker {
        final java.util.List<byte[]> taken = new java.util.ArrayList<>();
        final java.util.List<byte[]> atTake = new java.util.ArrayList<>();
        final java.util.List<Integer> lengths = new java.util.ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int calls;

        @Override
        public byte[] take(byte[] full, int length) {
            bytes.write(full, 0, length);
            if (++calls % 3 == 0) {
                return full;
            }
            taken.add(full);
            atTake.add(java.util.Arrays.copyOf(full, length));
            lengths.add(length);
            return new byte[full.length];
        }

        @Override
        public void write(int b) {
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }
    }

    @Test
    void aStreamThatTakesWholeBuffersGetsTheSameBytesAndTheWriterLeavesTakenBuffersAlone() throws IOException {
        SplittableRandom rnd = new SplittableRandom(20261126);
        for (Charset cs : new Charset[] {StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1, StandardCharsets.UTF_16BE}) {
            for (int round = 0; round < 200; round++) {
                String text = randomText(rnd, rnd.nextInt(3000));
                long seed = rnd.nextLong();
                int buffer = rnd.nextBoolean() ? 64 : 256;
                Taker taker = new Taker();
                try (Writer w = EncodingWriter.takingBuffers(taker, cs, buffer)) {
                    writeInPieces(w, text, new SplittableRandom(seed));
                }
                assertThat(taker.bytes.toByteArray()).as("%s, round %d", cs, round)
                        .isEqualTo(encode(cs, text, seed, false, buffer));
                for (int i = 0; i < taker.taken.size(); i++) {
                    assertThat(java.util.Arrays.copyOf(taker.taken.get(i), taker.lengths.get(i)))
                            .as("%s, round %d, buffer %d taken", cs, round, i).isEqualTo(taker.atTake.get(i));
                }
            }
        }
        // the test reaches the handing over: with a 64-byte buffer, thousands of characters fill it many times
        Taker taker = new Taker();
        try (Writer w = EncodingWriter.takingBuffers(taker, StandardCharsets.UTF_8, 64)) {
            writeInPieces(w, randomText(new SplittableRandom(1), 3000), new SplittableRandom(2));
        }
        assertThat(taker.taken).hasSizeGreaterThan(10);
    }

    @Test
    void surrogatePairSplitAcrossWritesAndLoneSurrogateAtTheEnd() throws IOException {
        String pair = new String(Character.toChars(0x1F600));
        for (String text : new String[] {pair, "a" + pair.charAt(0), pair.charAt(0) + "a", pair.charAt(1) + "a",
                "" + pair.charAt(0) + pair.charAt(0) + pair.charAt(1), "\u00e9\u4e2d" + pair + "z"}) {
            for (int cut = 0; cut <= text.length(); cut++) {
                ByteArrayOutputStream ours = new ByteArrayOutputStream();
                ByteArrayOutputStream jdk = new ByteArrayOutputStream();
                try (Writer a = new EncodingWriter(ours); Writer b = new OutputStreamWriter(jdk, StandardCharsets.UTF_8)) {
                    for (Writer w : new Writer[] {a, b}) {
                        w.write(text.substring(0, cut));
                        w.write(text.substring(cut));
                    }
                }
                assertThat(ours.toByteArray()).as("%s cut at %d", text, cut).isEqualTo(jdk.toByteArray());
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Writer w = new EncodingWriter(bytes)) {
            w.write("ok \u00e9 " + pair);
        }
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("ok \u00e9 " + pair);
        assertThat(bytes.toByteArray()).hasSize(3 + 2 + 1 + 4);
    }

    /** A stream that fails like a full disk once {@code limit} bytes are written. */
    private static final class FullDisk extends OutputStream {
        private final int limit;
        private int written;

        FullDisk(int limit) {
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written + len > limit) {
                throw new IOException("No space left on device");
            }
            written += len;
        }
    }

    @Test
    void writeErrorsSurface() throws IOException {
        Writer w = new EncodingWriter(new FullDisk(100), StandardCharsets.UTF_8, 64);
        w.write("x".repeat(64)); // fills the buffer, not yet written
        assertThatThrownBy(() -> w.write("y".repeat(100))).hasMessageContaining("No space left");

        Writer small = new EncodingWriter(new FullDisk(10), StandardCharsets.UTF_8, 1 << 16);
        small.write("a line longer than ten bytes\n");
        assertThatThrownBy(small::flush).hasMessageContaining("No space left");

        // through a PrintWriter, as the command line uses it: the error is kept for checkError()
        PrintWriter p = new PrintWriter(new EncodingWriter(new FullDisk(100), StandardCharsets.UTF_8, 256));
        for (int i = 0; i < 100; i++) {
            p.println("line " + i);
        }
        assertThat(p.checkError()).isTrue();
    }
}
