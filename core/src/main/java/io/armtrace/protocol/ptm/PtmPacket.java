package io.armtrace.protocol.ptm;

import io.armtrace.trace.Isa;

/**
 * One PFT packet (IHI 0035B 4.5), as {@link PtmPacketReader} decoded it. Mutable and reused for every
 * packet: a listener copies out what it keeps. Fields not carried by a packet keep the reader's state
 * (address, ISA, security state, timestamp) so that a listener always sees the full current value.
 */
public final class PtmPacket {

    /** Packet kinds, IHI 0035B Table 4.1, plus the reader's own NOT_SYNC / BAD / INCOMPLETE. */
    public enum Type {
        /** Bytes skipped before the first (or next, after an error) A-sync: not decodable. */
        NOT_SYNC,
        A_SYNC, I_SYNC, ATOM, BRANCH_ADDRESS, WAYPOINT_UPDATE, TRIGGER, CONTEXT_ID, VMID, TIMESTAMP,
        EXCEPTION_RETURN, IGNORE,
        /** A reserved header or a malformed packet: the reader drops sync and waits for an A-sync. */
        BAD,
        /** The trace ended inside a packet. */
        INCOMPLETE
    }

    /** I-sync reasons, IHI 0035B 4.5.2. */
    public static final String[] REASONS = {"Periodic", "Trace enable", "Restart after overflow", "Debug exit"};

    /** Exception numbers of exception branch address packets, IHI 0035B Table 4.4. */
    public static final String[] EXCEPTIONS = {
        "No exception", "Debug halt", "SMC", "Hyp", "Asynchronous data abort", "Jazelle/ThumbEE check",
        "Reserved", "Reserved", "Processor reset", "Undefined instruction", "SVC", "Prefetch abort",
        "Data fault", "Generic", "IRQ", "FIQ"};

    public Type type;
    /** Byte offset of the packet's first byte in the source's stream, and its length in bytes. */
    public long offset;
    public int length;

    /** Current address (I-sync, branch address, waypoint update) after decompression. */
    public long address;
    /** Number of low address bits this packet gave (32 for I-sync). */
    public int addressBits;
    /** Instruction set state now; {@link #isaGiven} says whether this packet stated it. */
    public Isa isa = Isa.A32;
    public boolean isaGiven;
    public boolean nonSecure;
    public boolean hyp;
    /** Branch address packet carried exception information bytes (security state, maybe exception). */
    public boolean exceptionInfo;
    /** Exception number (IHI 0035B Table 4.4); 0 when the branch is not an exception. */
    public int exception;
    /** I-sync reason 0-3, see {@link #REASONS}. */
    public int reason;
    /** Context ID from this packet, -1 if it carried none. */
    public long contextId = -1;
    public int vmid;
    /** Timestamp value now, and how many low bits this packet updated. */
    public long timestamp;
    public int timestampBits;
    /** Cycle count carried by this packet, -1 if none. */
    public long cycles = -1;
    /** Number of atoms (1-5) and their values: bit i (i = 0 oldest) set = E, clear = N. */
    public int atomCount;
    public int atomBits;
    /** Why a packet is BAD. */
    public String error;

    /**
     * Set by the reader after an atom or one-byte branch address packet, cleared by {@link #clear}: while
     * set, the fields that neither packet carries hold their cleared values and the reader's state.
     */
    boolean plain;

    void clear(Type t, long off, int len) {
        plain = false;
        if (type != t) {
            type = t; // a reference store into an old object costs a GC write barrier: only on change
        }
        offset = off;
        length = len;
        isaGiven = false;
        exceptionInfo = false;
        exception = 0;
        contextId = -1;
        cycles = -1;
        atomCount = 0;
        atomBits = 0;
        addressBits = 0;
        timestampBits = 0;
        if (error != null) {
            error = null;
        }
    }

    /** True if atom {@code i} (0 = oldest) is an E atom. */
    public boolean atomE(int i) {
        return (atomBits >> i & 1) != 0;
    }

    /** True for a branch address packet that reports an exception (nonzero exception field, 4.5.4). */
    public boolean isExceptionBranch() {
        return type == Type.BRANCH_ADDRESS && exception != 0;
    }

    public static String exceptionName(int n) {
        return n < EXCEPTIONS.length ? EXCEPTIONS[n] : "Exception " + n;
    }

    /** This packet as a protocol-independent record (for listings, not for the decode path). */
    public io.armtrace.protocol.Packet toPacket() {
        return new io.armtrace.protocol.Packet(type.name(), offset, length, fields());
    }

    /** The packet in words, for listings. Not for hot paths. */
    @Override
    public String toString() {
        return type + fields();
    }

    /** The packet's fields in words, after its kind. */
    private String fields() {
        StringBuilder sb = new StringBuilder();
        switch (type) {
            case I_SYNC -> {
                sb.append(" (").append(REASONS[reason & 3]).append(") addr=0x").append(hex8(address))
                        .append(' ').append(isa).append(nonSecure ? " NS" : " S").append(hyp ? " Hyp" : "");
                if (contextId >= 0) {
                    sb.append(" ctxt=0x").append(Long.toHexString(contextId));
                }
            }
            case ATOM -> {
                sb.append(' ');
                for (int i = 0; i < atomCount; i++) {
                    sb.append(atomE(i) ? 'E' : 'N');
                }
            }
            case BRANCH_ADDRESS, WAYPOINT_UPDATE -> {
                sb.append(" addr=0x").append(hex8(address)).append(" (").append(addressBits).append(" bits)");
                if (isaGiven) {
                    sb.append(' ').append(isa);
                }
                if (exceptionInfo) {
                    sb.append(nonSecure ? " NS" : " S").append(hyp ? " Hyp" : "");
                }
                if (exception != 0) {
                    sb.append(" exception=").append(exceptionName(exception)).append(" (").append(exception).append(')');
                }
            }
            case CONTEXT_ID -> sb.append(" ctxt=0x").append(Long.toHexString(contextId));
            case VMID -> sb.append(" vmid=0x").append(Integer.toHexString(vmid));
            case TIMESTAMP -> sb.append(" ts=0x").append(Long.toHexString(timestamp)).append(" (").append(timestamp)
                    .append(')');
            case BAD -> sb.append(' ').append(error);
            default -> {
            }
        }
        if (cycles >= 0) {
            sb.append(" cycles=").append(cycles);
        }
        return sb.toString();
    }

    private static String hex8(long v) {
        String s = Long.toHexString(v);
        return "00000000".substring(Math.min(8, s.length())) + s;
    }
}
