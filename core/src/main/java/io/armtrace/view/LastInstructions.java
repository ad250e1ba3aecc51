package io.armtrace.view;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.util.ArrayDeque;

/**
 * Passes on only the end of the stream: the elements that belong to the last {@code limit} instructions
 * (a range that straddles the cut is shortened to its newest instructions), which is what a developer
 * wants after a crash. What is passed on is always one unbroken tail of the stream.
 *
 * <p>Memory is bounded by the limit whatever the trace holds: at most {@link #maxOther(long)} elements
 * that are not instructions (exceptions, gaps, errors, triggers, ...) are kept, and at most
 * {@code limit + maxOther} elements in all. When a corrupt or unusual trace puts more non-instruction
 * elements than that among the last {@code limit} instructions, the tail is cut shorter: the oldest
 * elements go first, so fewer than {@code limit} instructions come out.
 */
public final class LastInstructions implements ElementSink {
    private final ElementSink next;
    private final long limit;
    private final io.armtrace.image.MemoryImage memory;
    private final ArrayDeque<TraceElement> kept = new ArrayDeque<>();
    private long instructions;
    /** Non-range elements kept at most, so that a stream without instructions stays bounded too. */
    private final int maxOther;
    private int other;
    /** Elements kept at most: ranges of no instructions and non-instruction elements count too. */
    private final long maxElements;

    public LastInstructions(ElementSink next, long limit, io.armtrace.image.MemoryImage memory) {
        this.next = next;
        this.limit = limit;
        this.memory = memory;
        this.maxOther = maxOther(limit);
        this.maxElements = Math.min(Integer.MAX_VALUE, limit + maxOther);
    }

    /** Non-instruction elements kept at most for a limit of {@code limit} instructions: 4 per instruction, 1024 to 1,000,000. */
    public static int maxOther(long limit) {
        return (int) Math.min(1_000_000, Math.max(1024, Math.min(limit, 1_000_000) * 4));
    }

    @Override
    public void accept(TraceElement element) {
        kept.addLast(element);
        if (element instanceof InstructionRange r) {
            instructions += r.count();
        } else {
            other++;
        }
        trim();
    }

    private void trim() {
        while (kept.size() > maxElements || other > maxOther) {
            if (kept.removeFirst() instanceof InstructionRange r) {
                instructions -= r.count();
            } else {
                other--;
            }
        }
        while (!kept.isEmpty()) {
            TraceElement first = kept.peekFirst();
            if (first instanceof InstructionRange r) {
                long excess = instructions - limit;
                if (excess <= 0) {
                    return;
                }
                kept.removeFirst();
                if (excess < r.count()) {
                    kept.addFirst(dropOldest(r, (int) excess));
                    instructions -= excess;
                    return;
                }
                instructions -= r.count();
            } else {
                // an element before the oldest kept instruction stays as context until the window moves past it
                if (instructions <= limit && other <= maxOther) {
                    return;
                }
                kept.removeFirst();
                other--;
            }
        }
    }

    /** {@code r} without its first {@code n} instructions. */
    private InstructionRange dropOldest(InstructionRange r, int n) {
        long a = r.start();
        for (int i = 0; i < n; i++) {
            a += InstructionWalk.size(memory, a, r.isa());
        }
        return new InstructionRange(r.source(), a, r.end(), r.count() - n, r.isa(), r.lastAddress(), r.lastKind(),
                r.lastExecuted());
    }

    @Override
    public void end() {
        for (TraceElement e : kept) {
            next.accept(e);
        }
        kept.clear();
        next.end();
    }
}
