package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FrameDeformatterTest {

    /** Builds a frame from 15 bytes as written, and the byte-15 flags. */
    private static byte[] frame(int flags, int... bytes) {
        byte[] f = new byte[16];
        for (int i = 0; i < 15; i++) {
            f[i] = (byte) bytes[i];
        }
        f[15] = (byte) flags;
        return f;
    }

    @Test
    void idChangeAppliesAtOnceWhenItsFlagIsClear() {
        // byte 0: ID 0x10 (0x21); byte 1 data for 0x10; bytes 2..: data 0x02 (bit 0 from flags), 0x33...
        byte[] f = frame(0b0000_0010, 0x21, 0xAA, 0x02, 0x33, 0x04, 0x55, 0x06, 0x77, 0x08, 0x99, 0x0A, 0xBB, 0x0C, 0xDD, 0x0E);
        Map<Integer, byte[]> out = FrameDeformatter.demultiplex(f);
        assertThat(out).containsOnlyKeys(0x10);
        // byte 2 (0x02) gets bit 0 = flag bit 1 = 1 -> 0x03
        assertThat(out.get(0x10)).containsExactly(0xAA, 0x03, 0x33, 0x04, 0x55, 0x06, 0x77, 0x08, 0x99, 0x0A, 0xBB,
                0x0C, 0xDD, 0x0E);
    }

    @Test
    void idChangeWithFlagSetAppliesAfterTheNextByte() {
        byte[] f1 = frame(0, 0x21, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE);
        // second frame: byte 0 = ID 0x11 (0x23) with flag 1: byte 1 still belongs to 0x10
        byte[] f2 = frame(0b0000_0001, 0x23, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E);
        byte[] both = concat(f1, f2);
        Map<Integer, byte[]> out = FrameDeformatter.demultiplex(both);
        assertThat(out.get(0x10)).endsWith((byte) 0xEE, (byte) 0x01);
        assertThat(out.get(0x11)).startsWith((byte) 0x02, (byte) 0x03).hasSize(13);
    }

    @Test
    void idChangeInByteFourteenAppliesToTheNextFrame() {
        byte[] f1 = frame(0, 0x21, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0x25);
        byte[] f2 = frame(0, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10);
        Map<Integer, byte[]> out = FrameDeformatter.demultiplex(concat(f1, f2));
        assertThat(out.get(0x10)).hasSize(13);
        assertThat(out.get(0x12)).hasSize(15).startsWith((byte) 0x02);
    }

    @Test
    void nullAndReservedIdsAndDataBeforeTheFirstIdAreDropped() {
        byte[] f = frame(0, 0x02, 0x03, 0x01 /* ID 0 */, 0x44, 0xE1 /* ID 0x70 */, 0x55, 0x21, 0x66, 0x08, 0x09, 0x0A,
                0x0B, 0x0C, 0x0D, 0x0E);
        Map<Integer, byte[]> out = FrameDeformatter.demultiplex(f);
        assertThat(out).containsOnlyKeys(0x10);
        assertThat(out.get(0x10)).containsExactly(0x66, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E);
    }

    @Test
    void idChangesAtEveryEvenPositionWithBothFlagValues() {
        // Random frames built by a straightforward model of the formatter; every position and flag value.
        Random rnd = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            ByteArrayOutputStream formatted = new ByteArrayOutputStream();
            Map<Integer, ByteArrayOutputStream> expected = new java.util.TreeMap<>();
            int id = -1;
            for (int fr = 0; fr < 8; fr++) {
                byte[] f = new byte[16];
                int flags = 0;
                for (int i = 0; i < 15; i += 2) {
                    boolean change = rnd.nextInt(3) == 0 || id < 0;
                    if (change) {
                        int newId = 1 + rnd.nextInt(4);
                        boolean delayed = i < 14 && rnd.nextBoolean();
                        f[i] = (byte) (newId << 1 | 1);
                        if (i < 14) {
                            int d = rnd.nextInt(256);
                            f[i + 1] = (byte) d;
                            if (delayed) {
                                flags |= 1 << (i / 2);
                                if (id > 0) {
                                    expected.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(d);
                                }
                                id = newId;
                            } else {
                                id = newId;
                                expected.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(d);
                            }
                        } else {
                            id = newId;
                        }
                    } else {
                        int d = rnd.nextInt(256);
                        f[i] = (byte) (d & 0xFE);
                        flags |= (d & 1) << (i / 2);
                        expected.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(d);
                        if (i < 14) {
                            int d2 = rnd.nextInt(256);
                            f[i + 1] = (byte) d2;
                            expected.get(id).write(d2);
                        }
                    }
                }
                f[15] = (byte) flags;
                formatted.writeBytes(f);
            }
            Map<Integer, byte[]> out = FrameDeformatter.demultiplex(formatted.toByteArray());
            assertThat(out.keySet()).isEqualTo(expected.keySet());
            expected.forEach((k, v) -> assertThat(out.get(k)).as("trial %d id %d", 0, k).isEqualTo(v.toByteArray()));
        }
    }

    @Test
    void portCaptureSyncsAreRemoved() {
        byte[] f1 = frame(0, 0x21, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE);
        byte[] f2 = frame(0, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10);
        byte[] fsync = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};
        byte[] hsync = {(byte) 0xFF, 0x7F};
        // garbage before the first sync, a frame sync, frame 1 with a half-word sync after 6 bytes, another frame sync, frame 2
        ByteArrayOutputStream cap = new ByteArrayOutputStream();
        cap.writeBytes(new byte[] {0x12, 0x34, 0x56});
        cap.writeBytes(fsync);
        cap.write(f1, 0, 6);
        cap.writeBytes(hsync);
        cap.write(f1, 6, 10);
        cap.writeBytes(fsync);
        cap.writeBytes(fsync);
        cap.writeBytes(f2);
        Map<Integer, byte[]> withSyncs = FrameDeformatter.demultiplex(cap.toByteArray(), true);
        Map<Integer, byte[]> plain = FrameDeformatter.demultiplex(concat(f1, f2), false);
        assertThat(withSyncs.keySet()).isEqualTo(plain.keySet());
        assertThat(withSyncs.get(0x10)).isEqualTo(plain.get(0x10));
    }

    @Test
    void streamingInOddChunksGivesTheSameResult() {
        Random rnd = new Random(7);
        byte[] data = new byte[16 * 64];
        rnd.nextBytes(data);
        for (int i = 0; i < data.length; i += 16) {
            data[i] = (byte) (0x21 | (rnd.nextInt(3) << 1));
        }
        Map<Integer, byte[]> whole = FrameDeformatter.demultiplex(data);
        Map<Integer, ByteArrayOutputStream> parts = new java.util.TreeMap<>();
        FrameDeformatter d = new FrameDeformatter((id, b, off, len) ->
                parts.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(b, off, len), false);
        int pos = 0;
        while (pos < data.length) {
            int n = Math.min(1 + rnd.nextInt(37), data.length - pos);
            d.push(data, pos, n);
            pos += n;
        }
        assertThat(parts.keySet()).isEqualTo(whole.keySet());
        parts.forEach((k, v) -> assertThat(v.toByteArray()).isEqualTo(whole.get(k)));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
