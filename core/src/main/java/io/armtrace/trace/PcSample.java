package io.armtrace.trace;

/**
 * A periodic PC sample of the DWT: the core was executing at {@code address}, or was sleeping
 * ({@code sleep}; {@code address} is then -1). The samples of a run are a statistical profile.
 */
public record PcSample(int source, long address, boolean sleep) implements SoftwareTrace {
}
