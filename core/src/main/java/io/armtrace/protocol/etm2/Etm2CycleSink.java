package io.armtrace.protocol.etm2;

/**
 * Receives a trace port capture one core cycle at a time: the PIPESTAT value (3 or 4 bits), TRACEPKT
 * (4, 8 or 16 bits) and, for ETMv1, TRACESYNC.
 */
interface Etm2CycleSink {
    void cycle(int pipestat, int tracepkt, boolean tracesync);

    /** A record of the capture could not be read: cycles were lost at {@code position}. */
    default void lost(long position, String why) {
    }
}
