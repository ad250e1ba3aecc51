package io.armtrace.protocol;

import java.util.Objects;

/**
 * One packet of any protocol, as the packet listing and the statistics see it: its kind (the protocol's
 * name for it, e.g. {@code I_SYNC}, {@code P_HDR}, {@code SWIT}), where it starts in the source's stream,
 * how many bytes it spans, the first of those bytes when the listing asked for them, and its decoded
 * fields in words. Each protocol's typed packet (e.g. {@code Etm3Packet}) makes its record; the listing
 * text ({@link #text}) is {@code kind} followed by {@code fields}, so a consumer that wants the kind never
 * reads it out of the text.
 *
 * <p>{@code offset} is a byte offset, except in ETMv1/ETMv2 listings where a packet is a capture cycle and
 * {@code offset} its cycle number ({@code length} 0). {@code length} is 0 for lines that have no bytes of
 * their own (MTB's buffer summary, a capture's lost cycles). {@code bytes} holds at most
 * {@link PacketListing#MAX_BYTES} bytes from {@code offset}; empty unless read by {@link PacketListing}.
 */
public record Packet(String kind, long offset, int length, byte[] bytes, String fields) {
    private static final byte[] NONE = new byte[0];

    public Packet {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(fields, "fields");
        if (kind.isEmpty()) {
            throw new IllegalArgumentException("a packet kind is never empty");
        }
    }

    /** A packet whose raw bytes have not been read. */
    public Packet(String kind, long offset, int length, String fields) {
        this(kind, offset, length, NONE, fields);
    }

    /**
     * A packet from its listing {@code text}, which starts with {@code kind}: for protocols whose typed packet
     * words a packet as a whole.
     */
    public static Packet ofText(String kind, long offset, int length, String text) {
        if (!text.startsWith(kind)) {
            throw new IllegalArgumentException("packet text '" + text + "' does not start with its kind " + kind);
        }
        return new Packet(kind, offset, length, text.substring(kind.length()));
    }

    /** The same packet with its first raw bytes. */
    public Packet withBytes(byte[] raw) {
        return new Packet(kind, offset, length, raw, fields);
    }

    /** The packet in words: its kind, then its fields. */
    public String text() {
        return kind + fields;
    }

    @Override
    public String toString() {
        return offset + ": " + text();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Packet p && p.offset == offset && p.length == length && p.kind.equals(kind)
                && java.util.Arrays.equals(p.bytes, bytes) && p.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, offset, length, java.util.Arrays.hashCode(bytes), fields);
    }
}
