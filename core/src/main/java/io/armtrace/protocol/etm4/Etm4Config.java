package io.armtrace.protocol.etm4;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;

/**
 * How an ETMv4 or ETE trace unit was built and programmed, from the registers OpenCSD's snapshots record:
 * TRCCONFIGR (what is traced), TRCTRACEIDR (the CoreSight trace ID), TRCAUTHSTATUS (which states may be
 * traced), TRCIDR0-TRCIDR13 (what the unit implements) and, for ETE, TRCDEVARCH (which carries the ETE
 * version). {@code mProfile} is 0 for an A- or R-profile core, 7 or 8 for an Armv7-M (Cortex-M7) or Armv8-M
 * core (pseudo-registers {@code ARMV7M=1}, {@code ARMV8M=1}, which a snapshot's core type implies): M-profile
 * exceptions are numbered differently, and Armv8-M adds the Function Return packet.
 *
 * <p>Register layouts: ETMv4 architecture (IHI 0064), its register descriptions, and for ETE the
 * Arm ARM's external trace register descriptions (FEAT_ETE). Bits the packet layer needs are named here;
 * every other field is only put into words by {@link #describe()}.
 */
public record Etm4Config(long configr, int traceId, long authstatus, long idr0, long idr1, long idr2, long idr3,
                         long idr4, long idr5, long idr8, long idr9, long idr10, long idr11, long idr12,
                         long idr13, long devarch, boolean ete, int mProfile) {

    /** The registers armtrace reads (ARMV7M and ARMV8M are not registers of the unit: they say what the core is). */
    public static final List<String> REGISTERS = List.of("TRCCONFIGR", "TRCTRACEIDR", "TRCAUTHSTATUS", "TRCIDR0",
            "TRCIDR1", "TRCIDR2", "TRCIDR3", "TRCIDR4", "TRCIDR5", "TRCIDR6", "TRCIDR7", "TRCIDR8", "TRCIDR9",
            "TRCIDR10", "TRCIDR11", "TRCIDR12", "TRCIDR13", "TRCDEVARCH", "ARMV7M", "ARMV8M");

    // Values used when a register is not given: a Cortex-A57's ETMv4.0 (the Juno captures), and for
    // ETE a v1.0 unit (TRCDEVARCH.ARCHVER = 5), as OpenCSD assumes them.
    static final long DEFAULT_IDR0 = 0x28000EA1L;
    static final long DEFAULT_IDR1 = 0x4100F403L;
    static final long DEFAULT_IDR1_ETE = 0x4100FFF3L;
    static final long DEFAULT_IDR2 = 0x00000488L;
    static final long DEFAULT_DEVARCH_ETE = 0x47705A13L;

    // TRCCONFIGR (IHI 0064 and ETE register descriptions)
    static final long CONFIGR_INSTP0 = 3L << 1; // [2:1] load/store instructions as P0 elements
    static final long CONFIGR_BB = 1L << 3;     // branch broadcast
    static final long CONFIGR_CCI = 1L << 4;    // cycle counting in the instruction trace
    static final long CONFIGR_CID = 1L << 6;    // context ID tracing
    static final long CONFIGR_VMID = 1L << 7;   // VMID tracing
    static final int CONFIGR_COND_SHIFT = 8;    // [10:8] conditional instruction tracing
    static final long CONFIGR_TS = 1L << 11;    // global timestamps
    static final long CONFIGR_RS = 1L << 12;    // return stack
    static final int CONFIGR_QE_SHIFT = 13;     // [14:13] Q elements
    static final long CONFIGR_VMIDOPT = 1L << 15;
    static final long CONFIGR_DA = 1L << 16;    // data address tracing (ETMv4 only)
    static final long CONFIGR_DV = 1L << 17;    // data value tracing (ETMv4 only)
    static final long CONFIGR_ITO = 1L << 18;   // ETE: instrumentation trace override

    // TRCIDR0 (IHI 0064 register descriptions)
    static final long IDR0_TRCBB = 1L << 5;
    static final long IDR0_TRCCOND = 1L << 6;
    static final long IDR0_TRCCCI = 1L << 7;
    static final long IDR0_RETSTACK = 1L << 9;
    static final long IDR0_QFILT = 1L << 14;
    static final long IDR0_TRCEXDATA = 1L << 17;
    static final long IDR0_TSMARK = 1L << 23;   // ETE: timestamp markers implemented
    static final long IDR0_COMMOPT = 1L << 29;
    static final long IDR0_COMMTRANS = 1L << 30; // ETE: Transaction Start is not a P0 element

    /** Reads the registers; a register not given takes the value of a typical unit (see the defaults above). */
    public static Etm4Config of(Registers r, boolean ete) {
        long idr1 = r.get("TRCIDR1", ete ? DEFAULT_IDR1_ETE : DEFAULT_IDR1);
        return new Etm4Config(r.get("TRCCONFIGR", 0x1), (int) (r.get("TRCTRACEIDR", 0) & 0x7F),
                r.get("TRCAUTHSTATUS", 0), r.get("TRCIDR0", DEFAULT_IDR0), idr1, r.get("TRCIDR2", DEFAULT_IDR2),
                r.get("TRCIDR3", 0), r.get("TRCIDR4", 0), r.get("TRCIDR5", 0), r.get("TRCIDR8", 0),
                r.get("TRCIDR9", 0), r.get("TRCIDR10", 0), r.get("TRCIDR11", 0), r.get("TRCIDR12", 0),
                r.get("TRCIDR13", 0), r.get("TRCDEVARCH", ete ? DEFAULT_DEVARCH_ETE : 0), ete,
                r.get("ARMV8M", 0) != 0 ? 8 : r.get("ARMV7M", 0) != 0 ? 7 : 0);
    }

    /** This configuration with the CoreSight trace ID {@code id} (a snapshot's source may say it elsewhere). */
    public Etm4Config withTraceId(int id) {
        return new Etm4Config(configr, id & 0x7F, authstatus, idr0, idr1, idr2, idr3, idr4, idr5, idr8, idr9, idr10,
                idr11, idr12, idr13, devarch, ete, mProfile);
    }

    // --- versions -----------------------------------------------------------------------------

    /**
     * Architecture major version: TRCIDR1.TRCARCHMAJ (4 for ETMv4); for ETE TRCDEVARCH.ARCHVER (5), since
     * ETE's TRCIDR1.TRCARCHMAJ reads 0b1111.
     */
    public int majorVersion() {
        return ete ? (int) (devarch >> 12) & 0xF : (int) (idr1 >> 8) & 0xF;
    }

    /** Minor version: TRCIDR1.TRCARCHMIN (ETMv4.x); for ETE TRCDEVARCH.REVISION (ETE v1.x). */
    public int minorVersion() {
        return ete ? (int) (devarch >> 16) & 0xF : (int) (idr1 >> 4) & 0xF;
    }

    /** Major and minor version as one number, 0x40-0x46 for ETMv4.0-4.6, 0x50-0x53 for ETE v1.0-1.3. */
    public int version() {
        return majorVersion() << 4 | minorVersion();
    }

    // --- TRCIDR0: what the unit implements ---------------------------------------------------------

    /** TRCIDR0.INSTP0 [2:1]: load and store instructions can be P0 elements. */
    public int instP0Support() {
        return (int) (idr0 >> 1) & 3;
    }

    /** TRCIDR0.TRCDATA [4:3]: data address and value tracing implemented (ETMv4 only). */
    public boolean dataTraceImplemented() {
        return (idr0 & 0x18) == 0x18;
    }

    public boolean branchBroadcastImplemented() {
        return (idr0 & IDR0_TRCBB) != 0;
    }

    /** TRCIDR0.TRCCOND: conditional instruction tracing implemented. */
    public boolean conditionalTraceImplemented() {
        return (idr0 & IDR0_TRCCOND) != 0;
    }

    public boolean cycleCountingImplemented() {
        return (idr0 & IDR0_TRCCCI) != 0;
    }

    public boolean returnStackImplemented() {
        return (idr0 & IDR0_RETSTACK) != 0;
    }

    /** TRCIDR0.NUMEVENT [11:10] + 1. */
    public int numEvents() {
        return (int) (idr0 >> 10 & 3) + 1;
    }

    /** TRCIDR0.CONDTYPE [13:12]: 0 = pass/fail results, 1 = APSR condition flags. */
    public int condType() {
        return (int) (idr0 >> 12) & 3;
    }

    /** TRCIDR0.QSUPP [16:15]: 0 none, 1 with instruction counts, 2 without, 3 both. */
    public int qSupport() {
        return (int) (idr0 >> 15) & 3;
    }

    /** TRCIDR0.TSSIZE [28:24]: timestamp size in bits (48 or 64), 0 when timestamps are not implemented. */
    public int timestampBits() {
        int f = (int) (idr0 >> 24) & 0x1F;
        return f == 0x6 ? 48 : f == 0x8 ? 64 : 0;
    }

    /**
     * Commit mode 1 (TRCIDR0.COMMOPT, IHI 0064, commit modes): the cycle count packets carry no commit field. Only
     * meaningful where cycle counting is implemented.
     */
    public boolean commitMode1() {
        return (idr0 & IDR0_COMMOPT) != 0 && cycleCountingImplemented();
    }

    /** ETE: TRCIDR0.COMMTRANS clear means a Transaction Start element is a P0 element. */
    public boolean transactionStartIsP0() {
        return (idr0 & IDR0_COMMTRANS) == 0;
    }

    /** Timestamp Marker packets: ETMv4.6 and ETE (ETE v1.1 and later also report TRCIDR0.TSMARK). */
    public boolean timestampMarkers() {
        return version() >= 0x46;
    }

    // --- TRCIDR2: sizes ----------------------------------------------------------------------------

    /** TRCIDR2.IASIZE [4:0]: 64-bit instruction addresses (0b01000) or 32-bit (0b00100). */
    public int addressBits() {
        return (idr2 & 0x1F) == 0x8 ? 64 : 32;
    }

    /** TRCIDR2.CIDSIZE [9:5]: context ID bytes in context packets, 4 or 0. */
    public int contextIdBytes() {
        return ((idr2 >> 5) & 0x1F) == 0x4 ? 4 : 0;
    }

    /**
     * TRCIDR2.VMIDSIZE [14:10]: VMID bytes in context packets: 1 (8-bit), from ETMv4.1 also 2 (16-bit) or
     * 4 (32-bit); 0 when not implemented.
     */
    public int vmidBytes() {
        int f = (int) (idr2 >> 10) & 0x1F;
        if (f == 1) {
            return 1;
        }
        if (version() >= 0x41 || ete) {
            return f == 2 ? 2 : f == 4 ? 4 : 0;
        }
        return 0;
    }

    /** TRCIDR2.CCSIZE [28:25]: cycle counter size, 12 to 20 bits. */
    public int cycleCounterBits() {
        return (int) (idr2 >> 25 & 0xF) + 12;
    }

    /** TRCIDR2.VMIDOPT [30:29] (ETMv4.1+): TRCCONFIGR.VMIDOPT implemented (1) or fixed to 1 (2). */
    public int vmidOptSupport() {
        return version() >= 0x41 ? (int) (idr2 >> 29) & 3 : 0;
    }

    /** TRCIDR2.WFXMODE [31] (ETMv4.3+): WFI and WFE are P0 (branch) instructions. */
    public boolean wfiWfeAreBranches() {
        return version() >= 0x43 && (idr2 & 0x80000000L) != 0;
    }

    /** TRCIDR8.MAXSPEC: the most P0 elements that can be uncommitted (0: every element commits at once). */
    public long maxSpeculation() {
        return idr8 & 0xFFFFFFFFL;
    }

    // --- TRCCONFIGR: what is traced ----------------------------------------------------------------

    public boolean branchBroadcast() {
        return (configr & CONFIGR_BB) != 0;
    }

    public boolean cycleCounting() {
        return (configr & CONFIGR_CCI) != 0;
    }

    public boolean contextIdTracing() {
        return (configr & CONFIGR_CID) != 0;
    }

    public boolean vmidTracing() {
        return (configr & CONFIGR_VMID) != 0;
    }

    /** TRCCONFIGR.COND [10:8]: 0 none, 1 loads, 2 stores, 3 loads and stores, 7 all conditional instructions. */
    public int conditionalTracing() {
        return (int) (configr >> CONFIGR_COND_SHIFT) & 7;
    }

    public boolean timestamps() {
        return (configr & CONFIGR_TS) != 0;
    }

    public boolean returnStack() {
        return (configr & CONFIGR_RS) != 0;
    }

    /** TRCCONFIGR.QE [14:13]. */
    public int qElements() {
        return (int) (configr >> CONFIGR_QE_SHIFT) & 3;
    }

    /** Data trace: load/store P0 elements and data address or value tracing (ETMv4 only; ETE has none). */
    public boolean dataTracing() {
        return !ete && dataTraceImplemented() && (configr & CONFIGR_INSTP0) != 0
                && (configr & (CONFIGR_DA | CONFIGR_DV)) != 0;
    }

    /** The conditional instruction and result packets are valid (ETMv4 only). */
    public boolean conditionalPackets() {
        return !ete && conditionalTraceImplemented() && conditionalTracing() != 0;
    }

    /** Q packets are valid: the unit implements Q elements (TRCIDR0.QSUPP). */
    public boolean qPackets() {
        return qSupport() != 0;
    }

    /** The Ignore packet exists from ETMv4.3 (and in ETE). */
    public boolean ignorePacket() {
        return version() >= 0x43;
    }

    /** The traced core is an M-profile core. */
    public boolean isMProfile() {
        return mProfile != 0;
    }

    /** The Function Return packet (v8-M cores with ETMv4.2 and later). */
    public boolean functionReturnPacket() {
        return mProfile == 8 && !ete && version() >= 0x42;
    }

    /** ETE v1.3 (FEAT_ITE): the Instrumentation packet. */
    public boolean instrumentationPacket() {
        return ete && minorVersion() >= 3;
    }

    /**
     * The registers contradict each other: TRCCONFIGR asks for something TRCIDR0/TRCIDR2 say the unit does
     * not implement, or the version is not one of ETMv4.0-4.6 / ETE. {@code given} are the registers actually
     * supplied: a register that was not given cannot contradict anything. Returns one sentence, or null.
     */
    public String contradiction(Registers given) {
        boolean cfg = given.has("TRCCONFIGR");
        boolean id0 = given.has("TRCIDR0");
        boolean id2 = given.has("TRCIDR2");
        String c = String.format("TRCCONFIGR=0x%08x", configr);
        String i0 = String.format("TRCIDR0=0x%08x", idr0);
        String i2 = String.format("TRCIDR2=0x%08x", idr2);
        if (!ete && given.has("TRCIDR1") && majorVersion() != 4) {
            return String.format("TRCIDR1=0x%08x says architecture version %d.%d, which is not ETMv4"
                    + " (for ETE give the device type ETE or --protocol ete).", idr1, majorVersion(), minorVersion());
        }
        if (!ete && given.has("TRCIDR1") && minorVersion() > 6) {
            return String.format("TRCIDR1=0x%08x says ETMv4.%d; armtrace knows ETMv4.0 to ETMv4.6.", idr1, minorVersion());
        }
        if (ete && given.has("TRCDEVARCH") && majorVersion() != 5) {
            return String.format("TRCDEVARCH=0x%08x says architecture version %d, which is not ETE (5).", devarch,
                    majorVersion());
        }
        if (cfg && id0) {
            if (cycleCounting() && !cycleCountingImplemented()) {
                return c + " asks for cycle counting (CCI, bit 4), but " + i0 + " says the trace unit has none (TRCCCI, bit 7).";
            }
            if (branchBroadcast() && !branchBroadcastImplemented()) {
                return c + " asks for branch broadcasting (BB, bit 3), but " + i0 + " says it is not implemented (TRCBB, bit 5).";
            }
            if (returnStack() && !returnStackImplemented()) {
                return c + " enables the return stack (RS, bit 12), but " + i0 + " says there is none (RETSTACK, bit 9).";
            }
            if (timestamps() && timestampBits() == 0) {
                return c + " asks for timestamps (TS, bit 11), but " + i0 + " says they are not implemented (TSSIZE, bits 28:24).";
            }
            if (qElements() != 0 && qSupport() == 0) {
                return c + " enables Q elements (QE, bits 14:13), but " + i0 + " says they are not implemented (QSUPP, bits 16:15).";
            }
            if (!ete && conditionalTracing() != 0 && !conditionalTraceImplemented()) {
                return c + " asks for conditional instruction tracing (COND, bits 10:8), but " + i0
                        + " says it is not implemented (TRCCOND, bit 6).";
            }
            if (!ete && (configr & CONFIGR_INSTP0) != 0 && instP0Support() == 0) {
                return c + " asks for load and store P0 elements (INSTP0, bits 2:1), but " + i0 + " says they are not implemented.";
            }
            if (!ete && (configr & (CONFIGR_DA | CONFIGR_DV)) != 0 && !dataTraceImplemented()) {
                return c + " asks for data tracing (DA/DV, bits 17:16), but " + i0 + " says it is not implemented (TRCDATA, bits 4:3).";
            }
        }
        if (cfg && id2) {
            if (contextIdTracing() && contextIdBytes() == 0) {
                return c + " asks for context IDs (CID, bit 6), but " + i2 + " says they are not implemented (CIDSIZE, bits 9:5).";
            }
            if (vmidTracing() && vmidBytes() == 0) {
                return c + " asks for VMIDs (VMID, bit 7), but " + i2 + " says they are not implemented (VMIDSIZE, bits 14:10).";
            }
        }
        return null;
    }

    /** The registers in words, one line each, for {@code armtrace info}. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        String name = ete ? String.format("ETE v1.%d (TRCDEVARCH=0x%08x)", minorVersion(), devarch)
                : String.format("ETMv%d.%d (TRCIDR1=0x%08x, revision %d)", majorVersion(), minorVersion(), idr1, idr1 & 0xF);
        out.add(name + String.format(", trace ID 0x%02x%s", traceId, mProfile != 0 ? ", Armv" + mProfile + "-M core" : ""));
        out.add(String.format("TRCCONFIGR=0x%08x: %s", configr, tracedInWords()));
        out.add(String.format("TRCIDR0=0x%08x: %s", idr0, implementedInWords()));
        out.add(String.format("TRCIDR2=0x%08x: %d-bit instruction addresses, context ID %s, VMID %s, %d-bit cycle counter%s",
                idr2, addressBits(), contextIdBytes() == 0 ? "not implemented" : contextIdBytes() * 8 + "-bit",
                vmidBytes() == 0 ? "not implemented" : vmidBytes() * 8 + "-bit", cycleCounterBits(),
                wfiWfeAreBranches() ? ", WFI/WFE traced as branches" : ""));
        out.add("Speculation: " + (maxSpeculation() == 0 ? "none (every P0 element is committed at once, TRCIDR8=0)"
                : "up to " + maxSpeculation() + " uncommitted P0 elements (TRCIDR8)"));
        if (idr3 != 0) {
            out.add(String.format("TRCIDR3=0x%08x: exception levels traced Secure EL%s, Non-secure EL%s; cycle count threshold at least %d%s",
                    idr3, levels((int) (idr3 >> 16) & 0xF), levels((int) (idr3 >> 20) & 0xF), idr3 & 0xFFF,
                    (idr3 & 0x80000000L) != 0 ? "; overflow prevention" : ""));
        }
        if (idr4 != 0) {
            out.add(String.format("TRCIDR4=0x%08x: %d address comparator pairs, %d PE comparators, %d context ID and %d VMID comparators",
                    idr4, idr4 & 0xF, idr4 >> 12 & 0xF, idr4 >> 24 & 0xF, idr4 >> 28 & 0xF));
        }
        if (idr5 != 0) {
            out.add(String.format("TRCIDR5=0x%08x: %d-bit trace ID, %d counters, %d sequencer states", idr5,
                    idr5 >> 16 & 0x3F, idr5 >> 28 & 0x7, idr5 >> 25 & 0x7));
        }
        if (authstatus != 0) {
            out.add(String.format("TRCAUTHSTATUS=0x%08x: Non-secure invasive %s, non-invasive %s; Secure invasive %s, non-invasive %s",
                    authstatus, auth(authstatus), auth(authstatus >> 2), auth(authstatus >> 4), auth(authstatus >> 6)));
        }
        return out;
    }

    private String tracedInWords() {
        List<String> on = new ArrayList<>();
        on.add(branchBroadcast() ? "branch broadcast" : "indirect branches only");
        if (cycleCounting()) {
            on.add("cycle counts");
        }
        if (timestamps()) {
            on.add("timestamps");
        }
        if (contextIdTracing()) {
            on.add("context IDs");
        }
        if (vmidTracing()) {
            on.add("VMIDs" + ((configr & CONFIGR_VMIDOPT) != 0 ? " (CONTEXTIDR_EL2)" : ""));
        }
        if (returnStack()) {
            on.add("return stack");
        }
        if (qElements() != 0) {
            on.add("Q elements");
        }
        if (!ete && conditionalTracing() != 0) {
            on.add("conditional instructions");
        }
        if (!ete && (configr & CONFIGR_INSTP0) != 0) {
            on.add("load/store P0 elements");
        }
        if (ete && (configr & CONFIGR_ITO) != 0) {
            on.add("instrumentation trace override");
        }
        return String.join(", ", on);
    }

    private String implementedInWords() {
        List<String> has = new ArrayList<>();
        if (branchBroadcastImplemented()) {
            has.add("branch broadcast");
        }
        if (cycleCountingImplemented()) {
            has.add("cycle counting (commit mode " + (commitMode1() ? 1 : 0) + ")");
        }
        if (returnStackImplemented()) {
            has.add("return stack");
        }
        if (conditionalTraceImplemented()) {
            has.add("conditional tracing (" + (condType() == 1 ? "APSR flags" : "pass/fail") + ")");
        }
        if (dataTraceImplemented()) {
            has.add("data tracing");
        }
        if (qSupport() != 0) {
            has.add("Q elements");
        }
        has.add(timestampBits() == 0 ? "no timestamps" : timestampBits() + "-bit timestamps");
        has.add(numEvents() + " events");
        return String.join(", ", has);
    }

    private static String levels(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int el = 0; el < 4; el++) {
            if ((mask >> el & 1) != 0) {
                sb.append(sb.isEmpty() ? "" : ",").append(el);
            }
        }
        return sb.isEmpty() ? " none" : sb.toString();
    }

    private static String auth(long twoBits) {
        return switch ((int) twoBits & 3) {
            case 2 -> "disabled";
            case 3 -> "enabled";
            default -> "not implemented";
        };
    }
}
