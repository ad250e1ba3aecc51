package io.armtrace.protocol.etm2;

import io.armtrace.trace.Isa;

/**
 * The ETMv2 packet reader (IHI 0014Q chapter 6): every packet header but a branch address carries a C bit,
 * so the reader parses the FIFO bytes in order and knows which cycle each belongs to. Synchronization is by
 * trace FIFO offsets (TFO): a TD cycle with TRACEPKT[0] set gives the number of FIFO bytes before the TFO
 * packet. Cycles wait in the {@link Etm2CycleRing} until their packets are read.
 */
public final class Etm2PacketReader extends Etm2CycleRing {
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

    public Etm2PacketReader(Etm2Config cfg, Listener out) {
        super(cfg, out);
        if (cfg.version() != 2) {
            throw new IllegalArgumentException("an ETMv2 reader for an ETMv" + cfg.version() + " configuration");
        }
    }

    @Override
    void record(long rec, int i, int pipestat, int tracepkt, boolean tracesync) {
        cycleV2(rec, i, pipestat & 15, tracepkt);
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

    @Override
    void loseSync(String why) {
        super.loseSync(why);
        // every record still waiting for packets is unresolved
        for (long r = pushHead; r < pushTail; r++) {
            int i = (int) (pushQ[(int) (r & MASK)] & MASK);
            rFlags[i] = (rFlags[i] & ~F_WAIT) | F_DONE | F_UNKNOWN;
        }
        pushHead = pushTail;
        pState = P_START;
        skip = -1;
        tfoLowBits = -1;
        synced = false;
        lastPackedValid = false;
    }

}
