package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.PieceFormat;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.TextWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A source decoded in chunks on several threads gives, byte for byte, the text and JSONL of the
 * sequential decode: on every TC2 source (real hardware trace) and on encoder trace of corpus programs
 * with periodic sync, cut into many small chunks so that there are many seams.
 */
class ChunkedDecodeTest {
    /** Writers as {@code armtrace decode} uses them: text ranges, text per instruction, JSONL. */
    private static final List<Function<ProgramImage, Output>> FORMATS = List.of(
            image -> new Output(w -> new TextWriter(w, image, false, false)),
            image -> new Output(w -> new TextWriter(w, image, true, false)),
            image -> new Output(w -> new JsonlWriter(w, image, false)));

    private static final class Output {
        final StringWriter text = new StringWriter();
        final ElementSink sink;

        Output(Function<PrintWriter, ElementSink> make) {
            this.sink = make.apply(new PrintWriter(text));
        }

        String finish() {
            sink.end();
            return text.toString();
        }
    }

    /** Decodes {@code input} sequentially and in chunks; asserts equal output; returns the chunked split. */
    private static ChunkedDecode.Split assertSameInChunks(TraceProtocol protocol, DecodeInput input, long chunkSize)
            throws IOException {
        ChunkedDecode.Split split = null;
        for (Function<ProgramImage, Output> format : FORMATS) {
            Output sequential = format.apply(input.image());
            protocol.decode(input, sequential.sink);
            Output chunked = format.apply(input.image());
            split = ChunkedDecode.decode(protocol, input, chunked.sink, 2, chunkSize);
            String expected = sequential.finish();
            assertThat(chunked.finish()).as("%s in chunks of %d bytes", input.data().name(), chunkSize)
                    .isEqualTo(expected);
        }
        return split;
    }

    @Test
    void everyTc2SourceDecodesTheSameInChunks() throws IOException {
        Snapshot snapshot = Snapshot.load(SharedData.tc2());
        int splitSources = 0;
        for (SnapshotSource source : snapshot.sources()) {
            TraceProtocol protocol = Protocols.forDeviceType(source.type()).orElse(null);
            if (protocol == null) {
                continue;
            }
            DecodeInput input = DecodeInput.of(source);
            if (source.traceId() == 0x14) {
                continue; // the second PTM traced nothing
            }
            for (long chunk : new long[] {64, 300, 1024}) {
                ChunkedDecode.Split split = assertSameInChunks(protocol, input, chunk);
                if (chunk == 64 && split.chunks() > 2) {
                    // the seams must really be used, not every chunk thrown away
                    assertThat(split.seams()).as(source.name()).isGreaterThanOrEqualTo(split.chunks() / 2);
                    splitSources++;
                }
            }
        }
        // ETMv3 0x10, 0x11, 0x12 and PTM 0x13 hold enough trace to be split many times
        assertThat(splitSources).isEqualTo(4);
    }

    @Test
    void encodedCorpusProgramsDecodeTheSameInChunks() throws IOException {
        List<String> names = new ArrayList<>(Corpus.names(io.armtrace.isa.Profile.AR));
        int split = 0;
        for (String name : names.subList(0, Math.min(2, names.size()))) {
            split += encodeAndCompare("ptm", name, Map.of("sync-period", "256", "timestamps", "on",
                    "cycle-accurate", "on", "context-id-size", "4", "context-id", "0x42"));
            split += encodeAndCompare("etm3", name, Map.of("async-period", "256", "isync-period", "256",
                    "cycle-accurate", "", "context-id-size", "4", "timestamps", ""));
        }
        assertThat(split).isGreaterThan(0);
    }

    /**
     * Corrupt trace (bytes flipped, dropped, A-syncs cut through) decodes with gaps and resyncs: the
     * chunked decode must still give the sequential output, whatever the seams have to skip.
     */
    @Test
    void corruptedTraceDecodesTheSameInChunks() throws IOException {
        java.util.Random random = new java.util.Random(12);
        Snapshot snapshot = Snapshot.load(SharedData.tc2());
        for (int id : new int[] {0x10, 0x13}) {
            SnapshotSource source = snapshot.source(id).orElseThrow();
            TraceProtocol protocol = Protocols.forDeviceType(source.type()).orElseThrow();
            byte[] clean;
            try (java.io.InputStream in = source.data().open()) {
                clean = in.readAllBytes();
            }
            for (int round = 0; round < 6; round++) {
                byte[] bad = clean.clone();
                for (int i = 0; i < 1 + random.nextInt(8); i++) {
                    int at = random.nextInt(bad.length);
                    bad[at] = (byte) (random.nextInt(4) == 0 ? 0 : random.nextInt(256));
                }
                DecodeInput input = new DecodeInput(source.traceId(), source.registers(), source.image(),
                        TraceData.of(source.name() + " round " + round, bad), DecodeOptions.DEFAULT);
                assertSameInChunks(protocol, input, 64 + random.nextInt(512));
            }
        }
    }

    private static int encodeAndCompare(String protocolName, String program, Map<String, String> options)
            throws IOException {
        TraceProtocol protocol = Protocols.byName(protocolName).orElseThrow();
        ProgramImage image = Corpus.image(program);
        EncodeOutput out = protocol.encode(Corpus.execution(program), image, options);
        DecodeInput input = new DecodeInput(-1, out.registers(), image,
                TraceData.of(program + " " + protocolName + " " + options, out.trace()), DecodeOptions.DEFAULT);
        ChunkedDecode.Split split = assertSameInChunks(protocol, input, Math.max(64, out.trace().length / 16));
        return split.seams();
    }

    /**
     * Each piece's decoder reads the program memory on its own thread, and a {@code MemoryImage} keeps a
     * read cache (and builds its piece table on first use) per instance: every decoder must read through
     * its own copy, never the caller's image. Two decoders once built a shared image's table at the same
     * time and one read it half-built (a NullPointerException on a 50 MB PTM trace).
     */
    @Test
    void everyDecoderThreadReadsThroughAnImageOfItsOwnThatKeepsItsBlocks() throws IOException {
        Snapshot snapshot = Snapshot.load(SharedData.tc2());
        SnapshotSource ptm = snapshot.source(0x13).orElseThrow();
        TraceProtocol real = Protocols.forDeviceType(ptm.type()).orElseThrow();
        Map<io.armtrace.image.MemoryImage, java.util.Set<Thread>> threadsOfImage = new java.util.IdentityHashMap<>();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        TraceProtocol spy = (TraceProtocol) java.lang.reflect.Proxy.newProxyInstance(TraceProtocol.class.getClassLoader(),
                new Class<?>[] {TraceProtocol.class}, (proxy, method, args) -> {
                    if (method.getName().equals("decodeFrom")) {
                        calls.incrementAndGet();
                        synchronized (threadsOfImage) {
                            threadsOfImage.computeIfAbsent(((DecodeInput) args[0]).image().memory(),
                                    m -> new java.util.HashSet<>()).add(Thread.currentThread());
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        DecodeInput input = DecodeInput.of(ptm);
        Output chunked = FORMATS.get(0).apply(input.image());
        ChunkedDecode.Split split = ChunkedDecode.decode(spy, input, chunked.sink, 4, 64);
        chunked.finish();
        assertThat(split.chunks()).isGreaterThan(2);
        // more decoder runs than threads: a thread's later runs read through the image of its first
        assertThat(calls.get()).isGreaterThan(threadsOfImage.size());
        assertThat(threadsOfImage.keySet()).doesNotContain(input.image().memory())
                .allSatisfy(m -> assertThat(m.keeps()).isTrue());
        List<Thread> threads = threadsOfImage.values().stream().peek(t -> assertThat(t).hasSize(1))
                .flatMap(java.util.Set::stream).toList();
        assertThat(threads).doesNotHaveDuplicates();
    }

    /** A listing format for formatted decodes: the text writer (ranges or per instruction) or JSONL, over bytes. */
    private static PieceFormat listing(ProgramImage image, int kind) {
        return listing(image, kind, 1 << 20);
    }

    /** As above, each piece's writer buffering {@code buffer} bytes. */
    private static PieceFormat listing(ProgramImage image, int kind, int buffer) {
        return new io.armtrace.view.ListingPieces(w -> kind == 2 ? new JsonlWriter(w, image, false)
                : new TextWriter(w, image, kind == 1, false), java.nio.charset.StandardCharsets.UTF_8, buffer);
    }

    /**
     * A piece's or probe's formatter starts in a buffer another one gave up when there is one: each used to make its
     * own (a megabyte each, fresh memory the kernel had to map for every piece). Counted through a stream between
     * the formatter and its piece that passes everything on and notes the first buffers it sees.
     */
    @Test
    void formattersReuseTheBuffersOfFormattersBeforeThem(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws IOException {
        SnapshotSource ptm = tc2Ptm();
        TraceProtocol protocol = Protocols.forDeviceType(ptm.type()).orElseThrow();
        DecodeInput input = repeated(ptm, 400_000);
        PieceFormat listing = listing(input.image(), 0, 4096);
        byte[] expected = sequential(protocol, input, listing);
        java.util.concurrent.atomic.AtomicInteger opened = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        java.util.Set<byte[]> distinct = java.util.Collections.synchronizedSet(
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        PieceFormat counting = out -> {
            opened.incrementAndGet();
            PieceFormat.BufferTaker taker = (PieceFormat.BufferTaker) out;
            final class Between extends java.io.OutputStream implements PieceFormat.BufferTaker {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public byte[] take(byte[] full, int length) throws IOException {
                    return taker.take(full, length);
                }

                @Override
                public byte[] buffer(int size) {
                    asked.incrementAndGet();
                    byte[] b = taker.buffer(size);
                    assertThat(b).hasSize(size);
                    distinct.add(b);
                    return b;
                }
            }
            return listing.open(new Between());
        };
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ChunkedDecode.Split split = ChunkedDecode.decode(protocol, input, counting, out, 2, 16 << 10, 1L << 30, tmp);
        assertThat(out.toByteArray()).isEqualTo(expected);
        assertThat(split.chunks()).isGreaterThan(8);
        assertThat(asked.get()).as("first buffers asked of the pieces").isEqualTo(opened.get());
        // fresh ones only where none had been given up yet (the probes run first, then the pieces). How many were
        // in use at once depends on the threads' timing: 18 to 23 of 47 seen, against 45 with each formatter
        // keeping its buffer (and none asked before); the bound lies between the two (at half, a loaded run failed)
        assertThat(distinct.size()).as("distinct first buffers of %d formatters", opened.get())
                .isLessThan(opened.get() * 3 / 4);
    }

    /** {@code source}'s trace repeated to at least {@code bytes}, with its image and registers. */
    private static DecodeInput repeated(SnapshotSource source, int bytes) throws IOException {
        byte[] once;
        try (java.io.InputStream in = source.data().open()) {
            once = in.readAllBytes();
        }
        java.io.ByteArrayOutputStream repeated = new java.io.ByteArrayOutputStream();
        while (repeated.size() < bytes) {
            repeated.write(once);
        }
        return new DecodeInput(source.traceId(), source.registers(), source.image(),
                TraceData.of("PTM repeated", repeated.toByteArray()), DecodeOptions.DEFAULT);
    }

    /** TC2's PTM source (0x13). */
    private static SnapshotSource tc2Ptm() throws IOException {
        return Snapshot.load(SharedData.tc2()).source(0x13).orElseThrow();
    }

    /** The bytes of a sequential decode in {@code format}. */
    private static byte[] sequential(TraceProtocol protocol, DecodeInput input, PieceFormat format) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        PieceFormat.Formatter f = format.open(out);
        protocol.decode(input, f);
        f.end();
        return out.toByteArray();
    }

    /**
     * Pieces that format their own listing give the sequential bytes: every TC2 source and corrupted copies of
     * the ETMv3 and PTM ones, with chunk sizes from a seeded generator, bytes spilled to files past 4 KiB or kept
     * in memory, writers' buffers small enough that waiting pieces keep them whole ({@code PieceFormat.BufferTaker}),
     * and no file left behind.
     */
    @Test
    void formattedPiecesJoinToTheSequentialBytes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws IOException {
        java.util.Random random = new java.util.Random(33);
        Snapshot snapshot = Snapshot.load(SharedData.tc2());
        List<DecodeInput> inputs = new ArrayList<>();
        List<TraceProtocol> protocols = new ArrayList<>();
        for (SnapshotSource source : snapshot.sources()) {
            TraceProtocol protocol = Protocols.forDeviceType(source.type()).orElse(null);
            if (protocol == null || !protocol.splits() || source.traceId() == 0x14) {
                continue;
            }
            DecodeInput input = DecodeInput.of(source);
            inputs.add(input);
            protocols.add(protocol);
            byte[] clean;
            try (java.io.InputStream in = source.data().open()) {
                clean = in.readAllBytes();
            }
            for (int round = 0; round < 2; round++) {
                byte[] bad = clean.clone();
                for (int i = 0; i < 1 + random.nextInt(8); i++) {
                    bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
                }
                inputs.add(new DecodeInput(source.traceId(), source.registers(), source.image(),
                        TraceData.of(source.name() + " corrupted " + round, bad), DecodeOptions.DEFAULT));
                protocols.add(protocol);
            }
        }
        int seams = 0;
        for (int i = 0; i < inputs.size(); i++) {
            DecodeInput input = inputs.get(i);
            for (int kind = 0; kind < 3; kind++) {
                int buffer = random.nextBoolean() ? 1 << 20 : 256 + random.nextInt(1024);
                PieceFormat format = listing(input.image(), kind, buffer);
                byte[] expected = sequential(protocols.get(i), input, format);
                long chunk = 64 + random.nextInt(1024);
                long spill = random.nextBoolean() ? 4096 : 1 << 30;
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                ChunkedDecode.Split split = ChunkedDecode.decode(protocols.get(i), input, format, out,
                        2 + random.nextInt(3), chunk, spill, tmp);
                assertThat(out.toByteArray()).as("%s, format %d, chunks of %d bytes, buffers of %d, spilled past %d",
                        input.data().name(), kind, chunk, buffer, spill).isEqualTo(expected);
                seams += split.seams();
                try (var left = java.nio.file.Files.list(tmp)) {
                    assertThat(left).as("temporary files left").isEmpty();
                }
            }
        }
        assertThat(seams).isGreaterThan(100);
        assertThat(ChunkedDecode.temporaryFiles()).isEmpty();
    }

    /**
     * Pieces of a megabyte or more are cut finer, then joined again so that a waiting piece's listing fits in its
     * share of the memory budget, as the probes measured bytes of listing per byte of trace: with a small budget the
     * pieces after the first are the finer cuts, with a large one they are the size asked for; the bytes are the sequential
     * ones either way and nothing is left in the temporary directory.
     */
    @Test
    void largePiecesAreSizedToTheListingTheyMake(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws IOException {
        SnapshotSource ptm = tc2Ptm();
        TraceProtocol protocol = Protocols.forDeviceType(ptm.type()).orElseThrow();
        DecodeInput input = repeated(ptm, 2_800_000);
        PieceFormat format = listing(input.image(), 0);
        byte[] expected = sequential(protocol, input, format);
        long piece = ChunkedDecode.FINER_FROM;
        int finer = protocol.splitPoints(input, piece / ChunkedDecode.FINER).length + 1;
        int asked = protocol.splitPoints(input, piece).length + 1;
        assertThat(finer).as("finer cuts").isGreaterThan(2 * asked);
        // a budget of 4 MB: the listing (about 33 bytes a trace byte) of each finer cut is over its share already;
        // so small a budget is one of a small heap, where pieces are not cut finer unless asked (the last argument)
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ChunkedDecode.Split kept = ChunkedDecode.decode(protocol, input, format, out, 2, piece, 4L << 20, tmp);
        assertThat(out.toByteArray()).isEqualTo(expected);
        assertThat(kept.chunks()).as("a small heap's pieces").isEqualTo(asked);
        out.reset();
        ChunkedDecode.Split small = ChunkedDecode.decode(protocol, input, format, out, 2, piece, 4L << 20, tmp, 0);
        assertThat(out.toByteArray()).isEqualTo(expected);
        // the first piece, started before the probes, spans the size asked for; every finer point after it starts
        // a piece
        assertThat(small.chunks()).as("pieces within a small budget").isEqualTo(finer - ChunkedDecode.FINER + 1);
        out.reset();
        ChunkedDecode.Split large = ChunkedDecode.decode(protocol, input, format, out, 2, piece, 1L << 34, tmp, 0);
        assertThat(out.toByteArray()).isEqualTo(expected);
        assertThat(large.chunks()).as("pieces within a large budget").isBetween(asked - 1, asked + 1);
        assertThat(small.chunks()).isGreaterThan(2 * large.chunks());
        try (var left = java.nio.file.Files.list(tmp)) {
            assertThat(left).as("temporary files left").isEmpty();
        }
    }

    /**
     * A failed write to the output (a full disk, checked; a reader gone, unchecked as the command line's
     * standard output throws it) ends the decode with that failure, and the pieces' files are deleted.
     */
    @Test
    void aFailedOutputEndsTheDecodeAndLeavesNoFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws IOException {
        SnapshotSource ptm = tc2Ptm();
        TraceProtocol protocol = Protocols.forDeviceType(ptm.type()).orElseThrow();
        DecodeInput input = DecodeInput.of(ptm);
        for (boolean unchecked : new boolean[] {false, true}) {
            java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
            java.io.OutputStream failing = new java.io.OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (written.addAndGet(len) > 20_000) {
                        if (unchecked) {
                            throw new java.io.UncheckedIOException(new IOException("Broken pipe"));
                        }
                        throw new IOException("No space left on device");
                    }
                }
            };
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChunkedDecode.decode(protocol, input,
                            listing(input.image(), 1), failing, 2, 256, 1024, tmp))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(unchecked ? "Broken pipe" : "No space left on device");
            try (var left = java.nio.file.Files.list(tmp)) {
                assertThat(left).as("temporary files left").isEmpty();
            }
        }
        assertThat(ChunkedDecode.temporaryFiles()).isEmpty();
    }

    /**
     * A waiting piece keeps its writer's full buffers whole and hands back others, spare ones first; the spools of
     * one decode share one budget of memory, and past it a spool's bytes go to its temporary file (what it held is
     * given back to the budget) and the same buffer comes back; the bytes read back are those given, and deleting a
     * spool deletes its file and gives back what it held.
     */
    @Test
    void spoolsKeepWholeBuffersWithinASharedBudgetThenSpill(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws IOException {
        ChunkedDecode.SpareBlocks spare = new ChunkedDecode.SpareBlocks(10_000);
        byte[] given = new byte[512];
        spare.give(List.of(given));
        ChunkedDecode.Budget budget = new ChunkedDecode.Budget(10_000);
        ChunkedDecode.Spool first = new ChunkedDecode.Spool(budget, tmp, spare);
        ChunkedDecode.Spool second = new ChunkedDecode.Spool(budget, tmp, spare);
        java.io.ByteArrayOutputStream expectedFirst = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream expectedSecond = new java.io.ByteArrayOutputStream();
        java.util.Random random = new java.util.Random(5);
        byte[] buffer = new byte[512];
        List<byte[]> kept = new ArrayList<>();
        // the second spool keeps 4 KB first: the first may keep only what is left of the budget
        for (int i = 0; i < 8; i++) {
            random.nextBytes(buffer);
            expectedSecond.write(buffer, 0, 512);
            byte[] next = second.keep(buffer, 512);
            assertThat(next).isNotSameAs(buffer);
            if (i == 0) {
                assertThat(next).as("the spare buffer is handed out first").isSameAs(given);
            }
            buffer = next;
        }
        assertThat(budget.held()).isEqualTo(4096);
        int writes = 0;
        while (first.size() < 30_000) {
            int length = writes++ > 3 && random.nextInt(4) == 0 ? 1 + random.nextInt(255) : 256 + random.nextInt(257);
            random.nextBytes(buffer);
            expectedFirst.write(buffer, 0, length);
            boolean before = first.file() == null;
            byte[] next = first.keep(buffer, length);
            assertThat(next).hasSize(512);
            if (before && first.file() == null && length >= 256) {
                assertThat(next).as("a buffer at least half full is kept whole").isNotSameAs(buffer);
                kept.add(buffer);
            } else {
                assertThat(next).as("copied: less than half full, or spilled").isSameAs(buffer);
            }
            assertThat(budget.held()).isLessThanOrEqualTo(10_000);
            buffer = next;
        }
        assertThat(kept).as("buffers kept before the spill").hasSizeGreaterThan(5);
        assertThat(first.size()).as("the first spool had less than the whole budget").isGreaterThan(6000);
        assertThat(first.file()).exists();
        assertThat(first.heldBytes()).as("spilled: nothing held in memory").isZero();
        assertThat(budget.held()).as("only the second spool's bytes").isEqualTo(4096);
        java.io.ByteArrayOutputStream back = new java.io.ByteArrayOutputStream();
        first.copyTo(0, first.size(), back);
        assertThat(back.toByteArray()).isEqualTo(expectedFirst.toByteArray());
        back.reset();
        second.copyTo(0, second.size(), back);
        assertThat(back.toByteArray()).isEqualTo(expectedSecond.toByteArray());
        java.nio.file.Path file = first.file();
        first.delete();
        second.delete();
        assertThat(file).doesNotExist();
        assertThat(budget.held()).isZero();
        assertThat(ChunkedDecode.temporaryFiles()).doesNotContain(file);
        assertThat(spare.kept()).as("spare blocks kept within the budget").isBetween(1L, 10_000L);
    }

    /** Spare blocks given back past the budget they are kept within go to the collector. */
    @Test
    void spareBlocksAreKeptWithinTheirCap() {
        ChunkedDecode.SpareBlocks spare = new ChunkedDecode.SpareBlocks(3 << 10);
        byte[] a = new byte[1 << 10];
        byte[] b = new byte[1 << 10];
        byte[] c = new byte[2 << 10];
        spare.give(List.of(a, b, c));
        assertThat(spare.kept()).isEqualTo(2 << 10);
        assertThat(spare.take(2 << 10)).as("past the cap: not kept").isNull();
        assertThat(spare.take(1 << 10)).isIn(a, b);
        spare.give(List.of(c));
        assertThat(spare.kept()).isEqualTo(3 << 10);
        assertThat(spare.take(2 << 10)).isSameAs(c);
    }

    /**
     * A spilled spool, once deleted, lets go of its file's stream, and with it of the last array written through it:
     * a deleted piece that stayed in the decode's list of pieces held its writer's last buffer (a megabyte) that way,
     * so memory grew with the number of pieces that had spilled (beyond 60 MB in a 128 MB heap), until the heap ran out.
     */
    @Test
    void aDeletedSpoolHoldsNothingItWasGiven(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws IOException {
        ChunkedDecode.Spool spool = new ChunkedDecode.Spool(new ChunkedDecode.Budget(1 << 10), tmp,
                new ChunkedDecode.SpareBlocks(1 << 10));
        byte[] big = new byte[1 << 20];
        spool.write(big, 0, big.length);
        assertThat(spool.file()).as("past the budget: in the file").exists();
        java.lang.ref.WeakReference<byte[]> written = new java.lang.ref.WeakReference<>(big);
        big = null;
        spool.delete();
        for (int i = 0; i < 20 && written.get() != null; i++) {
            System.gc();
        }
        assertThat(written.get()).as("the array written, after the spool was deleted").isNull();
        java.lang.ref.Reference.reachabilityFence(spool);
    }
}
