package io.armtrace.protocol.etm3;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Insn;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * What the ETMv3 flow needs to know of one instruction (size, waypoint kind, direct target), from the
 * {@link InstructionClassifier}, remembered per (address, ISA) in a hash table so that each atom costs a
 * probe or two. ETMv3 traces one atom per
 * instruction, so it needs no IT-state or condition tracking: the trace says which instructions
 * passed their condition.
 */
final class Etm3Code {
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();
    private static final int MAX_ENTRIES = 1 << 20;

    private final MemoryImage memory;
    private final InstructionClassifier classifier;
    private final Insn insn = new Insn();
    // open-addressing hash table (linear probing) from (address, ISA) to what the classifier said;
    // it grows with the code actually executed and starts over when it reaches MAX_ENTRIES
    // entry i: table[2i] = key (address << 2 | ISA ordinal, -1 = empty), table[2i + 1] = value:
    // bits [31:0] direct target, [32] has a target, [35:33] size, [38:36] kind, [41:39] target ISA
    private long[] table;
    private int mask;
    private int used;

    // result of the last lookup
    int size;
    WaypointKind kind;
    long directTarget;
    Isa targetIsa;

    Etm3Code(MemoryImage memory, Profile profile) {
        this.memory = memory;
        this.classifier = new InstructionClassifier(profile);
        allocate(1 << 12);
    }

    private void allocate(int capacity) {
        table = new long[2 * capacity];
        java.util.Arrays.fill(table, -1L);
        mask = capacity - 1;
        used = 0;
    }

    private static int hash(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 32);
    }

    /** Looks up the instruction at {@code address}; false if its bytes are not in the image. */
    boolean lookup(long address, Isa isa) {
        long key = address << 2 | isa.ordinal();
        long[] tb = table;
        int slot = hash(key) & mask;
        long t;
        while ((t = tb[2 * slot]) != -1L) {
            if (t == key) {
                long v = tb[2 * slot + 1];
                directTarget = (v & (1L << 32)) != 0 ? v & 0xFFFFFFFFL : -1;
                size = (int) (v >>> 33) & 7;
                kind = KINDS[(int) (v >>> 36) & 7];
                targetIsa = ISAS[(int) (v >>> 39) & 7];
                return true;
            }
            slot = (slot + 1) & mask;
        }
        if (!classify(address, isa)) {
            return false;
        }
        if (2 * (used + 1) > mask + 1) {
            grow();
        }
        long v = (directTarget >= 0 ? (directTarget & 0xFFFFFFFFL) | 1L << 32 : 0)
                | (long) size << 33 | (long) kind.ordinal() << 36 | (long) targetIsa.ordinal() << 39;
        put(key, v);
        return true;
    }

    private void put(long key, long value) {
        int slot = hash(key) & mask;
        while (table[2 * slot] != -1L) {
            slot = (slot + 1) & mask;
        }
        table[2 * slot] = key;
        table[2 * slot + 1] = value;
        used++;
    }

    private void grow() {
        int capacity = mask + 1;
        if (capacity >= 2 * MAX_ENTRIES) {
            allocate(capacity); // bounded memory: start over
            return;
        }
        long[] old = table;
        allocate(capacity * 2);
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != -1L) {
                put(old[i], old[i + 1]);
            }
        }
    }

    private boolean classify(long a, Isa isa) {
        if (!classifier.classify(memory, a, isa, 0, insn)) {
            return false;
        }
        size = insn.size;
        // ETMv3 traces every instruction with its own atom: a barrier is not a waypoint here.
        kind = insn.kind == WaypointKind.BARRIER ? WaypointKind.NONE : insn.kind;
        directTarget = insn.target;
        targetIsa = insn.targetIsa == null ? isa : insn.targetIsa;
        if (kind != WaypointKind.DIRECT_BRANCH) {
            directTarget = -1;
            targetIsa = isa;
        }
        return true;
    }

    // ---------------------------------------------------------------- blocks

    /**
     * A run of up to 64 instructions from {@code start}: all but possibly the last are not waypoints;
     * the last is the first waypoint reached ({@code lastKind} != NONE), or the run stopped at 64
     * instructions or at the end of the image. Bit i of {@code wide} is set when instruction i is 4 bytes.
     */
    static final class Block {
        final Isa isa;
        final int count;
        final long wide;
        final WaypointKind lastKind;
        final long target;
        final Isa targetIsa;

        Block(Isa isa, int count, long wide, WaypointKind lastKind, long target, Isa targetIsa) {
            this.isa = isa;
            this.count = count;
            this.wide = wide;
            this.lastKind = lastKind;
            this.target = target;
            this.targetIsa = targetIsa;
        }

        int size(int i) {
            return isa == Isa.A32 ? 4 : 2 + 2 * (int) ((wide >>> i) & 1);
        }
    }

    private long[] blockKeys = newKeys(1 << 10);
    private Block[] blocks = new Block[1 << 10];
    private int blocksUsed;

    private static long[] newKeys(int n) {
        long[] k = new long[n];
        java.util.Arrays.fill(k, -1L);
        return k;
    }

    /** The block that starts at {@code address}, or null if that instruction is not in the image. */
    Block block(long address, Isa isa) {
        long key = address << 2 | isa.ordinal();
        int m = blockKeys.length - 1;
        int slot = hash(key) & m;
        long t;
        while ((t = blockKeys[slot]) != -1L) {
            if (t == key) {
                return blocks[slot];
            }
            slot = (slot + 1) & m;
        }
        long a = address;
        long wide = 0;
        int n = 0;
        WaypointKind k = WaypointKind.NONE;
        long tgt = -1;
        Isa tIsa = isa;
        while (n < 64 && lookup(a, isa)) {
            if (size == 4 && isa != Isa.A32) {
                wide |= 1L << n;
            }
            n++;
            if (kind != WaypointKind.NONE) {
                k = kind;
                tgt = directTarget;
                tIsa = targetIsa;
                break;
            }
            a += size;
        }
        if (n == 0) {
            return null;
        }
        Block b = new Block(isa, n, wide, k, tgt, tIsa);
        if (2 * (blocksUsed + 1) > blockKeys.length) {
            growBlocks();
        }
        putBlock(key, b);
        return b;
    }

    private void putBlock(long key, Block b) {
        int m = blockKeys.length - 1;
        int slot = hash(key) & m;
        while (blockKeys[slot] != -1L) {
            slot = (slot + 1) & m;
        }
        blockKeys[slot] = key;
        blocks[slot] = b;
        blocksUsed++;
    }

    private void growBlocks() {
        long[] oldKeys = blockKeys;
        Block[] old = blocks;
        int n = oldKeys.length >= 2 * MAX_ENTRIES ? oldKeys.length : oldKeys.length * 2;
        blockKeys = newKeys(n);
        blocks = new Block[n];
        blocksUsed = 0;
        if (n == oldKeys.length) {
            return; // bounded memory: start over
        }
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != -1L) {
                putBlock(oldKeys[i], old[i]);
            }
        }
    }
}
