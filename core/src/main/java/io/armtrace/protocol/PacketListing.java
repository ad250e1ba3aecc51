package io.armtrace.protocol;

import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;

/**
 * The packet listing of {@code armtrace packets}, made from {@link Packet} records of every protocol: the
 * one place where a packet becomes a line. It also reads a packet's raw bytes: a second pass over the
 * source's stream that follows the packet offsets forwards (and starts again for the rare listing that goes
 * back, MTB's age order). It keeps at most {@link #MAX_BYTES} bytes of a packet; a run of unsynchronized
 * bytes can be long.
 */
public final class PacketListing implements AutoCloseable {
    public static final int MAX_BYTES = 16;
    /** Where the packet text starts when raw bytes are shown: as wide as a 6-byte packet (an I-sync). */
    private static final int BYTES_WIDTH = 32;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final TraceData data;
    private final boolean withBytes;
    private final StringBuilder line = new StringBuilder(128);
    private InputStream in;
    private long position;

    /** A listing of packets of {@code data}; {@code withBytes} false leaves out the raw bytes. */
    public PacketListing(TraceData data, boolean withBytes) {
        this.data = data;
        this.withBytes = withBytes;
    }

    /**
     * The listing line of {@code packet} (no line end): {@code prefix}, the offset right-aligned in 8
     * columns, the raw bytes in trc_pkt_lister's notation ({@code [0x08 0x58 ...]}) padded to a common column
     * when the packet has a byte span, then the packet's kind and fields.
     */
    public String line(String prefix, Packet packet) throws IOException {
        line.setLength(0);
        line.append(prefix);
        // the offset right-aligned in 8 columns (as "%8d"), without a Formatter per line
        String offset = Long.toString(packet.offset());
        for (int i = offset.length(); i < 8; i++) {
            line.append(' ');
        }
        line.append(offset).append("  ");
        if (withBytes && packet.length() > 0) {
            int start = line.length();
            byte[] raw = packet.bytes().length > 0 ? packet.bytes() : read(packet.offset(), packet.length());
            line.append('[');
            for (int i = 0; i < raw.length; i++) {
                if (i > 0) {
                    line.append(' ');
                }
                line.append("0x").append(HEX[(raw[i] >> 4) & 0xF]).append(HEX[raw[i] & 0xF]);
            }
            if (packet.length() > raw.length) {
                line.append(" ...");
            }
            line.append(']').append(' ');
            while (line.length() < start + BYTES_WIDTH) {
                line.append(' ');
            }
        }
        return line.append(packet.kind()).append(packet.fields()).toString();
    }

    /**
     * The JSON Lines form of {@code packet} (no line end): {@code {"src":ID,"offset":N,"kind":K,"length":N,
     * "bytes":"0858...","text":T}}, with {@code src} only when {@code traceId} is not negative and {@code bytes}
     * (hex, at most {@link #MAX_BYTES} of them) only when the listing shows bytes and the packet has a span.
     * {@code text} is the listing's text: the kind, then the fields in words.
     */
    public String jsonLine(int traceId, Packet packet) throws IOException {
        java.io.StringWriter w = new java.io.StringWriter(128);
        try (com.fasterxml.jackson.core.JsonGenerator g = Json.FACTORY.createGenerator(w)) {
            g.writeStartObject();
            if (traceId >= 0) {
                g.writeNumberField("src", traceId);
            }
            g.writeNumberField("offset", packet.offset());
            g.writeStringField("kind", packet.kind());
            g.writeNumberField("length", packet.length());
            if (withBytes && packet.length() > 0) {
                byte[] raw = packet.bytes().length > 0 ? packet.bytes() : read(packet.offset(), packet.length());
                char[] hex = new char[raw.length * 2];
                for (int i = 0; i < raw.length; i++) {
                    hex[2 * i] = HEX[(raw[i] >> 4) & 0xF];
                    hex[2 * i + 1] = HEX[raw[i] & 0xF];
                }
                g.writeStringField("bytes", new String(hex));
            }
            g.writeStringField("text", packet.text());
            g.writeEndObject();
        }
        return w.toString();
    }

    /** Made on first use: a text listing loads no JSON library (docs/performance.md, "Start-up"). */
    private static final class Json {
        static final com.fasterxml.jackson.core.JsonFactory FACTORY = new com.fasterxml.jackson.core.JsonFactory();
    }

    /** {@code packet} with its first raw bytes (at most {@link #MAX_BYTES}, fewer where the data ends). */
    public Packet withBytes(Packet packet) throws IOException {
        return packet.length() <= 0 ? packet : packet.withBytes(read(packet.offset(), packet.length()));
    }

    private byte[] read(long offset, int length) throws IOException {
        if (in == null || offset < position) {
            close();
            // buffered: the packets' offsets mostly follow each other closely, a read per packet would be a
            // system call per packet
            in = new java.io.BufferedInputStream(data.open(), 1 << 16);
            position = 0;
        }
        while (position < offset) {
            long s = in.skip(offset - position);
            if (s <= 0) {
                if (in.read() < 0) {
                    return new byte[0];
                }
                s = 1;
            }
            position += s;
        }
        byte[] raw = in.readNBytes(Math.min(length, MAX_BYTES));
        position += raw.length;
        return raw;
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
            in = null;
        }
    }
}
