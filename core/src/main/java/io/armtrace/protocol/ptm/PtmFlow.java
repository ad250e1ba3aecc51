package io.armtrace.protocol.ptm;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.Profile;
import io.armtrace.isa.RangeSizes;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;

/**
 * PFT program flow: turns packets into instruction ranges by walking the program image from waypoint
 * to waypoint (IHI 0035B chapter 2 and 4).
 *
 * <ul>
 * <li>An atom decides the next waypoint: E taken (direct branches go to their target from the image,
 * indirect ones to the return stack's prediction), N not taken.</li>
 * <li>A branch address packet is an E atom on the next waypoint plus its target (4.5.4); with an
 * exception number it is an exception and implies no atom (2.1.2).</li>
 * <li>A waypoint update says the code up to and including its address ran (4.5.5).</li>
 * <li>Return stack as 4.13: push on every taken branch with link, an E atom on an indirect branch pops
 * the prediction (compare before push), I-sync clears it, exceptions leave it.</li>
 * <li>No walk goes past the 4096-byte bound of 4.10: such trace is reported as a {@link DecodeError}.</li>
 * </ul>
 * Code outside the image gives a {@link NoImage}; the decoder then waits for the next address packet.
 */
public final class PtmFlow implements io.armtrace.protocol.PacketListener<PtmPacket> {
    /** IHI 0035B 4.10: a waypoint more than 4096 bytes from the last waypoint target needs an update. */
    static final int WAYPOINT_BOUND = 4096;
    /** Walker block limit: the bound plus the waypoint instruction itself. */
    static final int BLOCK_BYTES = WAYPOINT_BOUND + 4;
    /** Default bound on the code a single waypoint update may cover, in bytes. */
    static final long DEFAULT_UPDATE_BYTES = 1L << 24;
    private static final int STACK = 16;

    private final PtmConfig config;
    private final ElementSink sink;
    private final int source;
    private final CodeWalker walker;
    private final boolean returnStackOn;
    private final long updateBound;

    /** Synchronized: an I-sync has been seen since the last loss of sync. */
    private boolean synced;
    /** Current address known: where the next instruction executes. */
    private boolean valid;
    private long addr;
    private Isa isa = Isa.A32;
    private boolean nonSecure;
    private boolean hyp;
    private long contextId = -1;
    private int vmid = -1;
    private boolean noImageReported;

    private final long[] stackAddr = new long[STACK];
    private final Isa[] stackIsa = new Isa[STACK];
    private int stackTop;
    private int stackSize;

    private boolean reportedUnsynced;

    /**
     * The block the last atom left, when execution went on after its end or at its direct branch's target
     * ({@link #linkTaken}), so that the next atom finds its block through the link on that block ({@link
     * CodeWalker#next}, {@link CodeWalker#taken}) instead of a lookup in the walker's table: one memory access fewer
     * per atom where the program's code is larger than the processor's caches. Only a hint: the block it gives is
     * used when it starts at the current address in the current state (a branch address packet may have sent
     * execution elsewhere), otherwise the table answers. Not part of {@link #state}. After an indirect branch the
     * table answers too: a link to where it went last (as ETMv3's) saved nothing on the PTM inputs measured, and cost
     * a small program's decode 10% (docs/performance.md, "PTM follows the block links").
     */
    private Block linkFrom;
    private boolean linkTaken;
    /** Told the offset of each I-sync once it is processed (see {@link #state}); null if nobody asks. */
    private java.util.function.LongConsumer syncListener;

    // Statistics
    private long instructions;

    public PtmFlow(PtmConfig config, MemoryImage memory, ElementSink sink, long updateBoundBytes) {
        this.config = config;
        this.sink = sink;
        this.source = config.traceId();
        // IHI 0035B 2.2: ISB is always a waypoint; DMB and DSB are when ETMCCER bit 24 says so
        this.walker = CodeWalker.on(memory, Profile.AR, true, config.dmbDsbWaypoints(), false, BLOCK_BYTES,
                CodeWalker.DEFAULT_CACHE_BLOCKS);
        this.returnStackOn = config.returnStack();
        this.updateBound = updateBoundBytes > 0 ? updateBoundBytes : DEFAULT_UPDATE_BYTES;
    }

    public PtmFlow(PtmConfig config, MemoryImage memory, ElementSink sink) {
        this(config, memory, sink, 0);
    }

    /** Everything that decides the elements to come, as a value: equal states decode alike. */
    record State(boolean synced, boolean valid, long addr, Isa isa, boolean nonSecure, boolean hyp, long contextId,
                 int vmid, boolean noImageReported, boolean reportedUnsynced, java.util.List<Long> stack,
                 java.util.List<Isa> stackIsas) {
    }

    State state() {
        java.util.List<Long> a = new java.util.ArrayList<>(stackSize);
        java.util.List<Isa> i = new java.util.ArrayList<>(stackSize);
        for (int n = 0; n < stackSize; n++) {
            int at = (stackTop - n + STACK) % STACK;
            a.add(stackAddr[at]);
            i.add(stackIsa[at]);
        }
        return new State(synced, valid, addr, isa, nonSecure, hyp, contextId, vmid, noImageReported, reportedUnsynced,
                a, i);
    }

    void onSync(java.util.function.LongConsumer listener) {
        this.syncListener = listener;
    }

    /** Instructions decoded so far. */
    public long instructions() {
        return instructions;
    }

    public CodeWalker walker() {
        return walker;
    }

    @Override
    public void packet(PtmPacket k) {
        switch (k.type) {
            case NOT_SYNC -> {
                // bytes before the first A-sync cannot be decoded: say so once, as every protocol does
                if (!synced && !valid && !reportedUnsynced) {
                    sink.accept(new Gap(source, "no synchronization: " + k.length + " bytes before an A-sync", k.offset));
                    reportedUnsynced = true;
                }
            }
            case A_SYNC, IGNORE -> {
            }
            case BAD -> lostSync(k.error == null ? "bad packet" : k.error, k.offset);
            case INCOMPLETE -> lostSync("trace ends inside a packet", k.offset);
            case I_SYNC -> {
                iSync(k);
                if (syncListener != null) {
                    syncListener.accept(k.offset);
                }
            }
            case TRIGGER -> sink.accept(new Trigger(source, k.offset));
            case TIMESTAMP -> {
                sink.accept(new Timestamp(source, k.timestamp));
                cycles(k);
            }
            case CONTEXT_ID -> {
                if (synced && k.contextId != contextId) {
                    contextId = k.contextId;
                    context();
                }
            }
            case VMID -> {
                if (synced && k.vmid != vmid) {
                    vmid = k.vmid;
                    context();
                }
            }
            default -> {
                if (!synced) {
                    return;
                }
                switch (k.type) {
                    case ATOM -> {
                        for (int i = 0; i < k.atomCount && valid; i++) {
                            atom(k.atomE(i), k.offset, false);
                        }
                        cycles(k);
                    }
                    case BRANCH_ADDRESS -> branch(k);
                    case WAYPOINT_UPDATE -> waypointUpdate(k);
                    case EXCEPTION_RETURN -> sink.accept(new ExceptionReturn(source, valid ? addr : -1));
                    default -> {
                    }
                }
            }
        }
    }

    private void cycles(PtmPacket k) {
        if (k.cycles >= 0) {
            sink.cycles(source, k.cycles);
        }
    }

    private void lostSync(String why, long offset) {
        if (synced || valid) {
            sink.accept(new Gap(source, why, offset));
        }
        synced = false;
        valid = false;
        linkFrom = null;
    }

    private void context() {
        sink.accept(new Context(source, contextId, vmid, nonSecure, hyp));
    }

    private void iSync(PtmPacket k) {
        boolean first = !synced;
        if (first || k.reason != 0) {
            TraceOn.Reason r = switch (k.reason) {
                case 1 -> TraceOn.Reason.TRACE_ENABLED;
                case 2 -> TraceOn.Reason.OVERFLOW;
                case 3 -> TraceOn.Reason.DEBUG_EXIT;
                default -> first ? TraceOn.Reason.SYNC : TraceOn.Reason.PERIODIC;
            };
            sink.traceOn(source, r, k.offset);
            cycles(k);
        }
        boolean changed = first || k.nonSecure != nonSecure || k.hyp != hyp
                || (k.contextId >= 0 && k.contextId != contextId);
        nonSecure = k.nonSecure;
        hyp = k.hyp;
        if (k.contextId >= 0) {
            contextId = k.contextId;
        }
        if (changed) {
            context();
        }
        synced = true;
        // Unsynced bytes after a later loss of sync belong to the gap that loss reported (one gap per
        // damaged stretch, as ETMv3): only bytes before the first I-sync get a gap of their own. This
        // also makes a decoder started at a split point agree with one started at 0 (ChunkedDecode).
        reportedUnsynced = true;
        linkFrom = null;
        setAddress(k.address, k.isa);
        // IHI 0035B 4.13: any periodic or non-periodic I-sync clears the return stack.
        stackSize = 0;
    }

    private void setAddress(long a, Isa i) {
        addr = a;
        isa = i;
        valid = true;
        noImageReported = false;
    }

    private void branch(PtmPacket k) {
        if (k.exceptionInfo && (k.nonSecure != nonSecure || k.hyp != hyp)) {
            nonSecure = k.nonSecure;
            hyp = k.hyp;
            context();
        }
        if (k.exception != 0) {
            // IHI 0035B 2.1.2 and 5.2: an exception implies no atom; execution had reached addr, the
            // preferred return address. The return stack is left as it is (4.13).
            int n = k.exception;
            sink.accept(new ExceptionEntry(source, n, PtmPacket.exceptionName(n), valid ? addr : -1, false));
            cycles(k);
            linkFrom = null; // the vector is not where the last block's branch goes
            setAddress(k.address, k.isa);
            return;
        }
        if (valid) {
            // 4.5.4: a non-exception branch address packet implies an E atom on the next waypoint.
            atom(true, k.offset, true);
        }
        cycles(k);
        setAddress(k.address, k.isa);
    }

    /**
     * Walks from the current address to the next waypoint and applies one atom. {@code addressFollows}
     * is true when a branch address packet gives the target (so an indirect branch does not pop).
     */
    private void atom(boolean e, long offset, boolean addressFollows) {
        long start = addr;
        while (true) {
            Block b = linked();
            if (b.end() == Block.End.WAYPOINT && b.kind() == WaypointKind.EXCEPTION_CALL) {
                // SVC/SMC/BKPT/UDF: not a waypoint for atoms. An executed one would have been traced as
                // an exception (5.3), so this one failed its condition: it ends a range, not executed.
                if (b.lastAddress() - start > WAYPOINT_BOUND) {
                    overrun(start, offset);
                    return;
                }
                emitBlock(b, WaypointKind.EXCEPTION_CALL, false);
                addr = b.nextAddress();
                link(b, false);
                continue;
            }
            switch (b.end()) {
                case WAYPOINT -> {
                    if (b.lastAddress() - start > WAYPOINT_BOUND) {
                        overrun(start, offset);
                        return;
                    }
                    emitBlock(b, b.kind(), e);
                    follow(b, e, addressFollows, offset);
                    return;
                }
                case LIMIT -> {
                    overrun(start, offset);
                    return;
                }
                case NO_IMAGE -> {
                    if (b.count() > 0) {
                        emitBlock(b, WaypointKind.NONE, true);
                    }
                    noImage(b.missingAddress());
                    return;
                }
                default -> { // UNSUPPORTED
                    sink.accept(new DecodeError(source, "cannot walk " + isa + " code", addr, offset));
                    valid = false;
                    return;
                }
            }
        }
    }

    /** The block at the current address in the current state: through the last atom's link if it holds. */
    private Block linked() {
        Block from = linkFrom;
        if (from != null) {
            linkFrom = null;
            Block b = linkTaken ? walker.taken(from) : walker.next(from);
            if (b.start() == addr && b.isa() == isa) {
                return b;
            }
        }
        return walker.block(addr, isa);
    }

    private void link(Block from, boolean taken) {
        linkFrom = from;
        linkTaken = taken;
    }

    /** Where execution goes after the waypoint of {@code b}, given the atom. */
    private void follow(Block b, boolean e, boolean addressFollows, long offset) {
        if (!e) {
            addr = b.nextAddress();
            link(b, false);
            return;
        }
        switch (b.kind()) {
            case DIRECT_BRANCH -> {
                if (returnStackOn && b.link()) {
                    push(b.returnAddress(), isa);
                }
                addr = b.target();
                isa = b.targetIsa();
                link(b, true);
            }
            case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                long ret = b.returnAddress();
                Isa retIsa = isa;
                boolean link = b.link();
                if (addressFollows) {
                    valid = false; // the branch address packet sets it
                } else if (returnStackOn && stackSize > 0) {
                    // 4.13: an E atom on an indirect branch is a return stack hit; compare before push.
                    addr = stackAddr[stackTop];
                    isa = stackIsa[stackTop];
                    stackTop = (stackTop + STACK - 1) % STACK;
                    stackSize--;
                } else {
                    sink.accept(new DecodeError(source,
                            returnStackOn ? "E atom on an indirect branch with an empty return stack"
                                    : "E atom on an indirect branch without a target address",
                            b.lastAddress(), offset));
                    valid = false;
                }
                if (returnStackOn && link) {
                    push(ret, retIsa);
                }
            }
            default -> { // ISB
                addr = b.nextAddress();
                link(b, false);
            }
        }
    }

    private void push(long a, Isa i) {
        stackTop = (stackTop + 1) % STACK;
        stackAddr[stackTop] = a;
        stackIsa[stackTop] = i;
        if (stackSize < STACK) {
            stackSize++;
        }
    }

    private void overrun(long start, long offset) {
        sink.accept(new DecodeError(source, "no waypoint within " + WAYPOINT_BOUND
                + " bytes and no waypoint update: trace and image disagree", start, offset));
        valid = false;
    }

    private void noImage(long a) {
        if (!noImageReported) {
            sink.accept(new NoImage(source, a, isa));
            noImageReported = true;
        }
        valid = false;
    }

    /**
     * The whole of block {@code b} as one range (an atom's walk always ends at the first block's end),
     * sharing the block's instruction sizes.
     */
    private void emitBlock(Block b, WaypointKind kind, boolean executed) {
        instructions += b.count();
        // b.call() whatever kind the range is given: that is b's own kind, or EXCEPTION_CALL or NONE for a
        // block that ends with an exception call or no waypoint, whose call kind is NONE.
        // From addr as the packets gave it (the block's start is the same address, aligned to the state).
        sink.range(source, addr, b.nextAddress(), b.count(), isa, kind, b.call(), executed, b.sizes(), 0);
    }

    /** The range a waypoint update walked, its sizes collected in {@link #updateSizes}. */
    private void emitRange(long start, long end, int count, WaypointKind kind, CallKind call, boolean executed) {
        instructions += count;
        sink.range(source, start, end, count, isa, kind, call, executed, updateSizes.sizes(), updateSizes.index());
        updateSizes.clear();
    }

    /** The sizes of the range a waypoint update is walking (it may span blocks). */
    private final RangeSizes updateSizes = new RangeSizes();

    /**
     * IHI 0035B 4.5.5: all instructions from the current address up to and including the packet's
     * address ran. The walk is bounded; it must not pass a waypoint.
     */
    private void waypointUpdate(PtmPacket k) {
        if (!valid) {
            return;
        }
        long target = k.address;
        if (target < addr || target - addr > updateBound) {
            sink.accept(new DecodeError(source, String.format(
                    "waypoint update to 0x%x is %s the current address 0x%x", target,
                    target < addr ? "before" : "too far beyond", addr), target, k.offset));
            valid = false;
            return;
        }
        linkFrom = null;
        long rangeStart = addr;
        long count = 0;
        updateSizes.clear();
        while (true) {
            Block b = walker.block(addr, isa);
            if (b.count() > 0 && target <= b.lastAddress()) {
                int i = b.indexOf(target);
                boolean endsHere = i == b.count() - 1 && b.end() == Block.End.WAYPOINT;
                if (i < 0 || (endsHere && b.kind() != WaypointKind.EXCEPTION_CALL)) {
                    sink.accept(new DecodeError(source, String.format(
                            "waypoint update to 0x%x does not match the code", target), target, k.offset));
                    valid = false;
                    return;
                }
                count += i + 1;
                updateSizes.append(b, 0, i + 1);
                long next = i + 1 < b.count() ? b.addressOf(i + 1) : b.nextAddress();
                emitRange(rangeStart, next, (int) Math.min(count, Integer.MAX_VALUE),
                        endsHere ? WaypointKind.EXCEPTION_CALL : WaypointKind.NONE, CallKind.NONE, true);
                addr = next;
                return;
            }
            switch (b.end()) {
                case WAYPOINT -> {
                    if (b.kind() != WaypointKind.EXCEPTION_CALL) {
                        sink.accept(new DecodeError(source, String.format(
                                "waypoint update to 0x%x passes the waypoint at 0x%x", target, b.lastAddress()),
                                b.lastAddress(), k.offset));
                        valid = false;
                        return;
                    }
                    // a condition-failed exception call: it ends a range, not executed
                    updateSizes.append(b, 0, b.count());
                    emitRange(rangeStart, b.nextAddress(), (int) (count + b.count()), WaypointKind.EXCEPTION_CALL,
                            CallKind.NONE, false);
                    count = 0;
                    addr = b.nextAddress();
                    rangeStart = addr;
                }
                case LIMIT -> {
                    count += b.count();
                    updateSizes.append(b, 0, b.count());
                    addr = b.nextAddress();
                }
                case NO_IMAGE -> {
                    if (count + b.count() > 0) {
                        updateSizes.append(b, 0, b.count());
                        emitRange(rangeStart, b.nextAddress(), (int) (count + b.count()), WaypointKind.NONE,
                                CallKind.NONE, true);
                    }
                    noImage(b.missingAddress());
                    return;
                }
                default -> {
                    sink.accept(new DecodeError(source, "cannot walk " + isa + " code", addr, k.offset));
                    valid = false;
                    return;
                }
            }
        }
    }
}
