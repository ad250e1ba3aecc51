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
}
