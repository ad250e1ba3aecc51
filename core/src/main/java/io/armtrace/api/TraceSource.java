package io.armtrace.api;

import io.armtrace.image.CodeMemory;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.TraceProtocol;

/**
 * One trace source of an opened input, ready to decode: its protocol, trace ID, registers, program image and
 * trace bytes. Got from {@link Decoder#sources()}.
 */
public final class TraceSource {
    private final TraceProtocol protocol;
    private final DecodeInput input;
    private final String label;

    TraceSource(TraceProtocol protocol, DecodeInput input, String label) {
        this.protocol = protocol;
        this.input = input;
        this.label = label;
    }

    /**
     * The CoreSight trace ID; -1 for a source that has none (MTB).
     *
     * @return the trace ID, or -1
     */
    public int traceId() {
        return input.traceId();
    }

    /**
     * How listings name the source: "ETM_0 (ETM3.5, trace ID 0x10)", or the trace file's name.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * The protocol that decodes it (its {@link TraceProtocol#name()} is the command line's name).
     *
     * @return the protocol
     */
    public TraceProtocol protocol() {
        return protocol;
    }

    /**
     * Everything its decoder reads: trace ID, registers, program image, trace bytes, decoder options.
     *
     * @return the decoder input
     */
    public DecodeInput input() {
        return input;
    }

    /**
     * The program image code is read from, with its symbols and source lines (all address spaces merged).
     *
     * @return the program image
     */
    public ProgramImage image() {
        return input.image();
    }

    /**
     * The code memory per address space: for a snapshot whose memory dumps name spaces ({@code space=}), each
     * dump in its own space; otherwise the {@link #image()} serving every space.
     *
     * @return the code memory
     */
    public CodeMemory codeMemory() {
        return input.code();
    }

    /**
     * False for software trace (ITM, STM), which has no instructions to profile or cover.
     *
     * @return whether it is program-flow trace
     */
    public boolean tracesProgramFlow() {
        return protocol.tracesProgramFlow();
    }

    @Override
    public String toString() {
        return label;
    }
}
