package io.armtrace.isa;

/** Architecture profile of the traced core: which encodings exist and how exceptions return. */
public enum Profile {
    /** ARMv7-A/R (and ARMv4T-ARMv6 A32/T16 cores): A32 and T32. */
    AR,
    /** ARMv6-M / ARMv7-M / ARMv8-M: T32 only; exception return by loading EXC_RETURN into the PC. */
    M
}
