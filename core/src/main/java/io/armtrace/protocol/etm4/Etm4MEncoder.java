package io.armtrace.protocol.etm4;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.OptionValues;
import io.armtrace.source.Registers;
import java.util.Map;

/**
 * Synthesizes the instruction trace of an ETMv4 unit on an Armv8-M or Armv8.1-M core (Cortex-M33, Cortex-M55)
 * for a known M-profile execution (IHI 0064, the packet chapters and the M-profile exception numbering):
 * A-sync, Trace Info, Trace On, a 32-bit Address with Context packet (IS1: T32), atoms for the P0 instructions
 * (branches, including the Armv8.1-M loop branches LE, LETP, WLS and WLSTP, and ISB), the target of every taken
 * indirect branch (exact match, short or long IS1 address), Exception packets with the M-profile exception
 * number and the preferred return address, and at an exception return (a BX, POP or LDR that loads an
 * EXC_RETURN value) an E atom, an Exception Return packet and the address execution resumes at.
 *
 * <p>A tail-chained exception (the record has no return between a handler's return instruction and the next
 * exception) is an E atom for the return instruction, then the Exception packet with the address 0xFFFFFFFE,
 * which tells a decoder that no instruction ran between the two.
 *
 * <p>The level field of each context is Thread mode (0) or Handler mode (3). Optionally, as for A- and R-profile
 * executions: the return stack, Q elements, cycle counts and timestamps. The encoding itself is {@link Etm4Encoder}'s,
 * set up for an M-profile core; this class holds what differs: the options, the unit's registers and the exception
 * numbers. Instructions after the execution's last P0 element are not in the trace.
 */
final class Etm4MEncoder {

    // Registers of the unit described: those of a Cortex-M55's ETM (TRCIDR0 and TRCIDR2 as the Cortex-M55
    // capture in the conformance set has them: 32-bit instruction addresses, no context ID or VMID; TRCIDR0 says
    // branch broadcast, cycle counting, the return stack and 64-bit timestamps are implemented, commit mode 1),
    // ETMv4.2 or later so that header 0x05 is the Function Return packet on Armv8-M.
    static final long IDR0 = 0x280006E1L;
    static final long IDR1 = 0x4100F454L; // ETMv4.5
    static final long IDR2 = 0x00000004L;
    /** The address of a tail-chained exception's packet. */
    static final long TAIL_CHAIN = 0xFFFFFFFEL;

    private final Etm4Encoder encoder = new Etm4Encoder(false).mProfile().state(0, false);

    static Etm4MEncoder fromOptions(Map<String, String> options) {
        Etm4MEncoder m = new Etm4MEncoder();
        Etm4Encoder e = m.encoder;
        boolean returnStack = false;
        long qElements = 0;
        boolean cycles = false;
        long threshold = 100;
        for (Map.Entry<String, String> o : options.entrySet()) {
            String v = o.getValue() == null ? "" : o.getValue().trim();
            switch (o.getKey()) {
                case "profile" -> {
                    // chosen by the caller: M
                }
                case "exact-match" -> e.exactMatch(OptionValues.flag(o.getKey(), v));
                case "sync-period" -> e.syncPeriod(OptionValues.number(o.getKey(), v));
                case "trace-id" -> e.traceId(OptionValues.number(o.getKey(), v));
                case "security" -> {
                    if (!v.equals("secure") && !v.equals("non-secure")) {
                        throw new IllegalArgumentException("Option --security takes secure or non-secure, not '" + v + "'.");
                    }
                    e.state(0, v.equals("non-secure"));
                }
                case "el" -> {
                    if (OptionValues.number(o.getKey(), v) != 0) {
                        throw new IllegalArgumentException("An M-profile core has no exception levels: option --el takes 0 only.");
                    }
                }
                case "return-stack" -> returnStack = OptionValues.flag(o.getKey(), v);
                case "q-elements" -> qElements = OptionValues.number(o.getKey(), v);
                case "cycle-accurate" -> cycles = OptionValues.flag(o.getKey(), v);
                case "cycle-threshold" -> threshold = OptionValues.number(o.getKey(), v);
                case "timestamps" -> e.timestamps(OptionValues.flag(o.getKey(), v));
                default -> throw new IllegalArgumentException("Option --" + o.getKey()
                        + " is not available for M-profile executions; they take --exact-match, --sync-period, --trace-id, "
                        + "--security, --return-stack, --q-elements, --cycle-accurate, --cycle-threshold and --timestamps.");
            }
        }
        if (qElements > 0 && returnStack) {
            throw new IllegalArgumentException("Options --q-elements and --return-stack=on do not go together: a Q element "
                    + "carries the address a return would have left out.");
        }
        e.returnStack(returnStack).qElements(qElements).cycleCounts(cycles, threshold);
        return m;
    }

    /** The registers that describe the unit, under the names OpenCSD's snapshots use. */
    Registers registers() {
        return encoder.registers();
    }

    EncodeOutput encode(Execution execution, ProgramImage image) {
        return encoder.encode(execution, image);
    }

    /**
     * The Exception packet's type for an M-profile exception number (IHI 0064, Exception packet on M-profile
     * cores): numbers 1 to 23 (reset, NMI, faults, SVCall, PendSV, SysTick, external interrupts 0-7) as they
     * are; external interrupt 8 and up (exception 24 and up) as 0x208 onwards.
     */
    static int exceptionType(int number) {
        if (number >= 1 && number <= 23) {
            return number;
        }
        if (number >= 24 && number <= 16 + 0x1EF) {
            return 0x200 + number - 16;
        }
        throw new IllegalArgumentException("Exception number " + number + " has no ETMv4 M-profile exception type.");
    }
}
