package io.armtrace.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ElementPipe}: the sink behind it sees exactly the calls a direct sink would, in order, on the pipe's
 * thread; failures of either side end both threads with nothing lost that a direct call would have written.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ElementPipeTest {
    private static final InstructionSizes[] SIZES = {InstructionSizes.uniform(4), InstructionSizes.uniform(2),
            InstructionSizes.ofOffsets(new int[] {0, 2, 6, 8}), InstructionSizes.ofOffsets(new int[] {0, 4, 6})};

    /** A seeded stream of calls: ranges, cycle counts and trace-ons as fields and as elements, and other elements. */
    private static List<TraceElement> stream(long seed, int n) {
        Random random = new Random(seed);
        List<TraceElement> s = new ArrayList<>(n);
        int source = 0x10;
        for (int i = 0; i < n; i++) {
            if (random.nextInt(500) == 0) {
                source = random.nextInt(8) == 0 ? -1 : random.nextInt(0x70); // a change of source, now and then
            }
            int pick = random.nextInt(100);
            if (pick < 55) {
                long start = random.nextInt(4) == 0 ? random.nextLong() : 0x8000 + random.nextInt(1 << 20) * 2L;
                // lengths and counts past what a short range holds, and negative ones (not made by decoders)
                long length = switch (random.nextInt(20)) {
                    case 0 -> random.nextLong();
                    case 1 -> 1L << 37;
                    case 2 -> (1L << 37) - 1;
                    case 3 -> -2;
                    case 4 -> 0x1FFF;
                    case 5 -> 0x2000;
                    default -> random.nextInt(64) * 2L;
                };
                int count = switch (random.nextInt(20)) {
                    case 0 -> random.nextInt();
                    case 1 -> 0x10000;
                    case 2 -> 0xFFFF;
                    case 3 -> 0xFF;
                    case 4 -> 0x100;
                    default -> random.nextInt(40);
                };
                short sizesIndex = (short) (random.nextInt(4) == 0 ? random.nextInt(Short.MAX_VALUE + 1) : 0);
                s.add(new InstructionRange(source, start, start + length, count,
                        Isa.values()[random.nextInt(Isa.values().length)],
                        WaypointKind.values()[random.nextInt(WaypointKind.values().length)],
                        CallKind.values()[random.nextInt(CallKind.values().length)], random.nextBoolean(),
                        random.nextInt(10) == 0 ? SIZES[random.nextInt(SIZES.length)] : SIZES[0], sizesIndex));
            } else if (pick < 95) {
                long cycles = switch (random.nextInt(20)) {
                    case 0 -> random.nextLong();
                    case 1 -> 1L << 62;
                    case 2 -> (1L << 62) - 1;
                    case 3 -> -1;
                    case 4 -> Long.MIN_VALUE;
                    default -> random.nextInt(3000);
                };
                s.add(new CycleCount(source, cycles));
            } else if (pick < 97) {
                s.add(new Timestamp(source, random.nextLong(), -1));
            } else if (pick < 99) {
                s.add(new Gap(source, "gap " + i, i));
            } else {
                s.add(new TraceOn(source, TraceOn.Reason.values()[random.nextInt(TraceOn.Reason.values().length)],
                        random.nextInt(4) == 0 ? random.nextLong() : i));
            }
        }
        return s;
    }

    /** Gives {@code stream} to {@code sink} as a decoder does: ranges, cycle counts and trace-ons as fields, mostly. */
    private static void give(List<TraceElement> stream, ElementSink sink, Random random) {
        for (TraceElement e : stream) {
            if (e instanceof InstructionRange r && random.nextInt(20) != 0) {
                sink.range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(),
                        r.lastExecuted(), r.sizes(), r.sizesIndex());
            } else if (e instanceof CycleCount c && random.nextInt(20) != 0) {
                sink.cycles(c.source(), c.cycles());
            } else if (e instanceof TraceOn t && random.nextInt(20) != 0) {
                sink.traceOn(t.source(), t.reason(), t.offset());
            } else {
                sink.accept(e);
            }
        }
    }

    /** Checks each call against the stream as it comes, on one thread, and notes the end. */
    private static final class Expecting implements ElementSink {
        final List<TraceElement> expected;
        int seen;
        int ends;
        Thread thread;
        /** Milliseconds to sleep every so many elements: a listing slower than the decoder. */
        final int sleepEvery;

        Expecting(List<TraceElement> expected, int sleepEvery) {
            this.expected = expected;
            this.sleepEvery = sleepEvery;
        }

        @Override
        public void accept(TraceElement element) {
            if (thread == null) {
                thread = Thread.currentThread();
            }
            assertThat(Thread.currentThread()).isSameAs(thread);
            assertThat(ends).isZero();
            TraceElement want = expected.get(seen);
            // every field equal; the instruction sizes the same object (InstructionSizes compares by identity)
            assertThat(element).as("element %d", seen).isEqualTo(want);
            if (element instanceof InstructionRange r) {
                assertThat(r.sizes()).isSameAs(((InstructionRange) want).sizes());
            } else {
                assertThat(element.getClass()).isEqualTo(want.getClass());
            }
            seen++;
            if (sleepEvery > 0 && seen % sleepEvery == 0) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        }

        @Override
        public void end() {
            ends++;
        }
    }

    @Test
    void theSinkBehindSeesEveryCallInOrderOnThePipesThread() {
        // enough words to go round the batches several times; a slow listing, a slow decoder and neither
        for (int round = 0; round < 3; round++) {
            List<TraceElement> stream = stream(70 + round, 700_000);
            Expecting sink = new Expecting(stream, round == 1 ? 20_000 : 0);
            ElementPipe pipe = new ElementPipe(sink, "pipe-test");
            Random random = new Random(round);
            if (round == 2) {
                // a decoder slower than the listing: the pipe's thread waits for each batch
                for (int from = 0; from < stream.size(); from += 50_000) {
                    give(stream.subList(from, Math.min(stream.size(), from + 50_000)), pipe, random);
                    sleep(2);
                }
            } else {
                give(stream, pipe, random);
            }
            pipe.end();
            assertThat(sink.seen).isEqualTo(stream.size());
            assertThat(sink.ends).isEqualTo(1);
            assertThat(sink.thread).isNotSameAs(Thread.currentThread());
            assertThat(sink.thread.getName()).isEqualTo("pipe-test");
            assertThat(sink.thread.isAlive()).as("the pipe's thread ends with the stream").isFalse();
            pipe.close(); // after the end: nothing
            assertThat(sink.ends).isEqualTo(1);
        }
    }

    /**
     * Trace-ons handed over as fields count as elements, not as listed lines, as when they came as elements: a trace
     * of gaps and trace-ons alone lists nothing the command would call decoded (DecodeCommand warns then).
     */
    @Test
    void traceOnsAsFieldsAreElementsNotListedLines() {
        for (boolean withCycles : new boolean[] {false, true}) {
            List<TraceElement> stream = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                stream.add(new Gap(0x13, "lost", i * 10L));
                stream.add(new TraceOn(i % 3 == 0 ? 0x13 : 0x10, TraceOn.Reason.values()[i % 5], i * 10L + 5));
            }
            if (withCycles) {
                stream.add(new CycleCount(0x13, 7));
            }
            Expecting sink = new Expecting(stream, 0);
            ElementPipe pipe = new ElementPipe(sink, "pipe-test", 64, null, null, null, 0);
            for (TraceElement e : stream) {
                if (e instanceof TraceOn t) {
                    pipe.traceOn(t.source(), t.reason(), t.offset());
                } else if (e instanceof CycleCount c) {
                    pipe.cycles(c.source(), c.cycles());
                } else {
                    pipe.accept(e);
                }
            }
            pipe.end();
            assertThat(sink.seen).isEqualTo(stream.size());
            assertThat(pipe.listedAny()).isEqualTo(withCycles);
        }
    }

    @Test
    void aShortStreamAndAnEmptyOneEnd() {
        for (int n : new int[] {0, 1, 5}) {
            List<TraceElement> stream = stream(n, n);
            Expecting sink = new Expecting(stream, 0);
            try (ElementPipe pipe = new ElementPipe(sink, "pipe-test")) {
                give(stream, pipe, new Random(n));
                pipe.end();
            }
            assertThat(sink.seen).isEqualTo(n);
            assertThat(sink.ends).isEqualTo(1);
        }
        int[] ends = {0};
        ElementPipe pipe = new ElementPipe(new ElementSink() {
            @Override
            public void accept(TraceElement element) {
            }

            @Override
            public void end() {
                ends[0]++;
            }
        }, "pipe-test");
        pipe.end();
        pipe.end(); // a decoder that ends its stream itself, then its caller
        assertThat(ends[0]).isEqualTo(1);
    }

    /**
     * Entries that carry a reference fill a batch's references before its words: ranges whose instruction sizes
     * change every time, and elements other than ranges and cycle counts only.
     */
    @Test
    void streamsOfReferencesOnly() {
        List<TraceElement> changing = new ArrayList<>();
        List<TraceElement> elements = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            changing.add(new InstructionRange(0, 0x1000 + i * 8L, 0x1000 + i * 8L + 6, 3, Isa.T32, WaypointKind.NONE,
                    CallKind.NONE, true, SIZES[2 + i % 2], (short) 0));
            elements.add(new Timestamp(0, i, -1));
        }
        for (List<TraceElement> stream : List.of(changing, elements)) {
            Expecting sink = new Expecting(stream, 0);
            try (ElementPipe pipe = new ElementPipe(sink, "pipe-test")) {
                give(stream, pipe, new Random(1));
                pipe.end();
            }
            assertThat(sink.seen).isEqualTo(stream.size());
        }
        // an element (a word and a reference), then a range of new sizes (a reference and two words), and again: the
        // references run out before the words, at a change of sizes as often as at an element
        for (int first = 0; first < 2; first++) {
            List<TraceElement> mixed = new ArrayList<>();
            for (int i = 0; i < 200_000; i++) {
                mixed.add((i + first) % 2 == 0 ? elements.get(i) : new InstructionRange(0, 0x1000 + i * 8L,
                        0x1000 + i * 8L + 6, 3, Isa.T32, WaypointKind.NONE, CallKind.NONE, true, SIZES[2 + i / 2 % 2],
                        (short) 0));
            }
            Expecting sink = new Expecting(mixed, 0);
            try (ElementPipe pipe = new ElementPipe(sink, "pipe-test")) {
                for (TraceElement e : mixed) {
                    if (e instanceof InstructionRange r) {
                        pipe.range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(),
                                r.lastExecuted(), r.sizes(), r.sizesIndex());
                    } else {
                        pipe.accept(e);
                    }
                }
                pipe.end();
            }
            assertThat(sink.seen).isEqualTo(mixed.size());
        }
    }

    /** The decoder failed: the listing gets what was decoded before, as with a direct call, and no end. */
    @Test
    void aCloseWithoutEndPassesOnWhatWasGivenWithoutTheEnd() {
        List<TraceElement> stream = stream(3, 150_000);
        Expecting sink = new Expecting(stream, 0);
        try (ElementPipe pipe = new ElementPipe(sink, "pipe-test")) {
            give(stream, pipe, new Random(3));
        }
        assertThat(sink.seen).isEqualTo(stream.size());
        assertThat(sink.ends).isZero();
        assertThat(sink.thread.isAlive()).isFalse();
    }

    /**
     * A listing whose output failed (a closed pipe, a full disk) throws on the pipe's thread: the decoder gets the
     * same exception at its next hand-over or at the end, the pipe's thread stops, and nothing after the failure
     * reaches the sink.
     */
    @Test
    void theListingsFailureReachesTheDecoderAsItself() {
        for (int failAt : new int[] {0, 10, 9_000, 123_456}) {
            UncheckedIOException failure = new UncheckedIOException(new java.io.IOException("Broken pipe"));
            AtomicReference<Thread> where = new AtomicReference<>();
            int[] calls = {0};
            ElementSink failing = new ElementSink() {
                @Override
                public void accept(TraceElement element) {
                    where.set(Thread.currentThread());
                    if (calls[0]++ == failAt) {
                        throw failure;
                    }
                }
            };
            ElementPipe pipe = new ElementPipe(failing, "pipe-test");
            List<TraceElement> stream = stream(failAt, 400_000);
            Throwable thrown = null;
            try {
                give(stream, pipe, new Random(failAt));
                pipe.end();
            } catch (UncheckedIOException e) {
                thrown = e;
            } finally {
                pipe.close();
            }
            assertThat(thrown).as("fail at %d", failAt).isSameAs(failure);
            assertThat(calls[0]).as("nothing after the failure").isEqualTo(failAt + 1);
            assertThat(where.get().isAlive()).isFalse();
        }
    }

    @Test
    void theListingsFailureAtTheEndIsThrownByTheEnd() {
        IllegalStateException failure = new IllegalStateException("end failed");
        ElementPipe pipe = new ElementPipe(new ElementSink() {
            @Override
            public void accept(TraceElement element) {
            }

            @Override
            public void end() {
                throw failure;
            }
        }, "pipe-test");
        give(stream(5, 1000), pipe, new Random(5));
        assertThatThrownBy(pipe::end).isSameAs(failure);
        StackOverflowError error = new StackOverflowError();
        ElementPipe errs = new ElementPipe(e -> {
            throw error;
        }, "pipe-test");
        assertThatThrownBy(() -> {
            give(stream(6, 100_000), errs, new Random(6));
            errs.end();
        }).isSameAs(error);
        errs.close();
    }

    /** A decoder interrupted while it waits for the listing gets an interruption, and the pipe's thread ends. */
    @Test
    void aDecoderInterruptedWhileItWaitsStopsBothThreads() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> pipeThread = new AtomicReference<>();
        ElementSink stuck = e -> {
            if (pipeThread.get() == null) {
                pipeThread.set(Thread.currentThread());
                blocked.countDown();
                try {
                    release.await(); // a listing that cannot write: the batches fill up
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread decoder = new Thread(() -> {
            ElementPipe pipe = new ElementPipe(stuck, "pipe-test");
            try {
                for (long i = 0; ; i++) {
                    pipe.cycles(1, i);
                }
            } catch (Throwable t) {
                thrown.set(t);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
            Thread.interrupted();
            pipe.close();
        });
        decoder.start();
        assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
        // the decoder fills every batch and waits for the listing
        for (int i = 0; i < 30_000 && decoder.getState() != Thread.State.WAITING; i++) {
            sleep(1);
        }
        assertThat(decoder.getState()).isEqualTo(Thread.State.WAITING);
        decoder.interrupt();
        release.countDown();
        decoder.join(30_000);
        assertThat(decoder.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(InterruptedIOException.class);
        assertThat(stillInterrupted.get()).as("the interruption is kept").isTrue();
        pipeThread.get().join(30_000);
        assertThat(pipeThread.get().isAlive()).isFalse();
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
