package io.armtrace.source;

import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits a CoreSight formatted trace stream (ETB/ETF/ETR buffers, TPIU port captures) into one byte
 * stream per trace source ID.
 *
 * <p>The CoreSight formatter packs trace into 16-byte frames. Each even byte of a frame (0, 2, ..., 14)
 * is either an ID change (bit 0 = 1, new ID in bits 7:1) or a data byte whose bit 0 is kept in byte 15
 * (bit k of byte 15 belongs to byte 2k). Odd bytes are always data. For an ID change, the flag bit in
 * byte 15 says when the new ID applies: 0 means at once (the following odd byte already belongs to the
 * new source), 1 means after the following odd byte (which still belongs to the previous source).
 * ID 0x00 is the null source, 0x70-0x7F are reserved or the trigger ID: their data is dropped, as is
 * data before the first ID change, whose source is unknown.
 *
 * <p>Port captures (TPIU, DSTREAM) also carry full-frame synchronization (the word 0x7FFFFFFF, bytes
 * {@code FF FF FF 7F}) between frames and half-word synchronization ({@code FF 7F}) between half-words;
 * with {@code removeSyncs} both are removed where they occur, and frame alignment is taken from the first
 * full-frame sync when there is one. An ID byte of 0xFF (ID 0x7F) cannot begin a real frame pair, which
 * is what makes those patterns unambiguous.
 */
public final class FrameDeformatter {

    /** Receives deformatted data: {@code len} bytes of source {@code id}. */
    @FunctionalInterface
    public interface Output {
        void data(int id, byte[] buf, int off, int len);
    }

    public static final int FRAME_SIZE = 16;
    public static final int NO_ID = -1;

    private final Output out;
    private final boolean removeSyncs;
    private final byte[] frame = new byte[FRAME_SIZE];
    private int fill;
    private int currentId = NO_ID;
    /** The bytes of one source since the last change of source, handed on when the source changes, it fills or a push ends. */
    private final byte[] run = new byte[4096];
    private int runLen;
    private int runId = NO_ID;
    /** Bytes of a possible sync pattern held back while deciding. */
    private final byte[] pending = new byte[4];
    private int pendingLen;
    private boolean aligned;
    private long framesSeen;
    private long syncsRemoved;

    /**
     * @param removeSyncs true for port captures that carry frame and half-word syncs (TPIU, DSTREAM);
     *                    false for memory buffers, which hold whole frames from their first byte.
     */
    public FrameDeformatter(Output out, boolean removeSyncs) {
        this.out = out;
        this.removeSyncs = removeSyncs;
        this.aligned = !removeSyncs;
    }

    public long frames() {
        return framesSeen;
    }

    public long syncsRemoved() {
        return syncsRemoved;
    }

    public void push(byte[] buf, int off, int len) {
        int end = off + len;
        if (!removeSyncs) {
            int i = off;
            while (i < end) {
                if (fill == 0 && end - i >= FRAME_SIZE) {
                    decodeFrame(buf, i); // a whole frame in the chunk: read where it is
                    i += FRAME_SIZE;
                    continue;
                }
                frame[fill++] = buf[i++];
                if (fill == FRAME_SIZE) {
                    decodeFrame(frame, 0);
                    fill = 0;
                }
            }
        } else {
            for (int i = off; i < end; i++) {
                pushSynced(buf[i]);
            }
        }
        flushRun();
    }

    /**
     * Port captures: bytes are taken in half-words. At a frame boundary a full-frame sync (FF FF FF 7F)
     * is dropped; anywhere at a half-word boundary a half-word sync (FF 7F) is dropped.
     */
    private void pushSynced(byte b) {
        pending[pendingLen++] = b;
        while (pendingLen > 0) {
            if (!aligned) {
                // Before the first full-frame sync nothing is known about frame alignment: look for one.
                if (pendingLen < 4) {
                    if (prefixOfFsync()) {
                        return;
                    }
                    shiftPending(1);
                    continue;
                }
                if (isFsync()) {
                    aligned = true;
                    syncsRemoved++;
                    pendingLen = 0;
                    return;
                }
                shiftPending(1);
                continue;
            }
            if ((fill & 1) == 1) {
                // odd position inside a half-word: plain data
                take(pending[0]);
                shiftPending(1);
                continue;
            }
            // at a half-word boundary: FF may start a sync
            if ((pending[0] & 0xFF) != 0xFF) {
                take(pending[0]);
                shiftPending(1);
                continue;
            }
            if (pendingLen < 2) {
                return;
            }
            if ((pending[1] & 0xFF) == 0x7F) {
                syncsRemoved++; // half-word sync
                shiftPending(2);
                continue;
            }
            if (fill == 0 && (pending[1] & 0xFF) == 0xFF) {
                if (pendingLen < 4) {
                    return;
                }
                if (isFsync()) {
                    syncsRemoved++;
                    shiftPending(4);
                    continue;
                }
            }
            take(pending[0]);
            shiftPending(1);
        }
    }

    private boolean prefixOfFsync() {
        for (int i = 0; i < pendingLen; i++) {
            int want = i == 3 ? 0x7F : 0xFF;
            if ((pending[i] & 0xFF) != want) {
                return false;
            }
        }
        return true;
    }

    private boolean isFsync() {
        return (pending[0] & 0xFF) == 0xFF && (pending[1] & 0xFF) == 0xFF && (pending[2] & 0xFF) == 0xFF
                && (pending[3] & 0xFF) == 0x7F;
    }

    private void shiftPending(int n) {
        System.arraycopy(pending, n, pending, 0, pendingLen - n);
        pendingLen -= n;
    }

    private void take(byte b) {
        frame[fill++] = b;
        if (fill == FRAME_SIZE) {
            decodeFrame(frame, 0);
            fill = 0;
        }
    }

    /** Decodes the frame at {@code f[base..base+15]}; its data stays in the run until {@link #flushRun()}. */
    private void decodeFrame(byte[] f, int base) {
        framesSeen++;
        int flags = f[base + 15] & 0xFF;
        for (int i = 0; i < 15; i += 2) {
            int b = f[base + i] & 0xFF;
            boolean flag = ((flags >> (i / 2)) & 1) != 0;
            if ((b & 1) != 0) {
                int newId = b >> 1;
                if (i == 14) {
                    // last even byte: no data byte follows in this frame
                    switchTo(newId);
                } else if (flag) {
                    emit(f[base + i + 1]);
                    switchTo(newId);
                } else {
                    switchTo(newId);
                    emit(f[base + i + 1]);
                }
            } else {
                emit((byte) (b | (flag ? 1 : 0)));
                if (i < 14) {
                    emit(f[base + i + 1]);
                }
            }
        }
    }

    private void switchTo(int id) {
        if (id != currentId) {
            flushRun();
            currentId = id;
        }
    }

    private void emit(byte b) {
        if (!isSource(currentId)) {
            return;
        }
        if (runId != currentId || runLen == run.length) {
            flushRun();
            runId = currentId;
        }
        run[runLen++] = b;
    }

    private void flushRun() {
        if (runLen > 0) {
            out.data(runId, run, 0, runLen);
            runLen = 0;
        }
        runId = NO_ID;
    }

    /** True for IDs that name a trace source: 0x01-0x6F. */
    public static boolean isSource(int id) {
        return id >= 0x01 && id <= 0x6F;
    }

    /** Bytes left over that do not make a whole frame (trailing partial frame). */
    public int leftover() {
        return fill + pendingLen;
    }

    /** Deformats a whole buffer into one byte array per source ID, in ascending ID order. */
    public static Map<Integer, byte[]> demultiplex(byte[] formatted, boolean removeSyncs) {
        Map<Integer, ByteArrayOutputStream> streams = new TreeMap<>();
        FrameDeformatter d = new FrameDeformatter(
                (id, buf, off, len) -> streams.computeIfAbsent(id, k -> new ByteArrayOutputStream()).write(buf, off, len),
                removeSyncs);
        d.push(formatted, 0, formatted.length);
        Map<Integer, byte[]> result = new TreeMap<>();
        streams.forEach((id, s) -> result.put(id, s.toByteArray()));
        return result;
    }

    /** {@link #demultiplex(byte[], boolean)} for a memory buffer (ETB/ETF/ETR), which has no syncs. */
    public static Map<Integer, byte[]> demultiplex(byte[] formatted) {
        return demultiplex(formatted, false);
    }

    /**
     * Deformats a stream chunk by chunk and counts the bytes of each source ID, in ascending ID order,
     * in memory that does not grow with the stream.
     */
    public static Map<Integer, Long> bytesPerSource(java.io.InputStream formatted, BufferFormat format)
            throws java.io.IOException {
        return bytesPerSource(DstreamBlocks.of(formatted, format), format == BufferFormat.DSTREAM_CORESIGHT);
    }

    /** {@link #bytesPerSource(java.io.InputStream, BufferFormat)} for a stream of frames, with or without syncs. */
    public static Map<Integer, Long> bytesPerSource(java.io.InputStream formatted, boolean removeSyncs)
            throws java.io.IOException {
        long[] counts = new long[128];
        FrameDeformatter d = new FrameDeformatter((id, buf, off, len) -> counts[id & 0x7F] += len, removeSyncs);
        byte[] chunk = new byte[1 << 16];
        int n;
        while ((n = formatted.read(chunk)) > 0) {
            d.push(chunk, 0, n);
        }
        Map<Integer, Long> result = new TreeMap<>();
        for (int id = 0; id < counts.length; id++) {
            if (counts[id] > 0) {
                result.put(id, counts[id]);
            }
        }
        return result;
    }
}
