package io.armtrace.image;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Code memory built from mappings, each giving a space its memory from a point of the trace on: the
 * memory dumps of a snapshot (one mapping per {@code space=}, from position 0) and, as a recording is read,
 * the mappings a process makes. Mappings must be added in increasing position; a later mapping overlapping
 * an earlier one of the same space replaces it where they overlap (a library mapped over freed memory).
 *
 * <p>Answers are cached per (space, generation): a decoder that asks for the same space again between
 * two changes gets the same {@link MemoryImage} without any copying.
 */
public final class MappedCodeMemory implements CodeMemory {
    private record Mapping(AddressSpace space, long from, MemoryImage memory) {
    }

    private final List<Mapping> mappings = new ArrayList<>();
    private final Map<AddressSpace, Cached> cache = new HashMap<>();

    private record Cached(long from, long until, MemoryImage memory) {
    }

    /**
     * Gives {@code space} (and every space it covers) {@code memory} from trace position {@code from} on.
     * Positions must not decrease from one call to the next.
     */
    public synchronized MappedCodeMemory map(AddressSpace space, long from, MemoryImage memory) {
        if (from < 0) {
            throw new IllegalArgumentException("trace position " + from + " is negative");
        }
        if (!mappings.isEmpty() && from < mappings.get(mappings.size() - 1).from()) {
            throw new IllegalArgumentException("mapping at trace position " + from + " added after one at "
                    + mappings.get(mappings.size() - 1).from());
        }
        mappings.add(new Mapping(space, from, memory));
        cache.clear();
        return this;
    }

    /** The spaces that have memory of their own, in the order they were first mapped. */
    public synchronized List<AddressSpace> spaces() {
        List<AddressSpace> out = new ArrayList<>();
        for (Mapping m : mappings) {
            if (!out.contains(m.space())) {
                out.add(m.space());
            }
        }
        return out;
    }

    @Override
    public synchronized MemoryImage at(AddressSpace space, long position) {
        Cached c = cache.get(space);
        if (c != null && position >= c.from() && position < c.until()) {
            return c.memory();
        }
        // later mappings win where they overlap, as later regions do in a MemoryImage
        MemoryImage merged = new MemoryImage();
        long from = 0;
        for (Mapping m : mappings) {
            if (m.from() <= position && m.space().covers(space)) {
                merged.addAll(m.memory());
                from = Math.max(from, m.from());
            }
        }
        long until = changesAfter(position);
        MemoryImage result = merged;
        cache.put(space, new Cached(from, until, result));
        return result;
    }

    @Override
    public synchronized long changesAfter(long position) {
        for (Mapping m : mappings) {
            if (m.from() > position) {
                return m.from();
            }
        }
        return Long.MAX_VALUE;
    }
}
