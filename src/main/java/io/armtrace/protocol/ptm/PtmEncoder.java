package io.armtrace.protocol.ptm;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.UnsupportedProtocolException;
import java.util.Map;

/** Synthesizes PFT trace from a known execution. */
public final class PtmEncoder {
    static final Map<String, String> OPTIONS = Map.of();

    static PtmEncoder fromOptions(Map<String, String> options) {
        return new PtmEncoder();
    }

    public EncodeOutput encode(Execution execution, ProgramImage image) {
        throw new UnsupportedProtocolException("PFT trace synthesis is not available yet.");
    }
}
