package io.armtrace.protocol;

import io.armtrace.trace.ElementCodec;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.PieceFormat;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Decodes one source on several cores with the elements of a sequential decode, in the same order.
 *
 * <p>The trace is cut at the protocol's split points (sync points about a chunk size apart). Chunk k's
 * decoder starts fresh at its split point; chunk k-1's decoder runs on past that point. Both report
 * their whole state after each sync packet ({@link TraceProtocol#decodeFrom}). The first sync packet
 * after the cut at which the two states are equal is the seam: chunk k-1's elements are taken up to it,
 * chunk k's from it. From equal states the two decoders give equal elements, and chunk k-1's decoder
 * is, by induction from chunk 0, in the state of the sequential decoder; so the stitched stream is the
 * sequential one. The rule needs no knowledge of what a protocol carries across a sync point (return
 * stack, context, cycle counts, a "trace on" a fresh decoder emits): whatever differs keeps the states
 * apart and moves the seam to a later sync point. If no seam is found among a chunk's first
 * {@link #PROBE_SYNCS} sync points, the previous decoder simply decodes that chunk too.
 *
 * <p>To know where to look for the seam without waiting for each other, every chunk k &gt; 0 is first
 * probed (in a formatted decode while chunk 0, which needs no probe, already decodes): a short decode from its split point records its
 * states at its first sync points. Chunk
 * decoders then run in parallel, each encoding its elements ({@link ElementCodec}, about ten bytes a
 * range) into memory, or into a temporary file past {@link #SPILL_BYTES}; they are fed to the sink in
 * order and dropped. At most {@code threads + 1} chunks are in flight, so memory and disk stay bounded
 * whatever the trace size; temporary files are deleted on every way out.
 */
public final class ChunkedDecode {
    /** Sync points at the start of a chunk where the previous chunk's decoder may hand over. */
    static final int PROBE_SYNCS = 32;
    /** Formatted pieces of at least this many bytes of trace are cut {@link #FINER} times finer, then grouped. */
    static final long FINER_FROM = 1L << 20;
    static final int FINER = 8;
    /**
     * The least memory budget with which pieces are cut finer: a heap of 1 GB. Chosen when small pieces (128 KB of
     * ETMv4 as JSON Lines) held 40 to 70 MB more than the budget in a 128 MB heap and ran out of it at times: every
     * spilled piece kept its writer's last buffer through its file's stream (fixed: {@link Spool#delete}; about 20 MB
     * live at most since). Below it a waiting piece's share is smaller than the listing of even the finer cuts.
     */
    static final long FINER_BUDGET = 64L << 20;

    private final TraceProtocol protocol;
    private final DecodeInput input;
    private final int threads;
    /**
     * The chunks' split points. A formatted decode cut finer than its pieces ({@link #pieceBytes} above 0) keeps
     * here, once probed, only the points where its pieces start ({@link #probe}), before {@link #probed} is counted
     * down: a piece reads them after {@link #probes()}.
     */
    private long[] starts;
    private final List<Map<Long, Object>> probes = new ArrayList<>();
    /** Bytes of trace a formatted piece spans at most, when {@link #starts} are finer (0: they are the pieces). */
    private long pieceBytes;
    /**
     * Where a formatted decode's chunk 0 ends, set before it starts: the first point of a piece of the size asked
     * for, which stays the second piece's start whatever size the pieces after it get.
     */
    private long firstEnd;
    /** Counted down when {@link #probes} is complete, or when probing failed ({@link #probesFailed}). */
    private final java.util.concurrent.CountDownLatch probed = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean probesFailed;
    /** Null when the pieces hand elements to one sink; else how each piece formats its own. */
    private final PieceFormat format;
    private final long spillBytes;
    private final Path tempDir;
    /** The formatted pieces' blocks, taken again by later pieces once a piece's bytes are written out. */
    private final SpareBlocks spareBlocks;
    /** What the formatted pieces keep in memory together, at most. */
    private final Budget budget;
    private volatile boolean cancelled;

    private ChunkedDecode(TraceProtocol protocol, DecodeInput input, int threads, long[] starts) {
        this(protocol, input, threads, starts, null, SPILL_BYTES, null);
    }

    private ChunkedDecode(TraceProtocol protocol, DecodeInput input, int threads, long[] starts, PieceFormat format,
                          long spillBytes, Path tempDir) {
        this.protocol = protocol;
        this.input = input;
        this.threads = threads;
        this.starts = starts;
        this.format = format;
        this.spillBytes = spillBytes;
        this.budget = new Budget(spillBytes);
        this.spareBlocks = new SpareBlocks(spillBytes);
        this.tempDir = tempDir;
        // builds the image's piece table here, on the calling thread, before any decoder thread copies it
        input.image().memory().copy();
    }

    /**
     * The input with a view of the program memory of this thread's own: a {@code MemoryImage} keeps a read cache per
     * instance, so each decoder thread reads through its own copy, and one that keeps the decoders' block caches
     * ({@link io.armtrace.image.MemoryImage#keeping()}), so that a thread's next piece or probe starts with the
     * blocks its pieces before walked. On a large program's trace (sqlite-mix, 1.9 MB of code, 50 MB of PTM in
     * pieces of 4 MB) every run walked its blocks again: 1.82 million walks against 96,500 on one thread.
     */
    private DecodeInput forThisThread() {
        io.armtrace.image.ProgramImage img = input.image();
        io.armtrace.image.MemoryImage memory = memories.computeIfAbsent(Thread.currentThread(),
                t -> img.memory().keeping());
        return new DecodeInput(input.traceId(), input.registers(),
                new io.armtrace.image.ProgramImage(memory, img.symbols(), img.lines()),
                input.data(), input.options());
    }

    /** Each decoder thread's copy of the program memory, kept while this decode runs. */
    private final Map<Thread, io.armtrace.image.MemoryImage> memories = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Decodes {@code input} to {@code sink} (without ending it), split into chunks of about
     * {@code chunkSize} bytes on {@code threads} threads when the protocol supports it and the trace is
     * larger than one chunk; otherwise as {@link TraceProtocol#decode}.
     */
    public static Split decode(TraceProtocol protocol, DecodeInput input, ElementSink sink, int threads,
                               long chunkSize) throws IOException {
        long[] points = threads > 1 && chunkSize > 0 ? protocol.splitPoints(input, chunkSize) : new long[0];
        if (points.length == 0) {
            protocol.decode(input, sink);
            return new Split(1, 0);
        }
        long[] starts = new long[points.length + 1];
        System.arraycopy(points, 0, starts, 1, points.length);
        int seams = new ChunkedDecode(protocol, input, threads, starts).run(sink);
        return new Split(starts.length, seams);
    }

    /**
     * Decodes {@code input} and writes its listing, as {@code format} makes it, to {@code out}, cut into chunks
     * of about {@code chunkSize} bytes decoded on {@code threads} threads as {@link #decode(TraceProtocol,
     * DecodeInput, ElementSink, int, long)} does, with the bytes of a sequential decode. Each chunk formats its
     * own elements on its own thread; the chunk whose bytes come next in the output writes them straight to
     * {@code out}, the chunks after it into memory (a temporary file past a share of the heap) until their turn,
     * so the calling thread only joins bytes. A seam also needs the two formatters in equal states ({@link
     * PieceFormat.Formatter#state}). The formatter is ended ({@link ElementSink#end}) after the last element;
     * {@code out} is neither flushed nor closed.
     */
    public static Split decode(TraceProtocol protocol, DecodeInput input, PieceFormat format, java.io.OutputStream out,
                               int threads, long chunkSize) throws IOException {
        return decode(protocol, input, format, out, threads, chunkSize, formattedSpillBytes(threads), null);
    }

    /**
     * As above, the chunks in flight keeping at most {@code spillBytes} in memory together; past that a chunk's bytes
     * go into a file in {@code tempDir} (null: the default).
     */
    static Split decode(TraceProtocol protocol, DecodeInput input, PieceFormat format, java.io.OutputStream out,
                        int threads, long chunkSize, long spillBytes, Path tempDir) throws IOException {
        return decode(protocol, input, format, out, threads, chunkSize, spillBytes, tempDir, FINER_BUDGET);
    }

    /** As above, cutting finer (then grouping) only with a budget of at least {@code finerBudget} bytes. */
    static Split decode(TraceProtocol protocol, DecodeInput input, PieceFormat format, java.io.OutputStream out,
                        int threads, long chunkSize, long spillBytes, Path tempDir, long finerBudget)
            throws IOException {
        long t0 = System.nanoTime();
        // large pieces are cut finer and joined again once the probes say how many bytes of listing a byte of
        // trace makes (group): a listing of 400 bytes a trace byte (JSON Lines of T32 ranges) made 1.6 GB for
        // each 4 MB piece, and a waiting piece spilled most of it to a temporary file
        boolean finer = threads > 1 && chunkSize >= FINER_FROM && spillBytes >= finerBudget;
        long[] points = threads > 1 && chunkSize > 0
                ? protocol.splitPoints(input, finer ? chunkSize / FINER : chunkSize) : new long[0];
        long scan = System.nanoTime() - t0;
        if (points.length == 0) {
            PieceFormat.Formatter f = format.open(out);
            long[] listed = {0};
            protocol.decode(input, e -> {
                if (!(e instanceof io.armtrace.trace.Gap)) {
                    listed[0]++;
                }
                f.accept(e);
            });
            f.end();
            return new Split(1, 0, listed[0], new Phases(scan, 0, 0));
        }
        long[] starts = new long[points.length + 1];
        System.arraycopy(points, 0, starts, 1, points.length);
        ChunkedDecode d = new ChunkedDecode(protocol, input, threads, starts, format, spillBytes, tempDir);
        d.pieceBytes = finer ? chunkSize : 0;
        return d.runFormatted(out, scan);
    }

    /**
     * How a decode went: the chunks the trace was cut into, the seams where one decoder took over, and (for a
     * formatted decode) how many elements other than gaps were written; -1 when the caller counts them itself.
     */
    public record Split(int chunks, int seams, long listed, Phases phases) {
        public Split(int chunks, int seams) {
            this(chunks, seams, -1, Phases.NONE);
        }
    }

    /**
     * Where a formatted decode spent time on the calling thread, in nanoseconds: the scan for split points and
     * the probes (before any chunk but chunk 0 decodes), and joining (copying a chunk's kept bytes to the output when its
     * turn comes). The rest is the chunks' decoders, in parallel. For benchmarks (bench/jobs).
     */
    public record Phases(long scanNanos, long probeNanos, long joinNanos) {
        static final Phases NONE = new Phases(0, 0, 0);
    }

    /** Where chunk {@code k}'s decoder ended: at the seam with chunk {@code next} (or -1: the end). */
    private record Chunk(Spool elements, long count, Map<Long, Long> marks, int next, long seam) {
    }

    /**
     * A chunk's elements in memory, in a temporary file once they pass this many bytes: a 64th of the heap
     * (at least 1 MB, at most 48 MB), so that the pieces in flight (threads + 2) take a small share of
     * whatever heap the decode was given, -Xmx64m included.
     */
    static final long SPILL_BYTES = Math.max(1L << 20, Math.min(48L << 20, Runtime.getRuntime().maxMemory() / 64));

    /**
     * Writing a piece's elements to its temporary file failed (a full temporary directory, a file size limit): the
     * decode cannot go on. Not a mistake in the input: the command line reports it as lost output, naming the
     * directory ({@code java.io.tmpdir}). The message is the system's reason.
     */
    public static final class TemporaryFileFailure extends IOException {
        TemporaryFileFailure(IOException cause) {
            super(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage(), cause);
        }
    }

    /**
     * The formatted chunks' bytes in memory, all chunks in flight together; past this many a chunk's bytes go to a
     * temporary file: a sixteenth of the heap, at least 1 MB and at most 256 MB for each of the chunks in flight
     * (threads + 2). A listing is 10 to 40 times the size of its trace, so more in memory means less copied back
     * from the disk by the joining thread, but a quarter of the heap made a 50 MB PTM listing take 2 GB of memory
     * and more CPU time than it saved. Shared, not a share each: the chunk being written out holds nothing and
     * chunks waiting for a thread hold nothing, so with a share each (a quarter of this on 2 threads) the one
     * chunk that waited spilled while most of the budget was unused (4 MB pieces of PTM as JSONL: 270 MB each
     * against 98 MB shares of a 6 GB heap; the calling thread then copied them back from the disk, 90% of the
     * time with the JIT warm).
     */
    static long formattedSpillBytes(int threads) {
        return (threads + 2) * Math.max(1L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16 / (threads + 2)));
    }

    /** Bytes that spools may keep in memory together: one formatted decode's chunks share one. */
    static final class Budget {
        private final long limit;
        private long held;

        Budget(long limit) {
            this.limit = limit;
        }

        /** Reserves {@code n} bytes; false, reserving nothing, when that would pass the limit. */
        synchronized boolean take(long n) {
            if (held + n > limit) {
                return false;
            }
            held += n;
            return true;
        }

        synchronized void give(long n) {
            held -= n;
        }

        /** Bytes reserved now (for tests). */
        synchronized long held() {
            return held;
        }
    }

    /** A chunk's encoded elements: in memory up to {@link #SPILL_BYTES}, then in a temporary file. */
    static final class Spool extends java.io.OutputStream {
        private final long spillBytes;
        private final Path directory;
        private final List<byte[]> blocks = new ArrayList<>();
        /** The bytes held in each block but the last, which holds {@link #used}. */
        private int[] lengths = new int[16];
        private int used;
        /** Whether {@link #write} may add to the last block: not to one taken whole ({@link #keep}). */
        private boolean lastOpen;
        private long size;
        private Path file;
        private java.io.OutputStream fileOut;
        /** The first failed write to the file: every later use of the spool fails with it. */
        private TemporaryFileFailure failure;

        /** Null: blocks are the garbage collector's once the spool is deleted. */
        private final SpareBlocks spare;
        /** Shared with other spools ({@link #spillBytes} unused), or null: this spool's own limit. */
        private final Budget budget;
        /** Bytes reserved in {@link #budget} for what this spool holds in memory. */
        private long reserved;

        Spool() {
            this(SPILL_BYTES, null, null);
        }

        /**
         * Spills past {@code spillBytes} into a file in {@code directory} (null: {@code java.io.tmpdir}); takes its
         * blocks from {@code spare} and gives them back there when spilled or deleted (null: allocates them).
         */
        Spool(long spillBytes, Path directory, SpareBlocks spare) {
            this.spillBytes = spillBytes;
            this.directory = directory;
            this.spare = spare;
            this.budget = null;
        }

        /** As above, spilling when the bytes kept in memory by all spools of {@code budget} would pass its limit. */
        Spool(Budget budget, Path directory, SpareBlocks spare) {
            this.spillBytes = Long.MAX_VALUE;
            this.directory = directory;
            this.spare = spare;
            this.budget = budget;
        }

        /** Whether {@code len} more bytes may be kept in memory (reserving them in a shared budget). */
        private boolean room(int len) {
            if (budget == null) {
                return size + len <= spillBytes;
            }
            if (!budget.take(len)) {
                return false;
            }
            reserved += len;
            return true;
        }

        /** Bytes written so far. */
        long size() {
            return size;
        }

        /** Bytes of the blocks held in memory (for tests: at most about the spill size). */
        long heldBytes() {
            long n = 0;
            for (byte[] b : blocks) {
                n += b.length;
            }
            return n;
        }

        /** The temporary file, once spilled (for tests). */
        Path file() {
            return file;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (file == null && !room(len)) {
                spill();
            }
            size += len;
            if (file != null) {
                if (failure != null) {
                    throw failure;
                }
                try {
                    fileOut.write(b, off, len);
                } catch (IOException e) {
                    throw failure = new TemporaryFileFailure(e);
                }
                return;
            }
            while (len > 0) {
                if (blocks.isEmpty() || !lastOpen || used == blocks.get(blocks.size() - 1).length) {
                    // blocks of a megabyte past the first: the garbage collector allocates arrays that large
                    // outside the young generation and never copies them while they live
                    long limit = budget != null ? budget.limit : spillBytes;
                    int blockSize = blocks.isEmpty() || limit < (8L << 20) ? 1 << 16 : 1 << 20;
                    if (!blocks.isEmpty() && !lastOpen) {
                        // after a buffer kept whole: the rest of a writer's buffer flushed at a seam, most likely
                        // followed by more whole buffers, so a small block (a full-sized one each time wasted most);
                        // of one size, so that the spare blocks are of few sizes and are taken again
                        blockSize = 8 << 10;
                    }
                    byte[] fresh = spare == null ? null : spare.take(blockSize);
                    add(fresh != null ? fresh : new byte[blockSize], 0);
                    lastOpen = true;
                }
                byte[] block = blocks.get(blocks.size() - 1);
                int n = Math.min(len, block.length - used);
                System.arraycopy(b, off, block, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        /** Appends {@code block}, holding {@code length} bytes, as the last block. */
        private void add(byte[] block, int length) {
            int last = blocks.size() - 1;
            if (last >= 0) {
                if (last == lengths.length) {
                    lengths = Arrays.copyOf(lengths, 2 * lengths.length);
                }
                lengths[last] = used;
            }
            blocks.add(block);
            used = length;
        }

        /** The bytes block {@code i} holds. */
        private int lengthOf(int i) {
            return i == blocks.size() - 1 ? used : lengths[i];
        }

        /**
         * Takes the first {@code length} bytes of {@code full} as the next bytes, keeping the array itself when it is
         * kept in memory and at least half full; returns the buffer the caller fills next: a spare one of the same
         * size, a new one, or {@code full} when its bytes were copied (into the file, or into the last block).
         */
        byte[] keep(byte[] full, int length) throws IOException {
            if (length < full.length / 2 || file != null || !room(length)) {
                write(full, 0, length);
                return full;
            }
            size += length;
            add(full, length);
            lastOpen = false;
            byte[] next = spare == null ? null : spare.take(full.length);
            return next != null ? next : new byte[full.length];
        }

        private void spill() throws IOException {
            try {
                file = directory == null ? Files.createTempFile("armtrace-chunk", ".part")
                        : Files.createTempFile(directory, "armtrace-chunk", ".part");
                LEFT.add(file);
                installCleanup();
                fileOut = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                for (int i = 0; i < blocks.size(); i++) {
                    fileOut.write(blocks.get(i), 0, lengthOf(i));
                }
            } catch (IOException e) {
                throw failure = new TemporaryFileFailure(e);
            }
            release();
        }

        /** Drops the blocks, into the spare ones if there are. */
        private void release() {
            if (spare != null) {
                spare.give(blocks);
            }
            blocks.clear();
            used = 0;
            if (budget != null) {
                budget.give(reserved);
                reserved = 0;
            }
        }

        @Override
        public void close() throws IOException {
            if (failure != null) {
                throw failure;
            }
            if (fileOut != null) {
                try {
                    fileOut.close();
                } catch (IOException e) {
                    throw failure = new TemporaryFileFailure(e);
                }
            }
        }

        java.io.InputStream open() throws IOException {
            if (failure != null) {
                throw failure; // a spilled piece whose file lost bytes must not be read back as if whole
            }
            if (file != null) {
                return Files.newInputStream(file);
            }
            List<java.io.InputStream> parts = new ArrayList<>();
            for (int i = 0; i < blocks.size(); i++) {
                parts.add(new java.io.ByteArrayInputStream(blocks.get(i), 0, lengthOf(i)));
            }
            return new java.io.SequenceInputStream(java.util.Collections.enumeration(parts));
        }

        void delete() throws IOException {
            release();
            if (fileOut != null) {
                try {
                    fileOut.close();
                } catch (IOException e) {
                    // deleted anyway; a failed write was reported where it happened
                }
                // dropped, not only closed: the file's stream keeps the last array written through it (a writer's
                // buffer of a megabyte, passed straight on by the BufferedOutputStream), and its own 64 KB buffer
                fileOut = null;
            }
            if (file != null) {
                Files.deleteIfExists(file);
                LEFT.remove(file);
            }
        }

        /** Writes bytes {@code from} (inclusive) to {@code to} (exclusive) to {@code out}. */
        void copyTo(long from, long to, java.io.OutputStream out) throws IOException {
            if (file == null) {
                long at = 0;
                for (int i = 0; i < blocks.size() && at < to; i++) {
                    int len = lengthOf(i);
                    long lo = Math.max(from, at);
                    long hi = Math.min(to, at + len);
                    if (hi > lo) {
                        out.write(blocks.get(i), (int) (lo - at), (int) (hi - lo));
                    }
                    at += len;
                }
                return;
            }
            close();
            try (java.io.InputStream in = Files.newInputStream(file)) {
                in.skipNBytes(from);
                byte[] buf = new byte[1 << 16];
                long left = to - from;
                while (left > 0) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        throw new java.io.EOFException(file + ": shorter than written");
                    }
                    out.write(buf, 0, n);
                    left -= n;
                }
            }
        }
    }

    /**
     * Blocks of bytes that pieces of a formatted decode wrote and that were written out since, for the pieces after
     * them. A piece's bytes kept in memory are a large share of the heap; allocated afresh for every piece, each
     * block was zeroed, then copied by the young-generation collector while its piece waited, and the heap grew
     * (with the serial collector, 0.3 to 1 s of collection on a 50 MB PTM text listing against 0.05 s in one
     * piece). Taken again, the blocks settle in the old generation once. They are at most what the pieces in flight
     * held at one time, so bounded as those are.
     */
    static final class SpareBlocks {
        private final Map<Integer, java.util.ArrayDeque<byte[]>> free = new HashMap<>();
        /**
         * Bytes kept at most: the budget of what the pieces keep. Blocks are of a few sizes, each kept up to what the
         * pieces once held of it, so without this the spare ones could reach a few times the budget (9 MB with a
         * budget of 8 MB in a 128 MB heap, measured); past it a block given back is the collector's.
         */
        private final long cap;
        private long kept;

        SpareBlocks(long cap) {
            this.cap = cap;
        }

        /** A spare block of {@code size} bytes, or null if there is none. */
        synchronized byte[] take(int size) {
            java.util.ArrayDeque<byte[]> sized = free.get(size);
            byte[] b = sized == null ? null : sized.pollFirst();
            if (b != null) {
                kept -= b.length;
            }
            return b;
        }

        synchronized void give(List<byte[]> blocks) {
            for (byte[] b : blocks) {
                if (kept + b.length <= cap) {
                    free.computeIfAbsent(b.length, n -> new java.util.ArrayDeque<>()).addFirst(b);
                    kept += b.length;
                }
            }
        }

        /** Bytes of the spare blocks (for tests). */
        synchronized long kept() {
            return kept;
        }
    }

    /** Pieces' temporary files not yet deleted: the shutdown hook deletes them on any exit (Ctrl-C included). */
    private static final java.util.Set<Path> LEFT = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static volatile boolean cleanupInstalled;

    private static void installCleanup() {
        if (!cleanupInstalled) {
            synchronized (LEFT) {
                if (!cleanupInstalled) {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        for (Path p : LEFT) {
                            try {
                                Files.deleteIfExists(p);
                            } catch (IOException e) {
                                // nothing more can be done at exit
                            }
                        }
                    }, "armtrace-chunk-cleanup"));
                    cleanupInstalled = true;
                }
            }
        }
    }

    /** The pieces' temporary files that exist now (for tests). */
    static java.util.Set<Path> temporaryFiles() {
        return java.util.Set.copyOf(LEFT);
    }

    private int run(ElementSink sink) throws IOException {
        int seams = 0;
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "armtrace-chunk");
            t.setDaemon(true);
            return t;
        });
        int n = starts.length;
        java.util.concurrent.atomic.AtomicReferenceArray<Spool> spools = new java.util.concurrent.atomic.AtomicReferenceArray<>(n);
        List<Future<Chunk>> chunks = new ArrayList<>(java.util.Collections.nCopies(n, null));
        try {
            probe(pool);
            int window = threads + 1;
            int submitted = 0;
            int cur = 0;
            long from = 0;
            while (true) {
                while (submitted < n && submitted <= cur + window) {
                    int k = submitted++;
                    chunks.set(k, pool.submit(() -> decodeChunk(k, spools)));
                }
                Chunk c = await(chunks.get(cur));
                copy(c.elements(), from, c.count(), sink);
                if (c.next() < 0) {
                    return seams;
                }
                for (int k = cur; k < c.next(); k++) {
                    if (chunks.get(k) != null && k != cur) {
                        chunks.get(k).cancel(false);
                    }
                }
                int next = c.next();
                while (submitted <= next) {
                    int k = submitted++;
                    chunks.set(k, pool.submit(() -> decodeChunk(k, spools)));
                }
                Chunk following = await(chunks.get(next));
                Long mark = following.marks().get(c.seam());
                if (mark == null) {
                    throw new IllegalStateException("chunk " + next + " did not pass sync point " + c.seam());
                }
                for (int k = cur; k < next; k++) {
                    Spool done = spools.get(k);
                    if (done != null) {
                        done.delete();
                    }
                }
                cur = next;
                from = mark;
                seams++;
            }
        } finally {
            cancelled = true;
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int k = 0; k < n; k++) {
                Spool left = spools.get(k);
                if (left != null) {
                    left.delete();
                }
            }
        }
    }

    /** The states of each chunk's decoder at its first sync points, decoding from its split point. */
    private void probe(ExecutorService pool) throws IOException {
        boolean done = false;
        try {
            int n = starts.length;
            List<Map<Long, Object>> states = new ArrayList<>(java.util.Collections.nCopies(n, null));
            states.set(0, Map.of());
            long[] listing = new long[n];
            long[] traced = new long[n];
            // cut finer: first the points of pieces of the size asked for, whose probes say how much listing a byte
            // of trace makes; then, if that makes pieces too large for the memory budget, the points between
            runProbes(pool, k -> k % step() == 0, states, listing, traced);
            if (pieceBytes > 0) {
                // chunk 0, already running, ends at point FINER; a piece starts every step points from there
                int step = pieceStep(listing, traced);
                java.util.function.IntPredicate starting = k -> k >= FINER && (k - FINER) % step == 0;
                runProbes(pool, starting, states, listing, traced);
                List<Long> kept = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    if (k == 0 || starting.test(k)) {
                        kept.add(starts[k]);
                        probes.add(states.get(k));
                    }
                }
                starts = kept.stream().mapToLong(Long::longValue).toArray();
            } else {
                probes.addAll(states);
            }
            done = true;
        } finally {
            probesFailed = !done;
            probed.countDown();
        }
    }

    /** The finer split points a piece spans when {@link #pieceBytes} are the size asked for, else 1. */
    private int step() {
        return pieceBytes > 0 ? FINER : 1;
    }

    /**
     * Probes chunks {@code 1..} whose index {@code which} takes and that were not probed yet, into {@code states};
     * a formatted probe also counts the bytes of listing it made and the bytes of trace they came from.
     */
    private void runProbes(ExecutorService pool, java.util.function.IntPredicate which, List<Map<Long, Object>> states,
                           long[] listing, long[] traced) throws IOException {
        Map<Integer, Future<Map<Long, Object>>> runs = new java.util.TreeMap<>();
        for (int k = 1; k < starts.length; k++) {
            if (states.get(k) != null || !which.test(k)) {
                continue;
            }
            int chunk = k;
            runs.put(k, pool.submit(() -> {
                // with a format, the formatter's state is part of the seam: it runs here too, its bytes dropped
                // (and counted)
                Piece dropping = format == null ? null : new Piece(true);
                PieceRun run = new PieceRun(chunk, dropping, true);
                run.decode();
                if (dropping != null && !run.states.isEmpty()) {
                    run.formatter.flush();
                    listing[chunk] = dropping.dropped;
                    traced[chunk] = java.util.Collections.max(run.states.keySet()) - starts[chunk];
                }
                run.release();
                return run.states;
            }));
        }
        for (Map.Entry<Integer, Future<Map<Long, Object>>> r : runs.entrySet()) {
            states.set(r.getKey(), await(r.getValue()));
        }
    }

    /**
     * The finer split points a piece spans (1 to {@link #FINER}) so that a waiting piece's listing fits in its share
     * of the memory budget, as the probes measured it: {@code listing} bytes made from {@code traced} bytes of trace
     * at the points probed. A waiting piece then keeps its listing in memory rather than spill it.
     */
    private int pieceStep(long[] listing, long[] traced) {
        long out = 0;
        long in = 0;
        for (int k = 0; k < listing.length; k++) {
            out += listing[k];
            in += traced[k];
        }
        if (out <= 0 || in <= 0) {
            return FINER;
        }
        double pieceListing = (double) out / in * pieceBytes;
        // the pieces that wait while they are decoded: all threads' but the head's (pieces that have finished
        // waiting hold theirs too, but only where the head is the slowest, which it is not as a rule)
        double share = (double) budget.limit / Math.max(1, threads - 1);
        return (int) Math.max(1, Math.min(FINER, Math.floor(FINER * share / pieceListing)));
    }

    /** The probes' states, once all are known (chunk 0 starts before they are). */
    private List<Map<Long, Object>> probes() {
        try {
            probed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException();
        }
        if (probesFailed) {
            throw new CancellationException(); // the calling thread reports why
        }
        return probes;
    }

    private void checkCancelled() {
        if (cancelled) {
            throw new CancellationException();
        }
    }

    /** Chunk {@code k}'s index for a sync point at {@code offset}. */
    private int chunkOf(long offset) {
        int i = Arrays.binarySearch(starts, offset);
        return i >= 0 ? i : -i - 2;
    }

    private Chunk decodeChunk(int k, java.util.concurrent.atomic.AtomicReferenceArray<Spool> spools) throws IOException {
        Spool spool = new Spool();
        spools.set(k, spool);
        long end = k + 1 < starts.length ? starts[k + 1] : Long.MAX_VALUE;
        Map<Long, Object> own = probes.get(k);
        Map<Long, Long> marks = new HashMap<>();
        long[] count = {0};
        int[] next = {-1};
        long[] seam = {-1};
        try (ElementCodec.Output out = new ElementCodec.Output(spool)) {
            ElementSink sink = e -> {
                if (next[0] >= 0) {
                    return; // past the seam: the next chunk's decoder has these
                }
                checkCancelled();
                try {
                    out.write(e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                count[0]++;
            };
            protocol.decodeFrom(forThisThread(), starts[k], sink, (offset, state) -> {
                if (own.containsKey(offset)) {
                    marks.put(offset, count[0]);
                }
                if (offset >= end) {
                    int j = chunkOf(offset);
                    Object probed = probes.get(j).get(offset);
                    if (j > k && probed != null && probed.equals(state)) {
                        next[0] = j;
                        seam[0] = offset;
                        return false;
                    }
                }
                return true;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new Chunk(spool, count[0], marks, next[0], seam[0]);
    }

    /** A decoder's and its formatter's states together: a seam of a formatted decode needs both equal. */
    private record SeamState(Object decoder, Object formatter) {
    }

    /**
     * A chunk's formatted bytes: kept in a {@link Spool} until the chunk's turn comes, then (after the bytes
     * before its seam are dropped) written straight to the output. Also where the chunk's decoder marks, at its
     * first sync points, how many bytes and listed elements it had written, for the seam with the chunk before.
     */
    private final class Piece extends java.io.OutputStream implements PieceFormat.BufferTaker {
        private final Spool spool = new Spool(budget, tempDir, spareBlocks);
        private java.io.OutputStream direct;
        private long position;
        private final Map<Long, long[]> marks = new HashMap<>();
        private boolean finished;
        private boolean deleted;
        /** Bytes written to a piece that drops them (a probe's): how much listing its probe made. */
        long dropped;
        /**
         * What stopped a write half done (the heap full while spilling, say): the piece's bytes are then not whole,
         * and handing over to it would write a listing with a hole (or fail later, as if a temporary file had been
         * cut short), so {@link #becomeHead} throws this instead.
         */
        private Throwable broken;

        Piece() {
        }

        /** With {@code dropped}, a piece that drops what is written to it (a probe's formatter writes there). */
        Piece(boolean dropped) {
            deleted = dropped;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        /** Failures are thrown unchecked: the formatter's PrintWriter would swallow an IOException. */
        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (deleted) {
                dropped += len;
                return; // a chunk decoded by the chunk before it, still running: its bytes are not wanted
            }
            position += len;
            try {
                if (direct != null) {
                    direct.write(b, off, len);
                } else {
                    spool.write(b, off, len);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException | Error e) {
                broken = e;
                throw e;
            }
        }

        /** A formatter's first buffer: a spare one if there is one. */
        @Override
        public byte[] buffer(int size) {
            byte[] b = spareBlocks.take(size);
            return b != null ? b : new byte[size];
        }

        /** A formatter's full buffer: written out by the head, kept whole by a piece that waits for its turn. */
        @Override
        public synchronized byte[] take(byte[] full, int length) {
            if (deleted) {
                dropped += length;
                return full;
            }
            position += length;
            try {
                if (direct != null) {
                    direct.write(full, 0, length);
                    return full;
                }
                return spool.keep(full, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException | Error e) {
                broken = e;
                throw e;
            }
        }

        synchronized void mark(long offset, long listed) {
            marks.put(offset, new long[] {position, listed});
            notifyAll();
        }

        /** Called when the chunk's decoder has stopped, whichever way. */
        synchronized void finish() {
            finished = true;
            notifyAll();
        }

        /** The bytes and listed elements at sync point {@code offset}, once passed; null if the decoder stopped first. */
        synchronized long[] awaitMark(long offset) throws IOException {
            while (!marks.containsKey(offset) && !finished) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return marks.get(offset);
        }

        /** From now on the chunk writes to {@code out}, after what it kept from byte {@code from} on. */
        synchronized void becomeHead(long from, java.io.OutputStream out) throws IOException {
            if (broken instanceof Error e) {
                throw e;
            }
            if (broken instanceof RuntimeException e) {
                throw e;
            }
            spool.copyTo(from, position, out);
            spool.delete();
            direct = out;
        }

        synchronized void delete() throws IOException {
            deleted = true;
            spool.delete();
        }
    }

    private Split runFormatted(java.io.OutputStream out, long scan) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "armtrace-chunk");
            t.setDaemon(true);
            return t;
        });
        int n = starts.length;
        List<Piece> pieces = new ArrayList<>(java.util.Collections.nCopies(n, null));
        List<Future<Chunk>> chunks = new ArrayList<>(java.util.Collections.nCopies(n, null));
        int seams = 0;
        long listed = 0;
        long probing = System.nanoTime();
        long join = 0;
        try {
            // chunk 0 needs no probe until it reaches its end: it starts first, so that the compiler sees the
            // decode and the listing of a long stretch of trace, not only the probes' short ones (compiled from
            // those alone, the decoder's largest methods were compiled again and again as chunks met the rest)
            firstEnd = step() < n ? starts[step()] : Long.MAX_VALUE;
            int submitted = submitPiece(pool, 0, pieces, chunks, out);
            probe(pool);
            n = starts.length; // the pieces, when the split points were finer
            probing = System.nanoTime() - probing;
            // at most threads + 2 chunks in flight: the one being written out and threads + 1 ahead of it
            int window = threads + 1;
            int cur = 0;
            long fromListed = 0;
            while (true) {
                while (submitted < n && submitted <= cur + window) {
                    submitted = submitPiece(pool, submitted, pieces, chunks, out);
                }
                Chunk c = await(chunks.get(cur));
                listed += c.count() - fromListed;
                if (c.next() < 0) {
                    return new Split(n, seams, listed, new Phases(scan, probing, join));
                }
                int next = c.next();
                while (submitted <= next) {
                    submitted = submitPiece(pool, submitted, pieces, chunks, out);
                }
                for (int k = cur + 1; k < next; k++) {
                    chunks.get(k).cancel(false); // decoded by chunk cur's decoder instead
                }
                long[] mark = pieces.get(next).awaitMark(c.seam());
                if (mark == null) {
                    await(chunks.get(next));
                    throw new IllegalStateException("chunk " + next + " did not pass sync point " + c.seam());
                }
                long t = System.nanoTime();
                pieces.get(next).becomeHead(mark[0], out);
                join += System.nanoTime() - t;
                for (int k = cur; k < next; k++) {
                    pieces.get(k).delete();
                    // and forgotten: a piece written out is garbage, whatever it still refers to (one kept to the end
                    // held, through its file's stream, its writer's last buffer: a megabyte a spilled piece)
                    pieces.set(k, null);
                }
                cur = next;
                fromListed = mark[1];
                seams++;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            cancelled = true;
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (Piece p : pieces) {
                if (p != null) {
                    p.delete();
                }
            }
        }
    }

    /** Starts chunk {@code k}'s decoder (chunk 0 writes straight to {@code out}); returns {@code k + 1}. */
    private int submitPiece(ExecutorService pool, int k, List<Piece> pieces, List<Future<Chunk>> chunks,
                            java.io.OutputStream out) throws IOException {
        Piece piece = new Piece();
        if (k == 0) {
            piece.becomeHead(0, out);
        }
        pieces.set(k, piece);
        chunks.set(k, pool.submit(() -> {
            try {
                return formatChunk(k, piece);
            } finally {
                piece.finish();
            }
        }));
        return k + 1;
    }

    /** Decodes and formats chunk {@code k} into {@code piece}; the chunk's count is of listed elements. */
    private Chunk formatChunk(int k, Piece piece) throws IOException {
        PieceRun run = new PieceRun(k, piece, false);
        run.decode();
        run.release();
        return new Chunk(null, run.listed, Map.of(), run.next, run.seam);
    }

    /**
     * One decoder's run from chunk {@code k}'s split point: a probe (recording its states at its first sync
     * points) or, with a format, the chunk's formatted decode. Both are this one class, for the JIT's sake: the
     * decoder's calls to its sink and its observer are compiled while the probes run, and a chunk's decode that
     * brought a second sink class to those calls made the compiler throw away and compile again the decoder's
     * largest methods (whole seconds of CPU time on a 50 MB trace, more than the pieces saved).
     */
    private final class PieceRun implements ElementSink, SyncObserver {
        private final int k;
        private final long end;
        /** Null for a probe of an unformatted decode. */
        private final PieceFormat.Formatter formatter;
        /** Where the formatter writes: for a probe a piece that drops its bytes. */
        private final Piece piece;
        private final boolean probing;
        /** A probe's states at the sync points it passed, in order. */
        final Map<Long, Object> states;
        /** A chunk's own probed states: where the chunk before may hand over to it. */
        private final Map<Long, Object> own;
        /** The largest offset in {@link #own}, or -1: past it no sync point is looked up (no offset boxed). */
        private final long ownLast;
        private final int probeSyncs;
        long listed;
        /** Past the seam, or past a probe's last sync point: the elements the decoder still gives are dropped. */
        private boolean stopped;
        int next = -1;
        long seam = -1;

        /**
         * A probe of chunk {@code k} ({@code probing}; formatted into {@code piece}, one that drops its bytes, when
         * the decode is formatted), or chunk {@code k}'s formatted decode into {@code piece}.
         */
        PieceRun(int k, Piece piece, boolean probing) {
            this.k = k;
            // chunk 0 starts before the probes say where the pieces after it start (firstEnd)
            this.end = k == 0 && !probing ? firstEnd : k + 1 < starts.length ? starts[k + 1] : Long.MAX_VALUE;
            this.piece = piece;
            this.formatter = piece == null ? null : format.open(piece);
            this.probing = probing;
            this.states = probing ? new LinkedHashMap<>() : null;
            this.own = probing ? null : k == 0 ? Map.of() : probes().get(k);
            this.ownLast = own == null ? -1 : own.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
            // a formatted probe formats too: fewer sync points (seams come at the first in practice)
            this.probeSyncs = formatter == null ? PROBE_SYNCS : PROBE_SYNCS / 4;
        }

        /** Once the run is done: its formatter's buffer to the spare blocks, for the next piece's or probe's formatter. */
        void release() {
            byte[] b = formatter == null ? null : formatter.release();
            if (b != null) {
                spareBlocks.give(List.of(b));
            }
        }

        void decode() throws IOException {
            try {
                protocol.decodeFrom(forThisThread(), starts[k], this, this);
                if (!probing && next < 0) {
                    formatter.end();
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        @Override
        public void accept(TraceElement e) {
            if (stopped) {
                return; // past the seam (the next chunk's decoder has these) or the probe's last sync point
            }
            checkCancelled();
            if (!(e instanceof io.armtrace.trace.Gap)) {
                listed++;
            }
            if (formatter != null) {
                formatter.accept(e);
            }
        }

        /**
         * A range as fields, passed on as fields: through {@link ElementSink#range}'s default each range was an
         * object, which the JIT removed in some launches and not in others (then 2 GB of them for 52 MB of PTM, and
         * a young collection every 150 ms).
         */
        @Override
        public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                          io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                          boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
            if (stopped) {
                return;
            }
            checkCancelled();
            listed++;
            if (formatter != null) {
                formatter.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
            }
        }

        @Override
        public void cycles(int source, long cycles) {
            if (stopped) {
                return;
            }
            checkCancelled();
            listed++;
            if (formatter != null) {
                formatter.cycles(source, cycles);
            }
        }

        @Override
        public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
            if (stopped) {
                return;
            }
            checkCancelled();
            listed++;
            if (formatter != null) {
                formatter.traceOn(source, reason, offset);
            }
        }

        /** A probe keeps every state; a chunk compares them only past its end. */
        @Override
        public boolean wantsState(long offset) {
            return probing || offset >= end;
        }

        @Override
        public boolean synced(long offset, Object state) {
            if (probing) {
                states.put(offset, formatter == null ? state : new SeamState(state, formatter.state()));
                // the decoder stops at the end of what it was fed: a probe drops what comes after too, as a chunk
                // does past its seam, so that the test above goes both ways while the probes run
                stopped = states.size() >= probeSyncs || offset >= end;
                return !stopped;
            }
            Object probed = offset <= ownLast ? own.get(offset) : null;
            if (probed != null && java.util.Objects.equals(((SeamState) probed).formatter(), formatter.state())) {
                // a sync point where the chunk before may hand over: its bytes so far are final
                formatter.flush();
                piece.mark(offset, listed);
            }
            if (offset >= end) {
                List<Map<Long, Object>> probedAll = probes(); // first: the pieces' starts are final once published
                int j = chunkOf(offset);
                Object there = probedAll.get(j).get(offset);
                if (j > k && there != null && there.equals(new SeamState(state, formatter.state()))) {
                    formatter.flush();
                    next = j;
                    seam = offset;
                    stopped = true;
                    return false;
                }
            }
            return true;
        }
    }

    /** Feeds elements {@code from} (inclusive) to {@code to} (exclusive) of a chunk file to the sink. */
    private static void copy(Spool elements, long from, long to, ElementSink sink) throws IOException {
        try (ElementCodec.Input in = new ElementCodec.Input(elements.open())) {
            for (long i = 0; i < to; i++) {
                TraceElement e = in.read();
                if (i >= from) {
                    sink.accept(e);
                }
            }
        }
    }

    private static <T> T await(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException(c);
        }
    }
}
