package io.armtrace.trace;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Hands the element stream over to a thread of its own: the decoder pushes into this sink on its thread, and
 * the sink behind it (a listing writer and any stages before it) takes every element on the pipe's thread, in
 * the same order, as if it had been called directly. So a decoder and a listing that each keep a processor
 * busy run side by side on two, and the listing of one source takes about the longer of the two instead of
 * their sum.
 *
 * <p>Elements travel in batches of {@value #WORDS} words: a range as two (its small fields, count and length
 * packed in one, then its start; three when they do not fit) and a cycle count as one, so no element is made
 * for them, as a listing writer wants; a change of source or of instruction sizes as an entry of its own, since
 * both seldom change; any other element as itself (elements are immutable records), beside the words. A batch is
 * written and read in address order, so the processor's prefetcher brings it from the other core's cache ahead
 * of the reader. At most {@value #BATCHES} batches exist, made as they are first needed, so memory stays
 * bounded (5 MiB) however fast the decoder runs: the decoder waits while the other thread catches up. One
 * thread gives the elements. A side that waits spins for a few microseconds first, then sleeps until the other
 * wakes it.
 *
 * <p>When the sink behind is a listing's formatter ({@link #decode(Decode, PieceFormat, PieceFormat,
 * java.io.OutputStream, String)}), the decoder's thread formats a batch itself instead of waiting for the other
 * thread, which then only writes that batch's bytes: at most {@value #HELP_MAX} such batches wait, each at most
 * {@value #HELP_BYTES_MAX} bytes of listing (past that the decoder stops helping).
 *
 * <p>{@link #end()} passes the end on and waits until the sink behind has finished; what the sink behind threw
 * (an output's failure) is thrown to the decoder's thread at its next hand-over or at the end, the same
 * exception object, and what it is sent after that is dropped. {@link #close()} without an end (the decoder
 * failed) lets the other thread write what it was given, without the end, and waits for it, as a direct call
 * would have left it; closing after the end does nothing. The pipe's thread is a daemon, so a decoder that
 * neither ends nor closes the pipe cannot keep the program alive.
 */
public final class ElementPipe implements ElementSink, AutoCloseable {
    /** Words (longs) a batch holds: 512 KiB. */
    static final int WORDS = 1 << 16;
    /**
     * Batches at most: the decoder fills one while the other thread empties another. Together (4 MiB) they are
     * more than the two processors' own caches hold, so a batch the decoder fills again has left the reader's
     * cache. Measured on PTM TC2 (52 MB, 42 M elements), a decoder that hands its elements to a thread that only
     * counts them: 1.10 to 1.67 s with 4 batches of 64 KiB or 16 of 8 KiB, 0.81 to 0.85 s with these, against
     * 0.87 s for a decoder that keeps them itself.
     */
    static final int BATCHES = 8;
    /**
     * References (elements, and changes of instruction sizes: on T32 code nearly every range has sizes of its own) a
     * batch holds.
     */
    static final int REFS = WORDS / 2;
    /** The most words an entry takes: a change of source and of sizes, then a range. */
    private static final int ENTRY_MAX = 5;
    /** Spins of a waiting side before it sleeps. */
    private static final int SPINS = 256;

    // An entry's first word has its type in bits 0-1. A range: its ISA (bits 2-4), last waypoint kind (5-7), last
    // call (8-9), whether the last instruction ran (10), then either its count (bits 11-18), length in bytes
    // (19-31) and the low half of its start (32-63), the high half being that of the range before (SHORT_RANGE:
    // nearly every range, one word), or its sizes' index (16-31) and count (32-63) with its start and end in two
    // more words (RANGE). A short range's sizes' index is 0. A cycle count: the count in bits 2-63 (CYCLES), or in
    // a second word when it does not fit (MORE, kind 0). MORE (kind in bits 2-4) also says that the source (kind
    // 1: in bits 32-63), the instruction sizes (kind 2: the next reference) or the high half of the short ranges'
    // start (kind 4: in bits 32-63) of what follows changed, or carries an element (kind 3: the next reference) or a
    // trace-on (kind 5: its reason in bits 8-15, its offset in a second word).
    private static final int SHORT_RANGE = 0;
    private static final int RANGE = 1;
    private static final int CYCLES = 2;
    private static final int MORE = 3;
    private static final int MORE_CYCLES = 0;
    private static final int MORE_SOURCE = 1;
    private static final int MORE_SIZES = 2;
    private static final int MORE_ELEMENT = 3;
    private static final int MORE_HIGH = 4;
    private static final int MORE_TRACE_ON = 5;
    private static final TraceOn.Reason[] REASONS = TraceOn.Reason.values();
    private static final int SHORT_COUNT_MAX = 0xFF;
    private static final long SHORT_LENGTH_MAX = 0x1FFF;

    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();
    private static final CallKind[] CALLS = CallKind.values();

    static {
        if (ISAS.length > 8 || KINDS.length > 8 || CALLS.length > 4) {
            throw new AssertionError("a range's fields no longer fit its word");
        }
    }

    private final ElementSink next;
    /** The words and references a batch holds ({@link #WORDS}, {@link #REFS}; tests use small batches). */
    private final int batchWords;
    private final int batchRefs;
    /** Where a batch is handed over: no room left for the longest entry. */
    private final int fullAt;
    private final long[][] words = new long[BATCHES][];
    /** Element or instruction sizes of an entry, in the order of the entries. */
    private final Object[][] refs = new Object[BATCHES][];
    /** The words each batch holds. */
    private final int[] lengths = new int[BATCHES];
    /** Batches handed over (the decoder's count) and taken back emptied (the other thread's). */
    private volatile long handed;
    private volatile long emptied;
    /**
     * How the stream finishes: at the end ({@link #END}) or a close ({@link #STOP}), and how many batches are
     * handed over in all; both written before the last batch is handed over (or, when the decoder is interrupted,
     * after it).
     */
    private volatile int last;
    private volatile long stopAt = Long.MAX_VALUE;
    private static final int END = 1;
    private static final int STOP = 2;
    private volatile boolean readerSleeps;
    private volatile boolean writerSleeps;
    /** The thread that gives the elements, while it sleeps. */
    private volatile Thread writerThread;
    private final Thread thread;
    /** What the sink behind threw, first; set on the pipe's thread. */
    private volatile Throwable failure;
    private boolean finished;
    /** The last batch has been handed over (the end, a close, or a stop after a failure). */
    private boolean stopped;

    // the batch being filled
    private long[] w;
    private Object[] r;
    private int n;
    private int refCount;
    private int source;
    private InstructionSizes sizes;
    /** The high half of the last short range's start. */
    private int high;

    /**
     * Starts the thread that passes what this sink is given to {@code next}, named {@code name}; the calling thread
     * is the one that gives it.
     */
    public ElementPipe(ElementSink next, String name) {
        this(next, name, WORDS, null, null, null, HELP_BYTES_MAX);
    }

    /**
     * A pipe whose sink behind is a listing's formatter ({@code listing}, writing to {@code out}), which the decoder's
     * thread helps when it falls behind: see {@link #decode(Decode, PieceFormat, PieceFormat, java.io.OutputStream,
     * String)}. {@code helpAt}: which batches the decoder formats (by number from 0) whatever the other thread's
     * lag, for tests; null for the rule. {@code helpBytesMax}: as {@link #HELP_BYTES_MAX}.
     */
    ElementPipe(ElementSink next, String name, int batchWords, PieceFormat helping, java.io.OutputStream out,
                java.util.function.LongPredicate helpAt, long helpBytesMax) {
        this.helpBytesMax = helpBytesMax;
        this.next = next;
        this.batchWords = batchWords;
        this.batchRefs = batchWords / 2;
        this.fullAt = batchWords - ENTRY_MAX;
        this.helping = helping;
        this.out = out;
        this.helpAt = helpAt;
        w = words[0] = new long[batchWords];
        r = refs[0] = new Object[batchRefs];
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** A decode into a sink: a decoder's run over its input. */
    @FunctionalInterface
    public interface Decode {
        void into(ElementSink sink) throws java.io.IOException;
    }

    /**
     * Runs {@code decode} into {@code sink} and ends the stream: through a pipe whose thread is named {@code name}
     * when {@code piped}, so that {@code sink} runs beside the decoder, else all on the calling thread.
     */
    public static void decode(Decode decode, ElementSink sink, boolean piped, String name) throws java.io.IOException {
        if (!piped) {
            decode.into(sink);
            sink.end();
            return;
        }
        try (ElementPipe pipe = new ElementPipe(sink, name)) {
            decode.into(pipe);
            pipe.end();
        }
    }

    /**
     * Runs {@code decode} and writes its listing to {@code out} through a pipe whose thread (named {@code name}) runs
     * a formatter of {@code listing}; when that thread falls behind, the decoder's thread formats some batches itself
     * with a formatter of {@code helping} (the same format, for use on the decoder's thread) and the pipe's thread
     * only writes their bytes, in order: the two threads share the listing's work, not only the decode and the
     * listing. A batch formatted ahead is used only where both formatters are in the state of a fresh one at its
     * start and end ({@link PieceFormat.Formatter#state} null), so the bytes are those of one formatter. {@code out} is neither
     * flushed nor closed. Returns whether anything but gaps was listed.
     */
    public static boolean decode(Decode decode, PieceFormat listing, PieceFormat helping, java.io.OutputStream out,
                                 String name) throws java.io.IOException {
        return decode(decode, listing, helping, out, name, WORDS, null, HELP_BYTES_MAX, new long[1]);
    }

    /**
     * As above, with batches of {@code batchWords}, {@code helpAt} and {@code helpBytesMax} as the constructor takes
     * them; tells in {@code helped[0]} how many batches the decoder's thread formatted (tests).
     */
    static boolean decode(Decode decode, PieceFormat listing, PieceFormat helping, java.io.OutputStream out,
                          String name, int batchWords, java.util.function.LongPredicate helpAt, long helpBytesMax,
                          long[] helped) throws java.io.IOException {
        try (ElementPipe pipe = new ElementPipe(listing.open(out), name, batchWords, helping, out, helpAt,
                helpBytesMax)) {
            decode.into(pipe);
            pipe.end();
            helped[0] = pipe.helpedBatches;
            return pipe.listedAny();
        }
    }

    @Override
    public void accept(TraceElement element) {
        int i = n;
        w[i] = MORE | MORE_ELEMENT << 2;
        r[refCount++] = element;
        elementsInBatch++;
        if ((n = i + 1) > fullAt || refCount == batchRefs) {
            handOver(0);
        }
    }

    /**
     * Nearly every range: one word, in a method small enough for the JIT to inline into the decoder even with the
     * launcher's inlining limit (the whole method, 316 bytes of bytecode, was called: docs/performance.md, "The
     * pipe's range in one word").
     */
    @Override
    public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                      boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        if (sizes != this.sizes) {
            newSizes(sizes);
        }
        int i = n;
        long length = end - start;
        if (i < fullAt && source == this.source && (sizesIndex | count & ~SHORT_COUNT_MAX) == 0
                && (length & ~SHORT_LENGTH_MAX) == 0 && (int) (start >>> 32) == high) {
            w[i] = shortRange(start, length, count, isa, lastKind, lastCall, lastExecuted);
            n = i + 1;
            return;
        }
        anyRange(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
    }

    /**
     * The instruction sizes of the ranges that follow changed: on T32 code nearly every range's (each block of code has
     * its own), so this is a method of its own, small enough to be inlined too, rather than the slow path's. Written
     * before the range's own word, in the same batch: a batch is handed over here only when it could not take this
     * reference and the next entry's.
     */
    private void newSizes(InstructionSizes sizes) {
        if (refCount >= batchRefs - 1) {
            handOver(0);
        }
        w[n++] = MORE | MORE_SIZES << 2;
        r[refCount++] = sizes;
        this.sizes = sizes;
    }

    /** A short range's word (SHORT_RANGE). */
    private static long shortRange(long start, long length, int count, Isa isa, WaypointKind lastKind,
                                   CallKind lastCall, boolean lastExecuted) {
        return SHORT_RANGE | isa.ordinal() << 2 | lastKind.ordinal() << 5 | lastCall.ordinal() << 8
                | (lastExecuted ? 1 << 10 : 0) | count << 11 | length << 19 | start << 32;
    }

    private void anyRange(int source, long start, long end, int count, Isa isa, WaypointKind lastKind,
                          CallKind lastCall, boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        long[] w = this.w;
        int i = n;
        if (source != this.source) {
            w[i++] = MORE | MORE_SOURCE << 2 | (long) source << 32;
            this.source = source;
        }
        if (sizes != this.sizes) {
            w[i++] = MORE | MORE_SIZES << 2;
            r[refCount++] = sizes;
            this.sizes = sizes;
        }
        int small = isa.ordinal() << 2 | lastKind.ordinal() << 5 | lastCall.ordinal() << 8 | (lastExecuted ? 1 << 10 : 0);
        long length = end - start;
        if (sizesIndex == 0 && count >= 0 && count <= SHORT_COUNT_MAX && length >= 0 && length <= SHORT_LENGTH_MAX) {
            int high = (int) (start >>> 32);
            if (high != this.high) {
                w[i++] = MORE | MORE_HIGH << 2 | (long) high << 32;
                this.high = high;
            }
            w[i++] = shortRange(start, length, count, isa, lastKind, lastCall, lastExecuted);
        } else {
            w[i] = (RANGE | small | sizesIndex << 16) & 0xFFFFFFFFL | (long) count << 32;
            w[i + 1] = start;
            w[i + 2] = end;
            i += 3;
        }
        if ((n = i) > fullAt || refCount == batchRefs) {
            handOver(0);
        }
    }

    @Override
    public void cycles(int source, long cycles) {
        long[] w = this.w;
        int i = n;
        if (source != this.source) {
            w[i++] = MORE | MORE_SOURCE << 2 | (long) source << 32;
            this.source = source;
        }
        if (cycles >= 0 && cycles >>> 62 == 0) {
            w[i++] = CYCLES | cycles << 2;
        } else {
            w[i] = MORE | MORE_CYCLES << 2;
            w[i + 1] = cycles;
            i += 2;
        }
        if ((n = i) > fullAt) {
            handOver(0);
        }
    }

    @Override
    public void traceOn(int source, TraceOn.Reason reason, long offset) {
        long[] w = this.w;
        int i = n;
        if (source != this.source) {
            w[i++] = MORE | MORE_SOURCE << 2 | (long) source << 32;
            this.source = source;
        }
        w[i] = MORE | MORE_TRACE_ON << 2 | reason.ordinal() << 8;
        w[i + 1] = offset;
        elementsInBatch += i + 2 - n; // an element's entry, as when it came as an element (see handOver)
        if ((n = i + 2) > fullAt) {
            handOver(0);
        }
    }

    /**
     * Passes the end on, waits until the sink behind has finished with it and throws what that sink threw; a second
     * end (or an end after a close) only throws that again.
     */
    @Override
    public void end() {
        if (finished) {
            rethrow(); // some decoders end their stream themselves, and their callers end it again
            return;
        }
        finished = true;
        try {
            handOver(END);
        } finally {
            awaitThread(); // also when the hand-over throws what the sink behind threw: its thread is stopping
        }
        rethrow();
    }

    /** Without an {@link #end()}: the sink behind gets what it was sent so far, no end; this waits for it. */
    @Override
    public void close() {
        if (finished) {
            return;
        }
        finished = true;
        if (!stopped) {
            try {
                handOver(STOP);
            } catch (RuntimeException | Error e) {
                // the sink behind failed: the caller is already on its way out with a failure of its own, or of it
            }
        }
        awaitThread();
    }

    /** Hands the batch over: the stream goes on ({@code how} 0), ends ({@link #END}) or stops ({@link #STOP}). */
    private void handOver(int how) {
        if (stopped) {
            n = 0;
            refCount = 0;
            rethrow();
            return;
        }
        Throwable f = failure;
        if (f != null) {
            // the sink behind failed: what it would not take is dropped, and its thread told to stop
            n = 0;
            how = STOP;
        }
        long h = handed;
        int slot = (int) (h % BATCHES);
        lengths[slot] = n;
        if (n > elementsInBatch) {
            listed = true; // every entry but an element's belongs to a range or a cycle count
        }
        if (helping != null) {
            help(h, slot, how);
        }
        if (how != 0) {
            stopped = true;
            last = how;
            stopAt = h + 1;
        }
        handed = h + 1;
        if (readerSleeps) {
            LockSupport.unpark(thread);
        }
        if (f != null) {
            throw rethrowable(f);
        }
        if (how != 0) {
            return;
        }
        // the next batch is free once the other thread has emptied what was in it
        h++;
        if (h - emptied >= BATCHES) {
            awaitEmptied(h);
        }
        int b = (int) (h % BATCHES);
        if (words[b] == null) { // made when first needed: a short trace fills one
            words[b] = new long[batchWords];
            refs[b] = new Object[batchRefs];
        }
        w = words[b];
        r = refs[b];
        n = 0;
        refCount = 0;
        elementsInBatch = 0;
        startSource = source;
        startSizes = sizes;
        startHigh = (long) high << 32;
    }

    private void awaitEmptied(long h) {
        for (int i = 0; i < SPINS; i++) {
            if (h - emptied < BATCHES) {
                return;
            }
            Thread.onSpinWait();
        }
        writerThread = Thread.currentThread();
        writerSleeps = true;
        try {
            while (h - emptied >= BATCHES) {
                if (failure != null || !thread.isAlive()) {
                    return; // nothing will be emptied: the next hand-over throws what failed
                }
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    // no more batches: the other thread passes on those it has and stops
                    stopped = true;
                    last = STOP;
                    stopAt = handed;
                    LockSupport.unpark(thread);
                    Thread.currentThread().interrupt();
                    throw new UncheckedIOException(
                            new InterruptedIOException("interrupted while handing trace elements over"));
                }
            }
        } finally {
            writerSleeps = false;
        }
    }

    private void awaitThread() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the other thread is writing what it was given: let it finish
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void rethrow() {
        Throwable f = failure;
        if (f != null) {
            throw rethrowable(f);
        }
    }

    private static RuntimeException rethrowable(Throwable f) {
        if (f instanceof Error e) {
            throw e;
        }
        if (f instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(f); // a sink's methods throw no checked exception, but one may sneak one
    }

    /** The pipe's thread: batches in order to the sink behind, until the end or a close. */
    private void run() {
        for (long c = 0; ; c++) {
            if (!awaitHanded(c)) {
                return;
            }
            int b = (int) (c % BATCHES);
            boolean lastOne = c + 1 == stopAt;
            Made m = made[b];
            made[b] = null;
            if (m != null && failure != null) {
                madeWaiting.decrementAndGet(); // not written: the listing has failed
            }
            if (failure == null) {
                try {
                    if (m == null || !writeMade(m)) {
                        replay(words[b], refs[b], lengths[b]);
                    }
                    if (lastOne && last == END) {
                        next.end();
                    }
                } catch (Throwable t) {
                    failure = t;
                }
            }
            java.util.Arrays.fill(refs[b], 0, Math.min(replayed.refs, batchRefs), null); // no element outlives its listing
            emptied = c + 1;
            if (writerSleeps) {
                LockSupport.unpark(writerThread);
            }
            if (lastOne) {
                return;
            }
        }
    }

    /** Waits until batch {@code c} is handed over; false when none will be (or this thread is interrupted). */
    private boolean awaitHanded(long c) {
        for (int i = 0; i < SPINS; i++) {
            if (c < handed) {
                return true;
            }
            Thread.onSpinWait();
        }
        readerSleeps = true;
        try {
            while (c >= handed) {
                if (c >= stopAt) {
                    return false;
                }
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    // nobody interrupts this thread but a program going down: stop taking
                    if (failure == null) {
                        failure = new UncheckedIOException(new InterruptedIOException("trace listing interrupted"));
                    }
                    return false;
                }
            }
            return true;
        } finally {
            readerSleeps = false;
        }
    }

    /** Where a replay of the batches stands: the source, instruction sizes and high half of what comes next. */
    private static final class Cursor {
        int source;
        InstructionSizes sizes;
        long high;
        /** The references the last batch replayed held (all of them while a replay runs, should the sink throw). */
        int refs;
    }

    /** The pipe's thread's. */
    private final Cursor replayed = new Cursor();

    /** Passes one batch's entries on to the sink behind. */
    private void replay(long[] w, Object[] r, int n) {
        replay(next, replayed, w, r, n);
    }

    /** Passes one batch's entries on to {@code s}, from where {@code c} stands; {@code c} then stands after them. */
    private static void replay(ElementSink s, Cursor c, long[] w, Object[] r, int n) {
        int source = c.source;
        InstructionSizes sizes = c.sizes;
        long high = c.high;
        int k = 0;
        c.refs = r.length;
        for (int i = 0; i < n; ) {
            long h = w[i];
            int f = (int) h;
            switch (f & 3) {
                case SHORT_RANGE -> {
                    long start = high | h >>> 32;
                    s.range(source, start, start + ((f >>> 19) & SHORT_LENGTH_MAX), (f >>> 11) & SHORT_COUNT_MAX,
                            ISAS[(f >>> 2) & 7], KINDS[(f >>> 5) & 7], CALLS[(f >>> 8) & 3], (f & 1 << 10) != 0, sizes, 0);
                    i++;
                }
                case RANGE -> {
                    s.range(source, w[i + 1], w[i + 2], (int) (h >> 32), ISAS[(f >>> 2) & 7], KINDS[(f >>> 5) & 7],
                            CALLS[(f >>> 8) & 3], (f & 1 << 10) != 0, sizes, (short) (f >>> 16));
                    i += 3;
                }
                case CYCLES -> {
                    s.cycles(source, h >>> 2);
                    i++;
                }
                default -> {
                    switch ((f >>> 2) & 7) {
                        case MORE_CYCLES -> {
                            s.cycles(source, w[i + 1]);
                            i++;
                        }
                        case MORE_SOURCE -> source = (int) (h >> 32);
                        case MORE_SIZES -> sizes = (InstructionSizes) r[k++];
                        case MORE_HIGH -> high = h & 0xFFFFFFFF00000000L;
                        case MORE_TRACE_ON -> {
                            s.traceOn(source, REASONS[(f >>> 8) & 0xFF], w[i + 1]);
                            i++;
                        }
                        default -> s.accept((TraceElement) r[k++]);
                    }
                    i++;
                }
            }
        }
        c.source = source;
        c.sizes = sizes;
        c.high = high;
        c.refs = k;
    }

    // ---------------------------------------------------------------- the decoder's thread formatting batches

    /**
     * The other thread is this many batches behind (handed over, not yet emptied) or more: the decoder formats the
     * batch it hands over itself. {@link #BATCHES} less one: the decoder would otherwise wait for the other thread
     * after this hand-over, so it formats instead of waiting and its own decoding does not become the slower side
     * (with 2 or 4, on PTM TC2 and a9-thumb, the decoder's thread took on so many batches that the other thread
     * waited for it).
     */
    static final int HELP_BEHIND = BATCHES - 1;
    /** Batches the decoder has formatted, not yet written out, at most: their bytes wait in memory. */
    static final int HELP_MAX = 2;
    /**
     * A batch whose listing passes this many bytes (a listing of every instruction, with source lines) stops the
     * helping for the rest of the stream: the bytes of {@link #HELP_MAX} such batches stay in memory until written.
     */
    static final long HELP_BYTES_MAX = 48L << 20;
    private final long helpBytesMax;

    /** How the decoder's thread formats a batch, or null when it never does. */
    private final PieceFormat helping;
    /** Where the listing goes: the formatter behind writes there, and so do the batches formatted ahead. */
    private final java.io.OutputStream out;
    private final java.util.function.LongPredicate helpAt;
    /** The decoder thread's formatter, made at its first batch, and where it puts its bytes. */
    private PieceFormat.Formatter helper;
    private Blocks blocks;
    private final Cursor helped = new Cursor();
    /** The batches formatted on the decoder's thread, by batch slot, until written out. */
    private final Made[] made = new Made[BATCHES];
    private final java.util.concurrent.atomic.AtomicInteger madeWaiting = new java.util.concurrent.atomic.AtomicInteger();
    /** Buffers of written batches, for the next ones. */
    private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> spare = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private boolean helpOff;
    // the batch being filled: how many words its element entries (elements and trace-ons) take, and where its replay
    // starts
    private int elementsInBatch;
    private int startSource;
    private InstructionSizes startSizes;
    private long startHigh;
    /** Whether anything but gaps went through the pipe (up to the last hand-over). */
    private boolean listed;
    /** Batches formatted on the decoder's thread so far (for tests and benchmarks). */
    private long helpedBatches;
    /** Batches formatted ahead that the other thread listed itself (its formatter not fresh where they start). */
    private long usedNot;

    /** A batch formatted on the decoder's thread: its bytes, and where the replay stands after it. */
    private record Made(java.util.List<byte[]> buffers, int[] lengths, int source, InstructionSizes sizes, long high,
                        int refs) {
    }

    /**
     * Formats the batch being handed over on this (the decoder's) thread when the other thread is behind, so that the
     * two share the listing's work; never the last batch, and while the bytes kept stay bounded. This thread's
     * formatter starts the batch in the state of a fresh one; its bytes are kept only if it ends the batch so too
     * ({@link PieceFormat.Formatter#state} null), and used only if the formatter behind is so where the batch starts
     * (else that one lists the batch itself): then both write what one formatter would.
     */
    private void help(long h, int slot, int how) {
        if (how != 0 || helpOff || n == 0 || failure != null
                || (helpAt != null ? !helpAt.test(h) : h - emptied < HELP_BEHIND)
                || madeWaiting.get() >= HELP_MAX) {
            return;
        }
        if (helper == null) {
            blocks = new Blocks();
            helper = helping.open(blocks);
        }
        Cursor c = helped;
        c.source = startSource;
        c.sizes = startSizes;
        c.high = startHigh;
        blocks.clear();
        try {
            replay(helper, c, w, r, n);
            if (helper.state() != null) {
                // the batch ends inside an IT block or on a held exception return: the other thread lists it
                helper = null;
                blocks.clear();
                return;
            }
            helper.flush();
        } catch (Blocks.TooMany e) {
            // a listing this large per batch is left to the other thread: this formatter is mid-line, dropped
            helpOff = true;
            helper = null;
            blocks.clear();
            return;
        }
        made[slot] = new Made(new java.util.ArrayList<>(blocks.buffers), blocks.lengths(), c.source, c.sizes, c.high,
                c.refs);
        madeWaiting.incrementAndGet();
        helpedBatches++;
    }

    /**
     * On the pipe's thread: a batch formatted ahead goes out after what the formatter behind has written, if that one
     * is in the state of a fresh one; false (its bytes dropped) if not.
     */
    private boolean writeMade(Made m) throws java.io.IOException {
        PieceFormat.Formatter f = (PieceFormat.Formatter) next;
        if (f.state() != null) {
            madeWaiting.decrementAndGet();
            usedNot++;
            return false;
        }
        replayed.refs = m.refs;
        f.flush();
        try {
            for (int i = 0; i < m.buffers.size(); i++) {
                out.write(m.buffers.get(i), 0, m.lengths[i]);
            }
        } finally {
            madeWaiting.decrementAndGet();
        }
        for (byte[] b : m.buffers) {
            spare.offer(b);
        }
        replayed.source = m.source;
        replayed.sizes = m.sizes;
        replayed.high = m.high;
        return true;
    }

    /** Whether anything but gaps went through the pipe; once it has ended. */
    public boolean listedAny() {
        return listed;
    }

    /** Batches the decoder's thread formatted itself. */
    long helpedBatches() {
        return helpedBatches;
    }

    /** The decoder thread's formatter's output: its full buffers kept whole, bounded ({@link #HELP_BYTES_MAX}). */
    private final class Blocks extends java.io.OutputStream implements PieceFormat.BufferTaker {
        final java.util.List<byte[]> buffers = new java.util.ArrayList<>();
        private int[] lengths = new int[16];
        private long bytes;

        /** Thrown through the formatter when a batch's listing passes the bound. */
        static final class TooMany extends RuntimeException {
            TooMany() {
                super(null, null, false, false);
            }
        }

        void clear() {
            buffers.clear();
            bytes = 0;
        }

        int[] lengths() {
            return java.util.Arrays.copyOf(lengths, buffers.size());
        }

        private void add(byte[] b, int length) {
            if ((bytes += length) > helpBytesMax) {
                throw new TooMany();
            }
            if (buffers.size() == lengths.length) {
                lengths = java.util.Arrays.copyOf(lengths, lengths.length * 2);
            }
            lengths[buffers.size()] = length;
            buffers.add(b);
        }

        @Override
        public byte[] take(byte[] full, int length) {
            add(full, length);
            byte[] next = spare.poll();
            while (next != null && next.length != full.length) {
                next = spare.poll(); // buffers of another size (none today) are left to the collector
            }
            return next != null ? next : new byte[full.length];
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (len > 0) {
                add(java.util.Arrays.copyOfRange(b, off, off + len), len);
            }
        }
    }
}
