package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.CallKind;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LastInstructionsTest {
    private static InstructionRange range(long start, int count) {
        return new InstructionRange(0, start, start + 4L * count, count, Isa.A32, start + 4L * (count - 1),
                WaypointKind.values()[0], true);
    }

    @Test
    void manyTriggersAmongFewInstructionsStayBounded() {
        // a random trace decodes to few instructions and a flood of trigger/error elements: the window of
        // the last 100 instructions would hold all of them
        ElementCollector out = new ElementCollector();
        LastInstructions last = new LastInstructions(out, 100);
        last.accept(range(0x1000, 10));
        for (int i = 0; i < 200_000; i++) {
            last.accept(new Trigger(0, i));
        }
        last.accept(range(0x2000, 10));
        last.end();
        assertThat(out.elements().size()).isLessThanOrEqualTo(100 + LastInstructions.maxOther(100));
        // the output is the tail of the stream: the newest range and the newest triggers
        assertThat(out.elements().get(out.elements().size() - 1)).isEqualTo(range(0x2000, 10));
        assertThat(out.elements().get(out.elements().size() - 2)).isEqualTo(new Trigger(0, 199_999));
    }

    @Test
    void keepsTheLastInstructionsAndTheContextBetweenThem() {
        ElementCollector out = new ElementCollector();
        LastInstructions last = new LastInstructions(out, 15);
        last.accept(range(0x1000, 10));
        last.accept(new Trigger(0, 1));
        last.accept(range(0x2000, 10));
        last.end();
        assertThat(out.elements()).containsExactly(range(0x1014, 5), new Trigger(0, 1), range(0x2000, 10));
    }

    /**
     * The tail by its definition, element by element in a deque: instructions from the newest back to the limit (the
     * oldest range shortened to its newest instructions), the elements among them, at most {@code maxOther} that are
     * no instructions and {@code limit + maxOther} in all, the oldest dropped first.
     */
    private static List<TraceElement> reference(List<TraceElement> stream, long limit) {
        int maxOther = LastInstructions.maxOther(limit);
        long maxElements = limit + maxOther;
        ArrayDeque<TraceElement> kept = new ArrayDeque<>();
        long instructions = 0;
        int other = 0;
        for (TraceElement e : stream) {
            kept.addLast(e);
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            } else {
                other++;
            }
            while (kept.size() > maxElements || other > maxOther) {
                if (kept.removeFirst() instanceof InstructionRange r) {
                    instructions -= r.count();
                } else {
                    other--;
                }
            }
            while (!kept.isEmpty()) {
                if (kept.peekFirst() instanceof InstructionRange r) {
                    long excess = instructions - limit;
                    if (excess <= 0) {
                        break;
                    }
                    kept.removeFirst();
                    if (excess < r.count()) {
                        kept.addFirst(r.slice((int) excess, r.count() - (int) excess));
                        instructions -= excess;
                        break;
                    }
                    instructions -= r.count();
                } else {
                    if (instructions <= limit && other <= maxOther) {
                        break;
                    }
                    kept.removeFirst();
                    other--;
                }
            }
        }
        return new ArrayList<>(kept);
    }

    /**
     * Seeded streams of A32 and mixed-size T32 ranges (some empty, some far into their sizes), cycle counts, gaps and
     * triggers, given as a decoder gives them (ranges and cycle counts mostly as their fields), against the deque:
     * limits from one instruction to more than the stream holds, and floods of elements that are no instructions.
     */
    @Test
    void theTailIsThatOfTheDefinitionOnSeededStreams() {
        SplittableRandom rnd = new SplittableRandom(0x1A57_2026_1128L);
        int[] offsets = new int[40_001];
        for (int i = 1; i < offsets.length; i++) {
            offsets[i] = offsets[i - 1] + (rnd.nextBoolean() ? 2 : 4);
        }
        InstructionSizes mixed = InstructionSizes.ofOffsets(offsets);
        for (int round = 0; round < 60; round++) {
            long limit = switch (round % 6) {
                case 0 -> 1;
                case 1 -> 7;
                case 2 -> 100;
                case 3 -> 5000;
                case 4 -> 1_000_000;
                default -> 1 + rnd.nextInt(3000);
            };
            int otherShare = round % 5 == 4 ? 95 : 30; // some rounds mostly elements that are no instructions
            List<TraceElement> stream = new ArrayList<>();
            int n = 500 + rnd.nextInt(6000);
            for (int i = 0; i < n; i++) {
                int pick = rnd.nextInt(100);
                if (pick >= otherShare) {
                    int count = rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 2000 : 30);
                    long start = 0x8000 + 2L * rnd.nextInt(1 << 20);
                    if (rnd.nextBoolean()) {
                        stream.add(new InstructionRange(rnd.nextInt(3), start & -4, (start & -4) + 4L * count, count,
                                Isa.A32, WaypointKind.values()[rnd.nextInt(WaypointKind.values().length)],
                                CallKind.values()[rnd.nextInt(CallKind.values().length)], rnd.nextBoolean(),
                                InstructionSizes.uniform(4), (short) 0));
                    } else {
                        int index = rnd.nextInt(4) == 0 ? Short.MAX_VALUE - rnd.nextInt(100) : rnd.nextInt(3000);
                        stream.add(new InstructionRange(rnd.nextInt(3), start, start + offsets[index + count]
                                - offsets[index], count, Isa.T32, WaypointKind.values()[rnd.nextInt(
                                WaypointKind.values().length)], CallKind.values()[rnd.nextInt(CallKind.values().length)],
                                rnd.nextBoolean(), mixed, (short) index));
                    }
                } else if (pick < otherShare / 2) {
                    stream.add(new CycleCount(rnd.nextInt(3), rnd.nextLong()));
                } else if (pick < otherShare - 2) {
                    stream.add(new Trigger(rnd.nextInt(3), i));
                } else {
                    stream.add(new Gap(rnd.nextInt(3), "gap " + i, i));
                }
            }
            ElementCollector out = new ElementCollector();
            LastInstructions last = new LastInstructions(out, limit);
            for (TraceElement e : stream) {
                if (e instanceof InstructionRange r && rnd.nextInt(4) != 0) {
                    last.range(r.source(), r.start(), r.end(), r.count(), r.isa(), r.lastKind(), r.lastCall(),
                            r.lastExecuted(), r.sizes(), r.sizesIndex());
                } else if (e instanceof CycleCount c && rnd.nextInt(4) != 0) {
                    last.cycles(c.source(), c.cycles());
                } else {
                    last.accept(e);
                }
            }
            last.end();
            List<TraceElement> want = reference(stream, limit);
            assertThat(out.elements()).as("round %d, limit %d, %d elements", round, limit, n).isEqualTo(want);
        }
    }
}
