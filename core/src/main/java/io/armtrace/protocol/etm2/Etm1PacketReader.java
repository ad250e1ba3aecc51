package io.armtrace.protocol.etm2;

import io.armtrace.trace.Isa;

/**
 * The ETMv1 packet reader (IHI 0014Q chapter 5): data packets have no headers, so branch addresses are found
 * by TRACESYNC, which marks the first packet of each address, and matched to their BE/BD cycles by the
 * address packet offset (APO) output on PIPESTAT[1:0] in the two cycles after the branch (5.6.1). Cycles
 * wait in the {@link Etm2CycleRing} until their addresses are read.
 */
public final class Etm1PacketReader extends Etm2CycleRing {
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

    public Etm1PacketReader(Etm2Config cfg, Listener out) {
        super(cfg, out);
        if (cfg.version() != 1) {
            throw new IllegalArgumentException("an ETMv1 reader for an ETMv" + cfg.version() + " configuration");
        }
    }

    @Override
    void record(long rec, int i, int pipestat, int tracepkt, boolean tracesync) {
        cycleV1(rec, i, pipestat & 7, tracepkt, tracesync);
    }

    @Override
    void loseSync(String why) {
        super.loseSync(why);
        v1Reading = false;
        v1PrevKnown = false;
        sHead = sTail;
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

}
