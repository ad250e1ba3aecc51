package io.armtrace.protocol.etm3;

import io.armtrace.trace.Isa;

/**
 * One ETMv3 packet as {@link Etm3PacketReader} delivers it. The reader reuses one instance: a listener
 * copies out what it keeps. Fields that a kind does not use keep stale values; {@link #kind} says which
 * ones are meaningful. Addresses, ISA, security state and timestamp are the decompressed values: the
 * bits the packet did not carry are filled in from earlier packets (IHI 0014Q Table 7.5).
 */
public final class Etm3Packet {

    /** Packet kinds, named as in IHI 0014Q Table 7.1. */
    public enum Kind {
        A_SYNC, I_SYNC, P_HEADER, BRANCH, CYCLE_COUNT, CONTEXT_ID, VMID, TIMESTAMP, TRIGGER, IGNORE,
        EXCEPTION_ENTRY, EXCEPTION_EXIT, NORMAL_DATA, OUT_OF_ORDER_DATA, OUT_OF_ORDER_PLACEHOLDER,
        VALUE_NOT_TRACED, STORE_FAILED, DATA_SUPPRESSED,
        /** Bytes skipped while looking for an A-sync (start of stream or after an error). */
        UNSYNCED,
        /** A reserved header or a packet that breaks its own format: the reader resynchronizes. */
        MALFORMED
    }

    public Kind kind;
    /** Byte offset of the packet's first byte in the source's stream, and its length in bytes. */
    public long offset;
    public int length;

    // --- P-header: atoms, oldest first. Bit i of atomBits is 1 when atom i is E (executed).
    public int atomCount;
    public int atomBits;
    /** W atoms (cycles) this P-header stands for; 0 when not cycle-accurate. */
    public int cycles;
    /** P-header format number (0-4) for listings. */
    public int format;

    // --- branch and I-sync
    public long address;
    /** Address bits the packet carried (before the ISA shift is applied, plus that shift). */
    public int addressBits;
    public Isa isa = Isa.A32;
    /** The branch packet carried address byte 5, so it states the ISA explicitly. */
    public boolean isaGiven;
    public boolean ns;
    public boolean hyp;
    public boolean altIsa;
    /** Exception Information Byte 0 (or a deprecated byte-5 exception) was present. */
    public boolean exceptionInfo;
    /** Excp[8:0]; 0 = no exception. For a deprecated byte-5 exception, the EEE field + 16 (Table 7.7). */
    public int exception;
    public boolean deprecatedException;
    public boolean cancel;
    public int resume;

    // --- I-sync
    /** I-sync reason (b00 periodic, b01 trace enabled, b10 restart after overflow, b11 debug exit). */
    public int reason;
    public boolean hasCycleCount;
    public boolean lsip;
    /** For an LSiP I-sync: the address of the load/store instruction in progress. */
    public long lsipInstruction;
    public boolean hasAddress;
    public boolean jazelle;

    // --- cycle count, context, timestamp
    public long cycleCount;
    public long contextId;
    public int vmid;
    public long timestamp;
    public boolean timestampReason;

    // --- data trace
    public boolean dataAddressGiven;
    public long dataAddress;
    public int dataSize;
    public long dataValue;
    public int tag;

    /** For {@link Kind#MALFORMED}: what was wrong. */
    public String problem;

    /** The atoms as E/N letters (W for cycles in cycle-accurate listings). */
    public String atoms() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < atomCount; i++) {
            sb.append((atomBits >> i & 1) != 0 ? 'E' : 'N');
        }
        return sb.toString();
    }

    /** The name of this packet's kind in listings and statistics. */
    public String kindName() {
        return switch (kind) {
            case P_HEADER -> "P_HDR";
            case OUT_OF_ORDER_DATA -> "OOO_DATA";
            case OUT_OF_ORDER_PLACEHOLDER -> "OOO_PLACEHOLDER";
            default -> kind.name();
        };
    }

    /** This packet as a protocol-independent record (for listings, not for the decode path). */
    public io.armtrace.protocol.Packet toPacket() {
        return io.armtrace.protocol.Packet.ofText(kindName(), offset, length, toString());
    }

    /** The packet in words: its kind name, then its fields. */
    @Override
    public String toString() {
        return switch (kind) {
            case A_SYNC -> "A_SYNC";
            case P_HEADER -> "P_HDR fmt" + format + " " + (atomCount == 0 ? "-" : atoms())
                    + (cycles > 0 ? " W=" + cycles : "");
            case BRANCH -> String.format("BRANCH addr=0x%08X bits=%d %s%s%s", address, addressBits, isa,
                    isaGiven ? " (stated)" : "",
                    exceptionInfo ? String.format(" %s%s excp=0x%X%s%s%s", ns ? "NS" : "S", hyp ? " Hyp" : "",
                            exception, cancel ? " cancel" : "", altIsa ? " AltISA" : "",
                            resume != 0 ? " resume=" + resume : "") : "")
                    + (deprecatedException ? " (byte-5 exception)" : "");
            case I_SYNC -> String.format("I_SYNC%s reason=%d %s%s%s%s", hasCycleCount ? " cc=" + cycleCount : "",
                    reason, hasAddress ? String.format("addr=0x%08X %s", address, isa) : "no address",
                    ns ? " NS" : " S", hyp ? " Hyp" : "", lsip ? String.format(" LSiP insn=0x%08X", lsipInstruction) : "")
                    + String.format(" ctxid=0x%X", contextId);
            case CYCLE_COUNT -> "CYCLE_COUNT " + cycleCount;
            case CONTEXT_ID -> String.format("CONTEXT_ID 0x%X", contextId);
            case VMID -> String.format("VMID 0x%02X", vmid);
            case TIMESTAMP -> String.format("TIMESTAMP 0x%X%s", timestamp, timestampReason ? " (R)" : "");
            case TRIGGER -> "TRIGGER";
            case IGNORE -> "IGNORE";
            case EXCEPTION_ENTRY -> "EXCEPTION_ENTRY";
            case EXCEPTION_EXIT -> "EXCEPTION_EXIT";
            case NORMAL_DATA -> "NORMAL_DATA" + dataText();
            case OUT_OF_ORDER_DATA -> "OOO_DATA tag=" + tag + dataText();
            case OUT_OF_ORDER_PLACEHOLDER -> "OOO_PLACEHOLDER tag=" + tag + dataText();
            case VALUE_NOT_TRACED -> "VALUE_NOT_TRACED" + dataText();
            case STORE_FAILED -> "STORE_FAILED";
            case DATA_SUPPRESSED -> "DATA_SUPPRESSED";
            case UNSYNCED -> "UNSYNCED " + length + " bytes skipped";
            case MALFORMED -> "MALFORMED " + problem;
        };
    }

    private String dataText() {
        return (dataAddressGiven ? String.format(" addr=0x%08X", dataAddress) : "")
                + (dataSize > 0 ? String.format(" value=0x%X", dataValue) : "");
    }
}
