package io.armtrace.view;

/**
 * Counts per pair of {@code long}s (a run's first and last address, a branch's source and target): open
 * addressing over one array, each entry its two keys and its count side by side, so that counting a pair reads
 * one cache line and makes no object. Grows with the distinct pairs, not with how often they are counted.
 */
final class PairCounts {
    /** Longs per entry: key a, key b, count (0: the entry is empty; a counted pair has at least 1). */
    private static final int E = 3;
    private long[] table;
    private int mask;
    private int size;

    PairCounts() {
        table = new long[64 * E];
        mask = 63;
    }

    private static int hash(long a, long b) {
        long h = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xC2B2AE3D27D4EB4FL);
        return (int) (h ^ (h >>> 29));
    }

    /** Counts the pair once more; a count that would wrap stays at the largest value (AutoFDO reads them unsigned). */
    void add(long a, long b) {
        long[] t = table;
        int i = hash(a, b) & mask;
        while (true) {
            int p = i * E;
            long c = t[p + 2];
            if (c == 0) {
                t[p] = a;
                t[p + 1] = b;
                t[p + 2] = 1;
                if (++size * 2 > mask + 1) {
                    grow();
                }
                return;
            }
            if (t[p] == a && t[p + 1] == b) {
                if (c != -1L) {
                    t[p + 2] = c + 1;
                }
                return;
            }
            i = (i + 1) & mask;
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    interface Visitor {
        void pair(long a, long b, long count);
    }

    /** Every counted pair, in no particular order. */
    void forEach(Visitor v) {
        long[] t = table;
        for (int p = 0; p < t.length; p += E) {
            if (t[p + 2] != 0) {
                v.pair(t[p], t[p + 1], t[p + 2]);
            }
        }
    }

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        mask = (mask + 1) * 2 - 1;
        long[] t = table;
        for (int p = 0; p < old.length; p += E) {
            if (old[p + 2] != 0) {
                int i = hash(old[p], old[p + 1]) & mask;
                while (t[i * E + 2] != 0) {
                    i = (i + 1) & mask;
                }
                System.arraycopy(old, p, t, i * E, E);
            }
        }
    }
}
