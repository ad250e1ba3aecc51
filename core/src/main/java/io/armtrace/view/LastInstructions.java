package io.armtrace.view;

import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.WaypointKind;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;

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
 *
 * <p>Ranges and cycle counts given as their fields ({@link #range}, {@link #cycles}: nearly every element a decoder
 * gives) are kept as fields in a ring of arrays and passed on the same way, so keeping the tail of a long trace makes
 * no object per element.
 */
public final class LastInstructions implements ElementSink, ElementVisitor {
    private final ElementSink next;
    private final long limit;
    private long instructions;
    /** Non-range elements kept at most, so that a stream without instructions stays bounded too. */
    private final int maxOther;
    private int other;
    /** Elements kept at most: ranges of no instructions and non-instruction elements count too. */
    private final long maxElements;

    // The kept elements, oldest first, in a ring of parallel arrays grown by doubling (at most maxElements entries):
    // a range as its fields, a cycle count as its count, any other element as itself.
    private static final byte RANGE = 0;
    private static final byte CYCLES = 1;
    private static final byte ELEMENT = 2;
    private static final int FIRST_CAPACITY = 256;
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();
    private static final CallKind[] CALLS = CallKind.values();
    private byte[] type = new byte[FIRST_CAPACITY];
    private int[] source = new int[FIRST_CAPACITY];
    /** A range's start, a cycle count's count. */
    private long[] first = new long[FIRST_CAPACITY];
    /** A range's end. */
    private long[] end = new long[FIRST_CAPACITY];
    private int[] count = new int[FIRST_CAPACITY];
    /** A range's ISA (bits 0-3), last waypoint kind (4-7), last call (8-9), whether its last instruction ran (10). */
    private int[] small = new int[FIRST_CAPACITY];
    private int[] sizesIndex = new int[FIRST_CAPACITY];
    /** A range's instruction sizes, or the element. */
    private Object[] ref = new Object[FIRST_CAPACITY];
    private int head;
    private int size;
    /**
     * Instructions of the oldest entry, a range, that are no longer in the tail: it is shortened once, when passed on,
     * rather than at every range that moves the window (nearly every range, with a small limit).
     */
    private int headDropped;

    public LastInstructions(ElementSink next, long limit) {
        this.next = next;
        this.limit = limit;
        this.maxOther = maxOther(limit);
        this.maxElements = Math.min(Integer.MAX_VALUE - 8, limit + maxOther);
        if (ISAS.length > 16 || KINDS.length > 16 || CALLS.length > 4) {
            throw new AssertionError("a range's small fields no longer fit");
        }
    }

    /** Non-instruction elements kept at most for a limit of {@code limit} instructions: 4 per instruction, 1024 to 1,000,000. */
    public static int maxOther(long limit) {
        return (int) Math.min(1_000_000, Math.max(1024, Math.min(limit, 1_000_000) * 4));
    }

    @Override
    public void accept(TraceElement element) {
        element.accept(this);
    }

    @Override
    public void range(int source, long start, long end, int count, Isa isa, WaypointKind lastKind, CallKind lastCall,
                      boolean lastExecuted, InstructionSizes sizes, int sizesIndex) {
        int e = add(RANGE, source, null);
        first[e] = start;
        this.end[e] = end;
        this.count[e] = count;
        small[e] = isa.ordinal() | lastKind.ordinal() << 4 | lastCall.ordinal() << 8 | (lastExecuted ? 1 << 10 : 0);
        this.sizesIndex[e] = sizesIndex;
        ref[e] = sizes;
        instructions += count;
        trim();
    }

    @Override
    public void cycles(int source, long cycles) {
        int e = add(CYCLES, source, null);
        first[e] = cycles;
        other++;
        trim();
    }

    @Override
    public void visit(InstructionRange r) {
        range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(), r.lastExecuted(),
                r.sizes(), r.sizesIndex());
    }

    /**
     * Instructions without a path cannot be shortened to the newest of them: they are kept as one
     * element, as context, like the kinds that are no instructions.
     */
    @Override
    public void visit(InstructionCount c) {
        keep(c);
    }

    @Override
    public void visit(ExceptionEntry e) {
        keep(e);
    }

    @Override
    public void visit(ExceptionReturn e) {
        keep(e);
    }

    @Override
    public void visit(TraceOn t) {
        keep(t);
    }

    @Override
    public void visit(Gap g) {
        keep(g);
    }

    @Override
    public void visit(NoImage n) {
        keep(n);
    }

    @Override
    public void visit(Context c) {
        keep(c);
    }

    @Override
    public void visit(Timestamp t) {
        keep(t);
    }

    @Override
    public void visit(CycleCount c) {
        cycles(c.source(), c.cycles());
    }

    @Override
    public void visit(Event e) {
        keep(e);
    }

    @Override
    public void visit(Trigger t) {
        keep(t);
    }

    @Override
    public void visit(DecodeError e) {
        keep(e);
    }

    /* Software trace (ITM, DWT, STM): kept as context like the other kinds that are no instructions. */

    @Override
    public void visit(SoftwareMessage m) {
        keep(m);
    }

    @Override
    public void visit(LocalTimestamp t) {
        keep(t);
    }

    @Override
    public void visit(PcSample s) {
        keep(s);
    }

    @Override
    public void visit(ExceptionTrace x) {
        keep(x);
    }

    @Override
    public void visit(DataTrace d) {
        keep(d);
    }

    @Override
    public void visit(EventCounterWrap w) {
        keep(w);
    }

    private void keep(TraceElement e) {
        add(ELEMENT, e.source(), e);
        other++;
        trim();
    }

    /** A new newest entry of {@code type}; returns its index in the arrays. */
    private int add(byte type, int source, Object ref) {
        if (size == this.type.length) {
            grow();
        }
        int e = head + size;
        if (e >= this.type.length) {
            e -= this.type.length;
        }
        size++;
        this.type[e] = type;
        this.source[e] = source;
        this.ref[e] = ref;
        return e;
    }

    /** Twice the room (the trimming keeps the entries at most maxElements, plus the one being added). */
    private void grow() {
        int n = size;
        int capacity = (int) Math.min((long) n * 2, Integer.MAX_VALUE - 8);
        if (capacity <= n) {
            throw new IllegalStateException("too many elements kept");
        }
        type = unwrap(type, new byte[capacity], n);
        source = unwrap(source, new int[capacity], n);
        first = unwrap(first, new long[capacity], n);
        end = unwrap(end, new long[capacity], n);
        count = unwrap(count, new int[capacity], n);
        small = unwrap(small, new int[capacity], n);
        sizesIndex = unwrap(sizesIndex, new int[capacity], n);
        ref = unwrap(ref, new Object[capacity], n);
        head = 0;
    }

    /** The ring's {@code n} entries of {@code from}, oldest first, at the start of {@code to}. */
    private <T> T unwrap(T from, T to, int n) {
        int length = java.lang.reflect.Array.getLength(from);
        int firstPart = Math.min(n, length - head);
        System.arraycopy(from, head, to, 0, firstPart);
        System.arraycopy(from, 0, to, firstPart, n - firstPart);
        return to;
    }

    /** Drops the oldest entry. */
    private void removeFirst() {
        int e = head;
        if (type[e] == RANGE) {
            instructions -= count[e] - headDropped;
            headDropped = 0;
        } else {
            other--;
        }
        ref[e] = null; // no element outlives its place in the tail
        head = e + 1 == type.length ? 0 : e + 1;
        size--;
    }

    private void trim() {
        while (size > maxElements || other > maxOther) {
            removeFirst();
        }
        while (size > 0) {
            int e = head;
            if (type[e] == RANGE) {
                long excess = instructions - limit;
                if (excess <= 0) {
                    return;
                }
                if (excess < count[e] - headDropped) {
                    headDropped += (int) excess;
                    instructions -= excess;
                    return;
                }
                removeFirst();
            } else {
                // an element before the oldest kept instruction stays as context until the window moves past it
                if (instructions <= limit && other <= maxOther) {
                    return;
                }
                removeFirst();
            }
        }
    }

    /** The range entry {@code e} without its first {@code n} instructions. */
    private void dropOldest(int e, int n) {
        InstructionRange r = rangeAt(e).slice(n, count[e] - n);
        first[e] = r.start();
        end[e] = r.end();
        count[e] = r.count();
        small[e] = r.isa().ordinal() | r.lastKind().ordinal() << 4 | r.lastCall().ordinal() << 8
                | (r.lastExecuted() ? 1 << 10 : 0);
        sizesIndex[e] = r.sizesIndex();
        ref[e] = r.sizes();
    }

    private InstructionRange rangeAt(int e) {
        int f = small[e];
        return new InstructionRange(source[e], first[e], end[e], count[e], ISAS[f & 15], KINDS[(f >>> 4) & 15],
                CALLS[(f >>> 8) & 3], (f & 1 << 10) != 0, (InstructionSizes) ref[e], (short) sizesIndex[e]);
    }

    @Override
    public void end() {
        if (headDropped > 0) {
            dropOldest(head, headDropped);
            headDropped = 0;
        }
        int capacity = type.length;
        for (int k = 0, e = head; k < size; k++, e = e + 1 == capacity ? 0 : e + 1) {
            switch (type[e]) {
                case RANGE -> {
                    int f = small[e];
                    next.range(source[e], first[e], end[e], count[e], ISAS[f & 15], KINDS[(f >>> 4) & 15],
                            CALLS[(f >>> 8) & 3], (f & 1 << 10) != 0, (InstructionSizes) ref[e], sizesIndex[e]);
                }
                case CYCLES -> next.cycles(source[e], first[e]);
                default -> next.accept((TraceElement) ref[e]);
            }
            ref[e] = null;
        }
        head = 0;
        size = 0;
        next.end();
    }
}
