package io.armtrace.protocol;

import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;

/**
 * Everything a decoder needs for one trace source: its trace ID, its trace unit registers, the program
 * image and the trace bytes, plus options.
 */
public record DecodeInput(int traceId, Registers registers, ProgramImage image, TraceData data,
                          DecodeOptions options) {

    /** The input for one source of a snapshot, with default options. */
    public static DecodeInput of(SnapshotSource source) {
        return of(source, DecodeOptions.DEFAULT);
    }

    public static DecodeInput of(SnapshotSource source, DecodeOptions options) {
        return new DecodeInput(source.traceId(), source.registers(), source.image(), source.data(), options);
    }
}
