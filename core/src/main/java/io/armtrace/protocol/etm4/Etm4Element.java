package io.armtrace.protocol.etm4;

/**
 * One element of the ETMv4/ETE trace element stream after speculation is resolved (IHI 0064, the trace
 * element stream): what {@link Etm4Speculation} gives the flow that walks the program. Only
 * committed elements appear, in the architecture's order; cancelled and mispredicted ones are gone, and
 * every address and context is placed where it applies. One instance is reused for every element: a
 * listener copies out what it keeps. Fields a kind does not carry hold stale values.
 */
public final class Etm4Element {

    /** Element kinds. */
    public enum Kind {
        /** A trace info packet: the trace restarts from here; cycle counting and threshold as it says. */
        TRACE_INFO,
        /** Trace starts (again): a discontinuity; {@link #afterOverflow} if trace was lost to an overflow. */
        TRACE_ON,
        /** Execution continues at {@link #address} in instruction set {@link #is} (the target of the last P0 element, or a start address). */
        ADDRESS,
        /** The context from here on: exception level, security state, AArch64, VMID and context ID when given. */
        CONTEXT,
        /** One committed atom: the next P0 instruction was executed (E, {@link #executed}) or not (N). */
        ATOM,
        /** An exception, with its preferred return address ({@link #address}, {@link #is}). */
        EXCEPTION,
        /** An exception return (a P0 element on Armv7-M, a marker elsewhere). */
        EXCEPTION_RETURN,
        /** Armv8-M function return (a P0 element). */
        FUNCTION_RETURN,
        /** {@link #count} instructions executed (-1: unknown) ending at the following {@link #address}. */
        Q,
        /** ETE: the source address of a taken branch, a P0 element. */
        SOURCE_ADDRESS,
        /** A timestamp, with the cycle count of the packet when it had one ({@link #cycles}, else -1). */
        TIMESTAMP,
        /** Cycles since the previous cycle count ({@link #cycles}, -1 when unknown). */
        CYCLE_COUNT,
        /** Events ({@link #events}, one bit each). */
        EVENT,
        TIMESTAMP_MARKER,
        /** ETE instrumentation: {@link #el} and {@link #value}. */
        INSTRUMENTATION,
        TRANSACTION_START, TRANSACTION_COMMIT, TRANSACTION_FAILURE,
        /** ETE: the PE was reset. */
        PE_RESET,
        /** The trace unit's buffer overflowed: trace was lost; uncommitted elements are gone. */
        OVERFLOW,
        /** The trace unit discarded the uncommitted elements (trace was disabled while they were speculative). */
        DISCARD,
        /** The trace could not be decoded from {@link #offset} on ({@link #reason}) until the next synchronization. */
        GAP
    }

    private static final Kind[] KINDS = Kind.values();

    /** The kind, as an index: a byte is stored without the GC write barrier an enum reference costs. */
    byte kindIndex = (byte) Kind.GAP.ordinal();

    public Kind kind() {
        return KINDS[kindIndex];
    }

    void kind(Kind k) {
        kindIndex = (byte) k.ordinal();
    }
    /** Byte offset of the packet the element came from. */
    public long offset;
    public long address;
    /** Instruction set of {@link #address}: 0 = IS0 (A64 or A32), 1 = IS1 (T32). */
    public int is;
    public boolean executed;
    public int exceptionType;
    /** The exception's return address is also the target of the P0 element before it (E1:E0 = 0b10). */
    public boolean atBranchTarget;
    public boolean faultPending;
    // context
    public int el;
    public boolean nonSecure;
    public boolean aarch64;
    public boolean nse;
    public boolean vmidGiven;
    public long vmid;
    public boolean contextIdGiven;
    public long contextId;
    // counts
    public long timestamp;
    public long cycles;
    public long count;
    public int events;
    public long value;
    public boolean afterOverflow;
    public boolean cycleCounting;
    public long ccThreshold;
    /** Why a GAP: one of the constant sentences of {@link Etm4Speculation}. */
    public String reason;

    /** The element in words, for tests and debugging. */
    @Override
    public String toString() {
        Kind kind = kind();
        StringBuilder sb = new StringBuilder().append(kind);
        switch (kind) {
            case ATOM -> sb.append(executed ? " E" : " N");
            case ADDRESS, SOURCE_ADDRESS -> sb.append(" 0x").append(Long.toHexString(address)).append(is == 0 ? " IS0" : " IS1");
            case EXCEPTION -> sb.append(" type=0x").append(Integer.toHexString(exceptionType)).append(" return=0x")
                    .append(Long.toHexString(address)).append(is == 0 ? " IS0" : " IS1").append(atBranchTarget ? " at-target" : "");
            case CONTEXT -> {
                sb.append(aarch64 ? " AArch64" : " AArch32").append(" EL").append(el).append(nonSecure ? " NS" : " S");
                if (vmidGiven) {
                    sb.append(" vmid=0x").append(Long.toHexString(vmid));
                }
                if (contextIdGiven) {
                    sb.append(" ctxtid=0x").append(Long.toHexString(contextId));
                }
            }
            case Q -> sb.append(" count=").append(count).append(" 0x").append(Long.toHexString(address));
            case TIMESTAMP -> sb.append(" 0x").append(Long.toHexString(timestamp)).append(cycles >= 0 ? " cc=" + cycles : "");
            case CYCLE_COUNT -> sb.append(' ').append(cycles);
            case EVENT -> sb.append(" 0x").append(Integer.toHexString(events));
            case INSTRUMENTATION -> sb.append(" el=").append(el).append(" 0x").append(Long.toHexString(value));
            case TRACE_ON -> sb.append(afterOverflow ? " after overflow" : "");
            case TRACE_INFO -> sb.append(cycleCounting ? " cc threshold=" + ccThreshold : "");
            case GAP -> sb.append(' ').append(reason);
            default -> {
            }
        }
        return sb.toString();
    }
}
