package io.armtrace.trace;

/**
 * DWT event counters wrapped: {@code counters} holds one bit per 8-bit counter that overflowed, as the event
 * counter packet gives them (ARMv7-M ARM D4.3.1): {@link #CPI}, {@link #EXC}, {@link #SLEEP}, {@link #LSU},
 * {@link #FOLD} and {@link #CYC} (the cycle counter's POSTCNT tap).
 */
public record EventCounterWrap(int source, int counters) implements SoftwareTrace {
    public static final int CPI = 1;
    public static final int EXC = 2;
    public static final int SLEEP = 4;
    public static final int LSU = 8;
    public static final int FOLD = 16;
    public static final int CYC = 32;

    /** Counter names in bit order, for listings. */
    public static final String[] NAMES = {"cpi", "exc", "sleep", "lsu", "fold", "cyc"};
}
