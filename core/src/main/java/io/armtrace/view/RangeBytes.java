package io.armtrace.view;

import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * Bytes a listing writer keeps per instruction range (the text of a range line after its columns where it names
 * a symbol), so that a range listed again costs a lookup and a copy rather than a symbol lookup and formatting:
 * loops list the same ranges again and again. Bounded: a number of entries given at construction (by default
 * {@value #ENTRIES}) in sets of two ways, the least recently used of a set
 * replaced, whatever the trace.
 *
 * <p>Laid out for the lookup, which runs once per range: an entry's key is four longs side by side in one
 * array (a set's two ways are 64 bytes, about one cache line), and its bytes are in place in one large array
 * (a number of bytes an entry given at construction; the rare longer ones, up to {@link #MAX_BYTES}, each in an array of
 * their own). A lookup thus reads one stretch of keys and one stretch of bytes, with no object in between.
 */
final class RangeBytes {
    /** The most bytes an entry keeps. */
    static final int MAX_BYTES = 256;
    /** The entries of {@link #RangeBytes(int)}. */
    static final int ENTRIES = 1 << 16;
    /** Bits of the entry index: the table has {@code 1 << bits} entries. */
    private final int bits;
    /** Bytes kept in place per entry. */
    private final int inPlaceBytes;

    /** Per entry: start, end, {@link #shape}, and one more long of the writer's (0 if it needs none). */
    private final long[] keys;
    private final byte[] inPlace;
    /** Per entry: its bytes when there are more than {@link #inPlaceBytes}, else null; made at the first. */
    private byte[][] longer;
    /** Per set: the way used last (0 or 1). */
    private final byte[] recent;
    /**
     * Per entry: a reference and an index of the writer's that determine the fourth long of its key, as last seen
     * with it ({@link #confirm}), or null; made at the first confirmation.
     */
    private Object[] confirmedBy;
    private int[] confirmedIndex;

    /** {@value #ENTRIES} entries that keep up to {@code inPlaceBytes} bytes in place (most ranges' should fit). */
    RangeBytes(int inPlaceBytes) {
        this(inPlaceBytes, 16);
    }

    /** {@code 1 << bits} entries (at least 2) that keep up to {@code inPlaceBytes} bytes in place. */
    RangeBytes(int inPlaceBytes, int bits) {
        if (bits < 1 || bits > 20) {
            throw new IllegalArgumentException("bits " + bits);
        }
        int entries = 1 << bits;
        this.bits = bits;
        this.inPlaceBytes = inPlaceBytes;
        this.keys = new long[entries * 4];
        this.recent = new byte[entries / 2];
        this.inPlace = new byte[entries * inPlaceBytes];
    }

    /** In an entry's shape: it holds a range (count is at least 1 anyway, but an empty key must never match). */
    private static final long USED = 1L << 63;
    /** A bit of a shape that {@link #shape} leaves 0, for a writer to tell two kinds of entry apart by. */
    static final long SPARE_SHAPE_BIT = 1L << 45;
    /** In an entry's shape: the length of its bytes, not part of the key. */
    private static final int LENGTH_SHIFT = 48;
    private static final long KEY_BITS = ~(0x7FFFL << LENGTH_SHIFT);

    /**
     * What a range says besides its addresses, as one long: instruction count, ISA, the last instruction's
     * waypoint kind and whether it passed its condition.
     */
    static long shape(InstructionRange r) {
        return shape(r.count(), r.isa(), r.lastKind(), r.lastExecuted());
    }

    /** As {@link #shape(InstructionRange)}, of a range's fields. */
    static long shape(int count, Isa isa, WaypointKind lastKind, boolean lastExecuted) {
        return (count & 0xFFFF_FFFFL) | (long) isa.ordinal() << 32 | (long) lastKind.ordinal() << 38
                | (lastExecuted ? 1L << 44 : 0) | USED;
    }

    /** The entry that holds the range so described, or -1. */
    int find(long start, long end, long shape, long more) {
        int e = set(start, end, shape, bits);
        long[] k = keys;
        int i = e << 2;
        if (k[i] == start && k[i + 1] == end && (k[i + 2] & KEY_BITS) == shape && k[i + 3] == more) {
            recent[e >>> 1] = 0;
            return e;
        }
        if (k[i + 4] == start && k[i + 5] == end && (k[i + 6] & KEY_BITS) == shape && k[i + 7] == more) {
            recent[e >>> 1] = 1;
            return e + 1;
        }
        return -1;
    }

    /**
     * The entry that holds the range so described and was last {@linkplain #confirm confirmed} with {@code by} and
     * {@code index}, or -1: for a writer whose fourth long is a function of the two (the address of a range's last
     * instruction, of its start, count and instruction sizes), a lookup that need not compute it.
     */
    int findConfirmed(long start, long end, long shape, Object by, int index) {
        Object[] c = confirmedBy;
        if (c == null) {
            return -1;
        }
        int e = set(start, end, shape, bits);
        long[] k = keys;
        int i = e << 2;
        if (c[e] == by && confirmedIndex[e] == index && k[i] == start && k[i + 1] == end
                && (k[i + 2] & KEY_BITS) == shape) {
            recent[e >>> 1] = 0;
            return e;
        }
        if (c[e + 1] == by && confirmedIndex[e + 1] == index && k[i + 4] == start && k[i + 5] == end
                && (k[i + 6] & KEY_BITS) == shape) {
            recent[e >>> 1] = 1;
            return e + 1;
        }
        return -1;
    }

    /**
     * Notes that entry {@code e}'s fourth long is the one {@code by} and {@code index} determine (the writer has just
     * found or kept it with that long), so that {@link #findConfirmed} finds it with them; {@code by} is kept until
     * the entry is replaced or confirmed by another.
     */
    void confirm(int e, Object by, int index) {
        if (confirmedBy == null) {
            confirmedBy = new Object[1 << bits];
            confirmedIndex = new int[1 << bits];
        }
        confirmedBy[e] = by;
        confirmedIndex[e] = index;
    }

    /**
     * Keeps {@code len} bytes of {@code b} from {@code off} (at most {@link #MAX_BYTES}) for the range so
     * described, in place of its set's less recently used entry; returns the entry.
     */
    int put(long start, long end, long shape, long more, byte[] b, int off, int len) {
        if (len > MAX_BYTES) {
            throw new IllegalArgumentException(len + " bytes");
        }
        int first = set(start, end, shape, bits);
        int e = first + (1 - recent[first >>> 1]);
        if (keys[(first << 2) + 2] == 0) {
            e = first; // an empty set: its first way, which a lookup tries first
        }
        recent[first >>> 1] = (byte) (e - first);
        if (confirmedBy != null) {
            confirmedBy[e] = null;
        }
        int i = e << 2;
        keys[i] = start;
        keys[i + 1] = end;
        keys[i + 2] = shape | (long) len << LENGTH_SHIFT;
        keys[i + 3] = more;
        if (len <= inPlaceBytes) {
            System.arraycopy(b, off, inPlace, e * inPlaceBytes, len);
            if (longer != null) {
                longer[e] = null;
            }
        } else {
            if (longer == null) {
                longer = new byte[1 << bits][];
            }
            longer[e] = java.util.Arrays.copyOfRange(b, off, off + len);
        }
        return e;
    }

    /** The number of bytes entry {@code e} holds. */
    int length(int e) {
        return (int) ((keys[(e << 2) + 2] & ~KEY_BITS) >>> LENGTH_SHIFT);
    }

    /** Copies entry {@code e}'s bytes to {@code b} at {@code p}; returns the position after them. */
    int copy(int e, byte[] b, int p) {
        int len = length(e);
        if (len <= inPlaceBytes) {
            System.arraycopy(inPlace, e * inPlaceBytes, b, p, len);
        } else {
            System.arraycopy(longer[e], 0, b, p, len);
        }
        return p + len;
    }

    /** The first entry of the range's set. */
    private static int set(long start, long end, long shape, int bits) {
        // a range that ends in a conditional instruction is listed both ways: its two lines may share a set
        long key = start ^ (end << 11) ^ (shape >>> 38 << 40);
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - bits)) & ~1;
    }
}
