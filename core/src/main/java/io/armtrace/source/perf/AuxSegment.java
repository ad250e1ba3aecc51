package io.armtrace.source.perf;

/**
 * A stretch of one queue's AUX data that a decoder reads in one go, and before which it resets (as perf
 * resets its decoder at every PERF_RECORD_AUX fragment): the bytes at {@code fileOffset}, {@code size} long,
 * from AUX offset {@code auxOffset}; {@code streamOffset} is where they start in the queue's AUX bytes as
 * they lie in the file, one after the other. {@code time} is the time of the PERF_RECORD_AUX that reported
 * them (perf clock, nanoseconds), or -1 where the recording has none. {@code formatted}: CoreSight frames
 * (from an ETR/ETF sink), or the trace unit's raw byte stream (TRBE, PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW).
 * {@code auxFlags} are the PERF_RECORD_AUX flags (0 without one).
 */
public record AuxSegment(AuxQueue queue, long fileOffset, long size, long auxOffset, long streamOffset, long time,
                         boolean formatted, long auxFlags) {
}
