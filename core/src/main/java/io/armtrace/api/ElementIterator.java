package io.armtrace.api;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The elements of a decode, one at a time, in the order a callback would get them. A thread of its own
 * decodes ahead and hands elements over in batches through a bounded queue ({@link
 * DecodeOptions.Builder#iteratorBuffer}), so memory stays bounded whatever the trace size. Closing the
 * iterator before its end stops the decoding thread and waits for it to finish: use it in a
 * try-with-resources statement (one dropped without being closed stops its thread once the garbage
 * collector finds it unreachable, which may be much later). A failure of the decode (an unreadable file) is thrown from {@link #hasNext()}
 * as an {@link UncheckedIOException} or as the decoder's own unchecked exception.
 */
public final class ElementIterator implements Iterator<TraceElement>, AutoCloseable {
    /** The decode, given a sink to push into. */
    interface Work {
        void run(ElementSink sink) throws IOException;
    }

    /** What the decoding thread puts after the last batch: the failure, or none. */
    private record End(Throwable failure) {
    }

    /** Thrown into the decoder's stack when the iterator is closed, to unwind it at once. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    /** What the decoding thread and a cleaner share: never the iterator itself, so it can become unreachable. */
    private static final class Shared {
        volatile boolean closed;
    }

    /** Stops the decoding thread of an iterator that was dropped without being closed. */
    private static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create(r -> {
        Thread t = new Thread(r, "armtrace-elements-cleaner");
        t.setDaemon(true);
        return t;
    });

    private final BlockingQueue<Object> queue;
    private final Thread thread;
    private final Shared shared = new Shared();
    private List<TraceElement> batch = List.of();
    private int next;
    private End end;

    ElementIterator(Work work, int batchSize, int queuedBatches) {
        BlockingQueue<Object> q = new ArrayBlockingQueue<>(queuedBatches);
        Shared sh = shared;
        this.queue = q;
        this.thread = new Thread(() -> produce(work, batchSize, q, sh), "armtrace-elements");
        thread.setDaemon(true);
        CLEANER.register(this, () -> sh.closed = true);
        thread.start();
    }

    private static void produce(Work work, int batchSize, BlockingQueue<Object> queue, Shared shared) {
        Throwable failure = null;
        try {
            List<TraceElement>[] current = new List[] {new ArrayList<TraceElement>(batchSize)};
            work.run(new ElementSink() {
                @Override
                public void accept(TraceElement e) {
                    if (shared.closed) {
                        throw new Stopped();
                    }
                    current[0].add(e);
                    if (current[0].size() == batchSize) {
                        put(current[0], queue, shared);
                        current[0] = new ArrayList<>(batchSize);
                    }
                }
            });
            if (!current[0].isEmpty()) {
                put(current[0], queue, shared);
            }
        } catch (Stopped e) {
            return;
        } catch (Throwable t) {
            failure = t;
        }
        if (!shared.closed) {
            try {
                while (!queue.offer(new End(failure), 100, TimeUnit.MILLISECONDS)) {
                    if (shared.closed) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Hands a batch over, waiting while the queue is full; gives up when the iterator is closed. */
    private static void put(List<TraceElement> b, BlockingQueue<Object> queue, Shared shared) {
        try {
            while (!queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
                if (shared.closed) {
                    throw new Stopped();
                }
            }
        } catch (InterruptedException e) {
            throw new Stopped();
        }
    }

    @Override
    public boolean hasNext() {
        while (next == batch.size()) {
            if (end != null || shared.closed) {
                if (end != null && end.failure() != null) {
                    Throwable f = end.failure();
                    end = new End(null); // thrown once
                    if (f instanceof IOException io) {
                        throw new UncheckedIOException(io);
                    }
                    if (f instanceof RuntimeException r) {
                        throw r;
                    }
                    if (f instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(f);
                }
                return false;
            }
            Object o;
            try {
                o = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                return false;
            }
            if (o instanceof End e) {
                end = e;
            } else {
                @SuppressWarnings("unchecked")
                List<TraceElement> b = (List<TraceElement>) o;
                batch = b;
                next = 0;
            }
        }
        return true;
    }

    @Override
    public TraceElement next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return batch.get(next++);
    }

    /**
     * True while the decoding thread runs (it ends at the end of the trace or soon after {@link #close()}).
     *
     * @return whether the decode still runs
     */
    public boolean decoding() {
        return thread.isAlive();
    }

    /**
     * Stops the decode if it is still running and waits for its thread to end; the iterator then has no
     * more elements. Closing twice does nothing more.
     */
    @Override
    public void close() {
        shared.closed = true;
        queue.clear();
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        queue.clear();
        batch = List.of();
        next = 0;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
