package io.armtrace.isa;

/**
 * Advanced SIMD (NEON) data-processing and element load/store instructions (DDI 0406C A7.4, A7.7).
 * The word is A32-shaped (T32 encodings are mapped onto it by the caller).
 */
final class Simd {
    private Simd() {
    }

    static String dataProcessing(int w, boolean thumb) {
        return null;
    }

    static String loadStore(int w, boolean thumb) {
        return null;
    }
}
