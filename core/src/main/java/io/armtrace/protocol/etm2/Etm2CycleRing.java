package io.armtrace.protocol.etm2;

import io.armtrace.protocol.Packet;
import io.armtrace.protocol.PacketListener;
import io.armtrace.trace.Isa;

/**
 * The cycle ring that the ETMv1 and ETMv2 packet readers share: a trace port capture, cycle by cycle, becomes
 * what each cycle means: its PIPESTAT and the trace packets that the cycle put in the trace FIFO, which
 * appear on TRACEPKT some cycles later.
 *
 * <p>Cycles are held in order until their packets have come out of the FIFO, then released to the
 * {@link Listener} in cycle order, each with its branch address (or sync address, context ID) resolved.
 * The hold is bounded: a cycle that waits too long for its packets is given up as lost. How a cycle's
 * packets are found differs between the two protocol versions: {@link Etm1PacketReader} (IHI 0014Q chapter 5)
 * and {@link Etm2PacketReader} (chapter 6) fill in the records; this class holds them, releases them and
 * lists them.
 *
 * <p>No allocation per cycle: records live in preallocated ring arrays.
 */
public abstract class Etm2CycleRing implements Etm2CycleSink {

    // Canonical statuses, as the listener sees them: ETMv1's own PIPESTAT values (IHI 0014Q Table 5.1),
    // plus DN and DW, which only ETMv2 has. ETMv2 PIPESTAT values are translated to these (see V2_*).
    static final int IE = 0, ID = 1, IN = 2, WT = 3, BE = 4, BD = 5, TR = 6, TD = 7, DN = 10, DW = 11;

    static final Isa[] ISAS = Isa.values();

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

    final Etm2Config cfg;
    final Listener out;
    /** Receives the cycle listing of {@code armtrace packets}: one packet record per cycle, in order. */
    PacketListener<Packet> lister;

    // ---- records: one per cycle, released in order --------------------------------------------------
    static final int RING = 1 << 12;
    static final int MASK = RING - 1;
    /** A record still waiting after this many later cycles is given up. */
    static final int MAX_WAIT = RING - 64;
    final long[] rCycle = new long[RING];
    final byte[] rStatus = new byte[RING];
    /** The PIPESTAT value as captured (after trigger replacement), for the listing. */
    final byte[] rRaw = new byte[RING];
    final int[] rPkt = new int[RING];
    final boolean[] rSync = new boolean[RING];
    /** Record waits for packets (bit 0), has branch (1), resolved (2), cancel (3), TFO (4), unknown (5). */
    final int[] rFlags = new int[RING];
    final long[] rTarget = new long[RING];
    final byte[] rIsa = new byte[RING];
    final int[] rApo = new int[RING];
    final byte[] rReason = new byte[RING];
    final long[] rCtx = new long[RING];
    final int[] rNotes = new int[RING];
    long head; // oldest unreleased record
    long tail; // next record to write
    long cycle;

    static final int F_WAIT = 1, F_BRANCH = 2, F_DONE = 4, F_CANCEL = 8, F_TFO = 16, F_UNKNOWN = 32,
            F_DATA = 64, F_CTX = 128, F_NOINSN = 256, F_APO = 512, F_LOST = 1024, F_TRIGGER = 2048,
            F_PHANTOM = 4096, F_PTAKEN = 8192;

    /** 4-bit port: low nibble of the byte being output, or -1. */
    int nibble = -1;

    Etm2CycleRing(Etm2Config cfg, Listener out) {
        this.cfg = cfg;
        this.out = out;
    }

    /** The reader for {@code cfg}'s protocol version. */
    public static Etm2CycleRing forConfig(Etm2Config cfg, Listener out) {
        return cfg.version() == 1 ? new Etm1PacketReader(cfg, out) : new Etm2PacketReader(cfg, out);
    }

    public void setLister(PacketListener<Packet> lister) {
        this.lister = lister;
    }

    public long cycles() {
        return cycle;
    }

    /** Fills in record {@code rec} (ring slot {@code i}) of a new cycle, as far as this cycle tells. */
    abstract void record(long rec, int i, int pipestat, int tracepkt, boolean tracesync);

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
        record(rec, i, pipestat, tracepkt, tracesync);
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

    /**
     * A 4-bit port carries a byte over two cycles, low nibble first: the byte once both halves are in,
     * else -1.
     */
    int nibbleByte(int pkt) {
        if (nibble < 0) {
            nibble = pkt & 15;
            return -1;
        }
        int b = nibble | (pkt & 15) << 4;
        nibble = -1;
        return b;
    }

    /** Synchronization is lost: whatever the reader was parsing is dropped. */
    void loseSync(String why) {
        nibble = -1;
    }

    void giveUpHead(String why) {
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

    void release() {
        while (head < tail) {
            int i = (int) (head & MASK);
            if ((rFlags[i] & F_DONE) == 0) {
                return;
            }
            emit(head);
            head++;
        }
    }

    void emit(long rec) {
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
    String kindName(int i) {
        if ((rNotes[i] & 2) != 0) {
            return "TR";
        } else if ((rNotes[i] & 4) != 0) {
            return "APO";
        }
        return cfg.version() == 1 ? MNEMONICS[rStatus[i]] : MNEMONICS_V2[rRaw[i] & 15];
    }

    /** One listing line for record slot {@code i}. */
    String describe(int i) {
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
