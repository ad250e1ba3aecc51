package io.armtrace.trace;

/**
 * The exception numbers of the M profile and their names, for every protocol that traces an M-profile
 * core (ETMv3 on ARMv7-M, the MTB on ARMv6-M/ARMv8-M, ETMv4 on ARMv8-M) and for the DWT's exception
 * trace ({@link ExceptionTrace#name()}): ARMv7-M ARM B1.5.2 and ARMv8-M ARM B3.8 (exception numbers 1 to
 * 15 fixed, 16 + n for interrupt n). It lives with the elements, which import nothing of the project's,
 * so that the protocols and the element that names an exception share the one table.
 */
public final class MProfileExceptions {
    private MProfileExceptions() {
    }

    /**
     * The name of exception {@code number}, or null for a number the architecture reserves (7 is
     * SecureFault from ARMv8-M on; 8 to 10 and 13 are reserved in every version) and for anything below 1.
     */
    public static String name(int number) {
        return switch (number) {
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
            default -> number >= 16 ? "IRQ" + (number - 16) : null;
        };
    }
}
