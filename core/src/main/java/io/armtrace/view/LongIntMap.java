package io.armtrace.view;

import java.util.Arrays;

/**
 * Open-addressing hash map from {@code long} keys to {@code int} values, without boxing: the views'
 * per-range lookups (address to function, range to counter slot) go through it.
 */
final class LongIntMap {
    private static final int EMPTY = -1;
    private long[] keys;
    private int[] values;
    private int size;
    private int mask;

    LongIntMap(int capacity) {
        int n = Integer.highestOneBit(Math.max(16, capacity * 2) - 1) << 1;
        keys = new long[n];
        values = new int[n];
        Arrays.fill(values, EMPTY);
        mask = n - 1;
    }

    private static int hash(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The value of {@code key}, or -1. Values stored must be non-negative. */
    int get(long key) {
        int i = hash(key) & mask;
        while (true) {
            int v = values[i];
            if (v == EMPTY) {
                return -1;
            }
            if (keys[i] == key) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = hash(key) & mask;
        while (values[i] != EMPTY) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] k = keys;
        int[] v = values;
        keys = new long[k.length * 2];
        values = new int[k.length * 2];
        Arrays.fill(values, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (v[i] != EMPTY) {
                put(k[i], v[i]);
            }
        }
    }
}
