package io.armtrace.trace;

/**
 * A DWT exception trace packet: the core entered, exited or returned to exception {@code number} (the
 * M-profile exception number: 1 Reset, 2 NMI, 3 HardFault, ..., 15 SysTick, 16 + n IRQ n).
 */
public record ExceptionTrace(int source, Function function, int number) implements SoftwareTrace {

    /** FN[1:0] of the packet (ARMv7-M ARM D4.3.2): 1 entered, 2 exited, 3 returned to. */
    public enum Function { ENTRY, EXIT, RETURN }

    /** The exception's architectural name, or {@code exception N} for a number the architecture reserves. */
    public String name() {
        return mProfileName(number);
    }

    /**
     * Architectural name of M-profile exception {@code n} ({@link MProfileExceptions}), or {@code exception N}
     * for a number the architecture reserves or below 1, as listings have always shown them.
     */
    public static String mProfileName(int n) {
        String name = MProfileExceptions.name(n);
        return name != null ? name : "exception " + n;
    }

    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
