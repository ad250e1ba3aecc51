package io.armtrace.protocol.etm4;

/**
 * One ETMv4/ETE instruction trace packet as {@link Etm4PacketReader} decoded it: its kind, byte offset,
 * raw bytes and fields, all primitives. The reader reuses one instance for every packet, so a listener
 * copies out what it keeps. Fields that a kind does not carry hold stale values;  Addresses, context, timestamp are the decompressed values: the bits a packet did not carry
 * come from the reader's state (the address history, the current context, the last timestamp).
 * {@link #kind()} says which fields are meaningful.
 *
 * <p>Kinds are named after the packets of IHI 0064's packet descriptions and of
 * the ETE specification, in the form OpenCSD's listings also use (I_ATOM_F3 there, ATOM_F3 here).
 */
public final class Etm4Packet {

    /** The packets of ETMv4.0-4.6 and ETE, plus the reader's own NOT_SYNC / RESERVED / BAD_SEQUENCE / INCOMPLETE. */
    public enum Kind {
        /** Bytes before the first A-sync, or after an error until the next one: not decodable. */
        NOT_SYNC,
        A_SYNC, DISCARD, OVERFLOW, TRACE_INFO, TRACE_ON, TIMESTAMP, EXCEPTION, EXCEPTION_RETURN,
        /** v8-M only: a function return (data trace hint). */
        FUNCTION_RETURN,
        CYCLE_COUNT_F1, CYCLE_COUNT_F2, CYCLE_COUNT_F3,
        NUMBERED_DATA_SYNC, UNNUMBERED_DATA_SYNC,
        COMMIT, CANCEL_F1, CANCEL_F2, CANCEL_F3, MISPREDICT,
        COND_INSTR_F1, COND_INSTR_F2, COND_INSTR_F3, COND_FLUSH,
        COND_RESULT_F1, COND_RESULT_F2, COND_RESULT_F3, COND_RESULT_F4,
        IGNORE, EVENT, CONTEXT,
        ADDR_CTXT_32_IS0, ADDR_CTXT_32_IS1, ADDR_CTXT_64_IS0, ADDR_CTXT_64_IS1,
        ADDR_EXACT_MATCH, ADDR_SHORT_IS0, ADDR_SHORT_IS1,
        ADDR_LONG_32_IS0, ADDR_LONG_32_IS1, ADDR_LONG_64_IS0, ADDR_LONG_64_IS1,
        Q,
        ATOM_F1, ATOM_F2, ATOM_F3, ATOM_F4, ATOM_F5, ATOM_F6,
        // ETE
        /** ETE: an exception packet of type 0, a PE reset (no address follows). */
        PE_RESET,
        /** ETE: an exception packet of type 0x18, a transaction failure (no address follows). */
        TRANSACTION_FAILURE,
        TRANSACTION_START, TRANSACTION_COMMIT, INSTRUMENTATION, TIMESTAMP_MARKER,
        SRC_ADDR_EXACT_MATCH, SRC_ADDR_SHORT_IS0, SRC_ADDR_SHORT_IS1,
        SRC_ADDR_LONG_32_IS0, SRC_ADDR_LONG_32_IS1, SRC_ADDR_LONG_64_IS0, SRC_ADDR_LONG_64_IS1,
        // reader's own
        /** A header that is reserved, or reserved in this configuration: the reader resynchronizes. */
        RESERVED,
        /** A packet that breaks its own format (a bad A-sync, an extension byte, an overlong field). */
        BAD_SEQUENCE,
        /** The trace ended inside a packet. */
        INCOMPLETE;

        /** Any packet that carries a target address (and pushes it onto the address history). */
        public boolean isAddress() {
            return compareTo(ADDR_CTXT_32_IS0) >= 0 && compareTo(ADDR_LONG_64_IS1) <= 0;
        }

        /** An ETE source address packet (a P0 element: the address of a taken branch's source). */
        public boolean isSourceAddress() {
            return compareTo(SRC_ADDR_EXACT_MATCH) >= 0 && compareTo(SRC_ADDR_LONG_64_IS1) <= 0;
        }

        public boolean isAtom() {
            return compareTo(ATOM_F1) >= 0 && compareTo(ATOM_F6) <= 0;
        }

        /** Address packets that carry a context too. */
        public boolean hasContext() {
            return compareTo(ADDR_CTXT_32_IS0) >= 0 && compareTo(ADDR_CTXT_64_IS1) <= 0;
        }

        /** True for the kinds that say the stream could not be parsed here. */
        public boolean isError() {
            return this == RESERVED || this == BAD_SEQUENCE || this == INCOMPLETE;
        }
    }

    /** Longest raw byte run kept with a packet (longer NOT_SYNC runs keep their first bytes). */
    public static final int MAX_BYTES = 32;

    private static final Kind[] KINDS = Kind.values();

    /** The kind, as an index: a byte is stored without the GC write barrier an enum reference costs per packet. */
    byte kindIndex;

    public Kind kind() {
        return KINDS[kindIndex];
    }
    /** Byte offset of the packet's first byte in the source's stream, and its length in bytes. */
    public long offset;
    public int length;
    /** The packet's first min(length, MAX_BYTES) bytes. */
    public final byte[] bytes = new byte[MAX_BYTES];

    // --- addresses (address, address with context, exact match, Q with address, source address, exception)
    /** The full address after this packet (history entry 0), and its instruction set: 0 = IS0, 1 = IS1. */
    public long address;
    public int addressIs;
    /** Address bits the packet carried (short: 9/17 or 8/16, long: 32/64); 0 for an exact match. */
    public int addressBits;
    /** Exact match: the address history entry (0-2) the address was taken from. */
    public int matchIndex;

    // --- context (context, address with context) ----------------------------------------------------
    /** The packet carried a context (false for a context packet that says "same as before"). */
    public boolean contextGiven;
    /** Exception level, security, AArch64 state; NSE is ETE's Realm bit (0 before RME). */
    public int el;
    public boolean nonSecure;
    public boolean aarch64;
    public boolean nse;
    /** Whether this packet carried a VMID / context ID, and the current values (also when not carried). */
    public boolean vmidGiven;
    public long vmid;
    public boolean contextIdGiven;
    public long contextId;

    // --- atoms (atom packets, mispredict, cancel formats 2 and 3) -----------------------------------------
    /** Number of atoms, and their values: bit i (i = 0 oldest) set = E, clear = N. */
    public int atomCount;
    public int atomBits;

    /** Makes this the address packet b[pos..pos+length) (headers 0x90-0x92, 0x95, 0x96, 0x9A, 0x9B). */
    void setAddress(byte[] b, int pos, int length, long offset, long address, int is) {
        int h = b[pos] & 0xFF;
        kindIndex = addressKindIndex(h);
        if (h <= 0x92) {
            addressBits = 0;
            matchIndex = h & 3;
        } else if (h <= 0x96) {
            addressBits = (h == 0x95 ? 9 : 8) + (length == 3 ? 8 : 0);
        } else {
            addressBits = 32;
        }
        this.offset = offset;
        this.length = length;
        byte[] to = bytes;
        for (int i = 0; i < length; i++) {
            to[i] = b[pos + i];
        }
        this.address = address;
        addressIs = is;
        if (problem != null) {
            problem = null;
        }
    }

    private static final byte EXACT_INDEX = (byte) Kind.ADDR_EXACT_MATCH.ordinal();
    private static final byte SHORT_IS0_INDEX = (byte) Kind.ADDR_SHORT_IS0.ordinal();
    private static final byte SHORT_IS1_INDEX = (byte) Kind.ADDR_SHORT_IS1.ordinal();
    private static final byte LONG_32_IS0_INDEX = (byte) Kind.ADDR_LONG_32_IS0.ordinal();
    private static final byte LONG_32_IS1_INDEX = (byte) Kind.ADDR_LONG_32_IS1.ordinal();

    /** The kind index of an address packet of the reader's fast path, from its header: see {@link #addressKind}. */
    private static byte addressKindIndex(int h) {
        if (h <= 0x92) {
            return EXACT_INDEX;
        }
        if (h <= 0x96) {
            return h == 0x95 ? SHORT_IS0_INDEX : SHORT_IS1_INDEX;
        }
        return h == 0x9A ? LONG_32_IS0_INDEX : LONG_32_IS1_INDEX;
    }

    /** The kind of an address packet of the reader's fast path, from its header (0x90-0x92, 0x95, 0x96, 0x9A, 0x9B). */
    static Kind addressKind(int header) {
        if (header < 0x90 || header > 0x9B || header == 0x93 || header == 0x94 || (header > 0x96 && header < 0x9A)) {
            throw new IllegalArgumentException(
                    "not a short, long 32-bit or exact match address header: 0x" + Integer.toHexString(header));
        }
        return KINDS[addressKindIndex(header)];
    }

    /** The kind of the atom packet with this header (0xC0-0xFF). */
    static Kind atomKind(int header) {
        return KINDS[Etm4PacketReader.atomKindIndex(header)];
    }

    /** Makes this an atom packet (the kind from the header: IHI 0064, Atom packets). */
    void setAtom(long offset, int header, int count, int bits) {
        kindIndex = Etm4PacketReader.atomKindIndex(header);
        this.offset = offset;
        length = 1;
        bytes[0] = (byte) header;
        atomCount = count;
        atomBits = bits;
        // (no problem to clear: only an A-sync follows a packet with one)
    }

    // --- exception --------------------------------------------------------------------------------------
    /** Exception type (10 bits), address interpretation E1:E0, M-profile fault pending. */
    public int exceptionType;
    public int addressInterpretation;
    public boolean faultPending;

    // --- timestamp, cycle counts ------------------------------------------------------------------------
    /** The timestamp after this packet, and how many low bits the packet updated (64 = all). */
    public long timestamp;
    public int timestampBits;
    /** Cycle count carried (timestamp with count, cycle count packets); -1 unknown or none. */
    public long cycles;

    // --- speculation ------------------------------------------------------------------------------------
    /** P0 elements committed (commit packet, cycle count formats 1-3); -1 none. */
    public long commit;
    /** P0 elements cancelled (cancel formats 1-3); 0 none. */
    public long cancel;
    /** The packet also says the newest remaining atom was mispredicted. */
    public boolean mispredict;

    // --- trace info ---------------------------------------------------------------------------------------
    /** Which sections were present (PLCTL bits 0-3: INFO, KEY, SPEC, CYCT), and their values. */
    public int plctl;
    public long info;
    public long p0Key;
    public long specDepth;
    public long ccThreshold;

    // --- others ---------------------------------------------------------------------------------------------
    /** Event packet: the events that occurred, one bit each (bits 3:0). */
    public int events;
    /** Data synchronization markers: the number (numbered) or the marker value (unnumbered). */
    public int marker;
    /** Q packet: its type (header bits 3:0), instruction count (-1 none). */
    public int qType;
    public long qCount;
    /** Conditional instruction/result packets, parsed through: their key or token field. */
    public long condKey;
    public int condValue;
    /** ETE instrumentation: exception level byte and the 64-bit value. */
    public int iteEl;
    public long iteValue;
    /** Why a packet is RESERVED, BAD_SEQUENCE or INCOMPLETE; null otherwise. */
    public String problem;

    /** True if atom {@code i} (0 = oldest) is an E atom. */
    public boolean atomE(int i) {
        return (atomBits >> i & 1) != 0;
    }

    /** The atoms as E/N letters, oldest first. */
    public String atoms() {
        StringBuilder sb = new StringBuilder(atomCount);
        for (int i = 0; i < atomCount; i++) {
            sb.append(atomE(i) ? 'E' : 'N');
        }
        return sb.toString();
    }

    /** Exception names, A-profile (IHI 0064's A-profile exception types, with ETE's PE reset and transaction failure). */
    static final String[] A_EXCEPTIONS = {
        "PE reset", "Debug halt", "Call", "Trap", "System error", "Reserved", "Inst debug", "Data debug",
        "Reserved", "Reserved", "Alignment", "Inst fault", "Data fault", "Reserved", "IRQ", "FIQ"};

    /**
     * The name of exception {@code type}. An M-profile type is the exception number (IHI 0064, the M-profile
     * exception types: 2 NMI ... 15 SysTick, 16 + n IRQ n for n below 8, 0x200 + n for IRQ n from 8 on), so its
     * name comes from the one table of M-profile exception names; ETMv4 spells three of them its own way (as
     * OpenCSD lists them: "PE reset", "SVC", and 7 is reserved in the packet even where it is SecureFault) and
     * adds three that are not exceptions of the architecture's table (24 to 26).
     */
    public static String exceptionName(int type, boolean mProfile) {
        if (mProfile) {
            String name = switch (type) {
                case 1 -> "PE reset";
                case 11 -> "SVC";
                case 24 -> "DebugHalt";
                case 25 -> "LazyFP push";
                case 26 -> "Lockup";
                default -> type >= 2 && type <= 23 && type != 7 ? io.armtrace.trace.MProfileExceptions.name(type)
                        : type >= 0x208 && type <= 0x3EF ? io.armtrace.trace.MProfileExceptions.name(type - 0x200 + 16)
                        : null;
            };
            return name != null ? name : "Reserved";
        }
        if (type == 0x18) {
            return "Transaction failure";
        }
        return type < A_EXCEPTIONS.length ? A_EXCEPTIONS[type] : "Reserved";
    }

    /**
     * The packet in words, for listings: the one place packet text is made. Not for hot paths.
     * {@code mProfile} chooses the exception names.
     */
    public String text(boolean mProfile) {
        return kind() + fields(mProfile);
    }

    /** This packet as a protocol-independent record (for listings, not for the decode path). */
    public io.armtrace.protocol.Packet toPacket(boolean mProfile) {
        return new io.armtrace.protocol.Packet(kind().name(), offset, length, fields(mProfile));
    }

    /** The packet's fields in words, after its kind. */
    private String fields(boolean mProfile) {
        Kind kind = kind();
        StringBuilder sb = new StringBuilder(64);
        switch (kind) {
            case NOT_SYNC -> sb.append(' ').append(length).append(" bytes before a synchronization point");
            case TRACE_INFO -> {
                sb.append(" info=0x").append(Long.toHexString(info)).append(" cc=").append(info & 1);
                if ((plctl & 2) != 0) {
                    sb.append(" p0key=").append(p0Key);
                }
                if ((plctl & 4) != 0) {
                    sb.append(" spec=").append(specDepth);
                }
                if ((plctl & 8) != 0) {
                    sb.append(" cc_threshold=0x").append(Long.toHexString(ccThreshold));
                }
            }
            case TIMESTAMP -> {
                sb.append(" ts=0x").append(Long.toHexString(timestamp)).append(" (").append(timestampBits).append(" bits)");
                if (cycles >= 0) {
                    sb.append(" cc=").append(cycles);
                }
            }
            case EXCEPTION -> sb.append(' ').append(exceptionName(exceptionType, mProfile)).append(" (0x")
                    .append(Integer.toHexString(exceptionType)).append(')')
                    .append(addressInterpretation == 2 ? " at branch target" : "")
                    .append(faultPending ? " fault pending" : "");
            case CYCLE_COUNT_F1, CYCLE_COUNT_F2, CYCLE_COUNT_F3 -> {
                sb.append(cycles < 0 ? " count=unknown" : " count=" + cycles);
                if (commit >= 0) {
                    sb.append(" commit=").append(commit);
                }
            }
            case NUMBERED_DATA_SYNC, UNNUMBERED_DATA_SYNC -> sb.append(' ').append(marker);
            case COMMIT -> sb.append(' ').append(commit);
            case CANCEL_F1, CANCEL_F2, CANCEL_F3, MISPREDICT -> {
                if (atomCount > 0) {
                    sb.append(' ').append(atoms());
                }
                if (cancel > 0) {
                    sb.append(" cancel=").append(cancel);
                }
                if (mispredict) {
                    sb.append(" mispredict");
                }
            }
            case COND_INSTR_F1, COND_INSTR_F2, COND_INSTR_F3, COND_RESULT_F1, COND_RESULT_F2, COND_RESULT_F3,
                 COND_RESULT_F4 -> sb.append(" key=").append(condKey).append(" value=0x").append(Integer.toHexString(condValue));
            case EVENT -> sb.append(" events=0x").append(Integer.toHexString(events));
            case CONTEXT -> appendContext(sb);
            case ADDR_EXACT_MATCH, SRC_ADDR_EXACT_MATCH -> {
                sb.append(" [").append(matchIndex).append(']');
                appendAddress(sb);
            }
            case Q -> {
                sb.append(" type=").append(qType);
                if (qCount >= 0) {
                    sb.append(" count=").append(qCount);
                }
                if (addressBits > 0 || qType <= 2) {
                    appendAddress(sb);
                }
            }
            case INSTRUMENTATION -> sb.append(" el=").append(iteEl).append(" value=0x").append(Long.toHexString(iteValue));
            case RESERVED, BAD_SEQUENCE, INCOMPLETE -> sb.append(' ').append(problem);
            default -> {
                if (kind.isAtom()) {
                    sb.append(' ').append(atoms());
                } else if (kind.isAddress() || kind.isSourceAddress()) {
                    appendAddress(sb);
                    if (kind.hasContext()) {
                        appendContext(sb);
                    }
                }
            }
        }
        return sb.toString();
    }

    private void appendAddress(StringBuilder sb) {
        sb.append(" addr=0x").append(Long.toHexString(address)).append(addressIs == 0 ? " IS0" : " IS1");
        if (addressBits > 0 && addressBits < 64) {
            sb.append(" (").append(addressBits).append(" bits)");
        }
    }

    private void appendContext(StringBuilder sb) {
        if (!contextGiven) {
            sb.append(" same");
            return;
        }
        sb.append(' ').append(aarch64 ? "AArch64" : "AArch32").append(" EL").append(el).append(nonSecure ? " NS" : " S");
        if (nse) {
            sb.append(" NSE");
        }
        if (vmidGiven) {
            sb.append(" vmid=0x").append(Long.toHexString(vmid));
        }
        if (contextIdGiven) {
            sb.append(" ctxtid=0x").append(Long.toHexString(contextId));
        }
    }

    @Override
    public String toString() {
        return offset + ": " + text(false);
    }
}
