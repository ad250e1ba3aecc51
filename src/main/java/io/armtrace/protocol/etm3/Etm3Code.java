package io.armtrace.protocol.etm3;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Insn;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * What the ETMv3 flow needs to know of one instruction (size, waypoint kind, direct target), from the
 * {@link InstructionClassifier}, looked up through a direct-mapped cache so that each atom costs one probe. ETMv3 traces one atom per
 * instruction, so it needs no IT-state or condition tracking: the trace says which instructions
 * passed their condition.
 */
final class Etm3Code {
    private static final int BITS = 12;
    private static final int SIZE = 1 << BITS;
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();

    private final MemoryImage memory;
    private final InstructionClassifier classifier;
    private final Insn insn = new Insn();
    private final long[] tag = new long[SIZE];
    private final byte[] info = new byte[SIZE]; // size | kind << 3 | targetIsa << 6 (ordinal)
    private final long[] target = new long[SIZE];

    // result of the last lookup
    int size;
    WaypointKind kind;
    long directTarget;
    Isa targetIsa;

    Etm3Code(MemoryImage memory, Profile profile) {
        this.memory = memory;
        this.classifier = new InstructionClassifier(profile);
        java.util.Arrays.fill(tag, -1L);
    }

    /** Looks up the instruction at {@code address}; false if its bytes are not in the image. */
    boolean lookup(long address, Isa isa) {
        long key = address << 2 | isa.ordinal();
        int slot = (int) ((address >>> 1) ^ (address >>> (BITS + 1))) & (SIZE - 1);
        if (tag[slot] == key) {
            int i = info[slot];
            size = i & 7;
            kind = KINDS[(i >> 3) & 7];
            targetIsa = ISAS[(i >> 6) & 3];
            directTarget = target[slot];
            return true;
        }
        if (!classify(address, isa)) {
            return false;
        }
        tag[slot] = key;
        info[slot] = (byte) (size | kind.ordinal() << 3 | targetIsa.ordinal() << 6);
        target[slot] = directTarget;
        return true;
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
