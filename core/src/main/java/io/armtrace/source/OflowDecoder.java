package io.armtrace.source;

/**
 * Splits an OFLOW stream into its tagged streams. OFLOW is how orbuculum's ORBTrace probes deliver trace (and
 * what {@code orbuculum -o FILE} records from them): COBS-encoded frames, each ended by a 0x00 byte, whose
 * decoded contents are a tag byte (the stream: 1 is the ITM, 2 the ETM), the stream's bytes, and a check byte
 * that makes the sum of all of them 0 modulo 256.
 *
 * <p>COBS (Consistent Overhead Byte Stuffing, Cheshire and Baker, 1999) removes the zeros from a frame: each
 * code byte n (1 to 255) is followed by n - 1 data bytes and stands for a zero after them, except when n is
 * 255 or the frame ends there. A frame whose check fails, whose code runs past its end, or that is longer than
 * {@link #MAX_FRAME} bytes is dropped whole (counted in {@link #badFrames}); the next 0x00 starts a new one.
 */
public final class OflowDecoder {
    /** Receives the bytes of one frame's stream. */
    @FunctionalInterface
    public interface Output {
        void data(int tag, byte[] buf, int off, int len);
    }

    /** Longest decoded frame accepted: orbuculum's frames carry at most 4 KiB. */
    public static final int MAX_FRAME = 1 << 16;

    private final Output out;
    private final byte[] frame = new byte[MAX_FRAME + 1];
    private int length;
    /** Data bytes left in the current COBS block; -1 when the next byte is a code byte. */
    private int left = -1;
    private boolean zeroAfterBlock;
    private boolean dropping;
    private long frames;
    private long badFrames;

    public OflowDecoder(Output out) {
        this.out = out;
    }

    public long frames() {
        return frames;
    }

    public long badFrames() {
        return badFrames;
    }

    public void push(byte[] buf, int off, int len) {
        for (int i = off; i < off + len; i++) {
            int b = buf[i] & 0xFF;
            if (b == 0) {
                endFrame();
                continue;
            }
            if (dropping) {
                continue;
            }
            if (left <= 0) {
                if (left == 0 && zeroAfterBlock) {
                    put(0);
                }
                left = b - 1;
                zeroAfterBlock = b != 0xFF;
                continue;
            }
            put(b);
            left--;
        }
    }

    private void put(int b) {
        if (length == frame.length) {
            dropping = true;
            return;
        }
        frame[length++] = (byte) b;
    }

    private void endFrame() {
        boolean started = length > 0 || left >= 0 || dropping;
        boolean complete = left <= 0 && !dropping && length >= 2;
        if (complete) {
            int sum = 0;
            for (int i = 0; i < length; i++) {
                sum += frame[i];
            }
            if ((sum & 0xFF) == 0) {
                frames++;
                if (length > 2) {
                    out.data(frame[0] & 0xFF, frame, 1, length - 2);
                }
            } else {
                badFrames++;
            }
        } else if (started) {
            badFrames++;
        }
        length = 0;
        left = -1;
        zeroAfterBlock = false;
        dropping = false;
    }
}
