package io.armtrace.isa;

import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * What the flow decoders need to know about one instruction. Mutable and reused on the hot path: the
 * classifier fills it in; callers copy out what they keep.
 */
public final class Insn {
    /** Address of the instruction. */
    public long address;
    public Isa isa;
    /** 2 or 4 bytes. */
    public int size;
    /** The encoding: an A32 or A64 word; a T32 halfword, or for 32-bit T32 first halfword << 16 | second. */
    public int opcode;
    /** What kind of waypoint it is; {@link WaypointKind#NONE} if it never changes the PC itself. */
    public WaypointKind kind = WaypointKind.NONE;
    /** Target of a direct branch (B, BL, BLX imm, CBZ/CBNZ; A64 also B.cond, BC.cond, TBZ/TBNZ), otherwise -1. */
    public long target = -1;
    /** ISA at the direct target (differs from {@link #isa} for BLX imm); for other kinds equal to {@link #isa}. */
    public Isa targetIsa;
    /** True for branches with link (BL, BLX; A64 BL, BLR and BLRAA/BLRAB/BLRAAZ/BLRABZ): they write {@link #returnAddress} into LR. */
    public boolean link;
    /** address + size: the return address a linking branch pushes. */
    public long returnAddress;
    /** Condition code 0-15 (14 = always); inside an IT block, the block's condition for it. */
    public int cond = 14;
    /**
     * True for an instruction that may not take effect: conditional by its encoding or by an IT block
     * (cond != 14), and CBZ/CBNZ, whose branch depends on a register (their cond stays 14).
     */
    public boolean conditional;
    /** IT state after this instruction (ITSTATE as the CPSR holds it; 0 outside IT blocks). */
    public int itStateAfter;
    /** True if the encoding is UNDEFINED or UNPREDICTABLE in a way that makes walking it meaningless. */
    public boolean undefined;
    /**
     * True for DMB and DSB (and their ARMv6 CP15 forms). Their kind stays NONE: PFT treats them as
     * waypoints only when ETMCCER bit 24 says so (IHI 0035B 2.2), see {@link CodeWalker}.
     */
    public boolean dataBarrier;
    /**
     * True for the A64 function returns RET, RETAA and RETAB (what OpenCSD calls a V8 return): views that
     * keep a call stack pop it here. Other indirect branches keep it false.
     */
    public boolean returns;
    /**
     * True for WFI, WFE, WFIT and WFET. Their kind stays NONE: ETMv4.3 and later trace them as P0
     * instructions when TRCIDR2.WFXMODE says so, see {@link CodeWalker}.
     */
    public boolean waitForInterruptOrEvent;

    /**
     * True if the classifier gave it any kind other than NONE, including {@link WaypointKind#BARRIER}
     * (ISB), which is a waypoint only for some protocols; see {@link #writesPc()}.
     */
    public boolean isWaypoint() {
        return kind != WaypointKind.NONE;
    }

    /**
     * True if the instruction can write the PC other than by stepping to the next instruction: a branch,
     * an exception-generating instruction or an exception return.
     */
    public boolean writesPc() {
        return kind != WaypointKind.NONE && kind != WaypointKind.BARRIER;
    }

    /** The address of the next instruction in memory: address + size. */
    public long nextAddress() {
        return address + size;
    }

    void reset(long address, Isa isa) {
        this.address = address;
        this.isa = isa;
        this.size = isa == Isa.A32 || isa == Isa.A64 ? 4 : 2;
        this.opcode = 0;
        this.kind = WaypointKind.NONE;
        this.target = -1;
        this.targetIsa = isa;
        this.link = false;
        this.returnAddress = 0;
        this.cond = 14;
        this.conditional = false;
        this.itStateAfter = 0;
        this.undefined = false;
        this.dataBarrier = false;
        this.returns = false;
        this.waitForInterruptOrEvent = false;
    }

    public Insn copy() {
        Insn c = new Insn();
        c.address = address;
        c.isa = isa;
        c.size = size;
        c.opcode = opcode;
        c.kind = kind;
        c.target = target;
        c.targetIsa = targetIsa;
        c.link = link;
        c.returnAddress = returnAddress;
        c.cond = cond;
        c.conditional = conditional;
        c.itStateAfter = itStateAfter;
        c.undefined = undefined;
        c.dataBarrier = dataBarrier;
        c.returns = returns;
        c.waitForInterruptOrEvent = waitForInterruptOrEvent;
        return c;
    }

    @Override
    public String toString() {
        return String.format("%s@0x%08x size=%d op=0x%08x %s target=%s%s cond=%d", isa, address, size, opcode, kind,
                target < 0 ? "-" : "0x" + Long.toHexString(target), link ? " link" : "", cond);
    }
}
