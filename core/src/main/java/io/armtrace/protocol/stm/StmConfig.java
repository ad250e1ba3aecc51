package io.armtrace.protocol.stm;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;

/**
 * How the System Trace Macrocell was programmed, from STMTCSR, its Trace Control and Status Register (Arm DDI
 * 0444, CoreSight STM-500): the packet stream itself says everything else (VERSION gives the timestamp coding,
 * FREQ the timestamp clock).
 */
public record StmConfig(long tcsr) {
    /** STMTCSR bit 0, EN: the STM is enabled. */
    public static final long TCSR_EN = 1L;
    /** STMTCSR bit 1, TSEN: timestamps are generated. */
    public static final long TCSR_TSEN = 1L << 1;
    /** STMTCSR bit 2, SYNCEN: ASYNC packets are generated periodically. */
    public static final long TCSR_SYNCEN = 1L << 2;
    /** STMTCSR bit 3, HWTEN: hardware event trace is generated. */
    public static final long TCSR_HWTEN = 1L << 3;
    /** STMTCSR bit 5, COMPEN: data compression (leading zeros dropped: D8 and D16 for small values). */
    public static final long TCSR_COMPEN = 1L << 5;
    /** STMTCSR bits 22:16, TRACEID: the CoreSight trace ID of the stream. */
    public static final int TCSR_TRACEID_SHIFT = 16;

    public static StmConfig of(Registers r) {
        return new StmConfig(r.get("STMTCSR", 0) & 0xFFFFFFFFL);
    }

    public Registers registers() {
        return new Registers().put("STMTCSR", tcsr);
    }

    public int traceId() {
        return (int) (tcsr >> TCSR_TRACEID_SHIFT) & 0x7F;
    }

    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(String.format("STMTCSR 0x%08x: STM %s, trace ID 0x%02x", tcsr, (tcsr & TCSR_EN) != 0 ? "enabled" : "disabled",
                traceId()));
        out.add("  timestamps " + ((tcsr & TCSR_TSEN) != 0 ? "on" : "off") + ", periodic ASYNC "
                + ((tcsr & TCSR_SYNCEN) != 0 ? "on" : "off") + ", hardware event trace "
                + ((tcsr & TCSR_HWTEN) != 0 ? "on" : "off") + ", compression " + ((tcsr & TCSR_COMPEN) != 0 ? "on" : "off"));
        return out;
    }
}
