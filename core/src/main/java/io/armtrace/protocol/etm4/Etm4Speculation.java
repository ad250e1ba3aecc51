package io.armtrace.protocol.etm4;

import io.armtrace.protocol.etm4.Etm4Element.Kind;

/**
 * Turns ETMv4/ETE packets into the trace element stream with speculation resolved (IHI 0064: the trace
 * element stream, speculation, and the Commit, Cancel and Mispredict packets). A P0 element (an atom, an
 * exception, a Q element, an ETE source address, an Armv7-M exception return, an Armv8-M function return,
 * an ETE transaction start unless TRCIDR0.COMMTRANS) may be speculative: it is held until a commit says it
 * was executed, or a cancel or mispredict says it was not, and only committed elements reach the listener.
 * Elements that are not P0 (addresses, contexts, timestamps, cycle counts, events, ...) keep their place
 * among the P0 elements: they are held as long as an uncommitted P0 element precedes them.
 *
 * <p>Resolution follows the architecture:
 * <ul>
 *   <li>Commit N: the oldest N uncommitted P0 elements are executed; commits are also implied whenever more
 *       than TRCIDR8.MAXSPEC elements are uncommitted (so with MAXSPEC = 0 every element commits at once).</li>
 *   <li>Cancel N: the newest N uncommitted P0 elements were not executed; the addresses and contexts after
 *       the oldest of them go with them, timestamps, cycle counts and events stay.</li>
 *   <li>Mispredict: the newest uncommitted atom had the other outcome (E for N, N for E); addresses after
 *       it belonged to the wrong path and are dropped. The atoms a mispredict or cancel packet carries come
 *       before the cancel and the mispredict in the element stream, as the packet lists them (and as OpenCSD
 *       and ptm2human read them).</li>
 *   <li>A trace info packet's SPEC field counts P0 elements before it that were not traced (the trace began
 *       while they were speculative): later commits and cancels account for them first.</li>
 *   <li>An exception's preferred return address, and a Q element's target, come in the address packet after
 *       it (with the context of that address when an address with context or a context packet comes
 *       between): the element waits for it and carries it.</li>
 * </ul>
 * Discard and overflow drop every uncommitted element (timestamps, cycle counts and events before them are
 * still given). Corrupt trace (reserved headers, bad packets, a packet cut off) becomes a GAP element with
 * the byte offset, and elements are taken up again after the next A-sync and trace info.
 *
 * <p>Memory is bounded: uncommitted elements wait in a fixed ring; should a stream hold more than fit (it
 * can only with a speculation depth that no trace unit has), the oldest are committed, as when MAXSPEC
 * is exceeded.
 */
public final class Etm4Speculation implements Etm4PacketListener {
    /** Ring capacity: far more than any trace unit's speculation depth (tens of elements). */
    private static final int CAP = 4096;
    private static final int MASK = CAP - 1;

    static final String REASON_RESERVED = "reserved packet header";
    static final String REASON_BAD = "malformed packet";
    static final String REASON_INCOMPLETE = "trace ends inside a packet";
    static final String REASON_UNSYNCED = "unsynchronized bytes";

    private enum State { WAIT_SYNC, WAIT_INFO, SYNCED }

    private final Etm4ElementListener out;
    private final Etm4Element el = new Etm4Element();
    private final long maxSpec;
    private final boolean exceptionReturnIsP0;
    private final boolean functionReturnIsP0;
    private final boolean transactionStartIsP0;
    private static final Kind[] KINDS = Kind.values();

    private State state = State.WAIT_SYNC;
    private boolean everSynced;
    private boolean reportedUnsynced;
    private boolean afterOverflow;

    // the ring of elements not yet given out: the oldest at head
    private final byte[] qKind = new byte[CAP];
    private final boolean[] qP0 = new boolean[CAP];
    private final boolean[] qComplete = new boolean[CAP];
    private final long[] qOffset = new long[CAP];
    private final long[] qA = new long[CAP];
    private final long[] qB = new long[CAP];
    private final long[] qC = new long[CAP];
    private final int[] qD = new int[CAP];
    private final int[] qE = new int[CAP];
    private int head;
    private int size;
    /** Uncommitted P0 elements: those in the ring that are complete, plus the unseen ones before the trace info. */
    private long depth;
    /** P0 elements before the trace info that were never traced but are still uncommitted (IHI 0064, Trace Info packet, SPEC). */
    private long unseen;
    /** Commits not yet applied (they wait for an element that still waits for its address). */
    private long toCommit;
    /** Ring position of an exception or Q element waiting for its address, or -1. */
    private int waiting = -1;

    public Etm4Speculation(Etm4Config config, Etm4ElementListener out) {
        this.out = out;
        this.maxSpec = config.maxSpeculation();
        this.exceptionReturnIsP0 = config.mProfile() == 7;
        this.functionReturnIsP0 = config.mProfile() == 8;
        this.transactionStartIsP0 = config.ete() && config.transactionStartIsP0();
    }

    /**
     * The whole state as a value, for {@code ChunkedDecode}'s seam search; while elements are held (which
     * only a speculation depth above 0 allows) a state equal to no other.
     */
    Object syncState() {
        if (size != 0) {
            return new Object();
        }
        // whether the bytes before the first A-sync were reported matters only until then
        return java.util.List.of(state, everSynced, everSynced || reportedUnsynced, afterOverflow, depth, unseen, toCommit,
                waiting);
    }

    /** Uncommitted P0 elements now (for tests). */
    long depth() {
        return depth;
    }

    // packet kinds as the reader stores them, for the two commonest kinds' way past the general dispatch
    private static final int ATOM_FIRST = Etm4Packet.Kind.ATOM_F1.ordinal();
    private static final int ATOM_LAST = Etm4Packet.Kind.ATOM_F6.ordinal();
    private static final int ADDR_FIRST = Etm4Packet.Kind.ADDR_EXACT_MATCH.ordinal();
    private static final int ADDR_LAST = Etm4Packet.Kind.ADDR_LONG_64_IS1.ordinal();

    @Override
    public void packet(Etm4Packet k) {
        if (state == State.SYNCED) {
            // atoms and addresses are most packets: their cases of decode, without its switch
            int kind = k.kindIndex;
            if (kind >= ATOM_FIRST && kind <= ATOM_LAST) {
                atomPacket(k.offset, k.atomCount, k.atomBits);
            } else if (kind >= ADDR_FIRST && kind <= ADDR_LAST) {
                addressPacket(k.offset, k.address, k.addressIs);
            } else {
                decode(k);
            }
            return;
        }
        switch (k.kind()) {
            case NOT_SYNC -> {
                if (!everSynced && !reportedUnsynced) {
                    reportedUnsynced = true;
                    gap(k.offset, "no synchronization: " + k.length + " bytes before an A-sync");
                }
                return;
            }
            case RESERVED -> {
                lost(k.offset, REASON_RESERVED);
                return;
            }
            case BAD_SEQUENCE -> {
                lost(k.offset, REASON_BAD);
                return;
            }
            case INCOMPLETE -> {
                lost(k.offset, REASON_INCOMPLETE);
                return;
            }
            default -> {
            }
        }
        if (state == State.WAIT_SYNC) {
            if (k.kind() == Etm4Packet.Kind.A_SYNC) {
                state = State.WAIT_INFO;
            }
            return;
        }
        if (state == State.WAIT_INFO) {
            if (k.kind() == Etm4Packet.Kind.TRACE_INFO) {
                state = State.SYNCED;
                everSynced = true;
                unseen = (k.plctl & 4) != 0 ? k.specDepth : 0;
                depth = unseen;
                toCommit = 0;
                traceInfo(k);
            }
            return;
        }
        decode(k);
    }

    /** End of the trace: what is committed has been given; uncommitted elements never will be. */
    public void end() {
        dropUncommitted();
    }

    private void decode(Etm4Packet k) {
        switch (k.kind()) {
            case NOT_SYNC -> {
                return; // only after an error, which said so
            }
            case RESERVED -> {
                lost(k.offset, REASON_RESERVED);
                return;
            }
            case BAD_SEQUENCE -> {
                lost(k.offset, REASON_BAD);
                return;
            }
            case INCOMPLETE -> {
                lost(k.offset, REASON_INCOMPLETE);
                return;
            }
            case A_SYNC, IGNORE, COND_INSTR_F1, COND_INSTR_F2, COND_INSTR_F3, COND_FLUSH, COND_RESULT_F1,
                 COND_RESULT_F2, COND_RESULT_F3, COND_RESULT_F4, NUMBERED_DATA_SYNC, UNNUMBERED_DATA_SYNC -> {
                // conditional and data trace are parsed through: program flow does not depend on them
            }
            case TRACE_INFO -> traceInfo(k);
            case TRACE_ON -> {
                int i = add(Kind.TRACE_ON, k.offset, false);
                qD[i] = afterOverflow ? 1 : 0;
                afterOverflow = false;
            }
            case ATOM_F1, ATOM_F2, ATOM_F3, ATOM_F4, ATOM_F5, ATOM_F6 -> {
                atomPacket(k.offset, k.atomCount, k.atomBits);
                return;
            }
            case CONTEXT -> {
                if (k.contextGiven) {
                    context(k);
                }
            }
            case ADDR_CTXT_32_IS0, ADDR_CTXT_32_IS1, ADDR_CTXT_64_IS0, ADDR_CTXT_64_IS1 -> {
                context(k);
                address(k.offset, k.address, k.addressIs);
            }
            case ADDR_EXACT_MATCH, ADDR_SHORT_IS0, ADDR_SHORT_IS1, ADDR_LONG_32_IS0, ADDR_LONG_32_IS1,
                 ADDR_LONG_64_IS0, ADDR_LONG_64_IS1 -> {
                addressPacket(k.offset, k.address, k.addressIs);
                return;
            }
            case EXCEPTION -> {
                // not counted until its address comes: it cannot be committed before that
                int i = add(Kind.EXCEPTION, k.offset, true, false);
                qD[i] = k.exceptionType;
                qE[i] = (k.addressInterpretation == 2 ? 2 : 0) | (k.faultPending ? 4 : 0);
                waiting = i;
            }
            case PE_RESET -> p0(Kind.PE_RESET, k.offset);
            case TRANSACTION_FAILURE -> add(Kind.TRANSACTION_FAILURE, k.offset, false);
            case TRANSACTION_START -> {
                if (transactionStartIsP0) {
                    p0(Kind.TRANSACTION_START, k.offset);
                } else {
                    add(Kind.TRANSACTION_START, k.offset, false);
                }
            }
            case TRANSACTION_COMMIT -> add(Kind.TRANSACTION_COMMIT, k.offset, false);
            case EXCEPTION_RETURN -> {
                if (exceptionReturnIsP0) {
                    p0(Kind.EXCEPTION_RETURN, k.offset);
                } else {
                    add(Kind.EXCEPTION_RETURN, k.offset, false);
                }
            }
            case FUNCTION_RETURN -> {
                if (functionReturnIsP0) {
                    p0(Kind.FUNCTION_RETURN, k.offset);
                }
            }
            case Q -> {
                int i = add(Kind.Q, k.offset, true, false);
                qB[i] = k.qCount;
                boolean hasAddress = k.qType <= 2 || k.qType == 5 || k.qType == 6 || k.qType == 0xA || k.qType == 0xB;
                if (hasAddress) {
                    qA[i] = k.address;
                    qD[i] = k.addressIs;
                    complete(i);
                } else {
                    qComplete[i] = false;
                    waiting = i;
                }
            }
            case SRC_ADDR_EXACT_MATCH, SRC_ADDR_SHORT_IS0, SRC_ADDR_SHORT_IS1, SRC_ADDR_LONG_32_IS0,
                 SRC_ADDR_LONG_32_IS1, SRC_ADDR_LONG_64_IS0, SRC_ADDR_LONG_64_IS1 -> {
                int i = add(Kind.SOURCE_ADDRESS, k.offset, true);
                qA[i] = k.address;
                qD[i] = k.addressIs;
                complete(i);
            }
            case TIMESTAMP -> {
                int i = add(Kind.TIMESTAMP, k.offset, false);
                qA[i] = k.timestamp;
                qB[i] = k.cycles;
            }
            case CYCLE_COUNT_F1, CYCLE_COUNT_F2, CYCLE_COUNT_F3 -> {
                int i = add(Kind.CYCLE_COUNT, k.offset, false);
                qB[i] = k.cycles;
                if (k.commit > 0) {
                    commit(k.commit);
                }
            }
            case EVENT -> {
                int i = add(Kind.EVENT, k.offset, false);
                qD[i] = k.events;
            }
            case TIMESTAMP_MARKER -> add(Kind.TIMESTAMP_MARKER, k.offset, false);
            case INSTRUMENTATION -> {
                int i = add(Kind.INSTRUMENTATION, k.offset, false);
                qD[i] = k.iteEl;
                qA[i] = k.iteValue;
            }
            case COMMIT -> commit(k.commit);
            case CANCEL_F1, CANCEL_F2, CANCEL_F3, MISPREDICT -> {
                // the packet's atoms first, then the cancel, then the mispredict
                if (k.atomCount > 0) {
                    atoms(k.offset, k.atomCount, k.atomBits);
                }
                if (k.cancel > 0) {
                    cancel(k.cancel);
                }
                if (k.mispredict) {
                    mispredict();
                }
            }
            case DISCARD -> {
                dropUncommitted();
                emit(Kind.DISCARD, k.offset);
                state = State.WAIT_INFO;
            }
            case OVERFLOW -> {
                dropUncommitted();
                emit(Kind.OVERFLOW, k.offset);
                afterOverflow = true;
                state = State.WAIT_INFO;
            }
            default -> {
            }
        }
        drain();
    }

    /**
     * An atom packet (formats 1 to 6) from the reader's fast path (the packet object is not filled): as {@link #packet} gives it
     * once synchronized, the default way before.
     */
    @Override
    public void atom(Etm4Packet scratch, long offset, int header, int count, int bits) {
        if (state == State.SYNCED) {
            atomPacket(offset, count, bits);
        } else {
            Etm4PacketListener.super.atom(scratch, offset, header, count, bits);
        }
    }

    /** An address packet without a context from the reader's fast path: as {@link #atom}. */
    @Override
    public void address(Etm4Packet scratch, byte[] b, int pos, int length, long offset, long address, int is) {
        if (state == State.SYNCED) {
            addressPacket(offset, address, is);
        } else {
            Etm4PacketListener.super.address(scratch, b, pos, length, offset, address, is);
        }
    }

    private void atomPacket(long offset, int count, int bits) {
        if (size == 0 && unseen == 0 && toCommit == 0) {
            // nothing held: the atoms beyond the speculation depth commit at once, without the ring
            int now = (int) Math.max(0, count - maxSpec);
            if (now > 0) {
                emitAtoms(offset, now, bits);
            }
            if (now < count) {
                int i = add(Kind.ATOM, offset, true);
                depth += count - now - 1;
                qD[i] = count - now;
                qE[i] = bits >>> now;
            }
            return;
        }
        atoms(offset, count, bits);
        drain();
    }

    /** An address packet without a context (exact match, short, long). */
    private void addressPacket(long offset, long address, int is) {
        if (size == 0 && waiting < 0) {
            // nothing held before it: given at once
            Etm4Element e = el;
            e.address = address;
            e.is = is;
            setKind(e, Kind.ADDRESS, offset);
            out.element(e);
            return;
        }
        address(offset, address, is);
        drain();
    }

    // --- adding elements ------------------------------------------------------------------------

    private void traceInfo(Etm4Packet k) {
        int i = add(Kind.TRACE_INFO, k.offset, false);
        qD[i] = (int) (k.info & 1);
        qA[i] = k.ccThreshold;
        drain();
    }

    /** Appends an element; a P0 one is complete (counted, committable) unless the caller says otherwise. */
    private int add(Kind kind, long offset, boolean p0) {
        return add(kind, offset, p0, true);
    }

    /** Appends an element; an incomplete P0 element is not counted until {@link #complete}. */
    private int add(Kind kind, long offset, boolean p0, boolean complete) {
        while (size == CAP) {
            // more uncommitted elements than any trace unit holds: the oldest is taken as committed
            int h = head;
            if (qP0[h] && qComplete[h]) {
                toCommit += KINDS[qKind[h]] == Kind.ATOM ? qD[h] : 1;
                drain();
            } else {
                // the oldest waits for an address that never came: give up what is held
                dropUncommitted();
            }
        }
        int i = (head + size) & MASK;
        size++;
        qKind[i] = (byte) kind.ordinal();
        qOffset[i] = offset;
        qP0[i] = p0;
        qComplete[i] = complete;
        if (p0 && complete) {
            depth++;
            limitDepth();
        }
        return i;
    }

    /** IHI 0064, speculation depth: never more than MAXSPEC uncommitted P0 elements; the oldest beyond that are committed. */
    private void limitDepth() {
        if (depth - toCommit > maxSpec) {
            toCommit = depth - maxSpec;
        }
    }

    private void p0(Kind kind, long offset) {
        add(kind, offset, true);
    }

    /** An element that was added incomplete (not counted) becomes complete. */
    private void complete(int i) {
        if (!qComplete[i]) {
            qComplete[i] = true;
            depth++;
            limitDepth();
        }
        if (waiting == i) {
            waiting = -1;
        }
    }

    private void atoms(long offset, int count, int bits) {
        int i = add(Kind.ATOM, offset, true);
        // one ring entry per packet: its atoms commit from the oldest, cancel from the newest
        depth += count - 1;
        qD[i] = count;
        qE[i] = bits;
        limitDepth();
    }

    private void address(long offset, long address, int is) {
        if (waiting >= 0) {
            int w = waiting;
            qA[w] = address;
            if (KINDS[qKind[w]] == Kind.EXCEPTION) {
                qE[w] = (qE[w] & ~1) | (is & 1);
            } else {
                qD[w] = is;
            }
            complete(w);
            return;
        }
        int i = add(Kind.ADDRESS, offset, false);
        qA[i] = address;
        qD[i] = is;
    }

    private void context(Etm4Packet k) {
        int flags = k.el | (k.nonSecure ? 4 : 0) | (k.aarch64 ? 8 : 0) | (k.nse ? 16 : 0) | (k.vmidGiven ? 32 : 0)
                | (k.contextIdGiven ? 64 : 0);
        if (waiting >= 0 && KINDS[qKind[waiting]] == Kind.EXCEPTION) {
            // the context of the exception's return address: given before the exception
            int w = waiting;
            qE[w] |= 8 | flags << 8;
            qB[w] = k.vmid;
            qC[w] = k.contextId;
            return;
        }
        int i = add(Kind.CONTEXT, k.offset, false);
        qD[i] = flags;
        qB[i] = k.vmid;
        qC[i] = k.contextId;
    }

    // --- resolution -----------------------------------------------------------------------------

    private void commit(long n) {
        toCommit += n;
        drain();
    }

    /** Gives out what is committed, and what is not P0 and has nothing uncommitted before it. */
    private void drain() {
        if (toCommit > 0 && unseen > 0) {
            long c = Math.min(unseen, toCommit);
            unseen -= c;
            depth -= c;
            toCommit -= c;
        }
        while (size > 0) {
            int i = head;
            if (qP0[i]) {
                if (toCommit == 0 || !qComplete[i]) {
                    return;
                }
                if (KINDS[qKind[i]] == Kind.ATOM) {
                    int n = (int) Math.min(qD[i], toCommit);
                    int bits = qE[i];
                    if (n > 0) {
                        emitAtoms(qOffset[i], n, bits);
                    }
                    qD[i] -= n;
                    qE[i] = bits >>> n;
                    toCommit -= n;
                    depth -= n;
                    if (qD[i] > 0) {
                        return;
                    }
                } else {
                    give(i);
                    toCommit--;
                    depth--;
                }
            } else {
                give(i);
            }
            head = (head + 1) & MASK;
            size--;
        }
        // commits beyond every element traced: a corrupt count; nothing is left to commit
        if (toCommit > 0 && unseen == 0) {
            toCommit = 0;
        }
    }

    /**
     * Cancel {@code n} (IHI 0064, Cancel packets): the newest uncommitted P0 elements were not executed. Elements
     * after the oldest cancelled one go too, except timestamps, cycle counts, events and markers.
     */
    private void cancel(long n) {
        long left = n;
        int keep = 0;
        int[] kept = keepBuffer;
        while (left > 0 && size > 0) {
            int i = (head + size - 1) & MASK;
            Kind kind = KINDS[qKind[i]];
            if (qP0[i]) {
                if (kind == Kind.ATOM) {
                    int c = (int) Math.min(qD[i], left);
                    qD[i] -= c;
                    qE[i] &= (1 << qD[i]) - 1;
                    left -= c;
                    depth -= c;
                    if (qD[i] > 0) {
                        break;
                    }
                } else {
                    left--;
                    if (qComplete[i]) {
                        depth--;
                    }
                }
                if (waiting == i) {
                    waiting = -1;
                }
                size--;
            } else if (survivesCancel(kind)) {
                if (keep < kept.length) {
                    kept[keep++] = copyToSpare(i, keep - 1);
                }
                size--;
            } else {
                size--;
            }
        }
        if (left > 0 && unseen > 0) {
            long c = Math.min(unseen, left);
            unseen -= c;
            depth -= c;
        }
        // put back the kept elements, oldest first
        for (int j = keep - 1; j >= 0; j--) {
            restoreFromSpare(j);
        }
    }

    private static boolean survivesCancel(Kind k) {
        return k == Kind.TIMESTAMP || k == Kind.CYCLE_COUNT || k == Kind.EVENT || k == Kind.TIMESTAMP_MARKER
                || k == Kind.INSTRUMENTATION;
    }

    // cancel keeps a few non-P0 elements aside while it removes what is after them
    private final int[] keepBuffer = new int[64];
    private final byte[] sKind = new byte[64];
    private final long[] sOffset = new long[64];
    private final long[] sA = new long[64];
    private final long[] sB = new long[64];
    private final int[] sD = new int[64];

    private int copyToSpare(int i, int j) {
        sKind[j] = qKind[i];
        sOffset[j] = qOffset[i];
        sA[j] = qA[i];
        sB[j] = qB[i];
        sD[j] = qD[i];
        return j;
    }

    private void restoreFromSpare(int j) {
        int i = (head + size) & MASK;
        size++;
        qKind[i] = sKind[j];
        qOffset[i] = sOffset[j];
        qA[i] = sA[j];
        qB[i] = sB[j];
        qD[i] = sD[j];
        qP0[i] = false;
        qComplete[i] = true;
    }

    /**
     * Mispredict (IHI 0064, Mispredict packet): the newest uncommitted atom had the other outcome. Addresses after it were
     * on the path not taken.
     */
    private void mispredict() {
        for (int n = size - 1; n >= 0; n--) {
            int i = (head + n) & MASK;
            Kind kind = KINDS[qKind[i]];
            if (kind == Kind.ATOM) {
                qE[i] ^= 1 << (qD[i] - 1);
                return;
            }
            if (kind == Kind.ADDRESS) {
                remove(n);
            }
        }
        // the atom was among the elements before the trace info, never traced: nothing to change
    }

    /** Removes the n-th element (from the oldest) of the ring. */
    private void remove(int n) {
        for (int j = n; j < size - 1; j++) {
            int to = (head + j) & MASK;
            int from = (head + j + 1) & MASK;
            qKind[to] = qKind[from];
            qP0[to] = qP0[from];
            qComplete[to] = qComplete[from];
            qOffset[to] = qOffset[from];
            qA[to] = qA[from];
            qB[to] = qB[from];
            qC[to] = qC[from];
            qD[to] = qD[from];
            qE[to] = qE[from];
            if (waiting == from) {
                waiting = to;
            }
        }
        size--;
    }

    /** Discard, overflow, lost sync, end: uncommitted elements are dropped; what is not P0 before them is given. */
    private void dropUncommitted() {
        while (size > 0) {
            int i = head;
            Kind kind = KINDS[qKind[i]];
            if (!qP0[i] && (survivesCancel(kind) || kind == Kind.TRACE_INFO)) {
                give(i);
            }
            head = (head + 1) & MASK;
            size--;
        }
        head = 0;
        depth = 0;
        unseen = 0;
        toCommit = 0;
        waiting = -1;
    }

    private void lost(long offset, String reason) {
        if (state == State.SYNCED || state == State.WAIT_INFO) {
            dropUncommitted();
            gap(offset, reason);
        }
        state = State.WAIT_SYNC;
    }

    // --- output ---------------------------------------------------------------------------------

    private void give(int i) {
        Kind kind = KINDS[qKind[i]];
        Etm4Element e = el;
        switch (kind) {
            case ADDRESS, SOURCE_ADDRESS -> {
                e.address = qA[i];
                e.is = qD[i];
            }
            case CONTEXT -> setContext(qD[i], qB[i], qC[i]);
            case EXCEPTION -> {
                int f = qE[i];
                if ((f & 8) != 0) {
                    setContext(f >> 8, qB[i], qC[i]);
                    e.kind(Kind.CONTEXT);
                    e.offset = qOffset[i];
                    out.element(e);
                }
                e.address = qA[i];
                e.is = f & 1;
                e.atBranchTarget = (f & 2) != 0;
                e.faultPending = (f & 4) != 0;
                e.exceptionType = qD[i];
            }
            case Q -> {
                e.address = qA[i];
                e.is = qD[i];
                e.count = qB[i];
            }
            case TIMESTAMP -> {
                e.timestamp = qA[i];
                e.cycles = qB[i];
            }
            case CYCLE_COUNT -> e.cycles = qB[i];
            case EVENT -> e.events = qD[i];
            case INSTRUMENTATION -> {
                e.el = qD[i];
                e.value = qA[i];
            }
            case TRACE_ON -> e.afterOverflow = qD[i] != 0;
            case TRACE_INFO -> {
                e.cycleCounting = qD[i] != 0;
                e.ccThreshold = qA[i];
            }
            default -> {
            }
        }
        setKind(e, kind, qOffset[i]);
        out.element(e);
    }

    private void setContext(int flags, long vmid, long contextId) {
        Etm4Element e = el;
        e.el = flags & 3;
        e.nonSecure = (flags & 4) != 0;
        e.aarch64 = (flags & 8) != 0;
        e.nse = (flags & 16) != 0;
        e.vmidGiven = (flags & 32) != 0;
        e.contextIdGiven = (flags & 64) != 0;
        e.vmid = vmid;
        e.contextId = contextId;
    }

    /** {@code n} committed atoms of one packet (bit i of {@code bits} the (i + 1)-th), handed over in one call. */
    private void emitAtoms(long offset, int n, int bits) {
        Etm4Element e = el;
        setKind(e, Kind.ATOM, offset);
        out.atoms(e, n, bits);
    }

    /** A reference store into an old object costs a GC write barrier: the kind is stored only on change. */
    private static void setKind(Etm4Element e, Kind kind, long offset) {
        e.kindIndex = (byte) kind.ordinal();
        e.offset = offset;
    }

    private void emit(Kind kind, long offset) {
        el.kind(kind);
        el.offset = offset;
        out.element(el);
    }

    private void gap(long offset, String reason) {
        el.kind(Kind.GAP);
        el.offset = offset;
        el.reason = reason;
        out.element(el);
    }
}
