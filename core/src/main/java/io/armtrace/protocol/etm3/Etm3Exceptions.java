package io.armtrace.protocol.etm3;

/**
 * Exception numbers as ETMv3 traces them (Excp[8:0]) and as the architecture numbers them (the
 * {@code ExecutionEvent.ExceptionTaken} convention: A/R profile vector offset / 4, M profile exception
 * number).
 */
final class Etm3Exceptions {
    private Etm3Exceptions() {
    }

    private static final String[] AR_NAMES = {
        "none", "Halting debug", "SMC", "Hyp trap", "Asynchronous data abort", "Jazelle/ThumbEE", "Reserved",
        "Reserved", "Reset", "Undefined instruction", "SVC", "Prefetch abort", "Data abort", "Generic",
        "IRQ", "FIQ"
    };
    /** IHI 0014Q Table 7.12 code -> vector offset / 4; -1 where the exception has no vector of its own. */
    private static final int[] AR_VECTOR = {-1, -1, 2, 5, 4, -1, -1, -1, 0, 1, 2, 3, 4, -1, 6, 7};

    /** Architecture number of a traced A/R profile exception, -1 if it has none. */
    static int arNumber(int code) {
        return AR_VECTOR[code & 0xF];
    }

    static String arName(int code) {
        return AR_NAMES[code & 0xF];
    }

    /** ETM code for an A/R vector number (0 reset .. 7 FIQ), Table 7.12. */
    static int arCode(int vector) {
        return switch (vector) {
            case 0 -> 8;
            case 1 -> 9;
            case 2 -> 10;
            case 3 -> 11;
            case 4 -> 12;
            case 5 -> 3;
            case 6 -> 14;
            case 7 -> 15;
            default -> 13; // generic exception
        };
    }

    /** Deprecated byte-5 EEE exceptions (Table 7.7): name; EEE b000 is named by its vector address. */
    static String deprecatedName(int eee, long address) {
        return switch (eee) {
            case 0 -> switch ((int) (address & 0x1F) >> 2) {
                case 0 -> "Reset";
                case 1 -> "Undefined instruction";
                case 2 -> "SVC";
                case 3 -> "Prefetch abort";
                case 4 -> "Data abort";
                default -> "Exception";
            };
            case 1 -> "IRQ";
            case 4 -> "Jazelle";
            case 5 -> "FIQ";
            case 6 -> "Asynchronous data abort";
            case 7 -> "Debug";
            default -> "Reserved";
        };
    }

    static int deprecatedNumber(int eee, long address) {
        return switch (eee) {
            case 0 -> ((int) (address & 0x1F) >> 2) <= 4 ? (int) (address & 0x1F) >> 2 : -1;
            case 1 -> 6;
            case 5 -> 7;
            case 6 -> 4;
            default -> -1;
        };
    }

    /** Table 7.11: ETM Excp[8:0] of an ARMv7-M core -> architectural exception number. */
    static int mNumber(int code) {
        if (code >= 1 && code <= 7) {
            return 16 + code; // IRQ1-IRQ7
        }
        return switch (code) {
            case 8 -> 16; // IRQ0
            case 9 -> 6; // UsageFault
            case 10 -> 2; // NMI
            case 11 -> 11; // SVCall
            case 12 -> 12; // DebugMonitor
            case 13 -> 4; // MemManage
            case 14 -> 14; // PendSV
            case 15 -> 15; // SysTick
            case 17 -> 1; // Reset
            case 19 -> 3; // HardFault
            case 21 -> 5; // BusFault
            default -> code >= 24 ? code : -1; // IRQ8 = 0x18 ...
        };
    }

    /** Inverse of {@link #mNumber}. */
    static int mCode(int number) {
        if (number >= 17 && number <= 23) {
            return number - 16;
        }
        return switch (number) {
            case 16 -> 8;
            case 6 -> 9;
            case 2 -> 10;
            case 11 -> 11;
            case 12 -> 12;
            case 4 -> 13;
            case 14 -> 14;
            case 15 -> 15;
            case 1 -> 17;
            case 3 -> 19;
            case 5 -> 21;
            default -> number >= 24 && number <= 0x1FF ? number : 0x1F; // IRQ8+, else IRQ15 as a stand-in
        };
    }

    /** Name of M-profile exception {@code number}; "Reserved" for a code Table 7.11 gives no exception. */
    static String mName(int number) {
        String name = io.armtrace.trace.MProfileExceptions.name(number);
        return name != null ? name : "Reserved";
    }
}
