package io.armtrace.api;

import io.armtrace.source.Registers;
import io.armtrace.source.TraceInputs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How to open and decode a trace: which sources, extra program images and registers, how a raw trace file
 * is framed, and the decoders' bounds. Immutable; made with {@link #builder()}:
 *
 * <pre>{@code
 * DecodeOptions o = DecodeOptions.builder().image("prog.elf").register("ETMCR", 0x1000).build();
 * }</pre>
 */
public final class DecodeOptions {
    /** The options when none are given. */
    public static final DecodeOptions DEFAULT = builder().build();

    private final List<Integer> sources;
    private final String protocol;
    private final List<String> images;
    private final Registers registers;
    private final TraceInputs.Framing framing;
    private final long instructionLimit;
    private final boolean confine;
    private final Consumer<String> warnings;
    private final int batchSize;
    private final int queuedBatches;

    private DecodeOptions(Builder b) {
        this.sources = List.copyOf(b.sources);
        this.protocol = b.protocol;
        this.images = List.copyOf(b.images);
        this.registers = new Registers().putAll(b.registers);
        this.framing = b.framing;
        this.instructionLimit = b.instructionLimit;
        this.confine = b.confine;
        this.warnings = b.warnings;
        this.batchSize = b.batchSize;
        this.queuedBatches = b.queuedBatches;
    }

    /**
     * A builder with the defaults: every source, no extra image or register, plain framing, no bound set.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The trace IDs to decode, in order; empty for every source.
     *
     * @return the trace IDs, or none for every source
     */
    public List<Integer> sources() {
        return sources;
    }

    /**
     * The protocol name that overrides a snapshot's device types, or null.
     *
     * @return the protocol name, or null
     */
    public String protocol() {
        return protocol;
    }

    /**
     * Extra program images, each {@code FILE} (ELF) or {@code FILE@ADDR} (raw), either possibly gzip-compressed.
     *
     * @return the image arguments
     */
    public List<String> images() {
        return images;
    }

    /**
     * Extra trace unit register values (a copy), which take precedence over a snapshot's.
     *
     * @return the register values
     */
    public Registers registers() {
        return new Registers().putAll(registers);
    }

    /**
     * How a raw trace file's bytes are laid out.
     *
     * @return the framing
     */
    public TraceInputs.Framing framing() {
        return framing;
    }

    /**
     * The bound on any single walk through code, in instructions; 0 for the protocol's default.
     *
     * @return the limit, or 0
     */
    public long instructionLimit() {
        return instructionLimit;
    }

    /**
     * True to refuse a snapshot whose .ini files name files outside its directory.
     *
     * @return whether snapshots are confined
     */
    public boolean confine() {
        return confine;
    }

    /**
     * Where a snapshot's warnings go, one sentence each.
     *
     * @return the receiver of warnings
     */
    public Consumer<String> warnings() {
        return warnings;
    }

    /**
     * Elements per batch that an {@link ElementIterator}'s decoding thread hands over at once.
     *
     * @return the batch size
     */
    public int batchSize() {
        return batchSize;
    }

    /**
     * Batches an {@link ElementIterator} holds at most: with {@link #batchSize}, its bound on memory.
     *
     * @return the number of batches
     */
    public int queuedBatches() {
        return queuedBatches;
    }

    /**
     * A builder starting from these options.
     *
     * @return a builder holding these options
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.sources.addAll(sources);
        b.protocol = protocol;
        b.images.addAll(images);
        b.registers.putAll(registers);
        b.framing = framing;
        b.instructionLimit = instructionLimit;
        b.confine = confine;
        b.warnings = warnings;
        b.batchSize = batchSize;
        b.queuedBatches = queuedBatches;
        return b;
    }

    /** The options of the decoders themselves. */
    io.armtrace.protocol.DecodeOptions decoderOptions() {
        return new io.armtrace.protocol.DecodeOptions(instructionLimit);
    }

    /** Makes {@link DecodeOptions}; every setter returns the builder. */
    public static final class Builder {
        private final List<Integer> sources = new ArrayList<>();
        private String protocol;
        private final List<String> images = new ArrayList<>();
        private final Registers registers = new Registers();
        private TraceInputs.Framing framing = TraceInputs.Framing.PLAIN;
        private long instructionLimit;
        private boolean confine;
        private Consumer<String> warnings = w -> { };
        private int batchSize = 1024;
        private int queuedBatches = 8;

        private Builder() {
        }

        /**
         * Decodes the source with trace ID {@code traceId} (0x00 to 0x7f); call again for more. Default: every source.
         *
         * @param traceId a CoreSight trace ID, 0x00 to 0x7f
         * @return this builder
         */
        public Builder source(int traceId) {
            if (traceId < 0 || traceId > 0x7F) {
                throw new IllegalArgumentException("trace ID " + traceId + " is not between 0x00 and 0x7f");
            }
            sources.add(traceId);
            return this;
        }

        /**
         * Decodes every source with the protocol named {@code name} (etm2, etm3, ptm, mtb, etm4, ete, itm, stm).
         *
         * @param name the protocol name
         * @return this builder
         */
        public Builder protocol(String name) {
            this.protocol = name;
            return this;
        }

        /**
         * Adds a program image: an ELF file, or a raw binary at an address ({@code "file.bin@0x8000"}).
         *
         * @param fileOrFileAtAddress an ELF file, or a raw binary and its load address joined by {@code @}
         * @return this builder
         */
        public Builder image(String fileOrFileAtAddress) {
            images.add(fileOrFileAtAddress);
            return this;
        }

        /**
         * Adds an ELF program image.
         *
         * @param elf an ELF file
         * @return this builder
         */
        public Builder image(java.nio.file.Path elf) {
            return image(elf.toString());
        }

        /**
         * Sets a trace unit register (e.g. ETMCR, TRCCONFIGR; for MTB POSITION, BASE, MASTER, FLOW, PC).
         *
         * @param name the register name
         * @param value the register value
         * @return this builder
         */
        public Builder register(String name, long value) {
            registers.put(name, value);
            return this;
        }

        /**
         * How a raw trace file is laid out (default {@link TraceInputs.Framing#PLAIN}).
         *
         * @param framing the layout of a raw trace file
         * @return this builder
         */
        public Builder framing(TraceInputs.Framing framing) {
            this.framing = java.util.Objects.requireNonNull(framing);
            return this;
        }

        /**
         * Bounds every walk through code to {@code n} instructions (0: the protocol's default).
         *
         * @param n a number of instructions, or 0
         * @return this builder
         */
        public Builder instructionLimit(long n) {
            if (n < 0) {
                throw new IllegalArgumentException("instruction limit " + n + " is negative");
            }
            this.instructionLimit = n;
            return this;
        }

        /**
         * Refuses snapshots whose .ini files name files outside their directory (for snapshots from elsewhere).
         *
         * @param confine true to refuse files outside the snapshot
         * @return this builder
         */
        public Builder confine(boolean confine) {
            this.confine = confine;
            return this;
        }

        /**
         * Receives a snapshot's warnings (damaged parts that did not stop it from being read). Default: dropped.
         *
         * @param warnings receives each warning, one sentence
         * @return this builder
         */
        public Builder warnings(Consumer<String> warnings) {
            this.warnings = java.util.Objects.requireNonNull(warnings);
            return this;
        }

        /**
         * Bounds an {@link ElementIterator}: its decoding thread hands elements over in batches of {@code
         * batchSize} and waits while {@code queuedBatches} batches are not yet taken.
         *
         * @param batchSize elements per batch
         * @param queuedBatches batches held at most
         * @return this builder
         */
        public Builder iteratorBuffer(int batchSize, int queuedBatches) {
            if (batchSize < 1 || queuedBatches < 1) {
                throw new IllegalArgumentException("iterator buffer " + batchSize + " x " + queuedBatches + " is empty");
            }
            this.batchSize = batchSize;
            this.queuedBatches = queuedBatches;
            return this;
        }

        /**
         * The options.
         *
         * @return the options
         */
        public DecodeOptions build() {
            return new DecodeOptions(this);
        }
    }
}
