package io.armtrace.protocol.mtb;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.RangeSizes;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.util.OptionalLong;

/**
 * Turns MTB packets (oldest first) and the program image into the executed instructions.
 *
 * <p>The rule (MTB execution trace storage format): between consecutive packets P and Q the core ran
 * sequentially from P's destination to Q's source. Q's source instruction is included when Q.A = 0
 * (it is the branch that wrote Q) and excluded when Q.A = 1 (an exception entry: the source is the
 * preferred return address, an instruction not yet executed). An exception return writes two packets,
 * (returning instruction -> EXC_RETURN, A=0) then (EXC_RETURN, A=1 -> resume address); they become one
 * {@link ExceptionReturn}, and nothing is walked at EXC_RETURN values. S = 1 marks the first packet
 * after trace (re)started: the stretch before it is unknown, so decoding restarts at its destination.
 * Nothing is walked before the oldest packet's destination, nor past the newest packet unless the
 * halted core's PC is given ({@link #finish}).
 *
 * <p>Every walk is checked: the source must be reached exactly by stepping through the instructions
 * of the image, no unconditional direct branch elsewhere than to the next instruction and no SVC may
 * lie on the way (they would have written a packet), and a branch source must be a branch (a direct
 * one to the packet's destination). A packet that fails
 * becomes a {@link DecodeError} and decoding continues at its destination. Walks only go forward and
 * are bounded, so corrupt packets can neither loop nor run away.
 *
 * <p>MTB carries no condition codes, but it writes a packet for every taken branch: a conditional branch
 * (B&lt;c&gt;, CBZ/CBNZ, a branch in an IT block) that a walk passes was not taken and is reported as
 * failing its condition, and one that is the source of a packet as executed. Conditional instructions
 * that are not branches (the rest of an IT block, on ARMv7-M and ARMv8-M Mainline) change no PC, so
 * nothing in the trace tells whether they passed: they are reported executed.
 */
public final class MtbFlow implements MtbPacketListener {
    /** Default bound of one walk, in instructions. */
    public static final long DEFAULT_WALK_LIMIT = 1 << 20;

    private final CodeWalker code;
    private final MemoryImage memory;
    private final ExceptionVectors vectors;
    private final ElementSink sink;
    private final int source;
    private final long walkLimit;

    /** Where execution continued after the last packet; -1 when unknown. */
    private long cursor = -1;
    /** The last packet was the first of an exception return pair, from this instruction. */
    private boolean returnPending;
    private long returnSource;
    private boolean first = true;
    private long packets;
    private long instructions;
    private long errors;

    public MtbFlow(ProgramImage image, OptionalLong vtor, int source, long walkLimit, ElementSink sink) {
        this(new MtbProgram(image, vtor), source, walkLimit, sink);
    }

    /** A flow over a program whose code blocks and vector table are shared with other decodes. */
    public MtbFlow(MtbProgram program, int source, long walkLimit, ElementSink sink) {
        this.memory = program.image().memory();
        this.code = program.walker();
        this.vectors = program.vectors();
        this.source = source;
        this.walkLimit = walkLimit > 0 ? walkLimit : DEFAULT_WALK_LIMIT;
        this.sink = sink;
    }

    public long packets() {
        return packets;
    }

    public long instructions() {
        return instructions;
    }

    /** Number of {@link DecodeError} and {@link NoImage} elements emitted. */
    public long errors() {
        return errors;
    }

    @Override
    public void packet(long offset, int sourceWord, int destinationWord) {
        packets++;
        long src = sourceWord & 0xFFFFFFFEL;
        boolean atom = (sourceWord & 1) != 0;
        long dst = destinationWord & 0xFFFFFFFEL;
        boolean start = (destinationWord & 1) != 0;
        if (first || start) {
            sink.accept(new TraceOn(source, start ? TraceOn.Reason.TRACE_ENABLED : TraceOn.Reason.SYNC, offset));
            first = false;
            cursor = -1;
            returnPending = false;
        }
        if (atom && MtbPacket.isMagic(src)) {
            // second packet of an exception return: EXC_RETURN -> where execution resumes
            if (!returnPending && cursor >= 0) {
                error(String.format("exception return to 0x%08x without the packet of the returning instruction "
                        + "(execution was at 0x%08x)", dst, cursor), dst, offset);
            }
            returnPending = false;
            exceptionReturn(dst);
            cursor = MtbPacket.isMagic(dst) ? -1 : dst;
            return;
        }
        if (returnPending) {
            error(String.format("the exception return at 0x%08x lacks its second packet (EXC_RETURN -> resume address)",
                    returnSource), returnSource, offset);
            returnPending = false;
            cursor = -1;
        }
        if (cursor >= 0) {
            walk(cursor, src, !atom, atom, dst, offset);
        }
        if (atom) {
            String name = vectors.name(dst);
            sink.accept(new ExceptionEntry(source, vectors.number(dst),
                    name != null ? name : "exception or debugger PC write", src, false));
        }
        if (MtbPacket.isMagic(dst)) {
            cursor = -1;
            if (atom) {
                error(String.format("exception entry to EXC_RETURN value 0x%08x", dst), dst, offset);
            } else {
                returnPending = true;
                returnSource = src;
            }
        } else {
            cursor = dst;
        }
    }

    private void exceptionReturn(long target) {
        if (vectors.isHandler(target)) {
            // Tail-chaining: the return went straight into the next pending exception's handler; the
            // address the first exception would have returned to is not in the trace.
            sink.accept(new ExceptionReturn(source, -1));
            String name = vectors.name(target);
            sink.accept(new ExceptionEntry(source, vectors.number(target), name, -1, false));
        } else {
            sink.accept(new ExceptionReturn(source, MtbPacket.isMagic(target) ? -1 : target));
        }
    }

    /**
     * Completes decoding. With the halted core's {@code pc}, the newest run is walked from the last
     * destination up to (not including) the PC, which has not executed yet.
     */
    public void finish(OptionalLong pc, long offset) {
        if (pc.isPresent() && packets > 0) {
            long p = pc.getAsLong() & 0xFFFFFFFEL;
            if (returnPending) {
                error(String.format("the trace ends inside an exception return (from 0x%08x); the PC 0x%08x cannot "
                        + "be reached", returnSource, p), p, offset);
            } else if (cursor >= 0) {
                walk(cursor, p, false, false, -1, offset);
                cursor = p;
            }
        }
        returnPending = false;
    }

    /**
     * Walks from {@code from} to {@code to}: including the instruction at {@code to} when
     * {@code include} (it is the branch whose destination is {@code dst}), excluding it otherwise.
     * {@code exception}: the walk ends where an exception was taken. Goes block by block (straight code
     * up to the next instruction that can change the flow, cached by the code walker).
     */
    private void walk(long from, long to, boolean include, boolean exception, long dst, long offset) {
        if (to < from) {
            error(String.format("source 0x%08x lies before 0x%08x, where execution continued: not reachable", to, from),
                    to, offset);
            return;
        }
        if (to == from && !include) {
            return;
        }
        if (memory.u16(to) < 0) {
            errors++;
            sink.accept(new NoImage(source, to, Isa.T32));
            return;
        }
        long addr = from;
        long count = 0; // instructions walked, for the bound
        long rangeFrom = from; // the open range: from here, rangeCount instructions
        long rangeCount = 0;
        passedBranches.clear();
        long last = -1;
        int lastSize = 0;
        WaypointKind lastKind = WaypointKind.NONE;
        CallKind lastCall = CallKind.NONE;
        sizes.clear();
        while (true) {
            if (count >= walkLimit) {
                error(String.format("walk from 0x%08x to 0x%08x exceeds %d instructions", from, to, walkLimit), to,
                        offset);
                return;
            }
            Block b = code.block(addr, Isa.T32);
            if (b.count() > 0 && to <= b.lastAddress()) {
                int i = b.indexOf(to);
                if (i < 0) {
                    error(String.format("source 0x%08x is not reachable from 0x%08x: stepping through the code passes "
                            + "it (corrupt packet or wrong image)", to, from), to, offset);
                    return;
                }
                if (!include) {
                    if (i > 0) {
                        rangeCount += i;
                        sizes.append(b, 0, i);
                        last = b.addressOf(i - 1);
                        lastSize = b.sizeOf(i - 1);
                        lastKind = WaypointKind.NONE;
                        lastCall = CallKind.NONE;
                    }
                    break;
                }
                if (to != b.lastAddress() || !b.endsAtWaypoint() || b.kind() == WaypointKind.EXCEPTION_CALL) {
                    error(String.format("the instruction at 0x%08x is not a branch, but the packet says it branched to "
                            + "0x%08x (corrupt packet or wrong image)", to, dst), to, offset);
                    return;
                }
                if (b.kind() == WaypointKind.DIRECT_BRANCH && b.target() != dst) {
                    error(String.format("the branch at 0x%08x goes to 0x%08x, the packet says 0x%08x (corrupt packet "
                            + "or wrong image)", to, b.target(), dst), to, offset);
                    return;
                }
                // the packet's source: a branch that was taken, conditional or not
                rangeCount += i + 1;
                sizes.append(b, 0, i + 1);
                last = to;
                lastSize = b.lastSize();
                lastKind = MtbPacket.isMagic(dst) ? WaypointKind.EXCEPTION_RETURN : b.kind();
                // a branch to an EXC_RETURN value returns from the exception, whatever it is otherwise
                lastCall = MtbPacket.isMagic(dst) ? CallKind.NONE : b.call();
                break;
            }
            // the whole block lies before the source
            switch (b.end()) {
                case WAYPOINT -> {
                    if (!b.conditional() && !passable(b, to, exception)) {
                        error(String.format("the code at 0x%08x changes the flow unconditionally, yet the trace "
                                + "continues sequentially to 0x%08x (lost packet or wrong image)", b.lastAddress(), to),
                                b.lastAddress(), offset);
                        return;
                    }
                }
                case LIMIT -> {
                    // a long straight run: the next block continues it
                }
                case NO_IMAGE -> {
                    emitNotTaken(from);
                    if (rangeCount + b.count() > 0) {
                        sizes.append(b, 0, b.count());
                        emit(rangeFrom, b.count() > 0 ? b.lastAddress() : last, b.count() > 0 ? b.lastSize() : lastSize,
                                rangeCount + b.count(), b.count() > 0 ? WaypointKind.NONE : lastKind,
                                b.count() > 0 ? CallKind.NONE : lastCall, true, sizes.sizes(), sizes.index());
                    }
                    errors++;
                    sink.accept(new NoImage(source, b.missingAddress(), Isa.T32));
                    return;
                }
                default -> {
                    error(String.format("the code at 0x%08x cannot be walked", addr), addr, offset);
                    return;
                }
            }
            count += b.count();
            rangeCount += b.count();
            sizes.append(b, 0, b.count());
            last = b.lastAddress();
            lastSize = b.lastSize();
            lastKind = b.kind();
            lastCall = b.call();
            addr = b.nextAddress();
            if (b.end() == Block.End.WAYPOINT && b.conditional() && notTaken(b, to, exception)) {
                // A conditional branch the walk passes wrote no packet, so it was not taken: its condition
                // failed (MTB writes a packet for every taken branch, DDI 0486B "MTB execution trace
                // packet format"). It ends a range as a failed instruction, as an N atom does in ETM/PTM. The
                // range is held back until the walk reaches its end: a walk that fails reports only the error.
                passedBranches.add(last, lastSize, rangeCount, lastKind, lastCall, sizes.sizes(), sizes.index());
                rangeFrom = addr;
                rangeCount = 0;
                sizes.clear();
            }
        }
        emitNotTaken(from);
        if (rangeCount > 0) {
            emit(rangeFrom, last, lastSize, rangeCount, lastKind, lastCall, true, sizes.sizes(), sizes.index());
        }
    }

    /**
     * Whether a conditional waypoint that a sequential walk passes is known to have failed its condition.
     * Not known for a direct branch to the next instruction (taken or not, the PC moves on alike and no
     * packet is written) and for an SVC right before the exception entry that the trace shows it raised.
     * A conditional indirect branch (BX, POP {pc} in an IT block) that passed would have to load the address
     * of the next instruction; it is taken as failed.
     */
    private static boolean notTaken(Block b, long to, boolean exception) {
        return switch (b.kind()) {
            case DIRECT_BRANCH -> b.target() != b.nextAddress();
            case EXCEPTION_CALL -> !(exception && b.nextAddress() == to);
            default -> true;
        };
    }

    /** May the flow-changing instruction that ends block {@code b} lie on a sequential walk to {@code to}? */
    private static boolean passable(Block b, long to, boolean exception) {
        long next = b.nextAddress();
        return switch (b.kind()) {
            case DIRECT_BRANCH -> b.target() == next;
            // An indirect branch (BX, POP/LDR pc, MOV pc) may load the address of the next instruction
            // (a jump table whose entry is the following case): the PC then changes sequentially, and
            // the MTB records non-sequential changes. The register value is not in the trace.
            case INDIRECT_BRANCH -> true;
            // SVC right before an exception entry's preferred return raised that exception; BKPT halts
            // into debug state (semihosting, breakpoints) and execution resumes at the next instruction.
            case EXCEPTION_CALL -> (exception && next == to) || isBkpt(b);
            default -> false;
        };
    }

    private static boolean isBkpt(Block b) {
        // T16 BKPT: 0b10111110 imm8 (DDI 0419C A6.7.12)
        return b.lastSize() == 2 && (b.opcode() & 0xFF00) == 0xBE00;
    }

    /** The ranges of the current walk that end at a not-taken conditional branch, the first from {@code from}. */
    private void emitNotTaken(long from) {
        long start = from;
        for (int i = 0; i < passedBranches.size; i++) {
            emit(start, passedBranches.last[i], passedBranches.lastSize[i], passedBranches.count[i], passedBranches.kind[i],
                    passedBranches.call[i], false, passedBranches.sizes[i], passedBranches.index[i]);
            start = passedBranches.last[i] + passedBranches.lastSize[i];
        }
        passedBranches.clear();
    }

    /**
     * The not-taken conditional branches of one walk, in order: where each range that ends at one ends.
     * Reused from walk to walk; a walk is bounded, so this is too.
     */
    private static final class NotTakenBranches {
        long[] last = new long[16];
        int[] lastSize = new int[16];
        long[] count = new long[16];
        WaypointKind[] kind = new WaypointKind[16];
        CallKind[] call = new CallKind[16];
        InstructionSizes[] sizes = new InstructionSizes[16];
        short[] index = new short[16];
        int size;

        void clear() {
            java.util.Arrays.fill(sizes, 0, size, null);
            size = 0;
        }

        void add(long lastAddress, int bytes, long instructions, WaypointKind k, CallKind c, InstructionSizes s, short from) {
            if (this.size == last.length) {
                int n = last.length * 2;
                last = java.util.Arrays.copyOf(last, n);
                lastSize = java.util.Arrays.copyOf(lastSize, n);
                count = java.util.Arrays.copyOf(count, n);
                kind = java.util.Arrays.copyOf(kind, n);
                call = java.util.Arrays.copyOf(call, n);
                sizes = java.util.Arrays.copyOf(sizes, n);
                index = java.util.Arrays.copyOf(index, n);
            }
            last[this.size] = lastAddress;
            lastSize[this.size] = bytes;
            count[this.size] = instructions;
            kind[this.size] = k;
            call[this.size] = c;
            sizes[this.size] = s;
            index[this.size] = from;
            this.size++;
        }
    }

    private final NotTakenBranches passedBranches = new NotTakenBranches();

    private void emit(long from, long last, int lastSize, long count, WaypointKind lastKind, CallKind lastCall,
            boolean executed, InstructionSizes rangeSizes, short index) {
        instructions += count;
        sink.accept(new InstructionRange(source, from, last + lastSize, (int) count, Isa.T32, lastKind, lastCall,
                executed, rangeSizes, index));
    }

    /** The sizes of the range being walked (a walk spans blocks). */
    private final RangeSizes sizes = new RangeSizes();

    private void error(String message, long address, long offset) {
        errors++;
        sink.accept(new DecodeError(source, message, address, offset));
    }
}
