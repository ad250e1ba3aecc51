package io.armtrace.api;

import io.armtrace.image.CodeMemory;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.TraceSegments;
import io.armtrace.trace.ElementSink;

/**
 * One trace source of an opened input, ready to decode: its protocol, trace ID, registers, program image and
 * trace bytes. Got from {@link Decoder#sources()}.
 */
public final class TraceSource {
    private final TraceProtocol protocol;
    private final DecodeInput input;
    private final String label;
    private final TraceSegments segments;
    private final java.util.function.Supplier<io.armtrace.trace.RunningThread> thread;

    TraceSource(TraceProtocol protocol, DecodeInput input, String label) {
        this(protocol, input, label, null);
    }

    TraceSource(TraceProtocol protocol, DecodeInput input, String label, TraceSegments segments) {
        this(protocol, input, label, segments, null);
    }

    TraceSource(TraceProtocol protocol, DecodeInput input, String label, TraceSegments segments,
                java.util.function.Supplier<io.armtrace.trace.RunningThread> thread) {
        this.protocol = protocol;
        this.input = input;
        this.label = label;
        this.segments = segments;
        this.thread = thread;
    }

    /**
     * For a perf.data recording's CPU: a new follower of the process, thread, CPU and time of the elements of
     * one decode of this source (feed the decode through {@link io.armtrace.trace.RunningThread#feed}); null for
     * every other input.
     *
     * @return a new follower, or null
     */
    public io.armtrace.trace.RunningThread runningThread() {
        return thread == null ? null : thread.get();
    }

    /**
     * The trace as segments with breaks between them (a perf.data recording's AUX buffers), or null when it
     * is one piece ({@link #input()}'s data). With segments, {@link #input()}'s data is all of them end to
     * end (what a packet listing reads); a decode goes through {@link #decode(ElementSink)}.
     *
     * @return the segments, or null
     */
    public TraceSegments segments() {
        return segments;
    }

    /**
     * Decodes this source into {@code sink}, segment by segment with a gap at each break when it has
     * segments; does not call {@link ElementSink#end()}.
     *
     * @param sink receives the elements
     * @throws java.io.IOException if a file cannot be read
     */
    public void decode(ElementSink sink) throws java.io.IOException {
        if (segments != null) {
            protocol.decode(input, segments, sink);
        } else {
            protocol.decode(input, sink);
        }
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
