package io.armtrace.protocol.etm3;

import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.Profile;
import io.armtrace.isa.RangeSizes;
import io.armtrace.protocol.etm3.Etm3Packet.Kind;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;

/**
 * ETMv3 program flow: packets plus the program image to the element stream. ETMv3 traces one atom per
 * instruction (IHI 0014Q 7.3.1): E = executed, N = failed its condition code. The decoder walks one
 * instruction per atom from the last known address; a direct branch that executed is followed in the
 * image (including the ISA change of BLX immediate, which the trace does not state, Table 7.15); an
 * indirect branch waits for its branch packet. Branch packets set the address of the next instruction,
 * and may carry an exception, a cancel of the last traced instruction, and a change of security state
 * (7.3.5). Contiguous instructions accumulate into one {@link InstructionRange}.
 *
 * <p>Code is read through the shared block cache ({@link CodeWalker}): a run of atoms over straight
 * code advances by index through one cached {@link Block}, and the atom on a block's last instruction
 * decides whether its waypoint was taken. Barriers are no waypoints here (every instruction has its
 * own atom), so the walker is built without them.
 */
public final class Etm3Flow implements io.armtrace.protocol.PacketListener<Etm3Packet> {
    private final Etm3Config config;
    /** Most bytes one cached block covers; longer straight code continues in the next block. */
    static final int BLOCK_BYTES = 4096;

    private final CodeWalker walker;
    private final ElementSink sink;
    private final int source;
    private final boolean cycleAccurate;
    private final boolean v7m;

    // where execution is
    private boolean synced;
    private boolean haveAddress;
    private long address;
    private Isa isa = Isa.A32;

    // the open instruction range
    private boolean open;
    private long rStart;
    private long rEnd;
    private int rCount;
    private Isa rIsa;
    private long rLast;
    private long rPrev;
    private WaypointKind rKind;
    private boolean rExecuted;
    /**
     * The sizes of the open range's instructions: the range's instructions from {@code segBase} on are
     * instructions {@code segFrom} on of {@code segBlock}, the block it is in (nothing to do per
     * instruction while a run of atoms steps through one block). A range that stays in one block (nearly
     * every one) shares the block's sizes; one that crosses blocks ({@code crossed}) collects the parts it
     * left in {@code rSizes}.
     */
    private final RangeSizes rSizes = new RangeSizes();
    private Block segBlock;
    private int segFrom;
    private int segBase;
    private boolean crossed;

    // the last traced instruction, for cancels and exception returns
    private boolean lastValid;
    private long lastAddress;
    private WaypointKind lastKind = WaypointKind.NONE;
    private boolean lastExecuted;

    private long cycles;

    // position in the block of straight-line code being executed (the block cache of DESIGN.md)
    private Block block;
    private int blockIndex;
    private long blockNext;
    /**
     * The block just left at its end, so that the walker's link from it answers the next lookup: to the
     * block after it ({@link #LINK_NEXT}), at its direct branch target ({@link #LINK_TAKEN}), or at the
     * address a branch packet gives after its indirect branch ({@link #LINK_INDIRECT}, checked against the
     * address). Null when the address comes from elsewhere.
     */
    private Block linkFrom;
    private int linkKind;
    private static final int LINK_NEXT = 0;
    private static final int LINK_TAKEN = 1;
    private static final int LINK_INDIRECT = 2;
    private boolean exceptionExitPending;
    private boolean inGap;

    // context
    private boolean contextKnown;
    private long contextId = -1;
    private int vmid = -1;
    private boolean ns;
    private boolean hyp;
    /** Told the offset of each I-sync once it is processed (see {@link #state}); null if nobody asks. */
    private java.util.function.LongConsumer syncListener;

    public Etm3Flow(Etm3Config config, ProgramImage image, ElementSink sink) {
        this.config = config;
        io.armtrace.image.MemoryImage memory = image.memory();
        this.walker = CodeWalker.on(memory.keeps() ? memory : memory.copy(), config.armv7m() ? Profile.M : Profile.AR,
                false, false, false, BLOCK_BYTES, CodeWalker.DEFAULT_CACHE_BLOCKS);
        this.sink = sink;
        this.source = config.traceId();
        this.cycleAccurate = config.cycleAccurate();
        this.v7m = config.armv7m();
    }

    @Override
    public void packet(Etm3Packet p) {
        switch (p.kind) {
            case P_HEADER -> atoms(p);
            case BRANCH -> branch(p);
            case I_SYNC -> {
                iSync(p);
                if (syncListener != null) {
                    syncListener.accept(p.offset);
                }
            }
            case A_SYNC, IGNORE, EXCEPTION_ENTRY, NORMAL_DATA, OUT_OF_ORDER_DATA, OUT_OF_ORDER_PLACEHOLDER,
                 VALUE_NOT_TRACED, STORE_FAILED, DATA_SUPPRESSED -> {
            }
            case CYCLE_COUNT -> {
                flush();
                sink.cycles(source, p.cycleCount);
            }
            case CONTEXT_ID -> {
                if (synced && p.contextId != contextId) {
                    flush();
                    contextId = p.contextId;
                    emitContext();
                } else {
                    contextId = p.contextId;
                }
            }
            case VMID -> {
                if (synced && p.vmid != vmid) {
                    flush();
                    vmid = p.vmid;
                    emitContext();
                } else {
                    vmid = p.vmid;
                }
            }
            case TIMESTAMP -> {
                flush();
                sink.accept(new Timestamp(source, p.timestamp));
            }
            case TRIGGER -> {
                flush();
                sink.accept(new Trigger(source, p.offset));
            }
            case EXCEPTION_EXIT -> exceptionExitPending = true;
            case UNSYNCED -> lost("no synchronization: " + p.length + " bytes before an A-sync", p.offset);
            case MALFORMED -> lost(p.problem, p.offset);
        }
    }

    /** End of trace: the open range is complete. The sink is ended by whoever started the decode. */
    public void end() {
        flush();
    }

    /** Everything that decides the elements to come, as a value: equal states decode alike. */
    record State(boolean synced, boolean haveAddress, long address, Isa isa, boolean open, long rStart, long rEnd,
                 int rCount, Isa rIsa, long rLast, long rPrev, WaypointKind rKind, boolean rExecuted,
                 boolean lastValid, long lastAddress, WaypointKind lastKind, boolean lastExecuted, long cycles,
                 long blockStart, Isa blockIsa, int blockIndex, long blockNext, boolean exceptionExitPending,
                 boolean inGap, boolean contextKnown, long contextId, int vmid, boolean ns, boolean hyp) {
    }

    State state() {
        return new State(synced, haveAddress, address, isa, open, rStart, rEnd, rCount, rIsa, rLast, rPrev, rKind,
                rExecuted, lastValid, lastAddress, lastKind, lastExecuted, cycles,
                block == null ? -1 : block.start(), block == null ? null : block.isa(), blockIndex, blockNext,
                exceptionExitPending, inGap, contextKnown, contextId, vmid, ns, hyp);
    }

    void onSync(java.util.function.LongConsumer listener) {
        this.syncListener = listener;
    }

    private void lost(String why, long offset) {
        flush();
        if (!inGap) {
            // one gap per damaged stretch: the bytes skipped after a malformed packet belong to it
            sink.accept(new Gap(source, why, offset));
            inGap = true;
        }
        synced = false;
        haveAddress = false;
        lastValid = false;
        exceptionExitPending = false;
    }

    // ---------------------------------------------------------------- I-sync (IHI 0014Q 7.4.4)

    private void iSync(Etm3Packet p) {
        flush();
        if (!synced || p.reason != 0) {
            TraceOn.Reason r = !synced && p.reason == 0 ? TraceOn.Reason.SYNC : switch (p.reason) {
                case 1 -> TraceOn.Reason.TRACE_ENABLED;
                case 2 -> TraceOn.Reason.OVERFLOW;
                case 3 -> TraceOn.Reason.DEBUG_EXIT;
                default -> TraceOn.Reason.SYNC;
            };
            sink.traceOn(source, r, p.offset);
        }
        if (p.hasCycleCount && cycleAccurate) {
            sink.cycles(source, p.cycleCount);
        }
        boolean changed = !contextKnown || p.ns != ns || p.hyp != hyp
                || (config.contextIdBytes() > 0 && p.contextId != contextId);
        ns = p.ns;
        hyp = p.hyp;
        if (config.contextIdBytes() > 0) {
            contextId = p.contextId;
        }
        if (changed) {
            emitContext();
        }
        synced = true;
        inGap = false;
        exceptionExitPending = false;
        lastValid = false;
        if (p.hasAddress) {
            setAddress(p.address, p.isa);
        }
    }

    private void emitContext() {
        contextKnown = true;
        sink.accept(new Context(source, contextId, vmid, ns, hyp));
    }

    private void setAddress(long a, Isa i) {
        block = null;
        if (linkKind != LINK_INDIRECT) {
            linkFrom = null;
        }
        address = a;
        isa = i;
        haveAddress = true;
        if (i == Isa.JAZELLE) {
            // Jazelle bytecodes are not walked: report where the core went and wait for the next address.
            flush();
            sink.accept(new NoImage(source, a, i));
            haveAddress = false;
        }
    }

    // ---------------------------------------------------------------- atoms (IHI 0014Q 7.3.1)

    private void atoms(Etm3Packet p) {
        cycles += p.cycles;
        int n = p.atomCount;
        int bits = p.atomBits;
        for (int k = 0; k < n; ) {
            int run = executedRun(bits >>> k, n - k);
            if (run > 1) {
                k += run;
            } else {
                atom((bits >> k & 1) != 0);
                k++;
            }
        }
    }

    /**
     * The common case of a run of E atoms in one block, at once: while the open range goes on at the
     * current instruction of the current block, up to {@code max} executed instructions that are not the
     * block's last (so no waypoint) join the range as {@link #atom} would add them one by one. Returns how
     * many it took; fewer than two means the caller takes one atom the general way.
     */
    private int executedRun(int bits, int max) {
        Block b = block;
        if (b == null || !open || !rExecuted || rKind != WaypointKind.NONE || address != blockNext
                || rEnd != address || isa != b.isa() || rIsa != isa || !haveAddress) {
            return 0;
        }
        int i = blockIndex;
        int m = Math.min(Math.min(Integer.numberOfTrailingZeros(~bits), max), b.count() - 1 - i);
        if (m < 2) {
            return 0;
        }
        int last = i + m - 1;
        rPrev = b.addressOf(last - 1);
        rLast = b.addressOf(last);
        rEnd = rLast + b.sizeOf(last);
        rCount += m;
        lastValid = true;
        lastAddress = rLast;
        lastKind = WaypointKind.NONE;
        lastExecuted = true;
        blockIndex = last + 1;
        blockNext = rEnd;
        address = rEnd;
        return m;
    }

    private void atom(boolean executed) {
        if (!haveAddress) {
            // before the first I-sync, after code outside the image, or after an indirect branch whose
            // packet was lost: the atom cannot be placed (the next branch packet or I-sync re-anchors)
            lastValid = false;
            return;
        }
        long a = address;
        Block b = block;
        int i = blockIndex;
        boolean fresh = false;
        if (b == null || a != blockNext || isa != b.isa()) {
            Block from = linkFrom;
            if (from != null) {
                linkFrom = null;
                if (linkKind == LINK_INDIRECT) {
                    b = walker.indirect(from, a, isa);
                } else {
                    b = linkKind == LINK_TAKEN ? walker.taken(from) : walker.next(from);
                    if (b.start() != a || b.isa() != isa) {
                        b = walker.block(a, isa); // not reached: these links are set only where they hold
                    }
                }
            } else {
                b = walker.block(a, isa);
            }
            if (b.count() == 0) {
                // the instruction is not in the image (or the state cannot be walked)
                flush();
                sink.accept(new NoImage(source, a, isa));
                haveAddress = false;
                lastValid = false;
                block = null;
                return;
            }
            block = b;
            i = 0;
            fresh = true;
        }
        int index = i;
        int size = b.sizeOf(i);
        boolean end = ++i == b.count();
        // only the block's last instruction can be a waypoint; a block that ended for another reason
        // (NO_IMAGE, LIMIT) reports NONE and the next atom looks up the block that follows
        WaypointKind kind = end ? b.kind() : WaypointKind.NONE;
        blockIndex = i;
        blockNext = a + size;
        if (end) {
            block = null;
            linkFrom = b;
            linkKind = !executed ? LINK_NEXT : switch (kind) {
                case DIRECT_BRANCH -> LINK_TAKEN;
                case INDIRECT_BRANCH, EXCEPTION_RETURN -> LINK_INDIRECT;
                default -> LINK_NEXT;
            };
        }
        // append to the open range, or start a new one
        if (open && (rEnd != a || rIsa != isa || !rExecuted || rKind != WaypointKind.NONE)) {
            flush();
        }
        if (!open) {
            open = true;
            rStart = a;
            rCount = 0;
            rIsa = isa;
            crossed = false;
            segBlock = b;
            segFrom = index;
            segBase = 0;
        } else if (fresh) {
            crossBlock(b, index);
        }
        rPrev = rLast;
        rLast = a;
        rEnd = a + size;
        rCount++;
        rKind = kind;
        rExecuted = executed;
        lastValid = true;
        lastAddress = a;
        lastKind = kind;
        lastExecuted = executed;
        if (!executed) {
            address = a + size;
            return;
        }
        switch (kind) {
            case DIRECT_BRANCH -> {
                address = b.target();
                isa = b.targetIsa();
            }
            case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                // the branch packet that must follow gives the target (7.3.5)
                address = a + size;
                haveAddress = false;
            }
            default -> address = a + size;
        }
    }

    /** The open range goes on in block {@code b} from its instruction {@code index}: keeps the part in the block it leaves. */
    private void crossBlock(Block b, int index) {
        if (!crossed) {
            crossed = true;
            rSizes.clear();
        }
        rSizes.append(segBlock, segFrom, rCount - segBase);
        segBlock = b;
        segFrom = index;
        segBase = rCount;
    }

    /** Emits the open range, then the cycles counted up to its end. */
    private void flush() {
        if (open) {
            open = false;
            if (crossed) {
                rSizes.append(segBlock, segFrom, rCount - segBase);
                emitRange(rSizes.sizes(), rSizes.index());
            } else {
                emitRange(segBlock.sizes(), (short) segFrom); // a block holds at most BLOCK_BYTES / 2 instructions
            }
        }
        if (cycles > 0 && cycleAccurate) {
            sink.cycles(source, cycles);
            cycles = 0;
        }
    }

    private void emitRange(InstructionSizes sizes, short index) {
        // a waypoint ends its block: the range's last instruction is then the last of the block it is in
        CallKind call = rKind != WaypointKind.NONE ? segBlock.call() : CallKind.NONE;
        sink.range(source, rStart, rEnd, rCount, rIsa, rKind, call, rExecuted, sizes, index);
    }

    // ---------------------------------------------------------------- branch packets (IHI 0014Q 7.3.5)

    private void branch(Etm3Packet p) {
        if (!synced) {
            return;
        }
        long preferredReturn = haveAddress ? address : -1;
        boolean cancelled = false;
        if (p.exceptionInfo && p.cancel) {
            cancelled = cancelLast(p.offset);
            if (cancelled) {
                preferredReturn = lastAddress;
            }
        }
        boolean exception = p.exceptionInfo && p.exception != 0;
        boolean halting = false;
        if (exception) {
            flush();
            int number;
            String name;
            if (p.deprecatedException) {
                int eee = p.exception - 16;
                number = Etm3Exceptions.deprecatedNumber(eee, p.address);
                name = Etm3Exceptions.deprecatedName(eee, p.address);
                halting = eee == 7;
            } else if (v7m) {
                number = Etm3Exceptions.mNumber(p.exception);
                name = Etm3Exceptions.mName(number);
            } else {
                number = Etm3Exceptions.arNumber(p.exception);
                name = Etm3Exceptions.arName(p.exception);
                halting = (p.exception & 0xF) == 1;
            }
            sink.accept(new ExceptionEntry(source, number, name, preferredReturn, cancelled));
        }
        if (p.exceptionInfo && !halting && (p.ns != ns || p.hyp != hyp)) {
            flush();
            ns = p.ns;
            hyp = p.hyp;
            emitContext();
        }
        if (halting) {
            // Table 7.12 note: the address of a halting-debug exception packet is not valid.
            flush();
            haveAddress = false;
            lastValid = false;
            return;
        }
        boolean returning = exceptionExitPending
                || (!exception && lastValid && lastExecuted && lastKind == WaypointKind.EXCEPTION_RETURN);
        exceptionExitPending = false;
        if (returning) {
            flush();
            sink.accept(new ExceptionReturn(source, p.address));
        }
        lastValid = false;
        setAddress(p.address, p.isa);
    }

    /**
     * Withdraws the last traced instruction (Can = 1). False if it is no longer in the open range; the error then
     * names the branch packet that cancels ({@code offset}), since the instruction's own atom is long gone.
     */
    private boolean cancelLast(long offset) {
        if (!lastValid || !open || rLast != lastAddress) {
            if (lastValid) {
                flush();
                sink.accept(new DecodeError(source, "cancelled instruction was already reported", lastAddress, offset));
            }
            return false;
        }
        if (rCount == 1) {
            open = false;
        } else {
            rCount--; // the last instruction is in the block the range is in: its part shrinks with rCount
            rEnd = rLast;
            rLast = rPrev;
            rKind = WaypointKind.NONE;
            rExecuted = true;
        }
        return true;
    }
}
