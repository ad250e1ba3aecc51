package io.armtrace.protocol;

import io.armtrace.protocol.etm2.Etm2Protocol;
import io.armtrace.protocol.etm3.Etm3Protocol;
import io.armtrace.protocol.etm4.Etm4Protocol;
import io.armtrace.protocol.itm.ItmProtocol;
import io.armtrace.protocol.mtb.MtbProtocol;
import io.armtrace.protocol.ptm.PtmProtocol;
import io.armtrace.protocol.stm.StmProtocol;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one registry that maps a protocol name or a snapshot device type to its decoder. Each protocol
 * package registers exactly one entry here.
 */
public final class Protocols {
    private static final List<TraceProtocol> ALL = List.of(
            new Etm2Protocol(),
            new Etm3Protocol(),
            new PtmProtocol(),
            new MtbProtocol(),
            new Etm4Protocol(false),
            new Etm4Protocol(true),
            new ItmProtocol(),
            new StmProtocol());

    private Protocols() {
    }

    public static List<TraceProtocol> all() {
        return ALL;
    }

    public static String names() {
        return ALL.stream().map(TraceProtocol::name).collect(Collectors.joining(", "));
    }

    /** The protocol called {@code name} on the command line. */
    public static Optional<TraceProtocol> byName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return ALL.stream().filter(p -> p.name().equals(n)).findFirst();
    }

    /** The protocol a snapshot device of this type speaks, if armtrace knows it. */
    public static Optional<TraceProtocol> forDeviceType(String type) {
        if (type == null) {
            return Optional.empty();
        }
        return ALL.stream().filter(p -> p.handlesDeviceType(type.trim())).findFirst();
    }

    /**
     * True if {@code name}, a register of a snapshot's trace source device, is a trace unit register worth
     * showing beside the source (as opposed to the many others a snapshot may list): the ETM/PTM control,
     * ID and trace ID registers, MTB's, ITM's control register, and the ETMv4/ETE registers that {@code p}
     * (which may be null) reads.
     */
    public static boolean isTraceUnitRegister(String name, TraceProtocol p) {
        return name.startsWith("ETMCR") || name.startsWith("ETMIDR") || name.startsWith("ETMCCER")
                || name.startsWith("ETMTRACEIDR") || name.startsWith("POSITION") || name.startsWith("MASTER")
                || name.startsWith("FLOW") || name.startsWith("BASE") || name.equals("ITMTCR")
                || (p != null && p.registerNames().contains(name) && name.startsWith("TRC"));
    }
}
