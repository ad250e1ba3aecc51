package io.armtrace.protocol;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One trace protocol, as the command line and the snapshot reader see it. Each protocol package
 * ({@code protocol.etm2}, {@code protocol.etm3}, {@code protocol.ptm}, {@code protocol.mtb}) provides
 * one implementation; {@link Protocols} lists them.
 */
public interface TraceProtocol {
    /** Short name used on the command line: etm2, etm3, ptm, mtb. */
    String name();

    /** Human name: "ETMv3", "PFT (PTM)". */
    String title();

    /** True if a snapshot device of this {@code type} (e.g. "ETM3.5", "PTM1.1") speaks this protocol. */
    boolean handlesDeviceType(String type);

    /** The registers explained in words, one line each, for {@code armtrace info}. */
    List<String> describe(Registers registers);

    /** Lists the packets of {@code input}, one call per packet. Never throws on bad trace data. */
    void packets(DecodeInput input, PacketListener out) throws IOException;

    /** Decodes {@code input} to elements. Never throws on bad trace data: bad data becomes elements. */
    void decode(DecodeInput input, ElementSink sink) throws IOException;

    /**
     * Synthesizes the trace this protocol's trace unit would produce for {@code execution}.
     * {@code options} are protocol option names and values as given on the command line (without the
     * leading dashes); an unknown option throws {@link IllegalArgumentException} with one sentence.
     */
    default EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        throw new UnsupportedProtocolException(title() + " trace synthesis is not available yet.");
    }

    /** Names and one-line descriptions of the options {@link #encode} accepts. */
    default Map<String, String> encodeOptions() {
        return Map.of();
    }
}
