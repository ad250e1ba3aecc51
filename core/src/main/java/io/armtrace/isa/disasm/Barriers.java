package io.armtrace.isa.disasm;

/** Option names of DMB/DSB/ISB (DDI 0406C A8.8.43): objdump prints the name, or #n for reserved values. */
final class Barriers {
    private static final String[] NAMES = {"#0", "oshld", "oshst", "osh", "#4", "nshld", "nshst", "nsh", "#8", "ishld",
        "ishst", "ish", "#12", "ld", "st", "sy"};

    private Barriers() {
    }

    static String option(int o) {
        return NAMES[o & 15];
    }

    static String isbOption(int o) {
        return (o & 15) == 15 ? "sy" : "#" + (o & 15);
    }
}
