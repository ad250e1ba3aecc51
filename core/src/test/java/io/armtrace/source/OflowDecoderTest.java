package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OFLOW frames: COBS as Cheshire and Baker define it, a tag byte first and a check byte last. */
class OflowDecoderTest {

    static List<String> frames(byte[] in, int chunk) {
        List<String> out = new ArrayList<>();
        OflowDecoder d = new OflowDecoder((tag, b, off, len) -> {
            StringBuilder sb = new StringBuilder().append(tag).append(':');
            for (int i = off; i < off + len; i++) {
                sb.append(String.format(" %02x", b[i]));
            }
            out.add(sb.toString());
        });
        for (int i = 0; i < in.length; i += chunk) {
            d.push(in, i, Math.min(chunk, in.length - i));
        }
        return out;
    }

    static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    /** COBS encoding of {@code data}, as the paper defines it: each zero replaced by the distance to the next. */
    static byte[] cobs(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int codeAt = 0;
        byte[] block = new byte[255];
        int n = 1;
        for (byte b : data) {
            if (b == 0) {
                out.write(n);
                out.write(block, 1, n - 1);
                n = 1;
            } else {
                block[n++] = b;
                if (n == 255) {
                    out.write(255);
                    out.write(block, 1, 254);
                    n = 1;
                }
            }
        }
        out.write(n);
        out.write(block, 1, n - 1);
        out.write(0);
        return out.toByteArray();
    }

    /** An OFLOW frame of {@code tag} carrying {@code data}. */
    static byte[] frame(int tag, byte[] data) {
        byte[] f = new byte[data.length + 2];
        f[0] = (byte) tag;
        System.arraycopy(data, 0, f, 1, data.length);
        int sum = tag;
        for (byte b : data) {
            sum += b;
        }
        f[f.length - 1] = (byte) -sum;
        return cobs(f);
    }

    @Test
    void cobsExamplesOfThePaper() {
        // frames built by hand: tag 1, data, check; the COBS encodings of the paper's examples around them
        // "11 22 00 33": 03 11 22 02 33; tag and check bytes added: 01 11 22 00 33 (check 0x99)
        assertThat(frames(bytes(0x04, 0x01, 0x11, 0x22, 0x03, 0x33, 0x99, 0x00), 8)).containsExactly("1: 11 22 00 33");
        // a zero byte alone: 02 01 01 ff (tag 1, 00, check 0xff)
        assertThat(frames(bytes(0x02, 0x01, 0x02, 0xFF, 0x00), 5)).containsExactly("1: 00");
        // leading zeros between frames are ignored; a bad check drops the frame
        assertThat(frames(bytes(0x00, 0x00, 0x02, 0x01, 0x02, 0xFE, 0x00, 0x02, 0x02, 0x02, 0xFE, 0x00), 3))
                .containsExactly("2: 00");
    }

    @Test
    void longFramesUse255Blocks() {
        byte[] data = new byte[700];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 7 == 0 ? 0 : i);
        }
        List<String> want = frames(frame(5, data), 1000);
        assertThat(want).hasSize(1);
        byte[] noZeros = new byte[600];
        java.util.Arrays.fill(noZeros, (byte) 0x55);
        assertThat(frames(frame(1, noZeros), 7).get(0)).hasSize(2 + 600 * 3);
    }

    @Test
    void damagedFramesAreDroppedAndTheNextOneRead() {
        OflowDecoder d = new OflowDecoder((tag, b, off, len) -> { });
        byte[] good = frame(1, bytes(1, 2, 3));
        byte[] bad = good.clone();
        bad[2] ^= 0x40;
        byte[] cut = java.util.Arrays.copyOf(good, 3); // code byte says more than the frame holds
        cut[cut.length - 1] = 0;
        for (byte[] f : List.of(good, bad, cut, good)) {
            d.push(f, 0, f.length);
        }
        assertThat(d.frames()).isEqualTo(2);
        assertThat(d.badFrames()).isEqualTo(2);
    }

    @Test
    void chunksDoNotMatter() {
        Random r = new Random(9);
        for (int round = 0; round < 100; round++) {
            ByteArrayOutputStream s = new ByteArrayOutputStream();
            for (int f = 0; f < 20; f++) {
                byte[] data = new byte[r.nextInt(300)];
                r.nextBytes(data);
                byte[] fr = frame(r.nextInt(3), data);
                if (r.nextInt(10) == 0) {
                    fr[r.nextInt(fr.length)] ^= (byte) (1 + r.nextInt(255));
                }
                s.writeBytes(fr);
            }
            byte[] all = s.toByteArray();
            assertThat(frames(all, 1 + r.nextInt(50))).isEqualTo(frames(all, all.length));
        }
    }

    /** The ITM capture in OFLOW frames of 1 to 64 bytes on stream 1, another stream between: the same bytes. */
    @Test
    void itmCaptureInOflowFramesReadsBack(@TempDir Path tmp) throws IOException {
        byte[] raw = Files.readAllBytes(SharedData.dir("swtrace/itm_only_raw").resolve("itm_testdata.bin"));
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        Random r = new Random(1);
        for (int i = 0; i < raw.length; ) {
            int n = Math.min(raw.length - i, 1 + r.nextInt(64));
            s.writeBytes(frame(1, java.util.Arrays.copyOfRange(raw, i, i + n)));
            s.writeBytes(frame(2, bytes(0, 0, 0x80)));
            i += n;
        }
        Path file = tmp.resolve("capture.oflow");
        Files.write(file, s.toByteArray());
        try (InputStream in = TraceData.oflow(file, 1).open()) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
    }
}
