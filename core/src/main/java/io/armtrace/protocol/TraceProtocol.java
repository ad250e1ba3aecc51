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
 * ({@code protocol.etm2}, {@code protocol.etm3}, {@code protocol.ptm}, {@code protocol.mtb},
 * {@code protocol.etm4}) provides one implementation; {@link Protocols} lists them.
 */
public interface TraceProtocol {
    /** Short name used on the command line: etm2, etm3, ptm, mtb, etm4, ete. */
    String name();

    /** Human name: "ETMv3", "PFT (PTM)". */
    String title();

    /**
     * The trace unit registers this protocol reads (normalized names, as {@link Registers} keeps them); a
     * {@code --reg} of any other name is a mistake.
     */
    List<String> registerNames();

    /**
     * The architecture profile of the traced core as far as {@code registers} tell it (A/R unless the
     * protocol only exists on M-profile cores or a register says ARMv7-M): views use it where A/R and M read
     * an instruction differently, e.g. the special registers of MRS/MSR in a disassembly.
     */
    default io.armtrace.isa.Profile profile(Registers registers) {
        return io.armtrace.isa.Profile.AR;
    }

    /**
     * Pseudo-registers implied by the type of the core a source traces (a snapshot core device's type, e.g.
     * "Cortex-M55"), for protocols whose packets read differently on some cores. Registers the source gives
     * itself take precedence. None by default.
     */
    default Registers registersForCore(String coreType) {
        return new Registers();
    }

    /**
     * True for the protocols that trace program flow (instructions); false for software trace (ITM, STM), which
     * the analysis views, made for program flow, leave out when they take every source of a snapshot.
     */
    default boolean tracesProgramFlow() {
        return true;
    }

    /** True if a snapshot device of this {@code type} (e.g. "ETM3.5", "PTM1.1") speaks this protocol. */
    boolean handlesDeviceType(String type);

    /** The registers explained in words, one line each, for {@code armtrace info}. */
    List<String> describe(Registers registers);

    /**
     * Lists the packets of {@code input} as records, one call per packet in stream order (for MTB, in age
     * order). Never throws on bad trace data: bad data becomes packets of the protocol's error kinds.
     */
    void packets(DecodeInput input, PacketListener<Packet> out) throws IOException;

    /** Receives a packet's kind (as {@link Packet#kind()} names it), offset and length. */
    interface PacketKindListener {
        void packet(String kind, long offset, int length);
    }

    /**
     * The packets of {@code input} as {@link #packets} lists them, each as its kind, offset and length only (what
     * {@code armtrace stats} counts): the protocols with many packets a second skip making each packet's fields.
     */
    default void packetKinds(DecodeInput input, PacketKindListener out) throws IOException {
        packets(input, p -> out.packet(p.kind(), p.offset(), p.length()));
    }

    /**
     * How many bytes of {@code input}'s data are trace. All of it by default; an MTB dump holds the whole SRAM
     * of which only the active buffer is trace.
     */
    default long traceBytes(DecodeInput input) throws IOException {
        try (java.io.InputStream in = input.data().open()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    /**
     * True (the default) when this protocol's packets follow one another through the stream, so that the
     * trace bytes a packet stands for run from its offset to the next packet's (or to the end of the data),
     * bytes the reader skipped included. False when packets are not in byte order or not all of the data is
     * trace: then a packet stands for its {@link Packet#length} bytes only.
     */
    default boolean packetsFollowEachOther() {
        return true;
    }

    /** Decodes {@code input} to elements. Never throws on bad trace data: bad data becomes elements. */
    void decode(DecodeInput input, ElementSink sink) throws IOException;

    /**
     * Decodes one source's trace given as segments with breaks between them (separate AUX buffers, lost
     * data): the one entry point for trace that is not one unbroken stream. At each break the decoder resets,
     * as OpenCSD's decoders do on a RESET, and a {@link io.armtrace.trace.Gap} at the segment's offset says
     * why; every offset an element names is a byte offset in the whole input ({@link
     * io.armtrace.source.TraceSegments.Segment#offset}). {@code input}'s own data is not read. An unbroken
     * trace of one segment from offset 0 decodes exactly as {@link #decode(DecodeInput, ElementSink)}.
     */
    default void decode(DecodeInput input, io.armtrace.source.TraceSegments segments, ElementSink sink)
            throws IOException {
        SegmentedDecode.decode(this, input, segments, sink);
    }

    /**
     * Refuses register names this protocol does not read ({@link #registerNames}): a typo would otherwise be
     * ignored silently. The sentence names the register and lists the ones it reads.
     */
    default void checkRegisterNames(Registers given, String optionName) {
        for (String name : given.asMap().keySet()) {
            if (!registerNames().contains(name)) {
                throw new io.armtrace.source.InputException(optionName + " " + io.armtrace.source.IniFile.shorten(name)
                        + ": " + title() + " has no register of that name; it reads " + String.join(", ", registerNames())
                        + ".");
            }
        }
    }

    /**
     * Byte offsets of sync points where a fresh decoder can start, about {@code spacing} bytes apart, in
     * increasing order and all above 0: where {@link ChunkedDecode} splits one source to decode it on
     * several cores. Empty (the default) means this protocol's trace is decoded in one piece.
     */
    default long[] splitPoints(DecodeInput input, long spacing) throws IOException {
        return new long[0];
    }

    /** Whether this protocol's trace can be cut at {@link #splitPoints} (without looking at any trace). */
    default boolean splits() {
        return false;
    }

    /**
     * Decodes {@code input} from byte offset {@code start} (0 or one of {@link #splitPoints}) as a
     * decoder that sees the trace begin there would, with the same element offsets as a decode from 0.
     * After each sync point it calls {@code observer} with the packet's offset and the decoder's whole
     * state (packet reader and flow): two decoders in equal states give equal elements from there on.
     * Stops (without ending the stream) as soon as the observer returns false.
     */
    default void decodeFrom(DecodeInput input, long start, ElementSink sink, SyncObserver observer)
            throws IOException {
        throw new UnsupportedProtocolException(title() + " trace cannot be decoded in pieces.");
    }

    /**
     * Synthesizes the trace this protocol's trace unit would produce for {@code execution}.
     * {@code options} are protocol option names and values as given on the command line (without the
     * leading dashes); an unknown option throws {@link IllegalArgumentException} with one sentence.
     */
    default EncodeOutput encode(Execution execution, ProgramImage image, Map<String, String> options) {
        throw new UnsupportedProtocolException(title() + " trace synthesis is not available yet.");
    }

    /**
     * Synthesizes the trace of a run of software trace: {@code events} as {@link
     * io.armtrace.execution.SoftwareEventFormat} reads them, which are the elements the decoder gives back.
     * For the software-trace protocols (ITM, STM); options as for {@link #encode}.
     */
    default EncodeOutput encodeSoftware(java.util.List<io.armtrace.trace.TraceElement> events, Map<String, String> options) {
        throw new UnsupportedProtocolException(title() + " trace is not made from software events; it is made from an "
                + "execution (--execution).");
    }

    /** Names and one-line descriptions of the options {@link #encode} accepts. */
    default Map<String, String> encodeOptions() {
        return Map.of();
    }
}
