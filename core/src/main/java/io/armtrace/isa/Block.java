package io.armtrace.isa;

import io.armtrace.trace.CallKind;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

import java.util.Arrays;

/**
 * A straight run of code as {@link CodeWalker} found it: from {@link #start()} in state {@link #isa()}
 * through non-waypoint instructions up to and including the first waypoint, or up to where the walk had
 * to stop ({@link #end()}). What it says of the code is immutable, and it is shared through the walker's
 * cache; the only thing that changes is the walker's links from it to the blocks that follow it
 * ({@link CodeWalker#next(Block)}, {@link CodeWalker#taken(Block)}), which only that walker's thread reads.
 *
 * <p>The waypoint fields ({@link #kind()} to {@link #opcode()}) describe the last instruction when
 * {@link #end()} is {@link End#WAYPOINT}; otherwise kind is {@link WaypointKind#NONE}, target is -1.
 */
public final class Block {

    /** Why the walk stopped. */
    public enum End {
        /** The last instruction is a waypoint. */
        WAYPOINT,
        /** The next instruction's bytes are not in the image; see {@link Block#missingAddress()}. */
        NO_IMAGE,
        /** Walking the next instruction would have gone past the walker's byte limit. */
        LIMIT,
        /**
         * The state cannot be walked: Jazelle bytecode, or A32 on an M-profile core. The block holds the
         * instructions before that point (none if it started there).
         */
        UNSUPPORTED
    }

    private final long start;
    private final Isa isa;
    private final int count;
    /**
     * Byte offset of each instruction from start and, after the last, the block's length; null when all
     * have the same size. Shared with {@link #sizes}.
     */
    private final int[] offsets;
    /** The instruction sizes as the element stream carries them, shared by every range cut from this block. */
    private final InstructionSizes sizes;
    private final CallKind call;
    private final int uniformSize;
    private final long lastAddress;
    private final int lastSize;
    private final End end;
    private final long missingAddress;
    private final WaypointKind kind;
    private final long target;
    private final Isa targetIsa;
    private final boolean link;
    private final long returnAddress;
    private final int cond;
    private final boolean conditional;
    private final int opcode;
    /**
     * The walker's links to the block at {@link #nextAddress()}, to the one at the direct branch's
     * {@link #target()} and to the one an indirect branch last went to, valid while {@code linkEpoch} is
     * the walker's (a cleared cache starts a new one).
     */
    Block nextLink;
    Block takenLink;
    Block indirectLink;
    int linkEpoch;

    Block(long start, Isa isa, int count, int[] offsets, int uniformSize, End end, long missingAddress, Insn last) {
        this.start = start;
        this.isa = isa;
        this.count = count;
        this.offsets = offsets;
        this.uniformSize = uniformSize;
        this.end = end;
        this.missingAddress = missingAddress;
        this.sizes = offsets == null ? InstructionSizes.uniform(uniformSize) : InstructionSizes.ofOffsets(offsets);
        if (count > 0) {
            this.lastAddress = last.address;
            this.lastSize = last.size;
        } else {
            this.lastAddress = start;
            this.lastSize = 0;
        }
        if (end == End.WAYPOINT) {
            // a DMB/DSB (PFT, ETMCCER bit 24) or a WFI/WFE (ETMv4 WFXMODE) that ends a block is reported as a barrier
            this.kind = last.kind == WaypointKind.NONE ? WaypointKind.BARRIER : last.kind;
            this.target = last.target;
            this.targetIsa = last.targetIsa;
            this.link = last.link;
            this.returnAddress = last.returnAddress;
            this.cond = last.cond;
            this.conditional = last.conditional;
            this.opcode = last.opcode;
            this.call = last.link ? CallKind.CALL : last.ret ? CallKind.RETURN : CallKind.NONE;
        } else {
            this.kind = WaypointKind.NONE;
            this.target = -1;
            this.targetIsa = isa;
            this.link = false;
            this.returnAddress = count > 0 ? last.address + last.size : start;
            this.cond = 14;
            this.conditional = false;
            this.opcode = count > 0 ? last.opcode : 0;
            this.call = CallKind.NONE;
        }
    }

    /** Address of the first instruction. */
    public long start() {
        return start;
    }

    public Isa isa() {
        return isa;
    }

    /** Number of instructions, including the waypoint when {@link #end()} is WAYPOINT. */
    public int count() {
        return count;
    }

    /** Address of the last instruction (the waypoint), or {@link #start()} for an empty block. */
    public long lastAddress() {
        return lastAddress;
    }

    /** Size of the last instruction in bytes; 0 for an empty block. */
    public int lastSize() {
        return lastSize;
    }

    /** Address just after the last instruction: where execution continues if the waypoint is not taken. */
    public long nextAddress() {
        return lastAddress + lastSize;
    }

    /** Number of bytes the block covers. */
    public int byteLength() {
        return (int) (lastAddress + lastSize - start);
    }

    public End end() {
        return end;
    }

    /** For {@link End#NO_IMAGE}: the address of the instruction whose bytes are missing; otherwise -1. */
    public long missingAddress() {
        return missingAddress;
    }

    /** Kind of the waypoint; NONE when the block did not end at one. */
    public WaypointKind kind() {
        return kind;
    }

    /** Direct branch target, or -1. */
    public long target() {
        return target;
    }

    /** ISA at the direct branch target (A32 for T32 BLX imm, T32 for A32 BLX imm). */
    public Isa targetIsa() {
        return targetIsa;
    }

    /** True if the waypoint is a branch with link (BL, BLX). */
    public boolean link() {
        return link;
    }

    /** Whether the waypoint is a branch with link or a return; NONE when the block did not end at one. */
    public CallKind call() {
        return call;
    }

    /**
     * The sizes of the block's instructions, for the ranges a flow cuts from it: instruction i of the
     * block is instruction i of these sizes. Immutable and shared.
     */
    public InstructionSizes sizes() {
        return sizes;
    }

    /** Address after the waypoint; the return address of a linking branch. */
    public long returnAddress() {
        return returnAddress;
    }

    /**
     * Condition of the waypoint (14 = always). Inside an IT block this is the IT condition only when the
     * IT instruction is in the same block: the walker starts every block with IT state 0.
     */
    public int cond() {
        return cond;
    }

    /** True if the waypoint may not take effect (condition code, IT condition, CBZ/CBNZ). */
    public boolean conditional() {
        return conditional;
    }

    /** Encoding of the waypoint (or of the last instruction walked), as in {@link Insn#opcode}. */
    public int opcode() {
        return opcode;
    }

    /** True if the block ends at a waypoint. */
    public boolean endsAtWaypoint() {
        return end == End.WAYPOINT;
    }

    /** Address of the {@code i}-th instruction (0-based, {@code 0 <= i < count()}). */
    public long addressOf(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("instruction " + i + " of " + count);
        }
        return offsets == null ? start + (long) i * uniformSize : start + offsets[i];
    }

    /**
     * Size in bytes of the {@code i}-th instruction ({@code 0 <= i < count()}). A decoder that consumes
     * one atom per instruction (ETMv3) calls this for every instruction, so it is a bounds check and
     * at most two array reads.
     */
    public int sizeOf(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("instruction " + i + " of " + count);
        }
        if (offsets == null) {
            return uniformSize;
        }
        return (i + 1 < count ? offsets[i + 1] : (int) (lastAddress + lastSize - start)) - offsets[i];
    }

    /**
     * Index of the instruction that starts at {@code address}, or -1 if no instruction of this block
     * starts there.
     */
    public int indexOf(long address) {
        long off = address - start;
        if (off < 0 || address > lastAddress) {
            return -1;
        }
        if (offsets == null) {
            return off % uniformSize == 0 ? (int) (off / uniformSize) : -1;
        }
        int i = Arrays.binarySearch(offsets, 0, count, (int) off);
        return i >= 0 ? i : -1;
    }

    /**
     * Number of instructions of this block that start before {@code address}: for an address inside the
     * block, the number executed before reaching it; {@code count()} for addresses past the end, 0 for
     * addresses before the start.
     */
    public int countBefore(long address) {
        long off = address - start;
        if (off <= 0) {
            return 0;
        }
        if (address > lastAddress) {
            return count;
        }
        if (offsets == null) {
            return (int) ((off + uniformSize - 1) / uniformSize);
        }
        int i = Arrays.binarySearch(offsets, 0, count, (int) off);
        return i >= 0 ? i : -i - 1;
    }

    /** True if {@code address} is inside [start, nextAddress()). */
    public boolean contains(long address) {
        return address >= start && address < lastAddress + lastSize;
    }

    @Override
    public String toString() {
        return String.format("Block[%s 0x%08x..0x%08x n=%d %s %s%s]", isa, start, lastAddress, count, end, kind,
                target >= 0 ? " ->0x" + Long.toHexString(target) : "");
    }
}
