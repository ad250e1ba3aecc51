package io.armtrace.image;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Program memory as a set of possibly sparse, possibly overlapping regions; where regions overlap the
 * one added later wins. Reads that cross from one region into the next work byte by byte. Reading an
 * instruction is the decoders' hot path: the common case (a read inside the region that answered the
 * previous read) costs a bounds check and the loads.
 *
 * <p>Addresses are unsigned 64-bit values: an AArch64 kernel's upper-half addresses are negative as a Java
 * {@code long}, and a region may lie across 2^63. A region that would run past the top of the address
 * space holds no memory.
 *
 * <p>Instances are not thread-safe while regions are being added; once built they can be read from
 * several threads if each uses its own {@link #copy()}, since the last-hit cache is per instance.
 *
 * <p>A copy made by {@link #keeping()} also keeps what decoders build on it ({@link #kept}): the block cache a
 * decoder walked into stays with the copy, so that the next decoder on the same thread starts with its blocks
 * (the pieces of one source that {@code ChunkedDecode} gives a thread one after the other).
 */
public final class MemoryImage {

    /**
     * A contiguous block of memory at an address: heap bytes, or a memory-mapped part of a file (a raw
     * dump is mapped, not copied, so that a large one costs address space rather than heap).
     */
    public record Region(long start, ByteBuffer bytes, String name) {
        public Region {
            // a view of its own in little-endian order: absolute reads never change a buffer's position
            bytes = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        }

        public long size() {
            return bytes.limit();
        }

        public long end() {
            return start + bytes.limit();
        }

        boolean contains(long addr) {
            return Long.compareUnsigned(addr - start, size()) < 0;
        }
    }

    private final List<Region> added = new ArrayList<>();
    /** Non-overlapping pieces sorted by (unsigned) address, rebuilt after adds; the later-added region wins. */
    private long[] pieceStart = new long[0];
    /** {@link #pieceStart} with the sign bit flipped: signed order is the addresses' unsigned order, for the search. */
    private long[] pieceKey = new long[0];
    private long[] pieceEnd = new long[0];
    private Region[] pieceRegion = new Region[0];
    /** Per piece, its region's bytes and start address: the hot path reads these two arrays only. */
    private ByteBuffer[] pieceBytes = new ByteBuffer[0];
    private long[] pieceBase = new long[0];
    private boolean dirty;
    private int last = -1;
    /** What decoders built on this copy, by key, when it is a {@link #keeping()} copy; null otherwise. */
    private java.util.Map<Object, Object> kept;

    public MemoryImage() {
    }

    private MemoryImage(MemoryImage other) {
        other.build();
        added.addAll(other.added);
        pieceStart = other.pieceStart;
        pieceKey = other.pieceKey;
        pieceEnd = other.pieceEnd;
        pieceRegion = other.pieceRegion;
        pieceBytes = other.pieceBytes;
        pieceBase = other.pieceBase;
    }

    /** A view of the same memory with its own read cache, for use on another thread. */
    public MemoryImage copy() {
        return new MemoryImage(this);
    }

    /**
     * A {@link #copy()} that keeps what decoders build on it: the copy of one thread that decodes several pieces
     * of the same source in turn. Like any copy it belongs to one thread; adding a region drops what it kept.
     */
    public MemoryImage keeping() {
        MemoryImage m = new MemoryImage(this);
        m.kept = new java.util.HashMap<>();
        return m;
    }

    /** Whether this is a {@link #keeping()} copy. */
    public boolean keeps() {
        return kept != null;
    }

    /**
     * What {@code make} builds for {@code key} on this memory: made anew each time, or on a {@link #keeping()}
     * copy the one made the first time (a key must say everything the made thing depends on besides the memory).
     */
    @SuppressWarnings("unchecked")
    public <T> T kept(Object key, java.util.function.Function<MemoryImage, T> make) {
        if (kept == null) {
            return make.apply(this);
        }
        Object t = kept.get(key);
        if (t == null) {
            t = make.apply(this);
            kept.put(key, t);
        }
        return (T) t;
    }

    public MemoryImage add(long address, byte[] data, String name) {
        return add(address, ByteBuffer.wrap(data), name);
    }

    /** Adds the bytes from 0 to the limit of {@code data} (which is not copied) at {@code address}. */
    public MemoryImage add(long address, ByteBuffer data, String name) {
        added.add(new Region(address, data, name));
        changed();
        return this;
    }

    public MemoryImage addAll(MemoryImage other) {
        added.addAll(other.regions());
        changed();
        return this;
    }

    private void changed() {
        dirty = true;
        last = -1; // or a read in the piece read last would not see a region added over it
        if (kept != null) {
            kept.clear(); // what was built on the memory before may have read what the new regions cover
        }
    }

    /** The regions in the order they were added. */
    public List<Region> regions() {
        return List.copyOf(added);
    }

    public boolean isEmpty() {
        return added.isEmpty();
    }

    private void build() {
        if (!dirty) {
            return;
        }
        // Paint regions in order of addition onto a list of disjoint pieces: later ones win. A piece holds its
        // last address, not its end: a region may end at the top of the address space, where the end is 2^64.
        List<long[]> pieces = new ArrayList<>(); // {start, last, regionIndex}, compared unsigned
        for (int i = 0; i < added.size(); i++) {
            Region r = added.get(i);
            long s = r.start();
            long size = r.size();
            if (size == 0 || Long.compareUnsigned(s, -size) > 0) {
                continue; // empty, or running past the top of the address space
            }
            long l = s + size - 1;
            List<long[]> next = new ArrayList<>();
            for (long[] p : pieces) {
                if (Long.compareUnsigned(p[1], s) < 0 || Long.compareUnsigned(p[0], l) > 0) {
                    next.add(p);
                } else {
                    if (Long.compareUnsigned(p[0], s) < 0) {
                        next.add(new long[] {p[0], s - 1, p[2]});
                    }
                    if (Long.compareUnsigned(p[1], l) > 0) {
                        next.add(new long[] {l + 1, p[1], p[2]});
                    }
                }
            }
            next.add(new long[] {s, l, i});
            pieces = next;
        }
        pieces.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
        int n = pieces.size();
        pieceStart = new long[n];
        pieceKey = new long[n];
        pieceEnd = new long[n];
        pieceRegion = new Region[n];
        pieceBytes = new ByteBuffer[n];
        pieceBase = new long[n];
        for (int i = 0; i < n; i++) {
            long[] p = pieces.get(i);
            pieceStart[i] = p[0];
            pieceKey[i] = p[0] ^ Long.MIN_VALUE;
            pieceEnd[i] = p[1] + 1; // 0 for a piece that ends at the top: only distances from it are used
            pieceRegion[i] = added.get((int) p[2]);
            pieceBytes[i] = pieceRegion[i].bytes().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            pieceBase[i] = pieceRegion[i].start();
        }
        dirty = false;
        last = -1;
    }

    private int find(long addr) {
        int l = last;
        // unsigned: an address below the piece's start is a large distance from it
        if (l >= 0 && Long.compareUnsigned(addr - pieceStart[l], pieceEnd[l] - pieceStart[l]) < 0) {
            return l;
        }
        if (dirty) {
            build();
        }
        int i = Arrays.binarySearch(pieceKey, addr ^ Long.MIN_VALUE);
        if (i < 0) {
            i = -i - 2;
        }
        if (i >= 0 && Long.compareUnsigned(addr - pieceStart[i], pieceEnd[i] - pieceStart[i]) < 0) {
            last = i;
            return i;
        }
        return -1;
    }

    /** True if every byte of [addr, addr+len) is in the image. */
    public boolean contains(long addr, int len) {
        long a = addr;
        for (long left = len; left > 0; ) {
            int p = find(a);
            if (p < 0) {
                return false;
            }
            long here = pieceEnd[p] - a; // bytes of the piece from a: at most a region's size
            left -= here;
            a = pieceEnd[p];
        }
        return true;
    }

    /** The byte at {@code addr}, or -1 if it is outside the image. */
    public int u8(long addr) {
        int p = find(addr);
        if (p < 0) {
            return -1;
        }
        return pieceBytes[p].get((int) (addr - pieceBase[p])) & 0xFF;
    }

    /** The little-endian halfword at {@code addr}, or -1 if any byte of it is outside the image. */
    public int u16(long addr) {
        int p = find(addr);
        if (p >= 0 && pieceEnd[p] - addr >= 2) {
            return pieceBytes[p].getShort((int) (addr - pieceBase[p])) & 0xFFFF;
        }
        int b0 = u8(addr);
        int b1 = u8(addr + 1);
        return (b0 < 0 || b1 < 0) ? -1 : b0 | b1 << 8;
    }

    /** The little-endian word at {@code addr} as an unsigned value, or -1 if any byte is outside. */
    public long u32(long addr) {
        int p = find(addr);
        if (p >= 0 && pieceEnd[p] - addr >= 4) {
            return pieceBytes[p].getInt((int) (addr - pieceBase[p])) & 0xFFFFFFFFL;
        }
        int lo = u16(addr);
        int hi = u16(addr + 2);
        return (lo < 0 || hi < 0) ? -1 : (lo | (long) hi << 16);
    }

    /**
     * Copies up to {@code len} bytes starting at {@code addr}; stops at the first byte outside the image.
     * Returns how many bytes were copied.
     */
    public int read(long addr, byte[] dst, int off, int len) {
        int n = 0;
        while (n < len) {
            int p = find(addr + n);
            if (p < 0) {
                break;
            }
            int o = (int) (addr + n - pieceBase[p]);
            int k = (int) Math.min(len - n, pieceEnd[p] - (addr + n));
            pieceBytes[p].get(o, dst, off + n, k);
            n += k;
        }
        return n;
    }

    /** The region that supplies the byte at {@code addr}, or null. */
    public Region regionAt(long addr) {
        int p = find(addr);
        return p < 0 ? null : pieceRegion[p];
    }

    /**
     * As {@link #regionAt(long)}; where there is a region, {@code bounds[0]} and {@code bounds[1]} are set to the start
     * and end of the stretch around {@code addr} that the same region supplies (a caller's cache for the addresses
     * that follow).
     */
    public Region regionAt(long addr, long[] bounds) {
        int p = find(addr);
        if (p < 0) {
            return null;
        }
        bounds[0] = pieceBase[p];
        bounds[1] = pieceEnd[p];
        return pieceRegion[p];
    }
}
