package io.armtrace.protocol.etm4;

import io.armtrace.protocol.etm4.Etm4Packet.Kind;

/**
 * Splits an ETMv4 or ETE instruction trace byte stream into packets (IHI 0064's packet descriptions; the ETE
 * specification's packet chapter for ETE's additions). Streaming: {@link #push} chunks of any size, then
 * {@link #end}. One {@link Etm4Packet} is reused for every packet; nothing is allocated per packet.
 *
 * <p>Synchronization (IHI 0064, A-sync packet): until the first A-sync (eleven 0x00 bytes and 0x80) the bytes cannot
 * be parsed and are reported as one NOT_SYNC packet. A reserved header or a packet that breaks its format
 * is reported (RESERVED, BAD_SEQUENCE) and the reader looks for the next A-sync, reporting the bytes in
 * between as NOT_SYNC: after an error the packet boundaries are unknown, and only an A-sync re-establishes
 * them. A packet cut by the end of the trace is reported as INCOMPLETE.
 *
 * <p>Decompression state (address history, context, timestamp, cycle count threshold) is kept here, so
 * that every packet carries full values.
 */
public final class Etm4PacketReader {
    /** Longer than any packet: an address with context and 64-bit address is 18 bytes, a trace info 32 at most. */
    private static final int MAX_PACKET = 64;
    /** A continuation field of a 32-bit value: at most 5 bytes of 7 bits (IHI 0064, continuation fields). */
    private static final int FIELD_BYTES = 5;
    /** A cycle count field: at most 3 bytes (20-bit counter, IHI 0064, Cycle Count Format 1 packet). */
    private static final int COUNT_BYTES = 3;

    // Header classes (IHI 0064's table of header encodings; ETE adds 0x09-0x0B, 0x88, 0xB0-0xB9)
    private static final byte RESERVED = 0;
    private static final byte RESERVED_CFG = 1;
    private static final byte EXTENSION = 2;
    private static final byte TRACE_INFO = 3;
    private static final byte TIMESTAMP = 4;
    private static final byte TRACE_ON = 5;
    private static final byte FUNC_RET = 6;
    private static final byte EXCEPTION = 7;
    private static final byte EXC_RETURN = 8;
    private static final byte TRANS_START = 9;
    private static final byte TRANS_COMMIT = 10;
    private static final byte ITE = 11;
    private static final byte CC_F1 = 12;
    private static final byte CC_F2 = 13;
    private static final byte CC_F3 = 14;
    private static final byte NDSM = 15;
    private static final byte UDSM = 16;
    private static final byte COMMIT = 17;
    private static final byte CANCEL_F1 = 18;
    private static final byte MISPREDICT = 19;
    private static final byte CANCEL_F2 = 20;
    private static final byte CANCEL_F3 = 21;
    private static final byte COND_I_F1 = 22;
    private static final byte COND_I_F2 = 23;
    private static final byte COND_I_F3 = 24;
    private static final byte COND_FLUSH = 25;
    private static final byte COND_R_F1 = 26;
    private static final byte COND_R_F2 = 27;
    private static final byte COND_R_F3 = 28;
    private static final byte COND_R_F4 = 29;
    private static final byte IGNORE = 30;
    private static final byte EVENT = 31;
    private static final byte CONTEXT = 32;
    private static final byte ADDR_CTXT = 33;
    private static final byte TS_MARKER = 34;
    private static final byte EXACT = 35;
    private static final byte SHORT = 36;
    private static final byte LONG = 37;
    private static final byte Q = 38;
    private static final byte SRC_EXACT = 39;
    private static final byte SRC_SHORT = 40;
    private static final byte SRC_LONG = 41;
    private static final byte ATOM = 42;

    private static final String RESERVED_HEADER = "reserved header";
    private static final String RESERVED_IN_CONFIG = "header reserved in this configuration";
    private static final String BAD_ASYNC = "malformed A-sync";
    private static final String BAD_EXTENSION = "unknown extension packet";
    private static final String FIELD_TOO_LONG = "continuation field too long";
    private static final String CUT_SHORT = "trace ended inside a packet";

    private final Etm4Config config;
    private final Etm4PacketListener out;
    private final Etm4Packet pkt = new Etm4Packet();
    private final byte[] cls = new byte[256];
    private final int vmidBytes;
    private final int cidBytes;
    private final boolean commitMode1;
    private final long maxSpec;
    private final long ccMask;
    private final boolean eteExceptions;

    /** Stream offset just past the bytes pushed so far; stream offset of index 0 of the array being read. */
    private long base;
    private long chunkAt;
    private boolean synced;
    /** Unsynchronized stretch: where it began (-1 none), its first bytes, and the current run of 0x00. */
    private long unsyncStart = -1;
    private final byte[] unsyncHead = new byte[Etm4Packet.MAX_BYTES];
    private int unsyncHeadLen;
    private int zeros;
    /** Bytes of a packet cut by the end of a chunk. */
    private final byte[] carry = new byte[MAX_PACKET];
    private int carryLen;
    private long carryStart;
    /** Length of the bad sequence {@link #length} found, and what was wrong. */
    private int badLength;
    private String badProblem;

    // Decompression state
    /**
     * Address history (IHI 0064, address packets and the address history): {@code hist0} is the most recent address.
     * Each entry is the address with its instruction set in bit 0, which no instruction address uses (IS0 addresses
     * are multiples of four, IS1 addresses of two): three fields rather than two arrays, because an address packet
     * moves the whole history and this is half the loads and stores of the packet loop's address paths.
     */
    private long hist0;
    private long hist1;
    private long hist2;
    private int el;
    private boolean nonSecure;
    private boolean aarch64;
    /** A context packet has said what the context is (since the start of the trace). */
    private boolean contextKnown;
    private boolean nse;
    private long vmid;
    private long contextId;
    private long timestamp;
    private long ccThreshold;

    /**
     * The reader's whole state as a value (for {@code ChunkedDecode}'s seam search): two readers in equal
     * states read the bytes that follow alike.
     */
    Object syncState() {
        return java.util.List.of(synced, unsyncStart, unsyncStart < 0 ? 0 : unsyncHeadLen, zeros, carryLen, hist0, hist1, hist2, el, nonSecure, aarch64, contextKnown, nse, vmid, contextId,
                timestamp, ccThreshold);
    }

    public Etm4PacketReader(Etm4Config config, Etm4PacketListener out) {
        this(config, out, 0);
    }

    /** A reader whose first pushed byte is at stream offset {@code start}. */
    public Etm4PacketReader(Etm4Config config, Etm4PacketListener out, long start) {
        this.config = config;
        this.out = out;
        this.base = start;
        this.vmidBytes = config.vmidBytes();
        this.cidBytes = config.contextIdBytes();
        this.commitMode1 = config.commitMode1();
        this.maxSpec = config.maxSpeculation();
        this.ccMask = (1L << config.cycleCounterBits()) - 1;
        this.eteExceptions = config.ete() && !config.isMProfile();
        buildHeaderTable();
    }

    public Etm4Config config() {
        return config;
    }

    /** Stream offset just past the bytes pushed so far. */
    public long position() {
        return base;
    }

    // --- header table ---------------------------------------------------------------------------

    private void buildHeaderTable() {
        Etm4Config c = config;
        boolean ete = c.ete();
        set(0x00, EXTENSION);
        set(0x01, TRACE_INFO);
        set(0x02, TIMESTAMP);
        set(0x03, TIMESTAMP);
        set(0x04, TRACE_ON);
        set(0x05, c.functionReturnPacket() ? FUNC_RET : RESERVED_CFG);
        set(0x06, EXCEPTION);
        // ETE has no exception return packet: the ERET instruction is a P0 instruction instead
        set(0x07, ete ? RESERVED_CFG : EXC_RETURN);
        set(0x09, c.instrumentationPacket() ? ITE : RESERVED);
        set(0x0A, ete ? TRANS_START : RESERVED);
        set(0x0B, ete ? TRANS_COMMIT : RESERVED);
        set(0x0C, CC_F2);
        set(0x0D, CC_F2);
        set(0x0E, CC_F1);
        set(0x0F, CC_F1);
        for (int h = 0x10; h <= 0x1F; h++) {
            set(h, CC_F3);
        }
        boolean data = c.dataTracing();
        for (int h = 0x20; h <= 0x27; h++) {
            set(h, data ? NDSM : RESERVED_CFG);
        }
        for (int h = 0x28; h <= 0x2C; h++) {
            set(h, data ? UDSM : RESERVED_CFG);
        }
        set(0x2D, COMMIT);
        set(0x2E, CANCEL_F1);
        set(0x2F, CANCEL_F1);
        for (int h = 0x30; h <= 0x33; h++) {
            set(h, MISPREDICT);
        }
        for (int h = 0x34; h <= 0x37; h++) {
            set(h, CANCEL_F2);
        }
        for (int h = 0x38; h <= 0x3F; h++) {
            set(h, CANCEL_F3);
        }
        boolean cond = c.conditionalPackets();
        byte rc = ete ? RESERVED : RESERVED_CFG;
        for (int h = 0x40; h <= 0x42; h++) {
            set(h, cond ? COND_I_F2 : rc);
        }
        set(0x43, cond ? COND_FLUSH : rc);
        for (int h = 0x44; h <= 0x46; h++) {
            set(h, cond ? COND_R_F4 : rc);
        }
        for (int h : new int[] {0x48, 0x49, 0x4A, 0x4C, 0x4D, 0x4E}) {
            set(h, cond ? COND_R_F2 : rc);
        }
        for (int h = 0x50; h <= 0x5F; h++) {
            set(h, cond ? COND_R_F3 : rc);
        }
        for (int h : new int[] {0x68, 0x69, 0x6A, 0x6B, 0x6E, 0x6F}) {
            set(h, cond ? COND_R_F1 : rc);
        }
        set(0x6C, cond ? COND_I_F1 : rc);
        set(0x6D, cond ? COND_I_F3 : rc);
        set(0x70, c.ignorePacket() ? IGNORE : RESERVED);
        for (int h = 0x71; h <= 0x7F; h++) {
            set(h, EVENT);
        }
        set(0x80, CONTEXT);
        set(0x81, CONTEXT);
        for (int h : new int[] {0x82, 0x83, 0x85, 0x86}) {
            set(h, ADDR_CTXT);
        }
        set(0x88, c.timestampMarkers() ? TS_MARKER : RESERVED);
        for (int h = 0x90; h <= 0x92; h++) {
            set(h, EXACT);
        }
        set(0x95, SHORT);
        set(0x96, SHORT);
        for (int h : new int[] {0x9A, 0x9B, 0x9D, 0x9E}) {
            set(h, LONG);
        }
        for (int t : new int[] {0x0, 0x1, 0x2, 0x5, 0x6, 0xA, 0xB, 0xC, 0xF}) {
            set(0xA0 + t, c.qPackets() ? Q : RESERVED_CFG);
        }
        if (ete) {
            for (int h = 0xB0; h <= 0xB2; h++) {
                set(h, SRC_EXACT);
            }
            set(0xB4, SRC_SHORT);
            set(0xB5, SRC_SHORT);
            for (int h = 0xB6; h <= 0xB9; h++) {
                set(h, SRC_LONG);
            }
        }
        for (int h = 0xC0; h <= 0xFF; h++) {
            set(h, ATOM);
        }
    }

    private void set(int header, byte c) {
        cls[header] = c;
    }

    // --- atoms ----------------------------------------------------------------------------------

    /** Atom headers 0xC0-0xFF (IHI 0064, Atom packets): kind ordinal << 8 | count, and the E/N bits (bit 0 oldest, 1 = E). */
    private static final int[] ATOM_KIND_COUNT = new int[256];
    private static final int[] ATOM_BITS = new int[256];

    static {
        for (int h = 0xC0; h <= 0xFF; h++) {
            Kind k;
            int count;
            int bits;
            if (h >= 0xF8) { // format 3: b11111xxx
                k = Kind.ATOM_F3;
                count = 3;
                bits = h & 7;
            } else if (h >= 0xF6) { // format 1: b1111011x
                k = Kind.ATOM_F1;
                count = 1;
                bits = h & 1;
            } else if (h == 0xF5 || (h >= 0xD5 && h <= 0xD7)) { // format 5
                k = Kind.ATOM_F5;
                count = 5;
                int idx = (h & 0x20) >> 3 | (h & 3);
                bits = switch (idx) {
                    case 5 -> 0x1E; // NEEEE
                    case 2 -> 0x0A; // NENEN
                    case 3 -> 0x15; // ENENE
                    default -> 0x00; // NNNNN
                };
            } else if (h >= 0xD8 && h <= 0xDB) { // format 2: b110110xx
                k = Kind.ATOM_F2;
                count = 2;
                bits = h & 3;
            } else if (h >= 0xDC && h <= 0xDF) { // format 4: b110111xx
                k = Kind.ATOM_F4;
                count = 4;
                bits = new int[] {0xE, 0x0, 0xA, 0x5}[h & 3];
            } else { // format 6: b11x0xxxx up to 0xD4/0xF4: (count+3) E atoms, then one E (bit 5 clear) or N
                k = Kind.ATOM_F6;
                int es = (h & 0x1F) + 3;
                count = es + 1;
                bits = (1 << es) - 1 | ((h & 0x20) == 0 ? 1 << es : 0);
            }
            ATOM_KIND_COUNT[h] = k.ordinal() << 8 | count;
            ATOM_BITS[h] = bits;
        }
    }

    /** The kind of the atom packet with this header (0xC0-0xFF), as {@link Etm4Packet}'s kind index. */
    static byte atomKindIndex(int header) {
        return (byte) (ATOM_KIND_COUNT[header] >> 8);
    }

    // --- input ----------------------------------------------------------------------------------

    public void push(byte[] b, int off, int len) {
        feed(b, off, off + len, base);
        base += len;
    }

    /** Reads b[pos..end), whose first byte is at stream offset {@code start}. */
    private void feed(byte[] b, int pos, int end, long start) {
        long saved = chunkAt;
        chunkAt = start - pos;
        while (pos < end) {
            if (!synced) {
                pos = scanForSync(b, pos, end);
            } else if (carryLen > 0) {
                pos = continueCarried(b, pos, end);
            } else {
                pos = packets(b, pos, end);
            }
        }
        chunkAt = saved;
    }

    /** End of trace: a packet cut short, and any bytes that never synchronized. */
    public void end() {
        if (carryLen > 0) {
            begin(Kind.INCOMPLETE, carryStart, carryLen, carry, 0);
            pkt.problem = CUT_SHORT;
            out.packet(pkt);
            carryLen = 0;
        }
        if (!synced && unsyncStart >= 0 && base > unsyncStart) {
            emitNotSync(base);
        }
        unsyncStart = -1;
        zeros = 0;
    }

    private long offsetOf(int pos) {
        return chunkAt + pos;
    }

    /**
     * Reads packets from b[pos..end) while synchronized; returns where it stopped: at end, after a packet cut
     * by the chunk's end (carried), or after an error (sync lost).
     */
    private int packets(byte[] b, int pos, int end) {
        final long at = chunkAt;
        final Etm4Packet k = pkt;
        final Etm4PacketListener o = out;
        // the address history read from locals while the loop stays on its fast paths, and written through to the
        // fields, so that they are current whenever the listener runs (the chunked decode asks for syncState there)
        long h0 = hist0;
        long h1 = hist1;
        long h2 = hist2;
        boolean upper = contextKnown & aarch64;
        // an address packet of the fast path (at most 5 bytes) that starts before this is whole in the chunk, so the
        // fast path has no length checks: the last bytes of a chunk take the general path, which carries a packet
        // cut by the chunk's end
        final int whole = end - 5;
        while (pos < end) {
            int h = b[pos] & 0xFF;
            if (h >= 0xC0) {
                // atoms: the most frequent packets, one byte each
                o.atom(k, at + pos, h, ATOM_KIND_COUNT[h] & 0xFF, ATOM_BITS[h]);
                pos++;
                continue;
            }
            if ((h & 0xF0) == 0x90 && pos < whole) {
                // addresses without a context: the next most frequent packets (IHI 0064, address packets and the
                // address history)
                long a;
                int n;
                if (h <= 0x92) {
                    // exact match: history entry h & 3, which becomes the most recent
                    a = h == 0x90 ? h0 : h == 0x91 ? h1 : h2;
                    n = 1;
                } else if (h == 0x95 || h == 0x96) {
                    // short: 0x95 IS0 (bits [8:2], then [16:9]), 0x96 IS1 (bits [7:1], then [15:8])
                    int b1 = b[pos + 1];
                    n = 2 - (b1 >> 7); // 3 when bit 7 (another byte follows) is set
                    int is = ~h & 1;
                    int shift = 2 - is;
                    long v = (long) (b1 & 0x7F) << shift;
                    int bits = 7 + shift;
                    if (n == 3) {
                        v |= (long) (b[pos + 2] & 0xFF) << bits;
                        bits += 8;
                    }
                    a = h0 & (-1L << bits) | v | is;
                } else if (h == 0x9A || h == 0x9B) {
                    // long 32-bit: 0x9A IS0, 0x9B IS1; in AArch64 state bits [63:32] are those of the most recent
                    // address, in AArch32 (or with no context yet) the address is 32 bits, the upper half zero, as
                    // OpenCSD reads it
                    int is = h & 1;
                    long v;
                    if (is == 0) {
                        v = (long) (b[pos + 1] & 0x7F) << 2 | (long) (b[pos + 2] & 0x7F) << 9;
                    } else {
                        v = (long) (b[pos + 1] & 0x7F) << 1 | (long) (b[pos + 2] & 0xFF) << 8;
                    }
                    v |= (b[pos + 3] & 0xFFL) << 16 | (b[pos + 4] & 0xFFL) << 24;
                    a = (upper ? h0 & 0xFFFFFFFF00000000L | v : v) | is;
                    n = 5;
                } else {
                    n = 0;
                    a = 0;
                }
                if (n > 0) {
                    h2 = h1;
                    h1 = h0;
                    h0 = a;
                    hist2 = h2;
                    hist1 = h1;
                    hist0 = h0;
                    o.address(k, b, pos, n, at + pos, a & ~1L, (int) a & 1);
                    pos += n;
                    continue;
                }
            }
            int n = length(b, pos, end);
            if (n > 0) {
                decode(b, pos, n, at + pos);
                pos += n;
                h0 = hist0;
                h1 = hist1;
                h2 = hist2;
                upper = contextKnown & aarch64;
            } else if (n == 0) {
                carryStart = at + pos;
                carryLen = end - pos;
                System.arraycopy(b, pos, carry, 0, carryLen);
                return end;
            } else {
                return error(b, pos, n, at + pos);
            }
        }
        return pos;
    }

    /** Adds bytes to a carried packet until it is complete (or bad). */
    private int continueCarried(byte[] b, int pos, int end) {
        int had = carryLen;
        int take = Math.min(end - pos, MAX_PACKET - had);
        System.arraycopy(b, pos, carry, had, take);
        carryLen = had + take;
        int n = length(carry, 0, carryLen);
        if (n == 0) {
            if (carryLen < MAX_PACKET) {
                return pos + take;
            }
            // cannot happen: every field is bounded
            n = -2;
            badLength = carryLen;
            badProblem = FIELD_TOO_LONG;
        }
        long start = carryStart;
        carryLen = 0;
        if (n > 0) {
            decode(carry, 0, n, start);
            return pos + (n - had);
        }
        int used = n == -1 ? 1 : badLength;
        reportError(carry, 0, n, start);
        if (used < had) {
            // carried bytes after the bad packet (they came with earlier chunks) are looked at again,
            // unsynchronized: an A-sync may begin among them
            byte[] rest = java.util.Arrays.copyOfRange(carry, used, had);
            feed(rest, 0, rest.length, start + used);
            return pos;
        }
        return pos + (used - had);
    }

    private int error(byte[] b, int pos, int code, long offset) {
        int used = code == -1 ? 1 : badLength;
        reportError(b, pos, code, offset);
        return pos + used;
    }

    private void reportError(byte[] b, int p, int code, long offset) {
        int used = code == -1 ? 1 : badLength;
        if (code == -1) {
            begin(Kind.RESERVED, offset, 1, b, p);
            pkt.problem = cls[b[p] & 0xFF] == RESERVED_CFG ? RESERVED_IN_CONFIG : RESERVED_HEADER;
        } else {
            begin(Kind.BAD_SEQUENCE, offset, used, b, p);
            pkt.problem = badProblem;
        }
        out.packet(pkt);
        // IHI 0064, A-sync packet: only an A-sync re-establishes the packet boundaries
        synced = false;
        zeros = 0;
        unsyncStart = offset + used;
        unsyncHeadLen = 0;
    }

    /**
     * Looks for an A-sync: at least eleven 0x00 followed by 0x80 (IHI 0064, A-sync packet). Zeros beyond the eleven
     * belong to the unsynchronized stretch before it.
     */
    private int scanForSync(byte[] b, int pos, int end) {
        while (pos < end) {
            long at = offsetOf(pos);
            if (unsyncStart < 0) {
                unsyncStart = at;
                unsyncHeadLen = 0;
            }
            int v = b[pos] & 0xFF;
            if (unsyncHeadLen < unsyncHead.length && at - unsyncStart == unsyncHeadLen) {
                unsyncHead[unsyncHeadLen++] = (byte) v;
            }
            if (v == 0) {
                zeros++;
                pos++;
                continue;
            }
            if (v == 0x80 && zeros >= 11) {
                long syncStart = at - 11;
                if (syncStart > unsyncStart) {
                    emitNotSync(syncStart);
                }
                begin(Kind.A_SYNC, syncStart, 12, null, 0);
                java.util.Arrays.fill(pkt.bytes, 0, 11, (byte) 0);
                pkt.bytes[11] = (byte) 0x80;
                out.packet(pkt);
                synced = true;
                zeros = 0;
                unsyncStart = -1;
                return pos + 1;
            }
            zeros = 0;
            pos++;
        }
        return pos;
    }

    private void emitNotSync(long until) {
        int len = (int) Math.min(until - unsyncStart, Integer.MAX_VALUE);
        begin(Kind.NOT_SYNC, unsyncStart, len, unsyncHead, 0);
        out.packet(pkt);
    }

    /** Starts a packet: kind, offset, length and (up to MAX_BYTES of) its raw bytes. */
    private void begin(Kind kind, long offset, int length, byte[] b, int p) {
        Etm4Packet k = pkt;
        k.kindIndex = (byte) kind.ordinal();
        k.offset = offset;
        k.length = length;
        if (b != null) {
            System.arraycopy(b, p, k.bytes, 0, Math.min(length, Math.min(Etm4Packet.MAX_BYTES, b.length - p)));
        }
        if (k.problem != null) {
            k.problem = null;
        }
    }

    // --- packet lengths -------------------------------------------------------------------------

    /**
     * Length of the packet at b[p..end): &gt; 0 complete, 0 needs more bytes, -1 reserved header, -2 a bad
     * sequence of {@link #badLength} bytes.
     */
    int length(byte[] b, int p, int end) {
        int h = b[p] & 0xFF;
        switch (cls[h]) {
            case RESERVED, RESERVED_CFG:
                return -1;
            case EXTENSION:
                return extensionLength(b, p, end);
            case TRACE_INFO:
                return traceInfoLength(b, p, end);
            case TIMESTAMP: {
                int n = 1;
                // timestamp field: up to 9 bytes, the 9th with 8 value bits and no continuation (IHI 0064, Timestamp packet)
                int i = 0;
                while (true) {
                    if (p + n >= end) {
                        return 0;
                    }
                    int v = b[p + n] & 0xFF;
                    n++;
                    i++;
                    if (i == 9 || (v & 0x80) == 0) {
                        break;
                    }
                }
                if ((h & 1) != 0) {
                    return field(b, p, n, end, COUNT_BYTES);
                }
                return n;
            }
            case EXCEPTION: {
                if (p + 1 >= end) {
                    return 0;
                }
                int b1 = b[p + 1] & 0xFF;
                int type = (b1 >> 1) & 0x1F;
                // ETE: a PE reset (type 0) or transaction failure (0x18) packet has the second payload byte
                // even without the continuation bit, as OpenCSD reads ETE
                boolean three = (b1 & 0x80) != 0 || (eteExceptions && (type == 0 || type == 0x18));
                return three ? (p + 2 < end ? 3 : 0) : 2;
            }
            case ITE:
                return end - p >= 10 ? 10 : 0;
            case CC_F1: {
                int n = 1;
                if (!commitMode1) {
                    n = field(b, p, n, end, FIELD_BYTES);
                    if (n <= 0) {
                        return n;
                    }
                }
                return (h & 1) != 0 ? n : field(b, p, n, end, COUNT_BYTES);
            }
            case CC_F2, COND_I_F3, COND_R_F3:
                return end - p >= 2 ? 2 : 0;
            case COMMIT, CANCEL_F1, COND_I_F1:
                return field(b, p, 1, end, FIELD_BYTES);
            case COND_R_F1: {
                int n = field(b, p, 1, end, 6);
                if (n <= 0 || (h & 0xFC) == 0x6C) {
                    return n;
                }
                return field(b, p, n, end, 6);
            }
            case CONTEXT: {
                if ((h & 1) == 0) {
                    return 1;
                }
                if (p + 1 >= end) {
                    return 0;
                }
                int n = 2 + contextPayload(b[p + 1] & 0xFF);
                return end - p >= n ? n : 0;
            }
            case ADDR_CTXT: {
                int a = (h == 0x85 || h == 0x86) ? 8 : 4;
                if (end - p < 2 + a) {
                    return 0;
                }
                int n = 2 + a + contextPayload(b[p + 1 + a] & 0xFF);
                return end - p >= n ? n : 0;
            }
            case SHORT, SRC_SHORT: {
                if (p + 1 >= end) {
                    return 0;
                }
                return (b[p + 1] & 0x80) != 0 ? (p + 2 < end ? 3 : 0) : 2;
            }
            case LONG: {
                int n = (h == 0x9D || h == 0x9E) ? 9 : 5;
                return end - p >= n ? n : 0;
            }
            case SRC_LONG: {
                int n = (h >= 0xB8) ? 9 : 5;
                return end - p >= n ? n : 0;
            }
            case Q:
                return qLength(b, p, end);
            default:
                return 1;
        }
    }

    /** Context info byte: VMID bytes if V (bit 6), context ID bytes if C (bit 7) (IHI 0064, Context packet). */
    private int contextPayload(int info) {
        return ((info & 0x40) != 0 ? vmidBytes : 0) + ((info & 0x80) != 0 ? cidBytes : 0);
    }

    /**
     * Extends {@code n} bytes by a continuation field of at most {@code max} bytes (bit 7 set: another byte
     * follows). Returns the new length, 0 when more bytes are needed, -2 when the field is too long.
     */
    private int field(byte[] b, int p, int n, int end, int max) {
        for (int i = 0; i < max; i++) {
            if (p + n >= end) {
                return 0;
            }
            int v = b[p + n] & 0xFF;
            n++;
            if ((v & 0x80) == 0) {
                return n;
            }
        }
        badLength = n;
        badProblem = FIELD_TOO_LONG;
        return -2;
    }

    private int extensionLength(byte[] b, int p, int end) {
        if (p + 1 >= end) {
            return 0;
        }
        int v = b[p + 1] & 0xFF;
        if (v == 0x03 || v == 0x05) {
            return 2; // discard, overflow
        }
        if (v != 0) {
            badLength = 2;
            badProblem = BAD_EXTENSION;
            return -2;
        }
        // A-sync: 0x00 x 11 then 0x80
        for (int i = 2; i < 12; i++) {
            if (p + i >= end) {
                return 0;
            }
            int x = b[p + i] & 0xFF;
            if (i == 11) {
                if (x == 0x80) {
                    return 12;
                }
                // more zeros than an A-sync has: the first one cannot be a header; the run is looked at again
                badLength = x == 0 ? 1 : 12;
                badProblem = BAD_ASYNC;
                return -2;
            }
            if (x != 0) {
                badLength = i + 1;
                badProblem = BAD_ASYNC;
                return -2;
            }
        }
        return 0;
    }

    private int traceInfoLength(byte[] b, int p, int end) {
        if (p + 1 >= end) {
            return 0;
        }
        int plctl = b[p + 1] & 0xFF;
        // control bytes: the first says which sections follow; further ones (bit 7) are skipped
        int n = field(b, p, 1, end, FIELD_BYTES);
        if (n <= 0) {
            return n;
        }
        for (int s = 0; s < 5; s++) {
            if ((plctl >> s & 1) != 0) {
                n = field(b, p, n, end, FIELD_BYTES);
                if (n <= 0) {
                    return n;
                }
            }
        }
        return n;
    }

    private int qLength(byte[] b, int p, int end) {
        int t = b[p] & 0xF;
        int n = 1;
        switch (t) {
            case 0xF:
                return 1;
            case 0x5, 0x6:
                if (p + 1 >= end) {
                    return 0;
                }
                n = (b[p + 1] & 0x80) != 0 ? 3 : 2;
                break;
            case 0xA, 0xB:
                n = 5;
                break;
            default:
                break;
        }
        if (end - p < n) {
            return 0;
        }
        return field(b, p, n, end, FIELD_BYTES);
    }

    // --- packet decoding ------------------------------------------------------------------------

    private void decode(byte[] b, int p, int n, long offset) {
        int h = b[p] & 0xFF;
        Etm4Packet k = pkt;
        switch (cls[h]) {
            case EXTENSION -> {
                int v = b[p + 1] & 0xFF;
                begin(v == 0 ? Kind.A_SYNC : v == 3 ? Kind.DISCARD : Kind.OVERFLOW, offset, n, b, p);
            }
            case TRACE_INFO -> traceInfo(b, p, n, offset);
            case TIMESTAMP -> {
                begin(Kind.TIMESTAMP, offset, n, b, p);
                long v = 0;
                int i = 0;
                int q = p + 1;
                while (true) {
                    int x = b[q++] & 0xFF;
                    if (i == 8) {
                        v |= (long) x << 56;
                        i++;
                        break;
                    }
                    v |= (long) (x & 0x7F) << (7 * i);
                    i++;
                    if ((x & 0x80) == 0) {
                        break;
                    }
                }
                int bits = i < 9 ? 7 * i : 64;
                long m = bits >= 64 ? -1L : (1L << bits) - 1;
                timestamp = (timestamp & ~m) | (v & m);
                k.timestamp = timestamp;
                k.timestampBits = bits;
                k.cycles = (h & 1) != 0 ? readField(b, q, p + n) & ccMask : -1;
            }
            case TRACE_ON -> begin(Kind.TRACE_ON, offset, n, b, p);
            case FUNC_RET -> begin(Kind.FUNCTION_RETURN, offset, n, b, p);
            case EXCEPTION -> exception(b, p, n, offset);
            case EXC_RETURN -> begin(Kind.EXCEPTION_RETURN, offset, n, b, p);
            case TRANS_START -> begin(Kind.TRANSACTION_START, offset, n, b, p);
            case TRANS_COMMIT -> begin(Kind.TRANSACTION_COMMIT, offset, n, b, p);
            case ITE -> {
                begin(Kind.INSTRUMENTATION, offset, n, b, p);
                k.iteEl = b[p + 1] & 0xFF;
                long v = 0;
                for (int i = 0; i < 8; i++) {
                    v |= (b[p + 2 + i] & 0xFFL) << (8 * i);
                }
                k.iteValue = v;
            }
            case CC_F1 -> {
                begin(Kind.CYCLE_COUNT_F1, offset, n, b, p);
                int q = p + 1;
                k.commit = -1;
                if (!commitMode1) {
                    k.commit = readField(b, q, p + n);
                    q = fieldEnd(b, q);
                }
                // U (bit 0): the count is unknown, after an overflow for instance (IHI 0064, Cycle Count Format 1 packet)
                k.cycles = (h & 1) != 0 ? -1 : readField(b, q, p + n) + ccThreshold;
            }
            case CC_F2 -> {
                begin(Kind.CYCLE_COUNT_F2, offset, n, b, p);
                int v = b[p + 1] & 0xFF;
                // F (header bit 0) chooses how AAAA encodes the commit count (IHI 0064, Cycle Count Format 2 packet)
                int a = v >> 4;
                k.commit = (h & 1) != 0 ? maxSpec - 15 + a : a + 1;
                k.cycles = ccThreshold + (v & 0xF);
            }
            case CC_F3 -> {
                begin(Kind.CYCLE_COUNT_F3, offset, n, b, p);
                k.commit = commitMode1 ? -1 : ((h >> 2) & 3) + 1;
                k.cycles = ccThreshold + (h & 3);
            }
            case NDSM -> {
                begin(Kind.NUMBERED_DATA_SYNC, offset, n, b, p);
                k.marker = h & 7;
            }
            case UDSM -> {
                begin(Kind.UNNUMBERED_DATA_SYNC, offset, n, b, p);
                k.marker = h & 7;
            }
            case COMMIT -> {
                begin(Kind.COMMIT, offset, n, b, p);
                k.commit = readField(b, p + 1, p + n);
            }
            case CANCEL_F1 -> {
                begin(Kind.CANCEL_F1, offset, n, b, p);
                k.cancel = readField(b, p + 1, p + n);
                k.mispredict = (h & 1) != 0;
                k.atomCount = 0;
            }
            case MISPREDICT, CANCEL_F2 -> {
                begin(cls[h] == MISPREDICT ? Kind.MISPREDICT : Kind.CANCEL_F2, offset, n, b, p);
                // A field: 0b00 none, 0b01 E, 0b10 EE, 0b11 N (IHI 0064, Mispredict and Cancel packets)
                int a = h & 3;
                k.atomCount = a == 0 ? 0 : a == 2 ? 2 : 1;
                k.atomBits = a == 1 ? 1 : a == 2 ? 3 : 0;
                k.cancel = cls[h] == MISPREDICT ? 0 : 1;
                k.mispredict = true;
            }
            case CANCEL_F3 -> {
                begin(Kind.CANCEL_F3, offset, n, b, p);
                k.atomCount = h & 1;
                k.atomBits = h & 1;
                k.cancel = ((h >> 1) & 3) + 2;
                k.mispredict = true;
            }
            case COND_I_F1 -> cond(Kind.COND_INSTR_F1, b, p, n, offset, readField(b, p + 1, p + n), 0);
            case COND_I_F2 -> cond(Kind.COND_INSTR_F2, b, p, n, offset, 0, h & 3);
            case COND_I_F3 -> cond(Kind.COND_INSTR_F3, b, p, n, offset, 0, b[p + 1] & 0xFF);
            case COND_FLUSH -> cond(Kind.COND_FLUSH, b, p, n, offset, 0, 0);
            case COND_R_F1 -> {
                // first payload: RESULT [3:0], KEY[2:0] in [6:4], then KEY in 7-bit continuation bytes
                int x = b[p + 1] & 0xFF;
                long key = (x >> 4) & 7;
                int q = p + 2;
                int shift = 3;
                while ((x & 0x80) != 0 && q < p + n) {
                    x = b[q++] & 0xFF;
                    key |= (long) (x & 0x7F) << shift;
                    shift += 7;
                }
                cond(Kind.COND_RESULT_F1, b, p, n, offset, key, b[p + 1] & 0xF);
            }
            case COND_R_F2 -> cond(Kind.COND_RESULT_F2, b, p, n, offset, 0, h & 7);
            case COND_R_F3 -> cond(Kind.COND_RESULT_F3, b, p, n, offset, 0, (h & 0xF) << 8 | (b[p + 1] & 0xFF));
            case COND_R_F4 -> cond(Kind.COND_RESULT_F4, b, p, n, offset, 0, h & 3);
            case IGNORE -> begin(Kind.IGNORE, offset, n, b, p);
            case EVENT -> {
                begin(Kind.EVENT, offset, n, b, p);
                k.events = h & 0xF;
            }
            case CONTEXT -> {
                begin(Kind.CONTEXT, offset, n, b, p);
                if ((h & 1) == 0) {
                    k.contextGiven = false;
                    k.vmidGiven = false;
                    k.contextIdGiven = false;
                    fillContext(k);
                } else {
                    context(b, p + 1);
                }
            }
            case ADDR_CTXT -> {
                boolean is1 = h == 0x83 || h == 0x86;
                boolean wide = h >= 0x85;
                begin(wide ? (is1 ? Kind.ADDR_CTXT_64_IS1 : Kind.ADDR_CTXT_64_IS0)
                        : (is1 ? Kind.ADDR_CTXT_32_IS1 : Kind.ADDR_CTXT_32_IS0), offset, n, b, p);
                // the context first: it says whether a 32-bit address is an AArch32 one
                context(b, p + 1 + (wide ? 8 : 4));
                longAddress(b, p + 1, wide, is1 ? 1 : 0);
            }
            case TS_MARKER -> begin(Kind.TIMESTAMP_MARKER, offset, n, b, p);
            case EXACT -> {
                begin(Kind.ADDR_EXACT_MATCH, offset, n, b, p);
                exactMatch(h & 3);
            }
            case SHORT -> {
                begin(h == 0x95 ? Kind.ADDR_SHORT_IS0 : Kind.ADDR_SHORT_IS1, offset, n, b, p);
                shortAddress(b, p + 1, h == 0x95 ? 0 : 1);
            }
            case LONG -> {
                boolean wide = h >= 0x9D;
                boolean is1 = h == 0x9B || h == 0x9E;
                begin(wide ? (is1 ? Kind.ADDR_LONG_64_IS1 : Kind.ADDR_LONG_64_IS0)
                        : (is1 ? Kind.ADDR_LONG_32_IS1 : Kind.ADDR_LONG_32_IS0), offset, n, b, p);
                longAddress(b, p + 1, wide, is1 ? 1 : 0);
            }
            case Q -> q(b, p, n, offset);
            case SRC_EXACT -> {
                begin(Kind.SRC_ADDR_EXACT_MATCH, offset, n, b, p);
                exactMatch(h & 3);
            }
            case SRC_SHORT -> {
                begin(h == 0xB4 ? Kind.SRC_ADDR_SHORT_IS0 : Kind.SRC_ADDR_SHORT_IS1, offset, n, b, p);
                shortAddress(b, p + 1, h == 0xB4 ? 0 : 1);
            }
            case SRC_LONG -> {
                boolean wide = h >= 0xB8;
                boolean is1 = h == 0xB7 || h == 0xB9;
                begin(wide ? (is1 ? Kind.SRC_ADDR_LONG_64_IS1 : Kind.SRC_ADDR_LONG_64_IS0)
                        : (is1 ? Kind.SRC_ADDR_LONG_32_IS1 : Kind.SRC_ADDR_LONG_32_IS0), offset, n, b, p);
                longAddress(b, p + 1, wide, is1 ? 1 : 0);
            }
            default -> throw new IllegalStateException("header 0x" + Integer.toHexString(h) + " has no length");
        }
        out.packet(k);
    }

    private void cond(Kind kind, byte[] b, int p, int n, long offset, long key, int value) {
        begin(kind, offset, n, b, p);
        pkt.condKey = key;
        pkt.condValue = value;
    }

    /** Trace info (IHI 0064, Trace Info packet): PLCTL says which of the INFO, KEY, SPEC and CYCT sections follow. */
    private void traceInfo(byte[] b, int p, int n, long offset) {
        Etm4Packet k = pkt;
        begin(Kind.TRACE_INFO, offset, n, b, p);
        int plctl = b[p + 1] & 0x1F;
        int q = fieldEnd(b, p + 1);
        int end = p + n;
        k.plctl = plctl;
        k.info = 0;
        k.p0Key = 0;
        k.specDepth = 0;
        k.ccThreshold = 0;
        if ((plctl & 1) != 0) {
            k.info = readField(b, q, end);
            q = fieldEnd(b, q);
        }
        if ((plctl & 2) != 0) {
            k.p0Key = readField(b, q, end);
            q = fieldEnd(b, q);
        }
        if ((plctl & 4) != 0) {
            k.specDepth = readField(b, q, end);
            q = fieldEnd(b, q);
        }
        if ((plctl & 8) != 0) {
            k.ccThreshold = readField(b, q, end);
        }
        ccThreshold = k.ccThreshold;
        // a trace info resets the address history and the timestamp (IHI 0064, Trace Info packet): what follows is
        // decompressed against zero
        hist0 = 0;
        hist1 = 0;
        hist2 = 0;
        timestamp = 0;
        k.address = 0;
        k.addressIs = 0;
    }

    /** Exception (IHI 0064, Exception packet): TYPE[4:0] in byte 1 bits [5:1], TYPE[9:5] in byte 2, E1:E0 in bits 6 and 0. */
    private void exception(byte[] b, int p, int n, long offset) {
        Etm4Packet k = pkt;
        int b1 = b[p + 1] & 0xFF;
        int type = (b1 >> 1) & 0x1F;
        boolean pending = false;
        if ((b1 & 0x80) != 0) {
            int b2 = b[p + 2] & 0xFF;
            type |= (b2 & 0x1F) << 5;
            pending = (b2 & 0x20) != 0;
        }
        Kind kind = Kind.EXCEPTION;
        if (eteExceptions) {
            // ETE: a PE reset and a transaction failure are traced as exceptions with no address after them
            if (type == 0) {
                kind = Kind.PE_RESET;
            } else if (type == 0x18) {
                kind = Kind.TRANSACTION_FAILURE;
            }
        }
        if (kind != Kind.EXCEPTION) {
            // no address packet follows these; as OpenCSD reads ETE, they put address 0 (IS0) in the history
            push(0, 0);
            k.address = 0;
            k.addressIs = 0;
        }
        begin(kind, offset, n, b, p);
        k.exceptionType = type;
        k.addressInterpretation = (b1 & 0x40) >> 5 | (b1 & 1);
        k.faultPending = pending;
    }

    /** Context info byte at b[q] and the VMID and context ID after it (IHI 0064, Context packet). */
    private void context(byte[] b, int q) {
        Etm4Packet k = pkt;
        int info = b[q] & 0xFF;
        el = info & 3;
        nse = (info & 0x08) != 0;
        aarch64 = (info & 0x10) != 0;
        nonSecure = (info & 0x20) != 0;
        int r = q + 1;
        k.vmidGiven = (info & 0x40) != 0;
        if (k.vmidGiven) {
            vmid = littleEndian(b, r, vmidBytes);
            r += vmidBytes;
        }
        k.contextIdGiven = (info & 0x80) != 0;
        if (k.contextIdGiven) {
            contextId = littleEndian(b, r, cidBytes);
        }
        k.contextGiven = true;
        contextKnown = true;
        fillContext(k);
    }

    private void fillContext(Etm4Packet k) {
        k.el = el;
        k.nse = nse;
        k.aarch64 = aarch64;
        k.nonSecure = nonSecure;
        k.vmid = vmid;
        k.contextId = contextId;
    }

    /** Short address (IHI 0064, address packets and the address history): IS0 bits [8:2] then [16:9], IS1 bits [7:1] then [15:8]. */
    private void shortAddress(byte[] b, int q, int is) {
        int shift = is == 0 ? 2 : 1;
        int b1 = b[q] & 0xFF;
        long v = (long) (b1 & 0x7F) << shift;
        int bits = 7 + shift;
        if ((b1 & 0x80) != 0) {
            v |= (long) (b[q + 1] & 0xFF) << (7 + shift);
            bits += 8;
        }
        update(v, bits, is);
    }

    /** Long address, 32 or 64 bits (IHI 0064, address packets and the address history). */
    private void longAddress(byte[] b, int q, boolean wide, int is) {
        long v;
        if (is == 0) {
            v = (long) (b[q] & 0x7F) << 2 | (long) (b[q + 1] & 0x7F) << 9;
        } else {
            v = (long) (b[q] & 0x7F) << 1 | (long) (b[q + 1] & 0xFF) << 8;
        }
        v |= (b[q + 2] & 0xFFL) << 16 | (b[q + 3] & 0xFFL) << 24;
        if (wide) {
            v |= (b[q + 4] & 0xFFL) << 32 | (b[q + 5] & 0xFFL) << 40 | (b[q + 6] & 0xFFL) << 48
                    | (b[q + 7] & 0xFFL) << 56;
            update(v, 64, is);
        } else if (contextKnown && aarch64) {
            // a 32-bit address in AArch64 state: bits [63:32] are those of the most recent address
            update(v, 32, is);
        } else {
            // AArch32 (or no context yet): the address is 32 bits, the upper half zero, as OpenCSD reads it
            update(v, 64, is);
            pkt.addressBits = 32;
        }
    }

    /** The packet gave the low {@code bits} of the address; the rest come from the most recent address. */
    private void update(long value, int bits, int is) {
        long m = bits >= 64 ? -1L : (1L << bits) - 1;
        long a = (hist0 & ~1L & ~m) | (value & m);
        push(a, is);
        pkt.address = a;
        pkt.addressIs = is;
        pkt.addressBits = bits;
    }

    /** Exact match (IHI 0064, address packets and the address history): the address is history entry {@code idx}, which becomes the most recent. */
    private void exactMatch(int idx) {
        long e = idx == 0 ? hist0 : idx == 1 ? hist1 : hist2;
        long a = e & ~1L;
        int is = (int) e & 1;
        push(a, is);
        pkt.address = a;
        pkt.addressIs = is;
        pkt.addressBits = 0;
        pkt.matchIndex = idx;
    }

    private void push(long a, int is) {
        hist2 = hist1;
        hist1 = hist0;
        hist0 = a | is;
    }

    /** Q packet (IHI 0064, Q packet): the type says whether an address (exact, short, long) and a count follow. */
    private void q(byte[] b, int p, int n, long offset) {
        Etm4Packet k = pkt;
        int t = b[p] & 0xF;
        begin(Kind.Q, offset, n, b, p);
        k.qType = t;
        k.addressBits = -1;
        int q = p + 1;
        switch (t) {
            case 0, 1, 2 -> exactMatch(t);
            case 5, 6 -> {
                shortAddress(b, q, t == 5 ? 0 : 1);
                q += (b[q] & 0x80) != 0 ? 2 : 1;
            }
            case 0xA, 0xB -> {
                longAddress(b, q, false, t == 0xA ? 0 : 1);
                q += 4;
            }
            default -> {
            }
        }
        if (k.addressBits < 0) {
            k.addressBits = 0;
            k.address = hist0 & ~1L;
            k.addressIs = (int) hist0 & 1;
        }
        k.qCount = t == 0xF ? -1 : readField(b, q, p + n);
    }

    /** The value of the continuation field at b[q] (7 bits a byte, least significant first), up to {@code end}. */
    private static long readField(byte[] b, int q, int end) {
        long v = 0;
        int shift = 0;
        while (q < end) {
            int x = b[q++] & 0xFF;
            v |= (long) (x & 0x7F) << shift;
            shift += 7;
            if ((x & 0x80) == 0) {
                break;
            }
        }
        return v;
    }

    /** Index just past the continuation field at b[q]. */
    private static int fieldEnd(byte[] b, int q) {
        while ((b[q] & 0x80) != 0) {
            q++;
        }
        return q + 1;
    }

    private static long littleEndian(byte[] b, int q, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (b[q + i] & 0xFFL) << (8 * i);
        }
        return v;
    }
}
