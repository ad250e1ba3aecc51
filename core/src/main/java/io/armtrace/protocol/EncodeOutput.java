package io.armtrace.protocol;

import io.armtrace.source.Registers;

/**
 * What an encoder produced: the trace bytes as a trace unit would have written them, the register
 * values that describe how it was configured, and the snapshot device type to record them under.
 */
public record EncodeOutput(byte[] trace, Registers registers, String deviceType) {
}
