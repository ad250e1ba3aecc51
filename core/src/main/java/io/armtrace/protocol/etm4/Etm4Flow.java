package io.armtrace.protocol.etm4;

import io.armtrace.image.AddressSpace;
import io.armtrace.image.CodeMemory;
import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.Profile;
import io.armtrace.isa.RangeSizes;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Event;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.ProcessorMode;
import io.armtrace.trace.SecurityState;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * ETMv4/ETE program flow: walks the program image from the committed element stream of
 * {@link Etm4Speculation} and gives the instructions as the core executed them (IHI 0064, the
 * instruction trace: P0 instructions and their atoms).
 *
 * <ul>
 * <li>An atom is the outcome of the next P0 instruction: the walk goes from the current address through
 * the instructions that are not P0 (exception-generating instructions such as SVC are not: their exception
 * is traced by an exception packet) to the next branch, ISB, or (TRCIDR2.WFXMODE) WFI/WFE, and the range
 * up to and including it is one {@link InstructionRange}, executed for E, not for N. An E atom on a direct
 * branch continues at its target; on an indirect branch (BR, BLR, RET, ERET) at the address that follows in
 * the trace or, with the return stack enabled (TRCCONFIGR.RS) and no address, at the top of the return
 * stack, which every taken branch with link pushes.</li>
 * <li>An exception carries its preferred return address: the instructions from the current address up to
 * it ran (one range, ending just before it), unless the address is also the target of the P0 element before
 * it (E1:E0 = 0b10), in which case it is the current address. The address that follows is the handler.</li>
 * <li>Before the first context and address after a synchronization (and after code outside the image)
 * atoms cannot be placed: they are skipped until an address comes.</li>
 * <li>Code outside the image gives a {@link NoImage} element; a Q element an {@link InstructionCount};
 * overflow, discard and corrupt trace a {@link Gap}.</li>
 * </ul>
 * These are the rules OpenCSD's ETMv4 decoder applies too; {@code Etm4FlowConformanceTest} compares every
 * range, exception, context and gap with its decode of the real captures. Decoded blocks come from a
 * {@link CodeWalker} cache, so an atom usually costs one table lookup.
 */
public final class Etm4Flow implements Etm4ElementListener {
    /** Return stack entries (the architecture's return stack is 15 or more entries; OpenCSD keeps 16). */
    static final int STACK = 16;
    /** The walker's block limit; longer straight-line code is joined from several blocks. */
    static final int BLOCK_BYTES = 4096;
    /** The most code one atom or exception may walk before the trace and the image are taken to disagree. */
    static final long WALK_BYTES = 1L << 22;

    private final ElementSink sink;
    private final int source;
    private CodeWalker walker;
    /** Code per address space, or null when one memory serves every space. */
    private final CodeMemory code;
    /** The walker of each memory the trace has run in, so that going back to a space finds its blocks cached. */
    private final java.util.IdentityHashMap<MemoryImage, CodeWalker> walkers = new java.util.IdentityHashMap<>();
    private final Etm4Config config;
    /** The trace position from which the code memory may answer differently (perf's mappings over time). */
    private long nextChange = Long.MAX_VALUE;
    private final boolean returnStackOn;
    private final boolean ete;
    private final boolean mProfile;

    // decoder state: everything in State
    private boolean fresh = true;
    private boolean needCtxt = true;
    /** The current address is not known. */
    private boolean needAddr = true;
    /** ... and only an address element (not the return stack) can give it. */
    private boolean needAddrElem = true;
    private boolean haveAddr;
    /** A trace info came after the last address: the return stack may not be popped. */
    private boolean tinfoWait;
    private long addr;
    private int lastIs;
    private Isa isa = Isa.A64;
    private boolean aarch64 = true;
    private int el = -1;
    private boolean nonSecure;
    private boolean nse;
    private long vmid = -1;
    private long contextId = -1;
    private final long[] stackAddr = new long[STACK];
    private final Isa[] stackIsa = new Isa[STACK];
    private int stackTop;
    private int stackSize;

    /**
     * The block the last atom ended, whether it went to its target or (an indirect branch) elsewhere, and its
     * walker: see {@link #blockAtAddress}.
     */
    private Block linkFrom;
    private boolean linkTaken;
    private boolean linkIndirect;
    /** Where the link leads: the block's target or next address, and its state (not read from the block again). */
    private long linkAddr;
    private Isa linkIsa;
    private CodeWalker linkWalker;

    private final RangeSizes sizes = new RangeSizes();
    private long instructions;
    private LongConsumer syncListener;

    public Etm4Flow(Etm4Config config, MemoryImage memory, ElementSink sink) {
        this(config, memory, null, sink);
    }

    /**
     * A flow that reads code through {@code code}: the memory of the address space (exception level, security
     * state, context ID) that each context packet names, from the trace position it is at. Until the first
     * context, only memory mapped for every space is read.
     */
    public Etm4Flow(Etm4Config config, CodeMemory code, ElementSink sink) {
        this(config, code.at(AddressSpace.ANY, 0), code, sink);
        nextChange = code.changesAfter(0);
    }

    private Etm4Flow(Etm4Config config, MemoryImage memory, CodeMemory code, ElementSink sink) {
        this.sink = sink;
        this.source = config.traceId();
        this.mProfile = config.isMProfile();
        this.ete = config.ete();
        this.config = config;
        this.code = code;
        this.walker = walkerFor(memory);
        this.returnStackOn = config.returnStack();
        if (mProfile) {
            isa = Isa.T32;
            aarch64 = false;
        }
    }

    private CodeWalker walkerFor(MemoryImage memory) {
        return walkers.computeIfAbsent(memory, m -> CodeWalker.on(m, mProfile ? Profile.M : Profile.AR,
                true, false, config.wfiWfeAreBranches(), BLOCK_BYTES, CodeWalker.DEFAULT_CACHE_BLOCKS));
    }

    /** Reads code from the memory of the current context's space at trace position {@code position}. */
    private void selectMemory(long position) {
        if (code == null) {
            return;
        }
        AddressSpace.Security security = nse ? (nonSecure ? AddressSpace.Security.REALM : AddressSpace.Security.ROOT)
                : nonSecure ? AddressSpace.Security.NON_SECURE : AddressSpace.Security.SECURE;
        AddressSpace space = new AddressSpace(el >= 0 && el <= 3 ? el : AddressSpace.ANY_LEVEL, security,
                contextId >= 0 ? contextId : AddressSpace.ANY_CONTEXT);
        long at = Math.max(position, 0);
        MemoryImage memory = code.at(space, at);
        nextChange = code.changesAfter(at);
        if (memory != walker.memory()) {
            walker = walkerFor(memory);
        }
    }

    /** Everything that decides the elements to come, as a value: equal states decode alike. */
    record State(boolean fresh, boolean needCtxt, boolean needAddr, boolean needAddrElem, boolean haveAddr, boolean tinfoWait, long addr,
                 int lastIs, Isa isa, boolean aarch64, int el, boolean nonSecure, boolean nse, long vmid, long contextId,
                 List<Long> stack, List<Isa> stackIsas) {
    }

    State state() {
        List<Long> a = new ArrayList<>(stackSize);
        List<Isa> i = new ArrayList<>(stackSize);
        for (int n = 0; n < stackSize; n++) {
            int at = (stackTop - n + STACK) % STACK;
            a.add(stackAddr[at]);
            i.add(stackIsa[at]);
        }
        return new State(fresh, needCtxt, needAddr, needAddrElem, haveAddr, tinfoWait, addr, lastIs, isa, aarch64, el, nonSecure,
                nse, vmid, contextId, a, i);
    }

    /** Told the offset of each trace info once it is processed (a sync point); null if nobody asks. */
    void onSync(LongConsumer listener) {
        this.syncListener = listener;
    }

    /** Instructions decoded so far. */
    public long instructions() {
        return instructions;
    }

    public CodeWalker walker() {
        return walker;
    }

    /**
     * The exception given last, not yet passed on: the level it was taken to is that of the context that
     * follows it, if one does (the trace unit traces a context when it changes), else the current one.
     */
    private boolean excPending;
    private int excNumber;
    private long excReturn;

    private void flushException(int level) {
        if (excPending) {
            excPending = false;
            // an M-profile core has no exception levels (its context packets say EL0)
            sink.accept(new ExceptionEntry(source, excNumber, Etm4Packet.exceptionName(excNumber, mProfile), excReturn,
                    false, mProfile ? -1 : level));
        }
    }

    /** End of the trace: passes on what is still held. */
    public void end() {
        flushException(el);
    }

    @Override
    public void element(Etm4Element e) {
        if (e.kindIndex == ADDRESS && !excPending && e.offset < nextChange) {
            // the commonest element after atoms, taken before the general dispatch (the same as its case below)
            address(e);
            return;
        }
        if (excPending && e.kind() != Etm4Element.Kind.CONTEXT) {
            flushException(el);
        }
        if (e.offset >= nextChange) {
            selectMemory(e.offset);
        }
        switch (e.kind()) {
            case TRACE_INFO -> {
                if (fresh) {
                    sink.accept(new TraceOn(source, TraceOn.Reason.SYNC, e.offset));
                    fresh = false;
                }
                // a trace info empties the return stack; until an address comes it cannot give a target
                stackSize = 0;
                tinfoWait = true;
                if (syncListener != null) {
                    syncListener.accept(e.offset);
                }
            }
            case TRACE_ON -> sink.traceOn(source,
                    e.afterOverflow ? TraceOn.Reason.OVERFLOW : TraceOn.Reason.TRACE_ENABLED, e.offset);
            case ADDRESS -> address(e);
            case CONTEXT -> context(e);
            case ATOM -> {
                popIfPending(e.offset);
                if (!needCtxt && !needAddr) {
                    atom(e.executed, e.offset);
                }
            }
            case EXCEPTION -> exception(e);
            case EXCEPTION_RETURN -> sink.accept(new ExceptionReturn(source, -1));
            case Q -> {
                popIfPending(e.offset);
                if (needAddr || !haveAddr || needCtxt || e.count < 0 || !qWalk(e.count, e.address, isaOf(e.is))) {
                    sink.accept(new InstructionCount(source, needAddr || !haveAddr ? -1 : addr, e.count, isa, e.address));
                }
                addr = e.address;
                lastIs = e.is;
                isa = isaOf(e.is);
                needAddr = false;
                needAddrElem = false;
                haveAddr = true;
                tinfoWait = false;
            }
            case SOURCE_ADDRESS -> sourceAddress(e);
            case PE_RESET -> sink.accept(new ExceptionEntry(source, 0, "PE reset", -1, false));
            case TIMESTAMP -> sink.accept(new Timestamp(source, e.timestamp, e.cycles));
            case CYCLE_COUNT -> sink.cycles(source, e.cycles);
            case EVENT -> {
                for (int b = 0; b < 4; b++) {
                    if ((e.events >> b & 1) != 0) {
                        sink.accept(new Event(source, b));
                    }
                }
            }
            case OVERFLOW -> lost("trace unit overflow: trace was lost", e.offset);
            case DISCARD -> lost("trace discarded: speculative elements were not traced", e.offset);
            case GAP -> lost(e.reason, e.offset);
            default -> {
                // FUNCTION_RETURN, TIMESTAMP_MARKER, INSTRUMENTATION, transactions: no program flow of their own
            }
        }
    }

    /**
     * The atoms of one packet at once: as many {@link #element} calls, without the per-element dispatch. Once
     * an atom cannot be placed (no context or address yet, or code outside the image before it), neither can
     * the rest of the packet's: nothing an atom does changes that, so they are skipped together.
     */
    @Override
    public void atoms(Etm4Element e, int count, int bits) {
        long offset = e.offset;
        if (excPending) {
            flushException(el);
        }
        if (offset >= nextChange) {
            selectMemory(offset);
        }
        for (int a = 0; a < count; a++) {
            popIfPending(offset);
            if (needCtxt || needAddr) {
                return;
            }
            atom((bits >>> a & 1) != 0, offset);
        }
    }

    private static final byte ADDRESS = (byte) Etm4Element.Kind.ADDRESS.ordinal();

    private void address(Etm4Element e) {
        addr = e.address;
        lastIs = e.is;
        isa = isaOf(e.is);
        needAddr = false;
        needAddrElem = false;
        haveAddr = true;
        tinfoWait = false;
    }

    private Isa isaOf(int is) {
        if (is != 0) {
            return Isa.T32;
        }
        return aarch64 ? Isa.A64 : (mProfile ? Isa.T32 : Isa.A32);
    }

    private void lost(String why, long offset) {
        sink.accept(new Gap(source, why, offset));
        fresh = true;
        needCtxt = true;
        needAddr = true;
        needAddrElem = true;
        haveAddr = false;
        stackSize = 0;
    }

    private void context(Etm4Element e) {
        aarch64 = e.aarch64 && !mProfile;
        el = e.el;
        nonSecure = e.nonSecure;
        nse = e.nse;
        if (e.vmidGiven) {
            vmid = e.vmid;
        }
        if (e.contextIdGiven) {
            contextId = e.contextId;
        }
        // the address before an address-with-context packet's context is read in it
        isa = isaOf(lastIs);
        needCtxt = false;
        flushException(el);
        // the exception's range above ran in the old space; what follows runs in the new one
        selectMemory(e.offset);
        SecurityState s = nse ? (nonSecure ? SecurityState.REALM : SecurityState.ROOT)
                : nonSecure ? SecurityState.NON_SECURE : SecurityState.SECURE;
        if (mProfile) {
            // An M-profile core has no exception levels: its ETMv4 unit traces Thread mode as level 0 and Handler
            // mode as level 3 (ETM-M33 TRM, TRCIDR3.EXLEVEL_S 0b1001: "Thread and Handler"); the other levels
            // say nothing an M-profile user knows, so the mode is left unknown for them.
            ProcessorMode mode = el == 0 ? ProcessorMode.THREAD : el == 3 ? ProcessorMode.HANDLER : ProcessorMode.NONE;
            sink.accept(new Context(source, contextId, vmid, s, -1, false, false, mode));
            return;
        }
        sink.accept(new Context(source, contextId, vmid, s, el, aarch64, !aarch64 && el == 2));
    }

    /** After a taken indirect branch with no address since: the target is the top of the return stack. */
    private void popIfPending(long offset) {
        if (!needAddr || needAddrElem || !returnStackOn || tinfoWait) {
            return;
        }
        if (stackSize == 0) {
            // The trace unit leaves out a return's address only when its own return stack holds it (IHI 0064,
            // return stack), so an empty stack here means this decode and the unit disagree (trace lost or
            // corrupt before, or a unit with a deeper stack): where execution went is not known. A gap; the
            // program flow resumes at the next address packet, which comes at the latest after the next A-sync
            // and trace info. The packets and the context are still in step, so nothing is lost beyond that.
            sink.accept(new Gap(source, "return stack empty: the target of the indirect branch before 0x"
                    + Long.toHexString(addr) + " is not known", offset));
            needAddrElem = true;
            stackSize = 0;
            return;
        }
        addr = stackAddr[stackTop];
        isa = stackIsa[stackTop];
        stackTop = (stackTop + STACK - 1) % STACK;
        stackSize--;
        needAddr = false;
    }

    private void push(long a, Isa i) {
        if (!returnStackOn) {
            return;
        }
        stackTop = (stackTop + 1) % STACK;
        stackAddr[stackTop] = a;
        stackIsa[stackTop] = i;
        if (stackSize < STACK) {
            stackSize++;
        }
    }

    /** One committed atom: walk to the next P0 instruction and apply the atom to it. */
    private void atom(boolean executed, long offset) {
        long start = addr;
        Isa startIsa = isa;
        sizes.clear();
        long walked = 0;
        Block b = blockAtAddress();
        while (true) {
            switch (b.end()) {
                case WAYPOINT -> {
                    sizes.append(b, 0, b.count());
                    if (b.kind() == WaypointKind.EXCEPTION_CALL) {
                        // not a P0 instruction: its exception, if taken, is traced by an exception packet
                        addr = b.nextAddress();
                        break;
                    }
                    long next = b.nextAddress();
                    emit(start, next, startIsa, b.kind(), b.call(), executed);
                    follow(b, executed, offset);
                    return;
                }
                case LIMIT -> {
                    sizes.append(b, 0, b.count());
                    addr = b.nextAddress();
                }
                case NO_IMAGE -> {
                    sizes.append(b, 0, b.count());
                    noImage(start, startIsa, b);
                    return;
                }
                default -> {
                    sizes.append(b, 0, b.count());
                    if (sizes.count() > 0) {
                        emit(start, b.nextAddress(), startIsa, WaypointKind.NONE, CallKind.NONE, true);
                    }
                    sink.accept(new DecodeError(source, "cannot walk " + isa + " code", b.nextAddress(), offset));
                    needAddr = true;
                    needAddrElem = true;
                    needCtxt = true;
                    return;
                }
            }
            walked += b.byteLength();
            if (walked > WALK_BYTES || sizes.count() > Integer.MAX_VALUE / 2) {
                tooFar(start, offset);
                return;
            }
            b = walker.next(b); // the block at addr
        }
    }

    /**
     * The block at the current address: through the walker's link from the block the previous atom ended, when
     * the current address is where that one went (the common case), else from the cache's table.
     */
    private Block blockAtAddress() {
        Block from = linkFrom;
        if (from != null) {
            linkFrom = null;
            if (linkWalker == walker) {
                if (linkIndirect) {
                    return walker.indirect(from, addr, isa);
                }
                if (addr == linkAddr && isa == linkIsa) {
                    return linkTaken ? walker.taken(from) : walker.next(from);
                }
            }
        }
        return walker.block(addr, isa);
    }

    private void tooFar(long start, long offset) {
        sink.accept(new DecodeError(source, "no P0 instruction within " + WALK_BYTES
                + " bytes: trace and image disagree", start, offset));
        needAddr = true;
        needAddrElem = true;
    }

    /** Where execution goes after the P0 instruction ending {@code b}. */
    private void follow(Block b, boolean executed, long offset) {
        long next = b.nextAddress();
        addr = next;
        linkFrom = b;
        linkTaken = false;
        linkIndirect = false;
        linkWalker = walker;
        linkAddr = next;
        linkIsa = isa;
        if (!executed) {
            return;
        }
        switch (b.kind()) {
            case DIRECT_BRANCH -> {
                if (b.link()) {
                    push(next, isa);
                }
                addr = b.target();
                isa = b.targetIsa();
                linkTaken = true;
                linkAddr = addr;
                linkIsa = isa;
            }
            case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                linkIndirect = true;
                if (b.link()) {
                    push(next, isa);
                }
                needAddr = true; // from the next address element, or the return stack
                if (ete && b.kind() == WaypointKind.EXCEPTION_RETURN) {
                    sink.accept(new ExceptionReturn(source, -1));
                }
            }
            default -> {
                // ISB, WFI, WFE: execution goes on with the next instruction
            }
        }
    }

    /** The code from {@code start} ran up to the end of the image: the range so far, then NoImage. */
    private void noImage(long start, Isa startIsa, Block b) {
        long missing = b.missingAddress();
        if (sizes.count() > 0) {
            emit(start, missing, startIsa, WaypointKind.NONE, CallKind.NONE, true);
        }
        sink.accept(new NoImage(source, missing, isa));
        addr = missing;
        needAddr = true;
        needAddrElem = true;
    }

    private void emit(long start, long end, Isa rangeIsa, WaypointKind kind, CallKind call, boolean executed) {
        int n = sizes.count();
        instructions += n;
        sink.range(source, start, end, n, rangeIsa, kind, call, executed, sizes.sizes(), sizes.index());
        sizes.clear();
    }

    private void exception(Etm4Element e) {
        long ret = e.address;
        if (e.atBranchTarget) {
            addr = ret;
            lastIs = e.is;
            isa = isaOf(e.is);
            needAddr = false;
            needAddrElem = false;
            haveAddr = true;
            tinfoWait = false;
        } else if (!(mProfile && ret == 0xFFFFFFFEL)) {
            popIfPending(e.offset);
        }
        // a tail chain: the handler's return before it went nowhere (the return stack predicted nothing), the
        // handler's address comes next
        boolean tailChain = mProfile && ret == 0xFFFFFFFEL;
        if (haveAddr && !tailChain && Long.compareUnsigned(addr, ret) < 0) {
            walkTo(ret, e.offset);
        }
        if (tailChain) {
            // the handler's return went straight into this exception: a return whose target is unknown, then
            // the exception, which returns where the one it replaces would have (the trace does not repeat it)
            sink.accept(new ExceptionReturn(source, -1));
            ret = -1;
            if (needAddr) {
                // the handler's return branch went nowhere, so its target is not on the return stack: the next
                // instruction's address comes in an address packet (the next handler's), never from the stack
                needAddrElem = true;
            }
        }
        excPending = true;
        excNumber = e.exceptionType;
        excReturn = ret;
    }

    /**
     * The instructions from the current address up to {@code ret} (exclusive) ran, in a straight line: one
     * range, executed. The walk stops at the end of the image.
     */
    private void walkTo(long ret, long offset) {
        long start = addr;
        Isa startIsa = isa;
        sizes.clear();
        WaypointKind lastKind = WaypointKind.NONE;
        CallKind lastCall = CallKind.NONE;
        Block b = walker.block(addr, isa);
        while (true) {
            if (b.count() > 0 && Long.compareUnsigned(ret, b.start()) > 0
                    && Long.compareUnsigned(ret, b.nextAddress()) <= 0) {
                int n = b.countBefore(ret);
                long end = n < b.count() ? b.addressOf(n) : b.nextAddress();
                if (end == ret) {
                    sizes.append(b, 0, n);
                    boolean whole = n == b.count() && b.end() == Block.End.WAYPOINT;
                    emit(start, ret, startIsa, whole ? b.kind() : WaypointKind.NONE, whole ? b.call() : CallKind.NONE,
                            true);
                    addr = ret;
                    return;
                }
            }
            if (b.end() == Block.End.NO_IMAGE) {
                sizes.append(b, 0, b.count());
                noImage(start, startIsa, b);
                return;
            }
            if (b.end() == Block.End.UNSUPPORTED) {
                sink.accept(new DecodeError(source, "cannot walk " + isa + " code", b.nextAddress(), offset));
                sizes.clear();
                needAddr = true;
                needAddrElem = true;
                return;
            }
            sizes.append(b, 0, b.count());
            addr = b.nextAddress();
            if (addr - start > WALK_BYTES || Long.compareUnsigned(addr, start) < 0) {
                sizes.clear();
                tooFar(start, offset);
                return;
            }
            b = walker.next(b); // the block at addr
        }
    }

    /** The most code blocks one Q element's search may visit before it gives the count instead. */
    static final int Q_SEARCH_BLOCKS = 4096;

    // the Q walk's path: the blocks, the instructions taken of each, and where each went next
    private Block[] qBlocks = new Block[64];
    private int[] qTaken = new int[64];
    private long[] qNext = new long[64];
    private Block[] qFound = new Block[64];
    private int[] qFoundTaken = new int[64];
    private long[] qFoundNext = new long[64];
    private int qFoundLength;
    private int qSolutions;
    private int qVisited;

    /**
     * A Q element: {@code count} instructions ran from the current address, and execution goes on at
     * {@code end} (IHI 0064, Q element: the count is of the instructions executed since the previous P0
     * element, the address is that of the next instruction). When exactly one path through the image takes
     * {@code count} instructions from the current address to {@code end} - following direct branches,
     * trying both ways of each conditional one, an indirect branch only as the last instruction (its target
     * is {@code end}) - and no other way could also be the one (none meets an indirect branch before the count
     * is done, or code outside the image), the path is given as instruction ranges and this returns true.
     * Otherwise (no path, two, a way that cannot be followed, or the search too large) it gives nothing and
     * returns false: the caller gives the count.
     */
    private boolean qWalk(long count, long end, Isa endIsa) {
        if (count <= 0 || count > WALK_BYTES / 2) {
            return false;
        }
        qSolutions = 0;
        qVisited = 0;
        qSearch(addr, isa, count, end, endIsa, 0);
        if (qSolutions != 1) {
            return false;
        }
        // the path: a range ends at each P0 instruction taken whole, as an atom's range does
        sizes.clear();
        long start = qFound[0].start();
        Isa startIsa = qFound[0].isa();
        for (int i = 0; i < qFoundLength; i++) {
            Block b = qFound[i];
            int n = qFoundTaken[i];
            sizes.append(b, 0, n);
            long next = qFoundNext[i];
            boolean last = i == qFoundLength - 1;
            boolean waypoint = n == b.count() && b.end() == Block.End.WAYPOINT;
            if (waypoint && b.kind() != WaypointKind.EXCEPTION_CALL) {
                boolean taken = b.kind() != WaypointKind.DIRECT_BRANCH || next != b.nextAddress() || !b.conditional();
                emit(start, b.nextAddress(), startIsa, b.kind(), b.call(), taken);
                if (taken && b.link()) {
                    push(b.nextAddress(), b.isa());
                }
                start = next;
                startIsa = i + 1 < qFoundLength ? qFound[i + 1].isa() : endIsa;
            } else if (last && sizes.count() > 0) {
                emit(start, next, startIsa, WaypointKind.NONE, CallKind.NONE, true);
            }
        }
        return true;
    }

    /** Depth-first search for the paths of {@code left} instructions from {@code at} to {@code end}. */
    private void qSearch(long at, Isa atIsa, long left, long end, Isa endIsa, int depth) {
        while (qSolutions < 2) {
            if (++qVisited > Q_SEARCH_BLOCKS) {
                qSolutions = 2; // too large to decide: not exact
                return;
            }
            if (depth == qBlocks.length) {
                int n = depth * 2;
                qBlocks = java.util.Arrays.copyOf(qBlocks, n);
                qTaken = java.util.Arrays.copyOf(qTaken, n);
                qNext = java.util.Arrays.copyOf(qNext, n);
            }
            Block b = walker.block(at, atIsa);
            int c = b.count();
            if (c == 0) {
                qSolutions = 2; // code that cannot be read: where this way goes is not known
                return;
            }
            qBlocks[depth] = b;
            if (left < c) {
                // the count ends inside the block, before its last instruction: straight on to end
                if (b.addressOf((int) left) == end && atIsa == endIsa) {
                    qTaken[depth] = (int) left;
                    qNext[depth] = end;
                    found(depth + 1);
                }
                return;
            }
            qTaken[depth] = c;
            left -= c;
            if (b.end() != Block.End.WAYPOINT) {
                if (b.end() != Block.End.LIMIT) {
                    qSolutions = 2; // outside the image, or code that cannot be walked: not known
                    return;
                }
                if (left == 0) {
                    if (b.nextAddress() == end && atIsa == endIsa) {
                        qNext[depth] = end;
                        found(depth + 1);
                    }
                    return;
                }
                qNext[depth] = b.nextAddress();
                at = b.nextAddress();
                depth++;
                continue;
            }
            long fall = b.nextAddress();
            switch (b.kind()) {
                case DIRECT_BRANCH -> {
                    long target = b.target();
                    Isa tIsa = b.targetIsa();
                    if (left == 0) {
                        if (target == end && tIsa == endIsa) {
                            qNext[depth] = end;
                            found(depth + 1);
                        } else if (b.conditional() && fall == end && atIsa == endIsa) {
                            qNext[depth] = end;
                            found(depth + 1);
                        }
                        return;
                    }
                    if (b.conditional()) {
                        qNext[depth] = fall;
                        qSearch(fall, atIsa, left, end, endIsa, depth + 1);
                        if (qSolutions >= 2) {
                            return;
                        }
                    }
                    qBlocks[depth] = b;
                    qTaken[depth] = c;
                    qNext[depth] = target;
                    at = target;
                    atIsa = tIsa;
                    depth++;
                }
                case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                    if (left == 0) {
                        qNext[depth] = end;
                        found(depth + 1);
                    } else {
                        qSolutions = 2; // in the middle its target is not known: the path cannot be decided
                    }
                    return;
                }
                default -> {
                    // ISB, WFI/WFE, or an exception-generating instruction: on to the next instruction
                    if (left == 0) {
                        if (fall == end && atIsa == endIsa) {
                            qNext[depth] = end;
                            found(depth + 1);
                        }
                        return;
                    }
                    qNext[depth] = fall;
                    at = fall;
                    depth++;
                }
            }
        }
    }

    private void found(int length) {
        if (++qSolutions == 1) {
            if (qFound.length < length) {
                qFound = new Block[qBlocks.length];
                qFoundTaken = new int[qBlocks.length];
                qFoundNext = new long[qBlocks.length];
            }
            System.arraycopy(qBlocks, 0, qFound, 0, length);
            System.arraycopy(qTaken, 0, qFoundTaken, 0, length);
            System.arraycopy(qNext, 0, qFoundNext, 0, length);
            qFoundLength = length;
        }
    }

    /**
     * ETE: the instruction at the source address is a taken branch, and the instructions from the current
     * address up to it ran (from the source address alone when the current address is not known or after it).
     */
    private void sourceAddress(Etm4Element e) {
        long src = e.address;
        Isa srcIsa = isaOf(e.is);
        if (needAddr || !haveAddr || Long.compareUnsigned(addr, src) > 0 || srcIsa != isa) {
            addr = src;
            isa = srcIsa;
        }
        needAddr = false;
        needAddrElem = false;
        haveAddr = true;
        tinfoWait = false;
        long start = addr;
        Isa startIsa = isa;
        sizes.clear();
        while (true) {
            Block b = walker.block(addr, isa);
            if (b.count() > 0 && b.contains(src)) {
                int i = b.indexOf(src);
                if (i >= 0) {
                    sizes.append(b, 0, i + 1);
                    boolean last = i == b.count() - 1 && b.end() == Block.End.WAYPOINT;
                    long next = i + 1 < b.count() ? b.addressOf(i + 1) : b.nextAddress();
                    emit(start, next, startIsa, last ? b.kind() : WaypointKind.NONE, last ? b.call() : CallKind.NONE,
                            true);
                    if (last) {
                        follow(b, true, e.offset);
                    } else {
                        sink.accept(new DecodeError(source, "source address is not a branch", src, e.offset));
                        needAddr = true;
                        needAddrElem = true;
                    }
                    return;
                }
            }
            if (b.end() == Block.End.NO_IMAGE) {
                sizes.append(b, 0, b.count());
                noImage(start, startIsa, b);
                return;
            }
            if (b.end() == Block.End.UNSUPPORTED || b.count() == 0) {
                sink.accept(new DecodeError(source, "cannot walk " + isa + " code", b.nextAddress(), e.offset));
                sizes.clear();
                needAddr = true;
                needAddrElem = true;
                return;
            }
            sizes.append(b, 0, b.count());
            addr = b.nextAddress();
            if (addr - start > WALK_BYTES || Long.compareUnsigned(addr, start) < 0) {
                sizes.clear();
                tooFar(start, e.offset);
                return;
            }
        }
    }
}
