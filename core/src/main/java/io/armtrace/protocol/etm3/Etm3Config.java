package io.armtrace.protocol.etm3;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;

/**
 * How an ETMv3 trace unit was programmed, from its registers: ETMCR (main control), ETMIDR (ID),
 * ETMCCER (configuration code extension) and ETMTRACEIDR. {@code armv7m} says whether the traced core is
 * ARMv7-M (register {@code ARMV7M} = 1), which changes how exception numbers read (IHI 0014Q Table 7.11).
 */
public record Etm3Config(long etmcr, long etmidr, long etmccer, int traceId, boolean armv7m) {

    /** ETMCR bit [2]: data value tracing. */
    public static final long CR_DATA_VALUE = 1L << 2;
    /** ETMCR bit [3]: data address tracing. */
    public static final long CR_DATA_ADDRESS = 1L << 3;
    /** ETMCR bit [8]: branch output, the address of every taken branch is traced, direct ones too. */
    public static final long CR_BRANCH_OUTPUT = 1L << 8;
    /** ETMCR bit [12]: cycle-accurate tracing. */
    public static final long CR_CYCLE_ACCURATE = 1L << 12;
    /** ETMCR bits [15:14]: context ID size. */
    public static final int CR_CONTEXT_ID_SHIFT = 14;
    /** ETMCR bit [20]: data-only mode (no instruction trace). */
    public static final long CR_DATA_ONLY = 1L << 20;
    /** ETMCR bit [28]: timestamping enabled (ETMv3.5). */
    public static final long CR_TIMESTAMP = 1L << 28;
    /** ETMCR bit [30]: VMID tracing enabled (ETMv3.5). */
    public static final long CR_VMID = 1L << 30;
    /** ETMIDR bit [20]: the alternative branch address encoding is implemented (ETMv3.4+). */
    public static final long IDR_ALT_BRANCH = 1L << 20;
    /** ETMCCER bit [22]: timestamping implemented. */
    public static final long CCER_TIMESTAMP = 1L << 22;
    /** ETMCCER bit [26]: the core implements the Virtualization Extensions. */
    public static final long CCER_VIRTUALIZATION = 1L << 26;
    /** ETMCCER bit [29]: timestamps are 64 bits (else 48). */
    public static final long CCER_TIMESTAMP_64 = 1L << 29;

    /** A typical ETMv3.5 unit: ETMIDR of a Cortex-A7 ETM, no options enabled. */
    public static final long DEFAULT_ETMIDR = 0x410CF250L;

    public static Etm3Config of(Registers regs) {
        long cr = regs.get("ETMCR", 0);
        long idr = regs.get("ETMIDR", DEFAULT_ETMIDR);
        long ccer = regs.get("ETMCCER", 0);
        int id = (int) regs.get("ETMTRACEIDR", 0) & 0x7F;
        boolean m = regs.get("ARMV7M", 0) != 0;
        return new Etm3Config(cr, idr, ccer, id, m);
    }

    /** The registers that describe this configuration. */
    public Registers registers() {
        Registers r = new Registers().put("ETMCR", etmcr).put("ETMIDR", etmidr).put("ETMCCER", etmccer)
                .put("ETMTRACEIDR", traceId);
        if (armv7m) {
            r.put("ARMV7M", 1);
        }
        return r;
    }

    public boolean cycleAccurate() {
        return (etmcr & CR_CYCLE_ACCURATE) != 0;
    }

    /** Context ID bytes in I-sync and context ID packets: 0, 1, 2 or 4 (ETMCR[15:14]). */
    public int contextIdBytes() {
        int s = (int) (etmcr >> CR_CONTEXT_ID_SHIFT) & 3;
        return s == 3 ? 4 : s;
    }

    public boolean dataValues() {
        return (etmcr & CR_DATA_VALUE) != 0;
    }

    public boolean dataAddresses() {
        return (etmcr & CR_DATA_ADDRESS) != 0;
    }

    public boolean dataTrace() {
        return dataValues() || dataAddresses();
    }

    public boolean instructionTrace() {
        return (etmcr & CR_DATA_ONLY) == 0;
    }

    public boolean timestamps() {
        return (etmcr & CR_TIMESTAMP) != 0;
    }

    public boolean timestamp64() {
        return (etmccer & CCER_TIMESTAMP_64) != 0;
    }

    public boolean vmid() {
        return (etmcr & CR_VMID) != 0;
    }

    public boolean virtualization() {
        return (etmccer & CCER_VIRTUALIZATION) != 0;
    }

    /** ETMIDR[11:8] + 1 for ETMv3 (value 2), so 3 here. */
    public int majorVersion() {
        return (int) ((etmidr >> 8) & 0xF) + 1;
    }

    /** The x of ETMv3.x: ETMIDR[7:4]. */
    public int minorVersion() {
        return (int) (etmidr >> 4) & 0xF;
    }

    /** Alternative branch address encoding: ETMIDR[20], from ETMv3.4 (IHI 0014Q 7.3.5). */
    public boolean alternativeBranch() {
        return (etmidr & IDR_ALT_BRANCH) != 0 && minorVersion() >= 4;
    }

    /** The registers in words, one line each. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(String.format("ETMv%d.%d trace unit (ETMIDR=0x%08x), trace ID 0x%02x%s", majorVersion(), minorVersion(),
                etmidr, traceId, armv7m ? ", ARMv7-M core" : ""));
        out.add(String.format("ETMCR=0x%08x: %s, %s", etmcr,
                cycleAccurate() ? "cycle-accurate" : "not cycle-accurate",
                contextIdBytes() == 0 ? "no context ID" : contextIdBytes() + "-byte context ID"));
        out.add("Instruction trace " + (instructionTrace() ? "on" : "off (data-only mode)") + "; data tracing: "
                + (!dataTrace() ? "off" : (dataAddresses() ? "addresses" : "") + (dataAddresses() && dataValues() ? " and " : "")
                + (dataValues() ? "values" : "")));
        out.add("Branch output (ETMCR[8]): " + ((etmcr & CR_BRANCH_OUTPUT) != 0 ? "every taken branch" : "indirect branches only"));
        out.add("Timestamps " + (timestamps() ? "enabled" : "disabled") + "; VMID tracing " + (vmid() ? "enabled" : "disabled"));
        out.add(String.format("ETMCCER=0x%08x: timestamps %s (%d-bit), virtualization extensions %s", etmccer,
                (etmccer & CCER_TIMESTAMP) != 0 ? "implemented" : "not implemented", timestamp64() ? 64 : 48,
                virtualization() ? "present" : "absent"));
        out.add("Branch address encoding: " + (alternativeBranch() ? "alternative (ETMIDR[20]=1)" : "original"));
        return out;
    }
}
