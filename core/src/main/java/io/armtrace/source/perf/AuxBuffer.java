package io.armtrace.source.perf;

/**
 * One PERF_RECORD_AUXTRACE record: {@code size} bytes of AUX data that lie in the file at
 * {@code fileOffset} (right after the record), taken from offset {@code auxOffset} of the queue's AUX
 * area; {@code idx} is perf's queue index. The record itself starts at {@code recordOffset}.
 */
public record AuxBuffer(AuxQueue queue, int idx, long auxOffset, long size, long fileOffset, long recordOffset) {
}
