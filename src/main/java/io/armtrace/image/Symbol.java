package io.armtrace.image;

/** A function or object symbol; {@code address} has the Thumb bit cleared, {@code thumb} keeps it. */
public record Symbol(String name, long address, long size, boolean thumb) {
}
