package io.armtrace.protocol.ptm;

import io.armtrace.protocol.PacketListener;
import io.armtrace.trace.Isa;

/**
 * Splits a PFT byte stream into packets (IHI 0035B chapter 4). Streaming: {@link #push} any chunk size,
 * then {@link #end}. One {@link PtmPacket} is reused for every packet; nothing is allocated per packet.
 *
 * <p>Until the first A-sync the bytes cannot be parsed and are reported as one NOT_SYNC packet. A
 * reserved header or a malformed A-sync is reported as BAD, and the reader waits for the next A-sync
 * (4.11.2: the byte after an A-sync is always a packet header).
 */
public final class PtmPacketReader {
    /** The longest packet apart from A-sync: timestamp 1 + 9 + 5 cycle count bytes. */
    private static final int MAX_PACKET = 16;

    private final PtmConfig config;
    private final PacketListener<PtmPacket> out;
    private final PtmPacket pkt = new PtmPacket();
    private final boolean cycleAccurate;
    private final int ctxBytes;
    private final boolean ts64;
    private final boolean tsBinary;
    private final boolean eretPacket;

    /** Stream offset of the first byte of the next chunk. */
    private long base;
    private boolean synced;
    /** Unsynced stretch: where it began (-1 if none pending). */
    private long unsyncStart = -1;
    /** Run of 0x00 bytes seen so far and where it began. */
    private long zeros;
    private long zeroStart;
    /** True while the run of zeros started as a header in synced state (an A-sync being read). */
    private boolean asyncHeader;
    /** Bytes of a packet that straddles two chunks. */
    private final byte[] carry = new byte[MAX_PACKET];
    private int carryLen;
    private long carryStart;

    // Decompression state, IHI 0035B 4.5.4 and 4.5.9
    private long address;
    private Isa isa = Isa.A32;
    private boolean nonSecure;
    private boolean hyp;
    private long timestamp;
    private long grayTimestamp;

    public PtmPacketReader(PtmConfig config, PacketListener<PtmPacket> out) {
        this(config, out, 0);
    }

    /** A reader whose first pushed byte is at stream offset {@code start} (a split point). */
    public PtmPacketReader(PtmConfig config, PacketListener<PtmPacket> out, long start) {
        this.base = start;
        this.config = config;
        this.out = out;
        this.cycleAccurate = config.cycleAccurate();
        this.ctxBytes = config.contextIdBytes();
        this.ts64 = config.timestamp64();
        this.tsBinary = config.timestampBinary();
        this.eretPacket = config.hasExceptionReturnPacket();
    }

    public PtmConfig config() {
        return config;
    }

    /** The decompression state between packets: with the flow's state, all that decides what follows. */
    record State(boolean synced, long address, Isa isa, boolean nonSecure, boolean hyp, long timestamp,
                 long grayTimestamp) {
    }

    State state() {
        return new State(synced, address, isa, nonSecure, hyp, timestamp, grayTimestamp);
    }

    /** Stream offset just past the bytes pushed so far. */
    public long position() {
        return base;
    }

    public void push(byte[] b, int off, int len) {
        int pos = off;
        int end = off + len;
        chunkOff = off;
        while (pos < end) {
            if (!synced || zeros > 0 || asyncHeader) {
                pos = scanSync(b, pos, end);
                continue;
            }
            if (carryLen > 0) {
                carry[carryLen++] = b[pos++];
                int n = packetLength(carry, 0, carryLen);
                if (n == 0) {
                    if (carryLen == MAX_PACKET) {
                        bad(carryStart, carryLen, "packet too long");
                        carryLen = 0;
                    }
                    continue;
                }
                carryLen = 0;
                if (n < 0) {
                    // The carried bytes after the bad header are dropped with the lost sync.
                    bad(carryStart, 1, "reserved header 0x" + Integer.toHexString(carry[0] & 0xFF));
                } else {
                    emit(carry, 0, n, carryStart);
                }
                continue;
            }
            pos = packets(b, pos, end);
        }
        base += len;
    }

    /**
     * Reads packets from b[pos..end) while the reader is synced and between packets; returns where it
     * stopped: at end, at a 0x00 header (an A-sync to scan), at a packet cut by the chunk end (carried),
     * or after a BAD packet. The most frequent packets, atoms and one-byte branch addresses, are decoded
     * here without the general length and decode steps.
     */
    private int packets(byte[] b, int pos, int end) {
        final long at = base - chunkOff;
        final boolean ca = cycleAccurate;
        while (pos < end) {
            int h = b[pos] & 0xFF;
            if ((h & 0x81) == 0x80) {
                if (!ca) {
                    int v = ATOMS[h];
                    atom(at + pos, 1, v >> 8, v & 0xFF, -1);
                    pos++;
                    continue;
                }
                // IHI 0035B 4.5.3: in cycle-accurate mode one atom (bit 1 clear = E) and a cycle count in
                // header bits [5:2], continued (bit 6) into following bytes of 7 bits each
                if ((h & 0x40) == 0) {
                    atom(at + pos, 1, 1, (h & 2) == 0 ? 1 : 0, (h >> 2) & 0xF);
                    pos++;
                    continue;
                }
                if (pos + 1 < end && (b[pos + 1] & 0x80) == 0) {
                    atom(at + pos, 2, 1, (h & 2) == 0 ? 1 : 0, (h >> 2) & 0xF | (b[pos + 1] & 0x7FL) << 4);
                    pos += 2;
                    continue;
                }
            } else if ((h & 0x81) == 0x01 && !ca) {
                branch1(h, at + pos);
                pos++;
                continue;
            } else if (h == 0) {
                asyncHeader = true;
                return pos;
            }
            int n = packetLength(b, pos, end);
            if (n > 0) {
                emit(b, pos, n, at + pos);
                pos += n;
            } else if (n == 0) {
                carryStart = at + pos;
                carryLen = end - pos;
                System.arraycopy(b, pos, carry, 0, carryLen);
                return end;
            } else {
                bad(at + pos, 1, "reserved header 0x" + Integer.toHexString(h));
                return pos + 1;
            }
        }
        return pos;
    }

    /**
     * An atom packet. After another atom or a one-byte branch address packet only the packet's own fields
     * differ: the others are still clear and the state fields hold the reader's state, which only other
     * packets change. The type, a reference, is stored only when it changes: a reference store into an
     * old object costs a GC write barrier.
     */
    private void atom(long offset, int n, int count, int bits, long cycles) {
        PtmPacket k = pkt;
        if (k.plain) {
            if (k.type != PtmPacket.Type.ATOM) {
                k.type = PtmPacket.Type.ATOM;
            }
            k.offset = offset;
            k.length = n;
            k.addressBits = 0;
        } else {
            k.clear(PtmPacket.Type.ATOM, offset, n);
            fillState(k);
            k.plain = true;
        }
        k.atomCount = count;
        k.atomBits = bits;
        k.cycles = cycles;
        out.packet(k);
    }

    /**
     * A one-byte branch address packet (no cycle count, so not cycle-accurate): address bits [6:1] in
     * the header, placed as decodeAddress places the first byte for the current instruction set
     * (IHI 0035B 4.5.4, 4.5.5); no exception information.
     */
    private void branch1(int h, long offset) {
        long val = h & 0x7E;
        int bits;
        if (isa == Isa.A32) {
            val <<= 1;
            bits = 8;
        } else if (isa == Isa.JAZELLE) {
            val >>= 1;
            bits = 6;
        } else {
            bits = 7;
        }
        long m = (1L << bits) - 1;
        address = ((address & ~m) | val) & 0xFFFFFFFFL;
        PtmPacket k = pkt;
        if (k.plain) {
            if (k.type != PtmPacket.Type.BRANCH_ADDRESS) {
                k.type = PtmPacket.Type.BRANCH_ADDRESS;
            }
            k.offset = offset;
            k.length = 1;
            k.atomCount = 0;
            k.atomBits = 0;
            k.cycles = -1;
            k.address = address;
        } else {
            k.clear(PtmPacket.Type.BRANCH_ADDRESS, offset, 1);
            fillState(k);
            k.plain = true;
        }
        k.addressBits = bits;
        out.packet(k);
    }

    /** End of trace: report a packet cut short and any unsynced bytes. */
    public void end() {
        if (carryLen > 0) {
            pkt.clear(PtmPacket.Type.INCOMPLETE, carryStart, carryLen);
            out.packet(pkt);
            carryLen = 0;
        }
        if (zeros > 0 && synced) {
            pkt.clear(PtmPacket.Type.INCOMPLETE, zeroStart, (int) Math.min(zeros, Integer.MAX_VALUE));
            out.packet(pkt);
        } else if (!synced && unsyncStart >= 0 && base > unsyncStart) {
            pkt.clear(PtmPacket.Type.NOT_SYNC, unsyncStart, (int) Math.min(base - unsyncStart, Integer.MAX_VALUE));
            out.packet(pkt);
        }
        unsyncStart = -1;
        zeros = 0;
    }

    private void bad(long offset, int len, String why) {
        pkt.clear(PtmPacket.Type.BAD, offset, len);
        pkt.error = why;
        out.packet(pkt);
        synced = false;
        asyncHeader = false;
        zeros = 0;
        unsyncStart = offset + len;
    }

    /**
     * Looks for an A-sync: five or more 0x00 followed by 0x80 (IHI 0035B 4.5.1). In synced state a 0x00
     * header must be an A-sync; anything else is a BAD packet.
     */
    private int scanSync(byte[] b, int pos, int end) {
        while (pos < end) {
            long at = offsetOf(pos);
            int v = b[pos] & 0xFF;
            if (!synced && unsyncStart < 0) {
                unsyncStart = at;
            }
            if (v == 0) {
                if (zeros == 0) {
                    zeroStart = at;
                }
                zeros++;
                pos++;
                continue;
            }
            if (v == 0x80 && zeros >= 5) {
                if (!synced && unsyncStart >= 0 && zeroStart > unsyncStart) {
                    pkt.clear(PtmPacket.Type.NOT_SYNC, unsyncStart, (int) Math.min(zeroStart - unsyncStart, Integer.MAX_VALUE));
                    out.packet(pkt);
                }
                pkt.clear(PtmPacket.Type.A_SYNC, zeroStart, (int) Math.min(zeros + 1, Integer.MAX_VALUE));
                out.packet(pkt);
                synced = true;
                asyncHeader = false;
                unsyncStart = -1;
                zeros = 0;
                return pos + 1;
            }
            if (synced) {
                // A 0x00 header that is not followed by a valid A-sync.
                long start = zeroStart;
                int len = (int) Math.min(at + 1 - start, Integer.MAX_VALUE);
                zeros = 0;
                bad(start, len, "malformed A-sync");
                return pos + 1;
            }
            zeros = 0;
            pos++;
        }
        return pos;
    }

    /** Array index of the current chunk's first byte, so that offsetOf(pos) is a stream offset. */
    private int chunkOff;

    private long offsetOf(int pos) {
        return base + pos - chunkOff;
    }

    // --- packet lengths -------------------------------------------------------------------------

    /** Length of the packet at b[p..end): > 0 complete, 0 needs more bytes, -1 reserved header. */
    int packetLength(byte[] b, int p, int end) {
        int h = b[p] & 0xFF;
        if ((h & 1) == 1) {
            return branchLength(b, p, end);
        }
        if ((h & 0x80) != 0) {
            if (!cycleAccurate || (h & 0x40) == 0) {
                return 1;
            }
            return ccLength(b, p, end);
        }
        switch (h) {
            case 0x08: {
                // I-sync: header, 4 address bytes, information byte, [cycle count], [context ID]
                if (end - p < 6) {
                    return 0;
                }
                int n = 6;
                int reason = (b[p + 5] >> 5) & 3;
                if (cycleAccurate && reason != 0) {
                    int c = ccLength(b, p + 6, end);
                    if (c == 0) {
                        return 0;
                    }
                    n += c;
                }
                n += ctxBytes;
                return end - p >= n ? n : 0;
            }
            case 0x72:
                return waypointLength(b, p, end);
            case 0x0C:
            case 0x66:
                return 1;
            case 0x76:
                return eretPacket ? 1 : -1;
            case 0x6E:
                return end - p >= 1 + ctxBytes ? 1 + ctxBytes : 0;
            case 0x3C:
                return end - p >= 2 ? 2 : 0;
            case 0x42:
            case 0x46: {
                int max = ts64 ? 9 : 7;
                int i = 1;
                while (true) {
                    if (p + i >= end) {
                        return 0;
                    }
                    int v = b[p + i] & 0xFF;
                    i++;
                    if ((v & 0x80) == 0 || i - 1 == max) {
                        break;
                    }
                }
                if (cycleAccurate) {
                    int c = ccLength(b, p + i, end);
                    return c == 0 ? 0 : i + c;
                }
                return i;
            }
            default:
                return -1;
        }
    }

    /**
     * Length of a cycle count field starting at b[start] whose first byte has its continuation in bit 6
     * and the rest in bit 7, at most 5 bytes (IHI 0035B 4.5.3). For atoms the header is the first byte.
     */
    private static int ccLength(byte[] b, int start, int end) {
        int i = 0;
        while (true) {
            if (start + i >= end) {
                return 0;
            }
            int v = b[start + i] & 0xFF;
            boolean more = i == 0 ? (v & 0x40) != 0 : (v & 0x80) != 0;
            i++;
            if (!more || i == 5) {
                return i;
            }
        }
    }

    private int branchLength(byte[] b, int p, int end) {
        int i = 0;
        boolean exc;
        // address bytes
        while (true) {
            if (p + i >= end) {
                return 0;
            }
            int v = b[p + i] & 0xFF;
            i++;
            if (i == 1 && (v & 0x80) == 0) {
                exc = false;
                break;
            }
            if (i == 5) {
                exc = (v & 0x40) != 0;
                break;
            }
            if (i > 1 && (v & 0x80) == 0) {
                exc = (v & 0x40) != 0;
                break;
            }
        }
        if (exc) {
            if (p + i >= end) {
                return 0;
            }
            int e1 = b[p + i] & 0xFF;
            i++;
            if ((e1 & 0x80) != 0) {
                if (p + i >= end) {
                    return 0;
                }
                i++;
            }
        }
        if (cycleAccurate) {
            int c = ccLength(b, p + i, end);
            return c == 0 ? 0 : i + c;
        }
        return i;
    }

    private static int waypointLength(byte[] b, int p, int end) {
        int i = 1;
        while (true) {
            if (p + i >= end) {
                return 0;
            }
            int v = b[p + i] & 0xFF;
            i++;
            if (i == 6) {
                if ((v & 0x40) != 0) {
                    if (p + i >= end) {
                        return 0;
                    }
                    i++;
                }
                return i;
            }
            if ((v & 0x80) == 0) {
                return i;
            }
        }
    }

    // --- packet decoding ------------------------------------------------------------------------

    private void emit(byte[] b, int p, int n, long offset) {
        int h = b[p] & 0xFF;
        PtmPacket k = pkt;
        if ((h & 1) == 1) {
            k.clear(PtmPacket.Type.BRANCH_ADDRESS, offset, n);
            int q = decodeAddress(b, p, n, false);
            // the last address byte of a multi-byte address says whether exception bytes follow (4.5.4)
            if (q > 1 && q < n && (b[p + q - 1] & 0x40) != 0) {
                int e1 = b[p + q] & 0xFF;
                q++;
                k.exceptionInfo = true;
                nonSecure = (e1 & 1) != 0;
                int ex = (e1 >> 1) & 0xF;
                boolean alt = (e1 & 0x40) != 0;
                if ((e1 & 0x80) != 0) {
                    int e2 = b[p + q] & 0xFF;
                    q++;
                    ex |= (e2 & 0x1F) << 4;
                    hyp = (e2 & 0x20) != 0;
                }
                k.exception = ex;
                applyAltIsa(alt);
            }
            if (cycleAccurate) {
                k.cycles = cycleCount(b, p + q);
            }
            fillState(k);
        } else if ((h & 0x80) != 0) {
            k.clear(PtmPacket.Type.ATOM, offset, n);
            if (cycleAccurate) {
                // IHI 0035B 4.5.3: in cycle-accurate mode an atom packet holds one atom and a count.
                k.atomCount = 1;
                k.atomBits = (h & 2) == 0 ? 1 : 0;
                k.cycles = cycleCount(b, p);
            } else {
                int v = ATOMS[h];
                k.atomCount = v >> 8;
                k.atomBits = v & 0xFF;
            }
            fillState(k);
        } else {
            switch (h) {
                case 0x08 -> {
                    k.clear(PtmPacket.Type.I_SYNC, offset, n);
                    int b1 = b[p + 1] & 0xFF;
                    address = (b1 & 0xFE) | (b[p + 2] & 0xFFL) << 8 | (b[p + 3] & 0xFFL) << 16 | (b[p + 4] & 0xFFL) << 24;
                    int info = b[p + 5] & 0xFF;
                    k.reason = (info >> 5) & 3;
                    nonSecure = (info & 0x08) != 0;
                    hyp = (info & 0x02) != 0;
                    boolean alt = (info & 0x04) != 0;
                    if ((b1 & 1) != 0) {
                        isa = alt ? Isa.THUMB_EE : Isa.T32;
                    } else if ((info & 0x10) != 0) {
                        isa = Isa.JAZELLE;
                    } else {
                        isa = Isa.A32;
                    }
                    if (isa != Isa.JAZELLE) {
                        address &= isa == Isa.A32 ? ~3L : ~1L;
                    }
                    k.isaGiven = true;
                    k.addressBits = 32;
                    int q = 6;
                    if (cycleAccurate && k.reason != 0) {
                        k.cycles = cycleCount(b, p + q);
                        q += ccLength(b, p + q, p + n);
                    }
                    if (ctxBytes > 0) {
                        k.contextId = littleEndian(b, p + q, ctxBytes);
                    }
                    fillState(k);
                }
                case 0x72 -> {
                    k.clear(PtmPacket.Type.WAYPOINT_UPDATE, offset, n);
                    int q = decodeAddress(b, p + 1, n - 1, true) + 1;
                    if (q < n) {
                        applyAltIsa(((b[p + q] & 0xFF) & 0x40) != 0);
                    }
                    fillState(k);
                }
                case 0x0C -> k.clear(PtmPacket.Type.TRIGGER, offset, n);
                case 0x66 -> k.clear(PtmPacket.Type.IGNORE, offset, n);
                case 0x76 -> k.clear(PtmPacket.Type.EXCEPTION_RETURN, offset, n);
                case 0x6E -> {
                    k.clear(PtmPacket.Type.CONTEXT_ID, offset, n);
                    k.contextId = littleEndian(b, p + 1, ctxBytes);
                }
                case 0x3C -> {
                    k.clear(PtmPacket.Type.VMID, offset, n);
                    k.vmid = b[p + 1] & 0xFF;
                }
                default -> { // 0x42, 0x46: timestamp
                    k.clear(PtmPacket.Type.TIMESTAMP, offset, n);
                    int q = decodeTimestamp(b, p, k);
                    if (cycleAccurate) {
                        k.cycles = cycleCount(b, p + q);
                    }
                    k.timestamp = timestamp;
                }
            }
        }
        out.packet(k);
    }

    /** Non-cycle-accurate atom headers (IHI 0035B 4.5.3): atom count << 8 | atom bits (bit i: atom i is E). */
    private static final int[] ATOMS = new int[256];

    static {
        for (int h = 0x80; h < 0x100; h += 2) {
            int count;
            if ((h & 0xF0) == 0x80) {
                count = (h & 0x08) != 0 ? 2 : 1;
            } else if ((h & 0xF0) == 0x90) {
                count = 3;
            } else if ((h & 0xE0) == 0xA0) {
                count = 4;
            } else {
                count = 5;
            }
            // Atom bits start at bit 1; the oldest atom is in the highest of them; 0 = E.
            int bits = 0;
            for (int i = 0; i < count; i++) {
                if ((h >> (count - i) & 1) == 0) {
                    bits |= 1 << i;
                }
            }
            ATOMS[h] = count << 8 | bits;
        }
    }

    private void fillState(PtmPacket k) {
        k.address = address;
        if (k.isa != isa) {
            k.isa = isa; // a reference store costs a GC write barrier: only on change
        }
        k.nonSecure = nonSecure;
        k.hyp = hyp;
        k.timestamp = timestamp;
    }

    private void applyAltIsa(boolean alt) {
        if (isa == Isa.T32 && alt) {
            isa = Isa.THUMB_EE;
        } else if (isa == Isa.THUMB_EE && !alt) {
            isa = Isa.T32;
        }
    }

    /**
     * Decodes the compressed address section at b[p..] (IHI 0035B 4.5.4, 4.5.5) into {@link #address}
     * and {@link #isa}; returns the number of address bytes. For waypoint updates the first byte has no
     * exception flag in its last byte.
     */
    private int decodeAddress(byte[] b, int p, int avail, boolean waypoint) {
        int count = 1;
        if ((b[p] & 0x80) != 0) {
            while (count < 5 && count < avail) {
                int v = b[p + count] & 0xFF;
                count++;
                if ((v & 0x80) == 0) {
                    break;
                }
            }
        }
        Isa target = isa;
        if (count == 5) {
            int v5 = b[p + 4] & 0xFF;
            if ((v5 & 0x20) != 0) {
                target = Isa.JAZELLE;
            } else if ((v5 & 0x30) == 0x10) {
                target = (isa == Isa.THUMB_EE) ? Isa.THUMB_EE : Isa.T32;
            } else {
                target = Isa.A32;
            }
            pkt.isaGiven = true;
        }
        long val = 0;
        int bits = 0;
        int shift = 0;
        for (int i = 0; i < count; i++) {
            int v = b[p + i] & 0xFF;
            int mask;
            int nb;
            if (i == 0) {
                mask = 0x7E;
                nb = 7;
            } else if (i == 4) {
                if (target == Isa.JAZELLE) {
                    mask = 0x1F;
                    nb = 5;
                } else if (target == Isa.A32) {
                    mask = 0x07;
                    nb = 3;
                } else {
                    mask = 0x0F;
                    nb = 4;
                }
            } else if (i == count - 1) {
                mask = 0x3F;
                nb = 6;
            } else {
                mask = 0x7F;
                nb = 7;
            }
            val |= (long) (v & mask) << shift;
            bits += nb;
            if (i == 0) {
                if (target == Isa.JAZELLE) {
                    val >>= 1;
                    shift = 6;
                    bits--;
                } else {
                    shift = 7;
                }
            } else {
                shift += 7;
            }
        }
        if (target == Isa.A32) {
            val <<= 1;
            bits++;
        }
        long m = bits >= 32 ? 0xFFFFFFFFL : (1L << bits) - 1;
        address = ((address & ~m) | (val & m)) & 0xFFFFFFFFL;
        isa = target;
        pkt.addressBits = Math.min(bits, 32);
        return count;
    }

    /** Cycle count field at b[q]: first byte bits [5:2] with continuation in bit 6, then 7 bits each. */
    private static long cycleCount(byte[] b, int q) {
        int v = b[q] & 0xFF;
        long c = (v >> 2) & 0xF;
        if ((v & 0x40) == 0) {
            return c;
        }
        int shift = 4;
        for (int i = 1; i < 5; i++) {
            v = b[q + i] & 0xFF;
            c |= (long) (v & 0x7F) << shift;
            shift += 7;
            if ((v & 0x80) == 0) {
                break;
            }
        }
        return c;
    }

    private static long littleEndian(byte[] b, int q, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (b[q + i] & 0xFFL) << (8 * i);
        }
        return v;
    }

    /** IHI 0035B 4.5.9: 7 bits per byte, the last of a full 48-bit value 6 bits, of 64-bit 8 bits. */
    private int decodeTimestamp(byte[] b, int p, PtmPacket k) {
        int max = ts64 ? 9 : 7;
        long v = 0;
        int bits = 0;
        int i = 1;
        int shift = 0;
        while (true) {
            int x = b[p + i] & 0xFF;
            boolean last = i == max;
            if (last) {
                int nb = ts64 ? 8 : 6;
                v |= (long) (x & ((1 << nb) - 1)) << shift;
                bits += nb;
            } else {
                v |= (long) (x & 0x7F) << shift;
                bits += 7;
            }
            i++;
            shift += 7;
            if (last || (x & 0x80) == 0) {
                break;
            }
        }
        int size = ts64 ? 64 : 48;
        bits = Math.min(bits, size);
        long m = bits >= 64 ? -1L : (1L << bits) - 1;
        if (tsBinary) {
            timestamp = (timestamp & ~m) | (v & m);
        } else {
            grayTimestamp = (grayTimestamp & ~m) | (v & m);
            timestamp = grayToBinary(grayTimestamp);
        }
        k.timestampBits = bits;
        return i;
    }

    static long grayToBinary(long g) {
        long b = g;
        for (int s = 1; s < 64; s <<= 1) {
            b ^= b >>> s;
        }
        return b;
    }

    static long binaryToGray(long b) {
        return b ^ (b >>> 1);
    }
}
