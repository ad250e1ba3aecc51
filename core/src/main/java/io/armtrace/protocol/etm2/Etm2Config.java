package io.armtrace.protocol.etm2;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How an ETMv1/ETMv2 trace port was configured: protocol version, TRACEPKT width, clocking, cycle-accurate
 * mode, context ID size and data trace. Built from ETMCR and ETMIDR (IHI 0014Q 3.3.2 Main Control Register,
 * 3.3.4 ID Register) or from the {@code etm-version}/{@code port-width} options.
 *
 * @param version         1 for ETMv1.x (3-bit PIPESTAT, TRACESYNC), 2 for ETMv2.x (4-bit PIPESTAT, TFOs)
 * @param portWidth       TRACEPKT width in bits: 4, 8 or 16
 * @param halfRate        ETMCR[13] half-rate clocking: the port is sampled on both edges of a half-speed
 *                        clock; a capture still holds one record per core cycle
 * @param cycleAccurate   ETMCR[12]: every core cycle is in the capture, so WT/TD cycles count time
 * @param contextIdBytes  ETMCR[15:14]: 0, 1, 2 or 4 context ID bytes in sync and context ID packets
 * @param dataAddress     ETMCR[3] data addresses traced (data packets carry an address after an A header)
 * @param dataValue       ETMCR[2] data values traced
 * @param branchOutput    ETMCR[8] every branch, direct ones too, output as BE with its address
 */
public record Etm2Config(int version, int portWidth, boolean halfRate, boolean cycleAccurate, int contextIdBytes,
                         boolean dataAddress, boolean dataValue, boolean branchOutput) {

    public static final Etm2Config DEFAULT = new Etm2Config(2, 8, false, true, 0, false, false, false);

    public Etm2Config {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("ETM version must be 1 or 2, not " + version + ".");
        }
        if (portWidth != 4 && portWidth != 8 && portWidth != 16) {
            throw new IllegalArgumentException("TRACEPKT port width must be 4, 8 or 16 bits, not " + portWidth + ".");
        }
        if (contextIdBytes != 0 && contextIdBytes != 1 && contextIdBytes != 2 && contextIdBytes != 4) {
            throw new IllegalArgumentException("context ID size must be 0, 1, 2 or 4 bytes, not " + contextIdBytes + ".");
        }
    }

    /** Bits of PIPESTAT: 3 in ETMv1, 4 in ETMv2 (IHI 0014Q 4.3.1). */
    public int pipestatBits() {
        return version == 1 ? 3 : 4;
    }

    public Etm2Config withVersion(int v) {
        return new Etm2Config(v, portWidth, halfRate, cycleAccurate, contextIdBytes, dataAddress, dataValue, branchOutput);
    }

    public Etm2Config withPortWidth(int w) {
        return new Etm2Config(version, w, halfRate, cycleAccurate, contextIdBytes, dataAddress, dataValue, branchOutput);
    }

    public Etm2Config withCycleAccurate(boolean c) {
        return new Etm2Config(version, portWidth, halfRate, c, contextIdBytes, dataAddress, dataValue, branchOutput);
    }

    public Etm2Config withContextIdBytes(int n) {
        return new Etm2Config(version, portWidth, halfRate, cycleAccurate, n, dataAddress, dataValue, branchOutput);
    }

    public Etm2Config withBranchOutput(boolean b) {
        return new Etm2Config(version, portWidth, halfRate, cycleAccurate, contextIdBytes, dataAddress, dataValue, b);
    }

    public Etm2Config withData(boolean address, boolean value) {
        return new Etm2Config(version, portWidth, halfRate, cycleAccurate, contextIdBytes, address, value, branchOutput);
    }

    /** ETMCR[6:4] port size encoding (b000 4-bit, b001 8-bit, b010 16-bit). */
    static int portSizeField(int width) {
        return width == 4 ? 0 : width == 8 ? 1 : 2;
    }

    /** The ETMCR value that describes this configuration. */
    public long etmcr() {
        long v = 0;
        v |= (dataValue ? 1L : 0) << 2;
        v |= (dataAddress ? 1L : 0) << 3;
        v |= (long) portSizeField(portWidth) << 4;
        v |= (branchOutput ? 1L : 0) << 8;
        v |= (cycleAccurate ? 1L : 0) << 12;
        v |= (halfRate ? 1L : 0) << 13;
        v |= (long) (contextIdBytes == 4 ? 3 : contextIdBytes) << 14;
        return v;
    }

    /** An ETMIDR value for this version: ARM implementer, major version ETMIDR[11:8] = version - 1. */
    public long etmidr() {
        return 0x41000000L | (long) (version - 1) << 8 | (version == 1 ? 0x30 : 0x10);
    }

    /**
     * The configuration the registers describe; {@code options} ({@code etm-version}, {@code port-width},
     * {@code cycle-accurate}, {@code context-id-size}, {@code branch-broadcast}, as {@link io.armtrace.protocol.EncodeOption} names them) override them. A value that
     * is not valid throws {@link IllegalArgumentException} with one sentence.
     */
    public static Etm2Config from(Registers regs, Map<String, String> options) {
        int version = 2;
        int width = 8;
        boolean half = false;
        boolean cycleAccurate = true;
        int ctx = 0;
        boolean dAddr = false;
        boolean dVal = false;
        boolean branchOut = false;
        if (regs != null && regs.has("ETMIDR")) {
            int major = (int) (regs.get("ETMIDR", 0) >> 8) & 0xF;
            version = major == 0 ? 1 : 2;
        }
        if (regs != null && regs.has("ETMCR")) {
            long cr = regs.get("ETMCR", 0);
            int ps = (int) (cr >> 4) & 7;
            width = switch (ps) {
                case 0 -> 4;
                case 1 -> 8;
                case 2 -> 16;
                default -> throw new IllegalArgumentException(
                        "ETMCR port size b" + Integer.toBinaryString(ps) + " is not a 4, 8 or 16-bit ETMv1/v2 port.");
            };
            dVal = (cr & 4) != 0;
            dAddr = (cr & 8) != 0;
            branchOut = (cr & 0x100) != 0;
            cycleAccurate = (cr & 0x1000) != 0;
            half = (cr & 0x2000) != 0;
            int c = (int) (cr >> 14) & 3;
            ctx = c == 3 ? 4 : c;
        }
        if (options != null) {
            for (Map.Entry<String, String> e : options.entrySet()) {
                String v = e.getValue().trim().toLowerCase(Locale.ROOT);
                switch (e.getKey()) {
                    case "etm-version" -> version = parseVersion(v);
                    case "port-width" -> width = parseInt(e.getKey(), v);
                    case "cycle-accurate" -> cycleAccurate = parseBool(e.getKey(), v);
                    case "half-rate" -> half = parseBool(e.getKey(), v);
                    case "context-id-size" -> ctx = parseInt(e.getKey(), v);
                    case "branch-broadcast" -> branchOut = parseBool(e.getKey(), v);
                    default -> {
                        // not a configuration option: the caller handles it
                    }
                }
            }
        }
        return new Etm2Config(version, width, half, cycleAccurate, ctx, dAddr, dVal, branchOut);
    }

    static int parseVersion(String v) {
        String s = v.startsWith("etmv") ? v.substring(4) : v.startsWith("v") ? v.substring(1) : v;
        if (s.startsWith("1")) {
            return 1;
        }
        if (s.startsWith("2")) {
            return 2;
        }
        throw new IllegalArgumentException("--etm-version must be 1 or 2 (ETMv1 or ETMv2), not '" + v + "'.");
    }

    static int parseInt(String name, String v) {
        try {
            return v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("--" + name + " needs a number, not '" + v + "'.");
        }
    }

    static boolean parseBool(String name, String v) {
        return io.armtrace.protocol.OptionValues.flag(name, v);
    }

    /** The configuration in words, one line each, for {@code armtrace info}. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(version == 1
                ? "ETMv1: 3-bit PIPESTAT with TRACESYNC; branch addresses located by TRACESYNC and address packet offsets"
                : "ETMv2: 4-bit PIPESTAT (DW, DN); packets associated by C bits; synchronization by trace FIFO offsets");
        out.add("TRACEPKT port " + portWidth + " bits"
                + (portWidth == 4 ? " (a packet over two cycles)" : portWidth == 16 ? " (up to two packets a cycle)" : "")
                + (halfRate ? ", half-rate clocking" : ""));
        out.add(cycleAccurate ? "cycle-accurate: every core cycle is traced (WT/TD cycles count time)"
                : "not cycle-accurate: trace-disabled cycles may have been dropped by the capture device");
        out.add(contextIdBytes == 0 ? "context ID not traced" : "context ID traced, " + contextIdBytes + " byte(s)");
        out.add(!dataAddress && !dataValue ? "no data trace"
                : "data trace: " + (dataAddress ? "addresses" : "") + (dataAddress && dataValue ? " and " : "")
                + (dataValue ? "values" : ""));
        if (branchOutput) {
            out.add("branch output mode: direct branches carry their address too");
        }
        return out;
    }
}
