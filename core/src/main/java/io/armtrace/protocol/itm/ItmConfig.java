package io.armtrace.protocol.itm;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;

/**
 * How the ITM and the DWT were programmed, from their registers: ITM_TCR (the Trace Control Register,
 * named {@code ITMTCR} in snapshots, ARMv7-M ARM C1.7.6 / ARMv8-M ARM D1.2) and, optionally, DWT_CTRL
 * ({@code DWTCTRL}, ARMv7-M ARM C1.8.7), which says how often the DWT samples the PC.
 *
 * <p>The packet protocol does not depend on the registers: every packet says what it is. What they change is
 * the meaning of numbers: the local timestamp prescaler scales local timestamps, and TraceBusID names the
 * source in a CoreSight formatted stream.
 */
public record ItmConfig(long tcr, long dwtCtrl, boolean hasDwtCtrl) {

    /** ITM_TCR bit 0, ITMENA: the ITM is enabled. */
    public static final long TCR_ITMENA = 1L;
    /** ITM_TCR bit 1, TSENA: local timestamps are generated. */
    public static final long TCR_TSENA = 1L << 1;
    /** ITM_TCR bit 2, SYNCENA: synchronization packets are generated. */
    public static final long TCR_SYNCENA = 1L << 2;
    /** ITM_TCR bit 3, TXENA (DWTENA in ARMv7-M): DWT packets are forwarded to the ITM. */
    public static final long TCR_TXENA = 1L << 3;
    /** ITM_TCR bit 4, SWOENA: local timestamps count the TPIU's asynchronous clock, not the processor's. */
    public static final long TCR_SWOENA = 1L << 4;
    /** ITM_TCR bit 5, STALLENA (ARMv8-M): the processor stalls instead of the ITM dropping packets. */
    public static final long TCR_STALLENA = 1L << 5;
    /** ITM_TCR bits 9:8, TSPrescale: local timestamp clock divided by 1, 4, 16 or 64. */
    public static final int TCR_TSPRESCALE_SHIFT = 8;
    /** ITM_TCR bits 11:10, GTSFREQ: how often global timestamps are generated. */
    public static final int TCR_GTSFREQ_SHIFT = 10;
    /** ITM_TCR bits 22:16, TraceBusID: the CoreSight trace ID of the ITM's stream. */
    public static final int TCR_TRACEBUSID_SHIFT = 16;

    /** DWT_CTRL bit 9, CYCTAP: the PC sample counter is clocked from CYCCNT bit 10 (else bit 6). */
    public static final long DWT_CYCTAP = 1L << 9;
    /** DWT_CTRL bits 4:1, POSTPRESET: reload value of the PC sample counter. */
    public static final int DWT_POSTPRESET_SHIFT = 1;
    /** DWT_CTRL bit 12, PCSAMPLENA: periodic PC samples are generated. */
    public static final long DWT_PCSAMPLENA = 1L << 12;
    /** DWT_CTRL bit 16, EXCTRCENA: exception trace is generated. */
    public static final long DWT_EXCTRCENA = 1L << 16;
    /** DWT_CTRL bits 22:17: CPIEVTENA, EXCEVTENA, SLEEPEVTENA, LSUEVTENA, FOLDEVTENA, CYCEVTENA. */
    public static final int DWT_EVTENA_SHIFT = 17;

    public static ItmConfig of(Registers r) {
        return new ItmConfig(r.get("ITMTCR", 0) & 0xFFFFFFFFL, r.get("DWTCTRL", 0) & 0xFFFFFFFFL, r.has("DWTCTRL"));
    }

    /** The registers that describe this configuration. */
    public Registers registers() {
        Registers r = new Registers().put("ITMTCR", tcr);
        if (hasDwtCtrl) {
            r.put("DWTCTRL", dwtCtrl);
        }
        return r;
    }

    /** The CoreSight trace ID (TraceBusID). */
    public int traceId() {
        return (int) (tcr >> TCR_TRACEBUSID_SHIFT) & 0x7F;
    }

    /** The local timestamp prescaler: 1, 4, 16 or 64 clock cycles per count. */
    public int tsPrescale() {
        return 1 << (2 * ((int) (tcr >> TCR_TSPRESCALE_SHIFT) & 3));
    }

    /** Processor cycles between two periodic PC samples: (POSTPRESET + 1) taps of CYCCNT bit 6 or 10. */
    public long pcSampleInterval() {
        long preset = (dwtCtrl >> DWT_POSTPRESET_SHIFT) & 0xF;
        return (preset + 1) * ((dwtCtrl & DWT_CYCTAP) != 0 ? 1024 : 64);
    }

    /** The registers in words, for {@code armtrace info}. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(String.format("ITM_TCR 0x%08x: ITM %s, trace ID 0x%02x", tcr, (tcr & TCR_ITMENA) != 0 ? "enabled" : "disabled",
                traceId()));
        out.add("  local timestamps " + ((tcr & TCR_TSENA) != 0 ? "on, clocked by the "
                + ((tcr & TCR_SWOENA) != 0 ? "TPIU's asynchronous clock" : "processor clock") + " divided by " + tsPrescale()
                : "off"));
        String[] gts = {"off", "about every 128 cycles", "about every 8192 cycles", "after every packet"};
        out.add("  global timestamps " + gts[(int) (tcr >> TCR_GTSFREQ_SHIFT) & 3]);
        out.add("  synchronization packets " + ((tcr & TCR_SYNCENA) != 0 ? "on" : "off")
                + "; DWT packets " + ((tcr & TCR_TXENA) != 0 ? "forwarded" : "not forwarded")
                + "; on a full FIFO the " + ((tcr & TCR_STALLENA) != 0 ? "processor stalls" : "ITM drops packets (overflow)"));
        if (hasDwtCtrl) {
            out.add(String.format("DWT_CTRL 0x%08x: PC sampling %s, exception trace %s", dwtCtrl,
                    (dwtCtrl & DWT_PCSAMPLENA) != 0 ? "every " + pcSampleInterval() + " cycles" : "off",
                    (dwtCtrl & DWT_EXCTRCENA) != 0 ? "on" : "off"));
            StringBuilder ev = new StringBuilder();
            String[] names = {"CPI", "EXC", "SLEEP", "LSU", "FOLD", "CYC"};
            for (int i = 0; i < names.length; i++) {
                if ((dwtCtrl >> (DWT_EVTENA_SHIFT + i) & 1) != 0) {
                    ev.append(ev.length() == 0 ? "" : ", ").append(names[i]);
                }
            }
            out.add("  event counter packets: " + (ev.length() == 0 ? "none" : ev));
        }
        return out;
    }
}
