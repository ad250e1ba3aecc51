package io.armtrace.protocol;

import io.armtrace.image.CodeMemory;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;

/**
 * Everything a decoder needs for one trace source: its trace ID, its trace unit registers, the program
 * image and the trace bytes, plus options. {@code code} is the code memory per address space ({@link
 * CodeMemory}), for decoders that follow a trace across contexts; {@code image} is the same memory with the
 * spaces merged, with the symbols and source lines, which is what the decoders of a trace that stays in
 * one space read (and all of today's decoders do).
 */
public record DecodeInput(int traceId, Registers registers, ProgramImage image, TraceData data,
                          DecodeOptions options, CodeMemory code) {

    /**
     * An input whose code memory is {@code image} for every space (the one-space case); none when there is no
     * image (software trace, which reads no code).
     */
    public DecodeInput(int traceId, Registers registers, ProgramImage image, TraceData data, DecodeOptions options) {
        this(traceId, registers, image, data, options, image == null ? null : CodeMemory.of(image));
    }

    /** The same input with other trace bytes (a piece of the trace, or the bytes seen through a progress bar). */
    public DecodeInput withData(TraceData other) {
        return new DecodeInput(traceId, registers, image, other, options, code);
    }

    /** The input for one source of a snapshot, with default options. */
    public static DecodeInput of(SnapshotSource source) {
        return of(source, DecodeOptions.DEFAULT);
    }

    public static DecodeInput of(SnapshotSource source, DecodeOptions options) {
        return new DecodeInput(source.traceId(), source.registers(), source.image(), source.data(), options);
    }
}
