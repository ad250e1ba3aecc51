package io.armtrace.source;

import io.armtrace.image.ProgramImage;
import java.nio.file.Path;

/**
 * A trace source of a snapshot: its device, trace ID and registers, the program image of the core it
 * traces, and the buffer its trace is in. {@code traceId} is -1 when the device has no ETMTRACEIDR.
 */
public record SnapshotSource(String name, String type, int traceId, Registers registers, String coreName,
                             Registers coreRegisters, ProgramImage image, Path bufferFile, BufferFormat bufferFormat) {

    /** This source's trace bytes (deformatted when the buffer is formatted). */
    public TraceData data() {
        if (bufferFile == null) {
            throw new InputException("Trace source " + name + " has no trace buffer in the snapshot.");
        }
        if (!bufferFormat.formatted()) {
            return TraceData.of(bufferFile);
        }
        return TraceData.formatted(bufferFile, traceId, bufferFormat);
    }
}
