package io.armtrace.trace;

/**
 * A DWT exception trace packet: the core entered, exited or returned to exception {@code number} (the
 * M-profile exception number: 1 Reset, 2 NMI, 3 HardFault, ..., 15 SysTick, 16 + n IRQ n).
 */
public record ExceptionTrace(int source, Function function, int number) implements SoftwareTrace {

    /** FN[1:0] of the packet (ARMv7-M ARM D4.3.2): 1 entered, 2 exited, 3 returned to. */
    public enum Function { ENTRY, EXIT, RETURN }

    /** The exception's architectural name. */
    public String name() {
        return mProfileName(number);
    }

    /** Architectural name of M-profile exception {@code n} (ARMv8-M: 7 is SecureFault). */
    public static String mProfileName(int n) {
        return switch (n) {
            case 1 -> "Reset";
            case 2 -> "NMI";
            case 3 -> "HardFault";
            case 4 -> "MemManage";
            case 5 -> "BusFault";
            case 6 -> "UsageFault";
            case 7 -> "SecureFault";
            case 11 -> "SVCall";
            case 12 -> "DebugMonitor";
            case 14 -> "PendSV";
            case 15 -> "SysTick";
            default -> n >= 16 ? "IRQ" + (n - 16) : "exception " + n;
        };
    }
}
