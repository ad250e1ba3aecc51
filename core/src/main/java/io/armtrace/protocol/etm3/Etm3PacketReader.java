package io.armtrace.protocol.etm3;

import io.armtrace.protocol.PacketListener;
import io.armtrace.protocol.etm3.Etm3Packet.Kind;
import io.armtrace.trace.Isa;

/**
 * Splits an ETMv3 byte stream into packets (IHI 0014Q chapter 7). Streaming: {@link #push} chunks of any
 * size; each complete packet goes to the listener in one reused {@link Etm3Packet}. Nothing is allocated
 * per packet. Until the first A-sync (five or more 0x00 then 0x80) and after any malformed packet, bytes
 * are skipped and reported as one {@link Kind#UNSYNCED} packet.
 */
public final class Etm3PacketReader {

    private static final int NEED_MORE = 1;
    private static final int COMPLETE = 0;
    private static final int BAD = -1;
    /** The longest legal packet: I-sync with cycle count (19 bytes) plus an LSiP address (5). */
    private static final int MAX_PACKET = 32;

    private final Etm3Config config;
    private final PacketListener<Etm3Packet> listener;
    private final Etm3Packet p;
    private final int[] pTable;
    private final boolean alt;
    private final int ctxBytes;
    private final boolean v7m;

    private long position;
    private boolean synced;
    // unsynced scanning
    private long skipStart = -1;
    private long zeroRunStart;
    private int zeroRun;
    // current packet
    private final byte[] buf = new byte[MAX_PACKET];
    private int len;
    private long start;
    private int asyncZeros;
    private String problem;
    /** Length the current packet must reach before its status is worth asking (minimumLength). */
    private int need;

    // decompression state (IHI 0014Q Table 7.5)
    private long address;
    private Isa isa = Isa.A32;
    private boolean ns;
    private boolean hyp;
    private boolean altIsa;
    private long contextId;
    private int vmid;
    private long timestamp;
    private long dataAddress;

    public Etm3PacketReader(Etm3Config config, PacketListener<Etm3Packet> listener) {
        this(config, listener, new Etm3Packet());
    }

    /** A reader whose first pushed byte is at stream offset {@code start} (a split point). */
    public Etm3PacketReader(Etm3Config config, PacketListener<Etm3Packet> listener, long start) {
        this(config, listener, new Etm3Packet());
        this.position = start;
    }

    /** The decompression state between packets: with the flow's state, all that decides what follows. */
    record State(boolean synced, long address, Isa isa, boolean ns, boolean hyp, boolean altIsa, long contextId,
                 int vmid, long timestamp, long dataAddress) {
    }

    State state() {
        return new State(synced, address, isa, ns, hyp, altIsa, contextId, vmid, timestamp, dataAddress);
    }

    private Etm3PacketReader(Etm3Config config, PacketListener<Etm3Packet> listener, Etm3Packet packet) {
        this.config = config;
        this.listener = listener;
        this.p = packet;
        this.pTable = config.cycleAccurate() ? PHEADER_CA : PHEADER_PLAIN;
        this.alt = config.alternativeBranch();
        this.ctxBytes = config.contextIdBytes();
        this.v7m = config.armv7m();
    }

    /** Bytes consumed so far: the offset of the next byte pushed. */
    public long position() {
        return position;
    }

    public void push(byte[] data, int off, int n) {
        final Etm3Packet q = p;
        final int[] table = pTable;
        for (int i = off, e = off + n; i < e; i++) {
            int b = data[i] & 0xFF;
            int v;
            // the table is 0 for every byte that is not a valid P-header
            if ((v = table[b]) != 0 && len == 0 && synced && asyncZeros == 0) {
                // the most frequent packet, a valid one-byte P-header between packets: decoded here so
                // that most bytes take no call but the listener's (same result as accept's P-header path)
                q.offset = position;
                if (q.kind != Kind.P_HEADER) {
                    // a reference store costs a GC write barrier; after a P-header the length is 1 already
                    q.kind = Kind.P_HEADER;
                    q.length = 1;
                }
                q.format = (v >> 28) & 7;
                q.cycles = (v >> 24) & 0xF;
                q.atomCount = (v >> 20) & 0xF;
                q.atomBits = v & 0xFFFF;
                listener.packet(q);
            } else if (synced) {
                accept(b);
            } else {
                scan(b);
            }
            position++;
        }
    }

    /** End of stream: an incomplete packet or skipped bytes are reported. */
    public void end() {
        if (synced && (len > 0 || asyncZeros > 0)) {
            p.kind = Kind.MALFORMED;
            p.offset = start;
            p.length = (int) (position - start);
            p.problem = "trace ends inside a packet";
            listener.packet(p);
            len = 0;
            asyncZeros = 0;
        } else if (!synced) {
            flushSkipped(position);
        }
    }

    // ---------------------------------------------------------------- synchronization

    private void scan(int b) {
        if (b == 0) {
            if (zeroRun == 0) {
                zeroRunStart = position;
            }
            zeroRun++;
            return;
        }
        if (b == 0x80 && zeroRun >= 5) {
            // IHI 0014Q 7.4.1: A-sync is a run of b00000000 headers ended by b10000000
            flushSkipped(zeroRunStart);
            p.kind = Kind.A_SYNC;
            p.offset = zeroRunStart;
            p.length = (int) (position + 1 - zeroRunStart);
            listener.packet(p);
            zeroRun = 0;
            synced = true;
            len = 0;
            asyncZeros = 0;
            return;
        }
        if (skipStart < 0) {
            skipStart = zeroRun > 0 ? zeroRunStart : position;
        }
        zeroRun = 0;
    }

    private void flushSkipped(long upTo) {
        long from = skipStart;
        if (from < 0 && zeroRun > 0 && upTo > zeroRunStart) {
            from = zeroRunStart;
        }
        if (from >= 0 && upTo > from) {
            p.kind = Kind.UNSYNCED;
            p.offset = from;
            p.length = (int) Math.min(Integer.MAX_VALUE, upTo - from);
            listener.packet(p);
        }
        skipStart = -1;
    }

    private void lose(String why) {
        p.kind = Kind.MALFORMED;
        p.offset = start;
        p.length = Math.max(1, (int) (position + 1 - start));
        p.problem = why;
        listener.packet(p);
        synced = false;
        zeroRun = 0;
        skipStart = -1;
        int n = len;
        len = 0;
        asyncZeros = 0;
        // The bytes after the header may hold the start of an A-sync: scan them again.
        long save = position;
        position = start + 1;
        for (int i = 1; i < n; i++) {
            scan(buf[i] & 0xFF);
            if (synced) {
                // an A-sync inside the bad packet: continue with the rest as packets
                position++;
                for (int j = i + 1; j < n; j++) {
                    accept(buf[j] & 0xFF);
                    position++;
                }
                break;
            }
            position++;
        }
        position = save;
    }

    // ---------------------------------------------------------------- packets

    private void accept(int b) {
        if (asyncZeros > 0) {
            if (b == 0) {
                asyncZeros++;
            } else if (b == 0x80 && asyncZeros >= 5) {
                p.kind = Kind.A_SYNC;
                p.offset = start;
                p.length = (int) (position + 1 - start);
                listener.packet(p);
                asyncZeros = 0;
            } else {
                len = 1;
                buf[0] = 0;
                asyncZeros = 0;
                lose("A-sync interrupted");
                if (!synced) {
                    scan(b);
                } else {
                    accept(b);
                }
            }
            return;
        }
        if (len == 0) {
            start = position;
            if (b == 0) {
                asyncZeros = 1;
                return;
            }
            if ((b & 0x81) == 0x80) {
                // P-header: the most frequent packet, one byte
                p.offset = position;
                p.length = 1;
                p.kind = Kind.P_HEADER;
                pHeader(b);
                if (p.kind == Kind.MALFORMED) {
                    synced = false;
                    zeroRun = 0;
                    skipStart = -1;
                }
                listener.packet(p);
                return;
            }
        }
        buf[len++] = (byte) b;
        if (len == 1) {
            need = minimumLength(b);
        }
        if (len < need) {
            return; // status() would say NEED_MORE
        }
        int s = status();
        if (s == COMPLETE) {
            p.offset = start;
            p.length = len;
            decode();
            len = 0;
            if (p.kind == Kind.MALFORMED) {
                synced = false;
                zeroRun = 0;
                skipStart = -1;
                listener.packet(p);
                return;
            }
            listener.packet(p);
        } else if (s == BAD || len >= MAX_PACKET) {
            lose(problem != null ? problem : "packet too long");
        }
    }

    /**
     * Bytes below which status() can only say NEED_MORE, so that it is not asked for each byte of the
     * longest frequent packet, the I-sync: with instruction trace, header, [cycle count, at least one
     * byte], context ID, information byte and 4 address bytes (IHI 0014Q 7.4.4); 1 for the others.
     */
    private int minimumLength(int h) {
        if (!config.instructionTrace()) {
            return 1;
        }
        return switch (h) {
            case 0x08 -> 6 + ctxBytes;
            case 0x70 -> 7 + ctxBytes;
            default -> 1;
        };
    }

    private int u(int i) {
        return buf[i] & 0xFF;
    }

    /** Length rules of each header (IHI 0014Q Table 7.1): is the packet in buf complete? */
    private int status() {
        int h = u(0);
        problem = null;
        if ((h & 1) != 0) {
            return branchStatus(1);
        }
        if ((h & 0x81) == 0x80) {
            return COMPLETE; // P-header
        }
        switch (h) {
            case 0x04: // cycle count
                return continued(1, 5);
            case 0x08:
            case 0x70:
                return iSyncStatus(h == 0x70);
            case 0x0C: case 0x66: case 0x76: case 0x7E:
                return COMPLETE;
            case 0x3C:
                return len >= 2 ? COMPLETE : NEED_MORE;
            case 0x6E:
                return len >= 1 + ctxBytes ? COMPLETE : NEED_MORE;
            case 0x42: case 0x46:
                return continued(1, config.timestamp64() ? 9 : 7);
            case 0x50: case 0x62:
                return dataAllowed() ? COMPLETE : BAD;
            default:
                break;
        }
        if ((h & 0x93) == 0x00) { // out-of-order data b0TT0SS00
            if (!dataAllowed()) {
                return BAD;
            }
            return len >= 1 + size((h >> 2) & 3) ? COMPLETE : NEED_MORE;
        }
        if ((h & 0xD3) == 0x50) { // out-of-order placeholder b01A1TT00
            if (!dataAllowed()) {
                return BAD;
            }
            return (h & 0x20) != 0 && config.dataAddresses() ? dataAddressStatus(1) : COMPLETE;
        }
        if ((h & 0xD3) == 0x02) { // normal data b00A0SS10
            if (!dataAllowed()) {
                return BAD;
            }
            int at = 1;
            if ((h & 0x20) != 0 && config.dataAddresses()) {
                int end = dataAddressEnd(1);
                if (end < 0) {
                    return NEED_MORE;
                }
                at = end;
            }
            return len >= at + size((h >> 2) & 3) ? COMPLETE : NEED_MORE;
        }
        if ((h & 0xEF) == 0x6A) { // value not traced b011A1010
            if (!dataAllowed()) {
                return BAD;
            }
            return (h & 0x10) != 0 && config.dataAddresses() ? dataAddressStatus(1) : COMPLETE;
        }
        problem = String.format("reserved header 0x%02X", h);
        return BAD;
    }

    private boolean dataAllowed() {
        if (!config.dataTrace()) {
            problem = String.format("data trace header 0x%02X but data tracing is off (ETMCR)", u(0));
            return false;
        }
        return true;
    }

    private static int size(int ss) {
        return ss == 3 ? 4 : ss;
    }

    /** Bytes from {@code from} with bit 7 as continuation, at most {@code max} of them. */
    private int continued(int from, int max) {
        for (int i = from; i < len; i++) {
            if ((u(i) & 0x80) == 0 || i - from + 1 >= max) {
                return i == len - 1 ? COMPLETE : BAD;
            }
        }
        return NEED_MORE;
    }

    /** End index (exclusive) of a data address starting at {@code from}, or -1 if incomplete. */
    private int dataAddressEnd(int from) {
        for (int i = from; i < len; i++) {
            if ((u(i) & 0x80) == 0 || i - from + 1 >= 5) {
                return i + 1;
            }
        }
        return -1;
    }

    private int dataAddressStatus(int from) {
        int e = dataAddressEnd(from);
        return e < 0 ? NEED_MORE : (e == len ? COMPLETE : BAD);
    }

    /** Branch packet rules, original and alternative encodings (IHI 0014Q 7.3.5, Table 7.8). */
    private int branchStatus(int from) {
        int n = 0; // address bytes seen
        int i = from - 1;
        boolean excp = false;
        while (true) {
            if (i >= len) {
                return NEED_MORE;
            }
            int b = u(i);
            n++;
            if (n == 5) {
                if ((b & 0x80) != 0) {
                    return i == len - 1 ? COMPLETE : BAD; // deprecated byte-5 exception, last byte
                }
                excp = (b & 0x40) != 0;
                i++;
                break;
            }
            if ((b & 0x80) == 0) {
                if (n > 1 && alt && (b & 0x40) != 0) {
                    excp = true;
                    i++;
                    break;
                }
                return i == len - 1 ? COMPLETE : BAD;
            }
            i++;
        }
        if (!excp) {
            return i == len ? COMPLETE : (i < len ? BAD : NEED_MORE);
        }
        // Exception Information Bytes: byte 0, then byte 1 and/or byte 2 (Figure 7.25)
        if (i >= len) {
            return NEED_MORE;
        }
        int e0 = u(i++);
        if ((e0 & 0x80) == 0) {
            return i == len ? COMPLETE : BAD;
        }
        if (i >= len) {
            return NEED_MORE;
        }
        int e1 = u(i++);
        if ((e1 & 0x40) != 0 || (e1 & 0x80) == 0) {
            return i == len ? COMPLETE : BAD; // byte 2 (bit 6 set) or byte 1 as last
        }
        if (i >= len) {
            return NEED_MORE;
        }
        return i == len - 1 ? COMPLETE : BAD; // byte 2
    }

    private int iSyncStatus(boolean withCc) {
        int i = 1;
        if (withCc) {
            int k = 0;
            while (true) {
                if (i >= len) {
                    return NEED_MORE;
                }
                k++;
                if ((u(i++) & 0x80) == 0 || k >= 5) {
                    break;
                }
            }
        }
        i += ctxBytes;
        if (i >= len) {
            return NEED_MORE;
        }
        int info = u(i++);
        if (!config.instructionTrace()) {
            return i == len ? COMPLETE : BAD;
        }
        i += 4;
        if (i > len) {
            return NEED_MORE;
        }
        if ((info & 0x80) == 0) {
            return i == len ? COMPLETE : BAD;
        }
        // LSiP: a branch-address-format address follows (IHI 0014Q 7.4.4)
        for (int k = 0; ; k++) {
            if (i >= len) {
                return NEED_MORE;
            }
            int b = u(i++);
            if ((b & 0x80) == 0 || k >= 4) {
                return i == len ? COMPLETE : BAD;
            }
        }
    }

    // ---------------------------------------------------------------- decoding complete packets

    private void decode() {
        int h = u(0);
        Etm3Packet q = p;
        if ((h & 1) != 0) {
            q.kind = Kind.BRANCH;
            branch(0, true);
            return;
        }
        if ((h & 0x81) == 0x80) {
            q.kind = Kind.P_HEADER;
            pHeader(h);
            return;
        }
        switch (h) {
            case 0x04 -> {
                q.kind = Kind.CYCLE_COUNT;
                q.cycleCount = cycleCount(1);
            }
            case 0x08, 0x70 -> iSync(h == 0x70);
            case 0x0C -> q.kind = Kind.TRIGGER;
            case 0x66 -> q.kind = Kind.IGNORE;
            case 0x76 -> q.kind = Kind.EXCEPTION_EXIT;
            case 0x7E -> q.kind = Kind.EXCEPTION_ENTRY;
            case 0x50 -> q.kind = Kind.STORE_FAILED;
            case 0x62 -> q.kind = Kind.DATA_SUPPRESSED;
            case 0x3C -> {
                q.kind = Kind.VMID;
                vmid = u(1);
                q.vmid = vmid;
            }
            case 0x6E -> {
                q.kind = Kind.CONTEXT_ID;
                contextId = le(1, ctxBytes);
                q.contextId = contextId;
            }
            case 0x42, 0x46 -> {
                q.kind = Kind.TIMESTAMP;
                q.timestampReason = (h & 4) != 0;
                timestamp();
            }
            default -> data(h);
        }
    }

    private long le(int from, int n) {
        long v = 0;
        for (int k = 0; k < n; k++) {
            v |= (long) u(from + k) << (8 * k);
        }
        return v;
    }

    /** Cycle count: 7 bits per byte, bit 7 continues, at most 5 bytes (IHI 0014Q 7.3.3). Returns end index in cursor. */
    private int cursor;

    private long cycleCount(int from) {
        long v = 0;
        int i = from;
        for (int k = 0; k < 5; k++) {
            int b = u(i++);
            v |= (long) (b & (k == 4 ? 0x0F : 0x7F)) << (7 * k);
            if ((b & 0x80) == 0) {
                break;
            }
        }
        cursor = i;
        return v;
    }

    /** Timestamp: 7 bits per byte; the last possible byte holds 8 (64-bit) or 6 (48-bit) bits (IHI 0014Q 7.3.11). */
    private void timestamp() {
        boolean t64 = config.timestamp64();
        int max = t64 ? 9 : 7;
        long v = 0;
        int bits = 0;
        for (int k = 0; k < max && 1 + k < len; k++) {
            int b = u(1 + k);
            boolean last = k == max - 1;
            int w = last ? (t64 ? 8 : 6) : 7;
            v |= (long) (b & ((1 << w) - 1)) << (7 * k);
            bits += w;
            if ((b & 0x80) == 0 || last) {
                break;
            }
        }
        long mask = bits >= 64 ? -1L : (1L << bits) - 1;
        timestamp = (timestamp & ~mask) | (v & mask);
        p.timestamp = timestamp;
    }

    /**
     * P-header meanings for every header byte, non-cycle-accurate and cycle-accurate: bit 31 valid,
     * [30:28] format, [27:24] cycles, [23:20] atom count, [15:0] atom bits.
     */
    private static final int[] PHEADER_PLAIN = new int[256];
    private static final int[] PHEADER_CA = new int[256];

    static {
        Etm3Packet q = new Etm3Packet();
        for (boolean ca : new boolean[] {false, true}) {
            Etm3PacketReader r = new Etm3PacketReader(new Etm3Config(ca ? Etm3Config.CR_CYCLE_ACCURATE : 0,
                    Etm3Config.DEFAULT_ETMIDR, 0, 0, false), x -> { }, q);
            for (int h = 0x80; h < 0x100; h += 2) {
                q.kind = Kind.P_HEADER;
                r.decodePHeader(h);
                (ca ? PHEADER_CA : PHEADER_PLAIN)[h] = q.kind != Kind.P_HEADER ? 0
                        : 1 << 31 | q.format << 28 | q.cycles << 24 | q.atomCount << 20 | q.atomBits;
            }
        }
    }

    private void pHeader(int h) {
        int v = pTable[h];
        if (v == 0) {
            malformed(String.format(config.cycleAccurate() ? "reserved cycle-accurate P-header 0x%02X"
                    : "reserved P-header 0x%02X", h));
            return;
        }
        Etm3Packet q = p;
        q.format = (v >> 28) & 7;
        q.cycles = (v >> 24) & 0xF;
        q.atomCount = (v >> 20) & 0xF;
        q.atomBits = v & 0xFFFF;
    }

    private void decodePHeader(int h) {
        Etm3Packet q = p;
        q.atomCount = 0;
        q.atomBits = 0;
        q.cycles = 0;
        if (!config.cycleAccurate()) {
            // IHI 0014Q Table 7.2
            if ((h & 3) == 0) {
                int e = (h >> 2) & 0xF;
                int n = (h >> 6) & 1;
                q.format = 1;
                q.atomCount = e + n;
                q.atomBits = (1 << e) - 1;
            } else if ((h & 0xF3) == 0x82) {
                q.format = 2;
                q.atomCount = 2;
                q.atomBits = ((h & 8) == 0 ? 1 : 0) | ((h & 4) == 0 ? 2 : 0);
            } else {
                malformed(String.format("reserved P-header 0x%02X", h));
            }
            return;
        }
        // IHI 0014Q Table 7.3, cycle-accurate formats
        if (h == 0x80) {
            q.format = 0;
            q.cycles = 1;
        } else if ((h & 0xA3) == 0x80) { // format 1: b1N0EEE00, each atom with a W
            int e = (h >> 2) & 7;
            int n = (h >> 6) & 1;
            q.format = 1;
            q.atomCount = e + n;
            q.atomBits = (1 << e) - 1;
            q.cycles = e + n;
        } else if ((h & 0xF3) == 0x82) { // format 2: b1000FF10, W then two atoms
            q.format = 2;
            q.atomCount = 2;
            q.atomBits = ((h & 8) == 0 ? 1 : 0) | ((h & 4) == 0 ? 2 : 0);
            q.cycles = 1;
        } else if ((h & 0xA3) == 0xA0) { // format 3: b1E1WWW00, 1-8 W then 0-1 E
            q.format = 3;
            q.cycles = ((h >> 2) & 7) + 1;
            if ((h & 0x40) != 0) {
                q.atomCount = 1;
                q.atomBits = 1;
            }
        } else if ((h & 0xB3) == 0x92) { // format 4: b1001xF10, one atom without a W
            q.format = 4;
            q.atomCount = 1;
            q.atomBits = (h & 4) == 0 ? 1 : 0;
        } else {
            malformed(String.format("reserved cycle-accurate P-header 0x%02X", h));
        }
    }

    private void malformed(String why) {
        p.kind = Kind.MALFORMED;
        p.problem = why;
    }

    /**
     * Decodes a branch address starting at {@code from} (the header for a branch packet, the first
     * follow-up byte of an LSiP I-sync), against the current address and ISA; {@code exceptionBytes}: whether
     * Exception Information bytes may follow the address in this packet.
     */
    private void branch(int from, boolean exceptionBytes) {
        Etm3Packet q = p;
        int i = from;
        long value = 0;
        int bits = 0;
        boolean more = true;
        boolean excp = false;
        int n = 0;
        while (more && n < 4) {
            int b = u(i++);
            more = (b & 0x80) != 0;
            if (n == 0) {
                value = (b >> 1) & 0x3F;
                bits = 6;
            } else if (alt && !more) {
                excp = (b & 0x40) != 0; // Table 7.8: b01 = exception information follows
                value |= (long) (b & 0x3F) << bits;
                bits += 6;
            } else {
                value |= (long) (b & 0x7F) << bits;
                bits += 7;
            }
            n++;
        }
        q.isaGiven = false;
        q.exceptionInfo = false;
        q.deprecatedException = false;
        q.exception = 0;
        q.cancel = false;
        q.resume = 0;
        Isa newIsa = isa;
        if (more) {
            // Address byte 5, Table 7.6
            int b5 = u(i++);
            q.isaGiven = true;
            int top;
            if ((b5 & 0x80) != 0) {
                // deprecated: exception in ARM state, EEE in bits [5:3], bit 6 = cancel (Table 7.7)
                newIsa = Isa.A32;
                top = b5 & 7;
                q.deprecatedException = true;
                q.exceptionInfo = true;
                q.exception = ((b5 >> 3) & 7) + 16;
                q.cancel = (b5 & 0x40) != 0;
            } else {
                excp = (b5 & 0x40) != 0;
                if ((b5 & 0x20) != 0) {
                    newIsa = Isa.JAZELLE;
                    top = b5 & 0x1F;
                } else if ((b5 & 0x10) != 0) {
                    newIsa = Isa.T32;
                    top = b5 & 0xF;
                } else if ((b5 & 0x08) != 0) {
                    newIsa = Isa.A32;
                    top = b5 & 7;
                } else {
                    malformed("reserved branch address byte 5");
                    return;
                }
            }
            int topBits = newIsa == Isa.JAZELLE ? 5 : newIsa == Isa.A32 ? 3 : 4;
            value |= (long) top << bits;
            bits += topBits;
        }
        if (excp && exceptionBytes) {
            exceptionBytes(i);
        }
        if (newIsa == Isa.T32 || newIsa == Isa.THUMB_EE) {
            // Thumb alignment: AltISA selects ThumbEE; when not traced it keeps its last value (Table 7.5, 7.13)
            newIsa = altIsa ? Isa.THUMB_EE : Isa.T32;
        }
        int shift = switch (newIsa) {
            case A32, A64 -> 2; // A64 never comes out of an ETMv3 address (kept total for the switch)
            case T32, THUMB_EE -> 1;
            case JAZELLE -> 0;
        };
        bits += shift;
        value <<= shift;
        long mask = bits >= 32 ? 0xFFFFFFFFL : (1L << bits) - 1;
        address = ((address & ~mask) | (value & mask)) & 0xFFFFFFFFL;
        if (q.isaGiven) {
            address &= ~((long) newIsa.alignment() - 1);
        }
        isa = newIsa;
        q.address = address;
        q.addressBits = bits;
        q.isa = isa;
        q.ns = ns;
        q.hyp = hyp;
        q.altIsa = altIsa;
    }

    /** Exception Information Bytes 0-2 (IHI 0014Q Figure 7.25, Table 7.9). */
    private void exceptionBytes(int i) {
        Etm3Packet q = p;
        int e0 = u(i++);
        q.exceptionInfo = true;
        ns = (e0 & 1) != 0;
        int excp = (e0 >> 1) & 0xF;
        q.cancel = (e0 & 0x20) != 0;
        altIsa = (e0 & 0x40) != 0;
        int resume = 0;
        if ((e0 & 0x80) != 0) {
            int e = u(i++);
            boolean byte2 = (e & 0x40) != 0;
            if (!byte2) {
                excp |= (e & 0x1F) << 4;
                hyp = (e & 0x20) != 0;
                if ((e & 0x80) != 0) {
                    e = u(i++);
                    byte2 = true;
                }
            }
            if (byte2) {
                resume = e & 0xF;
            }
        }
        q.exception = excp;
        q.resume = resume;
    }

    private void iSync(boolean withCc) {
        Etm3Packet q = p;
        q.kind = Kind.I_SYNC;
        int i = 1;
        q.hasCycleCount = withCc;
        if (withCc) {
            q.cycleCount = cycleCount(1);
            i = cursor;
        }
        if (ctxBytes > 0) {
            contextId = le(i, ctxBytes);
            i += ctxBytes;
        }
        q.contextId = contextId;
        int info = u(i++);
        // IHI 0014Q 7.4.4, I-sync information byte: [7] LSiP, [6:5] reason, [4] J, [3] NS, [2] AltISA, [1] Hyp
        q.lsip = (info & 0x80) != 0;
        q.reason = (info >> 5) & 3;
        q.jazelle = (info & 0x10) != 0;
        ns = (info & 8) != 0;
        altIsa = config.minorVersion() >= 3 && (info & 4) != 0;
        hyp = (info & 2) != 0;
        q.ns = ns;
        q.hyp = hyp;
        q.altIsa = altIsa;
        q.hasAddress = config.instructionTrace();
        if (!q.hasAddress) {
            return;
        }
        long a = le(i, 4);
        i += 4;
        if (q.jazelle) {
            isa = Isa.JAZELLE;
            address = a;
        } else if ((a & 1) != 0) {
            isa = altIsa ? Isa.THUMB_EE : Isa.T32;
            address = a & ~1L;
        } else {
            isa = Isa.A32;
            address = a & ~3L;
        }
        if (q.lsip) {
            q.lsipInstruction = address;
            // the address of the next instruction, compressed against the I-sync address: its bytes end at the first
            // without a continuation bit, at most five (the length rule above), so no Exception Information bytes
            // follow it even when its last byte says so; they are not read from past the packet
            branch(i, false);
        }
        q.address = address;
        q.isa = isa;
        q.addressBits = 32;
    }

    private void data(int h) {
        Etm3Packet q = p;
        q.dataAddressGiven = false;
        q.dataSize = 0;
        q.dataValue = 0;
        int i = 1;
        boolean addr;
        if ((h & 0x93) == 0x00) {
            q.kind = Kind.OUT_OF_ORDER_DATA;
            q.tag = (h >> 5) & 3;
            q.dataSize = size((h >> 2) & 3);
            addr = false;
        } else if ((h & 0xD3) == 0x50) {
            q.kind = Kind.OUT_OF_ORDER_PLACEHOLDER;
            q.tag = (h >> 2) & 3;
            addr = (h & 0x20) != 0;
        } else if ((h & 0xD3) == 0x02) {
            q.kind = Kind.NORMAL_DATA;
            q.dataSize = size((h >> 2) & 3);
            addr = (h & 0x20) != 0;
        } else {
            q.kind = Kind.VALUE_NOT_TRACED;
            addr = (h & 0x10) != 0;
        }
        if (addr && config.dataAddresses()) {
            long v = 0;
            int bits = 0;
            for (int k = 0; k < 5; k++) {
                int b = u(i++);
                int w = k == 4 ? 4 : 7;
                v |= (long) (b & ((1 << w) - 1)) << (7 * k);
                bits += w;
                if ((b & 0x80) == 0 || k == 4) {
                    break;
                }
            }
            long mask = bits >= 32 ? 0xFFFFFFFFL : (1L << bits) - 1;
            dataAddress = (dataAddress & ~mask) | (v & mask);
            q.dataAddressGiven = true;
            q.dataAddress = dataAddress;
        }
        q.dataValue = le(i, q.dataSize);
    }
}
