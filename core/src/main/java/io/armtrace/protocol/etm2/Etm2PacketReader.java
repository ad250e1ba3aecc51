package io.armtrace.protocol.etm2;

import io.armtrace.protocol.Packet;
import io.armtrace.protocol.PacketListener;
import io.armtrace.trace.Isa;

/**
 * Turns a trace port capture, cycle by cycle, into what each cycle means: its PIPESTAT and the trace
 * packets that the cycle put in the trace FIFO, which appear on TRACEPKT some cycles later.
 *
 * <p>Cycles are held in order until their packets have come out of the FIFO, then released to the
 * {@link Listener} in cycle order, each with its branch address (or sync address, context ID) resolved.
 * The hold is bounded: a cycle that waits too long for its packets is given up as lost.
 *
 * <p>ETMv2 (IHI 0014Q chapter 6): every packet header but a branch address carries a C bit, so the reader
 * parses the FIFO bytes in order and knows which cycle each belongs to. Synchronization is by trace FIFO
 * offsets (TFO): a TD cycle with TRACEPKT[0] set gives the number of FIFO bytes before the TFO packet.
 *
 * <p>ETMv1 (IHI 0014Q chapter 5): data packets have no headers, so branch addresses are found by
 * TRACESYNC, which marks the first packet of each address, and matched to their BE/BD cycles by the
 * address packet offset (APO) output on PIPESTAT[1:0] in the two cycles after the branch (5.6.1).
 *
 * <p>No allocation per cycle: records live in preallocated ring arrays.
 */
public final class Etm2PacketReader implements Etm2CycleSink {

    // Canonical statuses, as the listener sees them: ETMv1's own PIPESTAT values (IHI 0014Q Table 5.1),
    // plus DN and DW, which only ETMv2 has. ETMv2 PIPESTAT values are translated to these (see V2_*).
    static final int IE = 0, ID = 1, IN = 2, WT = 3, BE = 4, BD = 5, TR = 6, TD = 7, DN = 10, DW = 11;

    private static final Isa[] ISAS = Isa.values();

    static final String[] MNEMONICS = {"IE", "ID", "IN", "WT", "BE", "BD", "TR", "TD",
        "R8", "R9", "DN", "DW", "RC", "RD", "RE", "RF"};

    // ETMv2 PIPESTAT[3:0] (IHI 0014Q 6.1): bit 0 = packets placed in the FIFO (the D statuses, 6.1.3);
    // b1xxx are the branch phantoms of ARM10 (6.1.2): a folded direct branch, taken (PT, b10xx) or not
    // (PN, b11xx), with the status of the instruction executed in parallel in bits [1:0].
    static final int V2_IE = 0, V2_DE = 1, V2_IN = 2, V2_DN = 3, V2_WT = 4, V2_DW = 5, V2_TR = 6, V2_TD = 7;

    static final String[] MNEMONICS_V2 = {"IE", "DE", "IN", "DN", "WT", "DW", "TR", "TD",
        "PTIE", "PTDE", "PTIN", "PTDN", "PNIE", "PNDE", "PNIN", "PNDN"};

    /** The mnemonic of a raw PIPESTAT value of protocol {@code version}. */
    static String mnemonic(int version, int pipestat) {
        return version == 1 ? MNEMONICS[pipestat & 7] : MNEMONICS_V2[pipestat & 15];
    }

    /** The raw PIPESTAT value of a canonical status, for protocol {@code version}. */
    static int rawPipestat(int version, int status) {
        if (version == 1) {
            return status;
        }
        return switch (status) {
            case IE -> V2_IE;
            case ID, BE, BD -> V2_DE;
            case IN -> V2_IN;
            case DN -> V2_DN;
            case WT -> V2_WT;
            case DW -> V2_DW;
            case TR -> V2_TR;
            default -> V2_TD;
        };
    }

    /** TFO and ETMv1 branch reason codes (IHI 0014Q Table 6.7; 5.6.2 adds b100 periodic for ETMv1.2). */
    static final String[] REASONS = {"normal synchronization", "tracing enabled", "restart after overflow",
        "exit from debug state", "periodic full address", "reserved reason 5", "reserved reason 6",
        "reserved reason 7"};

    /** What a released cycle means to the flow. */
    public interface Listener {
        /**
         * Cycle {@code cycle} with PIPESTAT {@code status} (after trigger replacement). For an instruction
         * status, {@code target} is the traced branch address (-1 if none or not known), {@code isa} its state
         * and {@code cancel} the E bit of a cancelling exception. {@code known} is false when the branch
         * address could not be resolved (decoding must wait for the next sync point).
         */
        void cycle(long cycle, int status, long target, Isa isa, boolean cancel, boolean known);

        /** Synchronization: execution continues at {@code address}; {@code impliesInstruction} for an IE-TFO. */
        void sync(long cycle, int reason, long address, Isa isa, boolean impliesInstruction);

        void contextId(long cycle, long id);

        void trigger(long cycle);

        /** Trace association was lost at {@code cycle}; nothing is known until the next sync. */
        void lost(long cycle, String reason);

        /** A reserved or impossible encoding at {@code cycle} (decoding continues). */
        void error(long cycle, String message);
    }

    private final Etm2Config cfg;
    private final Listener out;
    /** Receives the cycle listing of {@code armtrace packets}: one packet record per cycle, in order. */
    private PacketListener<Packet> lister;

    // ---- records: one per cycle, released in order --------------------------------------------------
    private static final int RING = 1 << 12;
    private static final int MASK = RING - 1;
    /** A record still waiting after this many later cycles is given up. */
    private static final int MAX_WAIT = RING - 64;
    private final long[] rCycle = new long[RING];
    private final byte[] rStatus = new byte[RING];
    /** The PIPESTAT value as captured (after trigger replacement), for the listing. */
    private final byte[] rRaw = new byte[RING];
    private final int[] rPkt = new int[RING];
    private final boolean[] rSync = new boolean[RING];
    /** Record waits for packets (bit 0), has branch (1), resolved (2), cancel (3), TFO (4), unknown (5). */
    private final int[] rFlags = new int[RING];
    private final long[] rTarget = new long[RING];
    private final byte[] rIsa = new byte[RING];
    private final int[] rApo = new int[RING];
    private final byte[] rReason = new byte[RING];
    private final long[] rCtx = new long[RING];
    private final int[] rNotes = new int[RING];
    private long head; // oldest unreleased record
    private long tail; // next record to write
    private long cycle;

    private static final int F_WAIT = 1, F_BRANCH = 2, F_DONE = 4, F_CANCEL = 8, F_TFO = 16, F_UNKNOWN = 32,
            F_DATA = 64, F_CTX = 128, F_NOINSN = 256, F_APO = 512, F_LOST = 1024, F_TRIGGER = 2048,
            F_PHANTOM = 4096, F_PTAKEN = 8192;

    // ---- ETMv2 FIFO parser -------------------------------------------------------------------------
    private boolean synced;
    /** Records that pushed packets, oldest first, as record numbers. */
    private final long[] pushQ = new long[RING];
    private long pushHead;
    private long pushTail;
    /** Bytes to skip before the TFO packet when synchronizing (-1: none pending). */
    private int skip = -1;
    private int tfoLowBits = -1; // 4-bit port: first TFO cycle seen, value bits [2:0]
    private long tfoRecord = -1;
    private int nibble = -1; // 4-bit port: low nibble of the byte being output
    // packet state machine for the head push record
    private int pState; // 0 = expect packet start
    private int pCount;
    private long pValue;
    private int pC; // C bit of the current header
    private boolean lastPackedValid;
    private long lastPacked = -1;

    private static final int P_START = 0, P_BRANCH = 1, P_DADDR = 2, P_DVAL = 3, P_CTX = 4,
            P_TFO_CTX = 5, P_TFO_ADDR = 6, P_TFO_HDR = 7;
    private int pValueBytes;

    // ---- ETMv1 address sequences ---------------------------------------------------------------------
    private final long[] sStart = new long[256];
    private final long[] sValue = new long[256];
    private final boolean[] sKnown = new boolean[256];
    private final byte[] sReason = new byte[256];
    private final long[] sCtx = new long[256];
    private final byte[] sLen = new byte[256];
    private long sHead;
    private long sTail;
    private boolean v1Reading;
    private int v1Count;
    private long v1Value;
    private int v1CtxLeft;
    private long v1Ctx;
    private long v1Prev = -1;
    private boolean v1PrevKnown;
    private long v1SeqStart;
    private int v1Reason;
    private int apoPending; // ETMv1: APO cycles still to come after a branch (2, 1, 0)
    private long apoRecord = -1;

    public Etm2PacketReader(Etm2Config cfg, Listener out) {
        this.cfg = cfg;
        this.out = out;
    }

    public void setLister(PacketListener<Packet> lister) {
        this.lister = lister;
    }

    public long cycles() {
        return cycle;
    }

    // ================================================================================================
    @Override
    public void cycle(int pipestat, int tracepkt, boolean tracesync) {
        if (tail - head >= MAX_WAIT) {
            giveUpHead("a cycle waited too long for its trace packets");
        }
        long rec = tail++;
        int i = (int) (rec & MASK);
        rCycle[i] = cycle;
        rPkt[i] = tracepkt;
        rSync[i] = tracesync;
        rFlags[i] = 0;
        rTarget[i] = -1;
        rIsa[i] = 0;
        rNotes[i] = 0;
        rApo[i] = 0;
        rRaw[i] = (byte) pipestat;
        if (cfg.version() == 1) {
            cycleV1(rec, i, pipestat & 7, tracepkt, tracesync);
        } else {
            cycleV2(rec, i, pipestat & 15, tracepkt);
        }
        cycle++;
        release();
    }

    @Override
    public void lost(long position, String why) {
        loseSync(why);
        long rec = tail++;
        int i = (int) (rec & MASK);
        rCycle[i] = cycle;
        rStatus[i] = (byte) TD;
        rPkt[i] = 0;
        rSync[i] = false;
        rFlags[i] = F_DONE | F_UNKNOWN | F_LOST;
        cycle++;
        release();
    }

    /** The capture ended: everything still held is released, waiting ones as unresolved. */
    public void end() {
        while (head < tail) {
            int i = (int) (head & MASK);
            if ((rFlags[i] & F_DONE) == 0) {
                rFlags[i] |= F_DONE | F_UNKNOWN;
                rNotes[i] = 1;
            }
            emit(head);
            head++;
        }
    }

    // ================================================================================================
    // ETMv2

    private void cycleV2(long rec, int i, int ps, int pkt) {
        int raw = ps;
        boolean output = true;
        if (raw == V2_TR) {
            // IHI 0014Q 6.1.7: TR replaces the pipeline status, which appears on TRACEPKT[3:0]; the FIFO
            // does not drain this cycle.
            rFlags[i] |= F_TRIGGER;
            raw = pkt & 15;
            output = false;
            rNotes[i] |= 2;
            if (raw == V2_TR) {
                raw = V2_WT;
            }
        }
        rRaw[i] = (byte) raw;
        if (tfoLowBits >= 0) {
            // 4-bit port: the second TFO cycle carries TFO value bits [6:3] (FIFO output held)
            int value = tfoLowBits | (pkt & 15) << 3;
            tfoLowBits = -1;
            startTfo(value);
            output = false;
        } else if (raw == V2_TD && (pkt & 1) != 0 && (rNotes[i] & 2) == 0) {
            // IHI 0014Q 6.1.6: a TD with TRACEPKT[0] set is a trace FIFO offset
            rStatus[i] = (byte) TD;
            rFlags[i] |= F_TFO | F_WAIT;
            tfoRecord = rec;
            if (synced) {
                pushRecord(rec); // the TFO packet queues behind what the FIFO holds
            }
            if (cfg.portWidth() == 4) {
                tfoLowBits = (pkt >> 1) & 7;
            } else {
                startTfo((pkt >> 1) & 0x7F);
            }
            return;
        }
        if (output) {
            drain(pkt, rec);
        }
        int low = raw & 7;
        if (raw >= 8) {
            // branch phantom: the folded branch first, then the instruction of bits [1:0]
            rFlags[i] |= F_PHANTOM | (raw < 12 ? F_PTAKEN : 0);
            low = raw & 3;
        }
        int status = switch (low) {
            case V2_IE -> IE;
            case V2_DE -> ID;
            case V2_IN -> IN;
            case V2_DN -> DN;
            case V2_WT -> WT;
            case V2_DW -> DW;
            default -> TD;
        };
        rStatus[i] = (byte) status;
        if ((low & 1) != 0 && low != V2_TD) {
            // a D status: packets were placed in the FIFO this cycle (6.1.3)
            rFlags[i] |= F_WAIT;
            if (!synced && skip < 0) {
                rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
            } else {
                pushRecord(rec);
            }
        } else {
            rFlags[i] |= F_DONE;
        }
    }

    private void startTfo(int value) {
        if (!synced) {
            // Drop whatever was being parsed: the FIFO holds 'value' unknown bytes, then the TFO packet.
            pushHead = pushTail;
            if (tfoRecord >= 0) {
                pushRecord(tfoRecord);
            }
            skip = value;
            pState = P_TFO_HDR;
            nibble = -1;
        } else {
            // Already synchronized: the offset is implied by the FIFO contents; the TFO packet follows them.
        }
    }

    private void pushRecord(long rec) {
        if (pushTail - pushHead >= RING) {
            loseSync("trace FIFO association overflowed");
            return;
        }
        pushQ[(int) (pushTail++ & MASK)] = rec;
    }

    /**
     * A 4-bit port carries a byte over two cycles, low nibble first: the byte once both halves are in,
     * else -1.
     */
    private int nibbleByte(int pkt) {
        if (nibble < 0) {
            nibble = pkt & 15;
            return -1;
        }
        int b = nibble | (pkt & 15) << 4;
        nibble = -1;
        return b;
    }

    /** FIFO output of one cycle: slots are taken only while some earlier cycle's packets are unfinished. */
    private void drain(int pkt, long rec) {
        int w = cfg.portWidth();
        if (w == 4) {
            if (!fifoHasData(rec)) {
                return;
            }
            int b = nibbleByte(pkt);
            if (b >= 0) {
                fifoByte(b);
            }
        } else {
            if (fifoHasData(rec)) {
                fifoByte(pkt & 0xFF);
            }
            if (w == 16 && fifoHasData(rec)) {
                fifoByte((pkt >> 8) & 0xFF);
            }
        }
    }

    private boolean fifoHasData(long rec) {
        if (skip > 0) {
            return true;
        }
        return pushHead < pushTail && pushQ[(int) (pushHead & MASK)] < rec;
    }

    private void fifoByte(int b) {
        if (skip > 0) {
            skip--;
            return;
        }
        if (pushHead >= pushTail) {
            return;
        }
        long rec = pushQ[(int) (pushHead & MASK)];
        int i = (int) (rec & MASK);
        if ((rFlags[i] & F_TFO) != 0) {
            tfoByte(rec, i, b);
            return;
        }
        int status = rStatus[i];
        switch (pState) {
            case P_START -> {
                if ((b & 1) != 0) {
                    if (status == DN) {
                        packetError(i, "branch address packet in a DN cycle");
                        return;
                    }
                    pState = P_BRANCH;
                    pCount = 0;
                    pValue = 0;
                    branchByte(rec, i, b);
                    return;
                }
                header(rec, i, b);
            }
            case P_BRANCH -> branchByte(rec, i, b);
            case P_DADDR -> {
                pCount++;
                if ((b & 0x80) == 0 || pCount >= 5) {
                    startValue(rec, i);
                }
            }
            case P_DVAL -> {
                pCount++;
                if (pCount >= pValueBytes) {
                    endPacket(rec, i);
                }
            }
            case P_CTX -> {
                pValue |= (long) b << (8 * pCount);
                pCount++;
                if (pCount >= cfg.contextIdBytes()) {
                    rCtx[i] = pValue;
                    rFlags[i] |= F_CTX;
                    endPacket(rec, i);
                }
            }
            default -> packetError(i, "trace FIFO parser in an impossible state");
        }
    }

    /** IHI 0014Q Table 6.2: the trace packet headers. */
    private void header(long rec, int i, int b) {
        pC = (b >> 7) & 1;
        pCount = 0;
        pValue = 0;
        rFlags[i] |= F_DATA;
        if ((b & 3) == 2) {
            if ((b & 0x50) == 0) { // bC0A0SS10 normal data
                pValueBytes = valueBytes((b >> 2) & 3);
                if ((b & 0x20) != 0 && cfg.dataAddress()) {
                    pState = P_DADDR;
                } else {
                    startValue(rec, i);
                }
                return;
            }
            if ((b & 0x7F) == 0x6A) { // bC1101010 value not traced
                pValueBytes = 0;
                if (cfg.dataAddress()) {
                    pState = P_DADDR;
                } else {
                    endPacket(rec, i);
                }
                return;
            }
            if ((b & 0x7F) == 0x6E) { // bC1101110 context ID
                if (cfg.contextIdBytes() == 0) {
                    endPacket(rec, i);
                } else {
                    pState = P_CTX;
                }
                return;
            }
            packetError(i, "reserved trace packet header b" + bits(b, 8));
            return;
        }
        if ((b & 3) == 0) {
            if ((b & 0x50) == 0x50) { // bC1A1TT00 load miss occurred
                pValueBytes = 0;
                if ((b & 0x20) != 0 && cfg.dataAddress()) {
                    pState = P_DADDR;
                } else {
                    endPacket(rec, i);
                }
                return;
            }
            if ((b & 0x10) == 0 && (b & 0x60) != 0) { // bCTT0SS00 load miss data
                pValueBytes = valueBytes((b >> 2) & 3);
                startValue(rec, i);
                return;
            }
        }
        packetError(i, "reserved trace packet header b" + bits(b, 8));
    }

    private static int valueBytes(int ss) {
        return ss == 3 ? 4 : ss;
    }

    private void startValue(long rec, int i) {
        if (pValueBytes > 0 && cfg.dataValue()) {
            pState = P_DVAL;
            pCount = 0;
        } else {
            endPacket(rec, i);
        }
    }

    private void endPacket(long rec, int i) {
        pState = P_START;
        int status = rStatus[i];
        if (pC == 0) {
            if (status == BE || status == BD) {
                out.error(rCycle[i], MNEMONICS[status] + " cycle without a branch address");
                rFlags[i] |= F_UNKNOWN;
            }
            finishPush(i);
        }
    }

    private void finishPush(int i) {
        rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE;
        pushHead++;
        pState = P_START;
    }

    /** IHI 0014Q 6.7.1 and Table 6.9: branch address bytes. */
    private void branchByte(long rec, int i, int b) {
        if (pCount == 4) {
            if ((b & 0x80) != 0 || !Etm2Address.validFifthByteV2(b)) {
                out.error(rCycle[i], "reserved fifth branch address byte b" + bits(b, 8));
                rFlags[i] |= F_BRANCH | F_UNKNOWN;
                lastPackedValid = false;
                finishPush(i);
                return;
            }
            pValue |= (long) (b & 0x3F) << 28;
            if ((b & 0x40) != 0 && (b & 0x10) == 0) {
                rFlags[i] |= F_CANCEL;
            }
        } else {
            pValue |= (long) (b & 0x7F) << (7 * pCount);
        }
        pCount++;
        if ((b & 0x80) != 0 && pCount < 5) {
            return;
        }
        // replace the low 7n bits of the previous address
        long packed;
        if (pCount >= 5) {
            packed = pValue & 0x1FFFFFFFFL;
            lastPackedValid = true;
        } else {
            long m = (1L << (7 * pCount)) - 1;
            packed = (lastPacked & ~m) | (pValue & m);
        }
        lastPacked = packed;
        rNotes[i] = (rNotes[i] & 3) | pCount << 4;
        rFlags[i] |= F_BRANCH;
        if (lastPackedValid && Etm2Address.unpackAddress(packed) >= 0) {
            rTarget[i] = Etm2Address.unpackAddress(packed);
            rIsa[i] = (byte) Etm2Address.unpackIsa(packed).ordinal();
        } else {
            rFlags[i] |= F_UNKNOWN;
        }
        finishPush(i);
    }

    /** IHI 0014Q 6.5.3-6.5.4: TFO header, context ID, four address bytes (bit 0 = Thumb). */
    private void tfoByte(long rec, int i, int b) {
        switch (pState) {
            case P_TFO_HDR, P_START -> {
                // Normal TFO header b0RR00000, LSM-in-progress b1RR00000 (see the capture format notes)
                if ((b & 0x1F) != 0) {
                    out.error(rCycle[i], "reserved TFO packet header b" + bits(b, 8));
                    rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
                    pushHead++;
                    pState = P_START;
                    loseSync("reserved TFO packet header");
                    return;
                }
                rReason[i] = (byte) ((b >> 5) & 3);
                pCount = 0;
                pValue = 0;
                pState = cfg.contextIdBytes() > 0 ? P_TFO_CTX : P_TFO_ADDR;
            }
            case P_TFO_CTX -> {
                pValue |= (long) b << (8 * pCount);
                pCount++;
                if (pCount >= cfg.contextIdBytes()) {
                    rCtx[i] = pValue;
                    rFlags[i] |= F_CTX;
                    pCount = 0;
                    pValue = 0;
                    pState = P_TFO_ADDR;
                }
            }
            case P_TFO_ADDR -> {
                pValue |= (long) b << (8 * pCount);
                pCount++;
                if (pCount >= 4) {
                    long a = pValue & 0xFFFFFFFFL;
                    Isa isa = (a & 1) != 0 ? Isa.T32 : Isa.A32;
                    a = isa == Isa.T32 ? a & ~1L : a & ~3L;
                    rTarget[i] = a;
                    rIsa[i] = (byte) isa.ordinal();
                    // branch addresses after a TFO are compressed against it (6.7.1)
                    lastPacked = Etm2Address.pack(a, isa);
                    lastPackedValid = true;
                    synced = true;
                    skip = -1;
                    finishPush(i);
                }
            }
            default -> packetError(i, "trace FIFO parser in an impossible state");
        }
    }

    private void packetError(int i, String message) {
        out.error(rCycle[i], message);
        rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
        loseSync(message);
    }

    private void loseSync(String why) {
        // every record still waiting for packets is unresolved
        for (long r = pushHead; r < pushTail; r++) {
            int i = (int) (pushQ[(int) (r & MASK)] & MASK);
            rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
        }
        pushHead = pushTail;
        pState = P_START;
        skip = -1;
        nibble = -1;
        tfoLowBits = -1;
        if (synced) {
            synced = false;
        }
        lastPackedValid = false;
        v1Reading = false;
        v1PrevKnown = false;
        sHead = sTail;
    }

    private void giveUpHead(String why) {
        int i = (int) (head & MASK);
        if ((rFlags[i] & F_DONE) == 0) {
            out.error(rCycle[i], why);
            loseSync(why);
            for (long r = head; r < tail; r++) {
                int k = (int) (r & MASK);
                if ((rFlags[k] & F_DONE) == 0) {
                    rFlags[k] = (rFlags[k] & ~F_WAIT) | F_DONE | F_UNKNOWN;
                }
            }
        }
        release();
    }

    // ================================================================================================
    // ETMv1

    private void cycleV1(long rec, int i, int ps, int pkt, boolean tracesync) {
        int status = ps;
        boolean output = true;
        boolean apoCycle = apoPending > 0;
        if (status == TR) {
            // IHI 0014Q 5.3: a trigger delays the trace packets by one cycle; TRACEPKT[2:0] hold the status
            rFlags[i] |= F_TRIGGER;
            status = pkt & 7;
            output = false;
            rNotes[i] |= 2;
            if (status == TR) {
                status = WT;
            }
        }
        if (apoCycle) {

            if ((status & 4) != 0 && (rNotes[i] & 2) == 0) {
                // IHI 0014Q 5.6.1: a BE in an APO cycle abandons the previous branch (its address is still output)
                int a = (int) (apoRecord & MASK);
                rFlags[a] = (rFlags[a] & ~(F_WAIT | F_APO)) | F_DONE | F_NOINSN;
                apoPending = 0;
                apoRecord = -1;
            } else {
                int apoBits = (rNotes[i] & 2) != 0 ? pkt & 3 : ps & 3;
                int a = (int) (apoRecord & MASK);
                if (apoPending == 2) {
                    rApo[a] = apoBits;
                } else {
                    rApo[a] |= apoBits << 2;
                    rFlags[a] &= ~F_APO;
                }
                apoPending--;
                rStatus[i] = (byte) WT;
                rNotes[i] |= 4;
                rFlags[i] |= F_DONE;
                if (output) {
                    drainV1(pkt, tracesync, rec);
                }
                resolveV1();
                return;
            }
        }
        rStatus[i] = (byte) status;
        if (output && status != TD) {
            drainV1(pkt, tracesync, rec);
        }
        if (status == BE || status == BD) {
            rFlags[i] |= F_WAIT | F_APO;
            apoPending = 2;
            apoRecord = rec;
        } else {
            rFlags[i] |= F_DONE;
        }
        resolveV1();
    }

    private void drainV1(int pkt, boolean tracesync, long rec) {
        int w = cfg.portWidth();
        if (tracesync) {
            // IHI 0014Q 5.2: TRACESYNC is HIGH on the first cycle of a branch address
            if (v1Reading) {
                out.error(cycle, "TRACESYNC inside a branch address");
                v1PrevKnown = false;
            }
            v1Reading = true;
            v1Count = 0;
            v1Value = 0;
            v1CtxLeft = 0;
            v1SeqStart = cycle;
            nibble = -1;
        }
        if (w == 4) {
            if (!v1Reading) {
                return;
            }
            int b = nibbleByte(pkt);
            if (b >= 0) {
                v1Byte(b);
            }
        } else {
            if (v1Reading) {
                v1Byte(pkt & 0xFF);
            }
            if (w == 16 && v1Reading) {
                v1Byte((pkt >> 8) & 0xFF);
            }
        }
    }

    private void v1Byte(int b) {
        if (v1CtxLeft > 0) {
            v1Ctx |= (long) b << (8 * (cfg.contextIdBytes() - v1CtxLeft));
            v1CtxLeft--;
            if (v1CtxLeft == 0) {
                endSequence(true);
            }
            return;
        }
        if (v1Count < 4) {
            v1Value |= (long) (b & 0x7F) << (7 * v1Count);
        } else {
            v1Value |= (long) (b & 0x0F) << 28;
            v1Reason = (b >> 4) & 7;
        }
        v1Count++;
        if (v1Count < 5 && (b & 0x80) != 0) {
            return;
        }
        long value;
        if (v1Count >= 5) {
            value = v1Value & 0xFFFFFFFFL;
            v1PrevKnown = true;
            if ((b & 0x80) != 0) {
                out.error(cycle, "branch address into Jazelle state (not supported)");
            }
        } else {
            v1Reason = 0;
            long m = (1L << (7 * v1Count)) - 1;
            value = (v1Prev & ~m) | (v1Value & m);
        }
        v1Prev = value;
        v1Value = value;
        // IHI 0014Q 5.6.3: a context ID follows a full address whose reason code is not b000
        if (v1Count >= 5 && v1Reason != 0 && cfg.contextIdBytes() > 0) {
            v1CtxLeft = cfg.contextIdBytes();
            v1Ctx = 0;
            return;
        }
        endSequence(false);
    }

    private void endSequence(boolean withCtx) {
        v1Reading = false;
        if (sTail - sHead >= sStart.length) {
            sHead++;
        }
        int k = (int) (sTail & (sStart.length - 1));
        sStart[k] = v1SeqStart;
        sValue[k] = v1Value;
        sKnown[k] = v1PrevKnown;
        sReason[k] = (byte) (v1Count >= 5 ? v1Reason : 0);
        sCtx[k] = withCtx ? v1Ctx : -1;
        sLen[k] = (byte) v1Count;
        sTail++;
    }

    /** Matches the oldest waiting BE/BD with its address: the (APO+1)th address starting at or after it. */
    private void resolveV1() {
        while (true) {
            long r = oldestWaiting();
            if (r < 0) {
                return;
            }
            int i = (int) (r & MASK);
            if ((rFlags[i] & F_APO) != 0) {
                return; // APO not complete yet
            }
            long c = rCycle[i];
            int apo = rApo[i];
            if (apo == 15) {
                // IHI 0014Q 5.6.1: 15 means the offset was too large to encode
                out.error(c, "address packet offset too large to encode");
                rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
                continue;
            }
            // drop sequences that started before this branch
            while (sHead < sTail && sStart[(int) (sHead & (sStart.length - 1))] < c) {
                sHead++;
            }
            if (sTail - sHead <= apo) {
                return; // its address has not come out yet
            }
            int k = (int) ((sHead + apo) & (sStart.length - 1));
            rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_BRANCH;
            rNotes[i] = (rNotes[i] & 3) | sLen[k] << 4;
            rApo[i] = apo;
            if (!sKnown[k]) {
                rFlags[i] |= F_UNKNOWN;
            } else {
                long v = sValue[k];
                Isa isa = (v & 1) != 0 ? Isa.T32 : Isa.A32;
                rTarget[i] = isa == Isa.T32 ? v & ~1L : v & ~3L;
                rIsa[i] = (byte) isa.ordinal();
            }
            rReason[i] = sReason[k];
            if (sCtx[k] >= 0) {
                rCtx[i] = sCtx[k];
                rFlags[i] |= F_CTX;
            }
            int reason = sReason[k];
            if (sLen[k] >= 5 && reason >= 1 && reason <= 3) {
                // trace enabled / overflow / debug exit: a start address, not an executed branch
                rFlags[i] |= F_NOINSN | F_TFO;
            }
        }
    }

    /** ETMv1: the oldest record still waiting for its branch address (records before it are all done). */
    private long waitScan;

    private long oldestWaiting() {
        long r = Math.max(waitScan, head);
        for (; r < tail; r++) {
            int i = (int) (r & MASK);
            if ((rFlags[i] & F_DONE) == 0) {
                waitScan = r;
                return r;
            }
        }
        waitScan = r;
        return -1;
    }

    // ================================================================================================

    private void release() {
        while (head < tail) {
            int i = (int) (head & MASK);
            if ((rFlags[i] & F_DONE) == 0) {
                return;
            }
            emit(head);
            head++;
        }
    }

    private void emit(long rec) {
        int i = (int) (rec & MASK);
        int f = rFlags[i];
        int status = rStatus[i];
        long c = rCycle[i];
        boolean known = (f & F_UNKNOWN) == 0;
        if (lister != null) {
            lister.packet(Packet.ofText(kindName(i), c, 0, describe(i)));
        }
        if ((f & F_TRIGGER) != 0) {
            out.trigger(c);
        }
        if ((f & F_LOST) != 0) {
            out.lost(c, "cycles lost from the capture");
            return;
        }
        if ((f & F_PHANTOM) != 0) {
            // IHI 0014Q 6.1.2: the folded direct branch is first in the execution stream
            out.cycle(c, (f & F_PTAKEN) != 0 ? IE : IN, -1, Isa.A32, false, true);
        }
        if ((f & F_CTX) != 0) {
            out.contextId(c, rCtx[i]);
        }
        if ((f & F_TFO) != 0) {
            if (known && rTarget[i] >= 0) {
                int reason = rReason[i];
                boolean implied = cfg.version() == 2 && reason == 0;
                out.sync(c, reason, rTarget[i], ISAS[rIsa[i]], implied);
            } else {
                out.lost(c, "synchronization packet could not be read");
            }
            return;
        }
        if ((f & F_NOINSN) != 0) {
            return;
        }
        if ((f & F_BRANCH) != 0 || status == BE || status == BD) {
            if (status == ID) {
                // ETMv2: a DE whose packets end with a branch address is an executed branch
                status = (f & F_DATA) != 0 ? BD : BE;
            }
            out.cycle(c, status, known ? rTarget[i] : -1, ISAS[rIsa[i]], (f & F_CANCEL) != 0, known);
        } else {
            // data that could not be read does not matter to the instruction flow, a lost DW branch does
            // (an ETMv2 DE or DW whose packets were not read may have been a branch)
            out.cycle(c, status, -1, Isa.A32, false, known || (status != DW && status != ID));
        }
    }

    /** The kind of record slot {@code i}'s listing line: the PIPESTAT mnemonic, TR for a trigger, APO. */
    private String kindName(int i) {
        if ((rNotes[i] & 2) != 0) {
            return "TR";
        } else if ((rNotes[i] & 4) != 0) {
            return "APO";
        }
        return cfg.version() == 1 ? MNEMONICS[rStatus[i]] : MNEMONICS_V2[rRaw[i] & 15];
    }

    /** One listing line for record slot {@code i}. */
    private String describe(int i) {
        StringBuilder sb = new StringBuilder(64);
        int f = rFlags[i];
        int status = rStatus[i];
        String mn = cfg.version() == 1 ? MNEMONICS[status] : MNEMONICS_V2[rRaw[i] & 15];
        if ((rNotes[i] & 2) != 0) {
            sb.append("TR(").append(mn).append(')');
        } else if ((rNotes[i] & 4) != 0) {
            sb.append("APO");
        } else {
            sb.append(mn);
        }
        sb.append("  pkt=0x").append(String.format(cfg.portWidth() == 16 ? "%04x" : cfg.portWidth() == 8 ? "%02x" : "%x",
                rPkt[i]));
        if (rSync[i]) {
            sb.append(" TRACESYNC");
        }
        if ((f & F_TFO) != 0) {
            sb.append(cfg.version() == 2 ? "  TFO " : "  start address ").append(REASONS[rReason[i] & 7]);
            if ((f & F_UNKNOWN) == 0 && rTarget[i] >= 0) {
                sb.append(String.format(" address 0x%08x %s", rTarget[i], ISAS[rIsa[i]]));
            }
        } else if ((f & F_BRANCH) != 0) {
            int n = rNotes[i] >> 4;
            sb.append("  branch address (").append(n).append(n == 1 ? " byte" : " bytes").append(')');
            if ((f & F_UNKNOWN) == 0) {
                sb.append(String.format(" 0x%08x %s", rTarget[i], ISAS[rIsa[i]]));
            } else {
                sb.append(" not known (no full address since sync)");
            }
            if ((f & F_CANCEL) != 0) {
                sb.append(" E: cancelling exception");
            }
            if (cfg.version() == 1) {
                sb.append(" APO=").append(rApo[i]);
                if ((rNotes[i] >> 4) >= 5) {
                    sb.append(" reason ").append(REASONS[rReason[i] & 7]);
                }
            }
        } else if ((f & F_UNKNOWN) != 0 && (status == BE || status == BD)) {
            sb.append("  branch address lost");
        }
        if ((f & F_DATA) != 0) {
            sb.append("  data");
        }
        if ((f & F_CTX) != 0) {
            sb.append(String.format("  context ID 0x%x", rCtx[i]));
        }
        return sb.toString();
    }

    static String bits(int v, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int k = n - 1; k >= 0; k--) {
            sb.append((v >> k) & 1);
        }
        return sb.toString();
    }
}
