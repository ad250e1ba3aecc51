package io.armtrace.protocol.ptm;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;

/**
 * How a PTM was programmed, from its registers (IHI 0035B 3.4): ETMCR (Main Control Register),
 * ETMIDR (ID Register), ETMCCER (Configuration Code Extension Register) and ETMTRACEIDR.
 */
public record PtmConfig(long etmcr, long etmidr, long etmccer, int traceId) {

    // ETMCR bits, IHI 0035B 3.4.1
    static final long CR_BRANCH_BROADCAST = 1L << 8;
    static final long CR_CYCLE_ACCURATE = 1L << 12;
    static final int CR_CONTEXT_ID_SHIFT = 14;
    static final long CR_TIMESTAMP = 1L << 28;
    static final long CR_RETURN_STACK = 1L << 29;
    static final long CR_VMID = 1L << 30;

    // ETMCCER bits, IHI 0035B 3.4.6
    static final long CCER_TIMESTAMP = 1L << 22;
    static final long CCER_RETURN_STACK = 1L << 23;
    static final long CCER_DMB_DSB_WAYPOINT = 1L << 24;
    static final long CCER_VIRTUALIZATION = 1L << 26;
    static final long CCER_TS_BINARY = 1L << 28;
    static final long CCER_TS_64BIT = 1L << 29;

    /** The ETMIDR of a Cortex-A15 PTM (PFT 1.1), used when a capture does not give one. */
    public static final long DEFAULT_ETMIDR = 0x411CF312L;

    public static PtmConfig of(Registers r, int traceIdIfMissing) {
        int id = (int) (r.get("ETMTRACEIDR", traceIdIfMissing) & 0x7F);
        return new PtmConfig(r.get("ETMCR", 0), r.get("ETMIDR", DEFAULT_ETMIDR), r.get("ETMCCER", 0), id);
    }

    public Registers toRegisters() {
        return new Registers().put("ETMCR", etmcr).put("ETMIDR", etmidr).put("ETMCCER", etmccer)
                .put("ETMTRACEIDR", traceId);
    }

    /** PFT minor version: 0 for PFT 1.0 (Cortex-A9), 1 for PFT 1.1 (Cortex-A15 and later). */
    public int pftMinor() {
        return (int) (etmidr >> 4) & 0xF;
    }

    public boolean cycleAccurate() {
        return (etmcr & CR_CYCLE_ACCURATE) != 0;
    }

    public boolean branchBroadcast() {
        return (etmcr & CR_BRANCH_BROADCAST) != 0;
    }

    /** Number of context ID bytes in I-sync and context ID packets: 0, 1, 2 or 4. */
    public int contextIdBytes() {
        int s = (int) (etmcr >> CR_CONTEXT_ID_SHIFT) & 3;
        return s == 3 ? 4 : s;
    }

    public boolean timestampsEnabled() {
        return (etmcr & CR_TIMESTAMP) != 0;
    }

    /**
     * Return stack in use: enabled in ETMCR. The implemented bit of ETMCCER is informational only; a
     * capture whose ETMCCER is missing (0) still decodes with the return stack if ETMCR enables it.
     */
    public boolean returnStack() {
        return (etmcr & CR_RETURN_STACK) != 0;
    }

    public boolean vmidEnabled() {
        return (etmcr & CR_VMID) != 0;
    }

    public boolean dmbDsbWaypoints() {
        return (etmccer & CCER_DMB_DSB_WAYPOINT) != 0;
    }

    /** Timestamps are 64 bits (else 48); PFT 1.1 only. */
    public boolean timestamp64() {
        return pftMinor() >= 1 && (etmccer & CCER_TS_64BIT) != 0;
    }

    /** Timestamps are natural binary (else Gray code); PFT 1.1 only. */
    public boolean timestampBinary() {
        return pftMinor() >= 1 && (etmccer & CCER_TS_BINARY) != 0;
    }

    /** Exception return packets exist from PFT 1.1 on. */
    public boolean hasExceptionReturnPacket() {
        return pftMinor() >= 1;
    }

    /** The registers in words, one line each. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(String.format("PFT 1.%d (ETMIDR 0x%08x), trace ID 0x%02x", pftMinor(), etmidr, traceId));
        out.add("Return stack: " + (returnStack() ? "enabled" : "disabled")
                + ((etmccer & CCER_RETURN_STACK) != 0 ? " (implemented)" : ""));
        out.add("Cycle-accurate: " + (cycleAccurate() ? "yes" : "no"));
        out.add("Branch broadcast: " + (branchBroadcast() ? "yes" : "no"));
        out.add("Context ID size: " + (contextIdBytes() == 0 ? "not traced" : contextIdBytes() + " bytes"));
        out.add("VMID: " + (vmidEnabled() ? "traced" : "not traced"));
        out.add("Timestamps: " + (timestampsEnabled()
                ? "enabled, " + (timestamp64() ? 64 : 48) + "-bit, " + (timestampBinary() ? "binary" : "Gray code")
                : "disabled"));
        if (dmbDsbWaypoints()) {
            out.add("DMB/DSB are waypoints");
        }
        return out;
    }
}
