package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.CallKind;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.WaypointKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The running time a view reads while it handles an element: a range goes on once the cycle count after it is
 * counted (the count covers the range it follows), a timestamp applies to what follows it; ranges and cycle counts
 * given as their fields or as elements alike.
 */
class TimelineTest {
    private static InstructionRange range(long start, int count) {
        return new InstructionRange(0, start, start + 4L * count, count, Isa.A32, WaypointKind.DIRECT_BRANCH,
                CallKind.NONE, true, InstructionSizes.uniform(4), (short) 0);
    }

    @Test
    void aRangeGoesOnWithTheCyclesCountedAfterItAndTheTimestampBeforeIt() {
        Timeline t = new Timeline();
        List<String> seen = new ArrayList<>();
        ElementSink view = new ElementSink() {
            @Override
            public void accept(TraceElement e) {
                String what = e instanceof InstructionRange r ? "range 0x" + Long.toHexString(r.start())
                        : e instanceof CycleCount c ? "cycles " + c.cycles() : "timestamp " + ((Timestamp) e).value();
                seen.add(what + " @" + t.cycles() + "/" + t.timestamp());
            }
        };
        t.feed(view);
        InstructionRange a = range(0x1000, 3);
        t.range(a.source(), a.start(), a.end(), a.count(), a.isa(), a.lastKind(), a.lastCall(), a.lastExecuted(),
                a.sizes(), a.sizesIndex());
        t.cycles(0, 10);
        t.accept(range(0x2000, 2));
        t.accept(new Timestamp(0, 5, -1));
        t.accept(new CycleCount(0, 7));
        InstructionRange c = range(0x3000, 1);
        t.range(c.source(), c.start(), c.end(), c.count(), c.isa(), c.lastKind(), c.lastCall(), c.lastExecuted(),
                c.sizes(), c.sizesIndex());
        t.accept(range(0x4000, 4));
        t.end();
        assertThat(seen).containsExactly(
                "range 0x1000 @10/-1", "cycles 10 @10/-1",
                "range 0x2000 @10/-1", "timestamp 5 @10/5",
                "cycles 7 @17/5",
                "range 0x3000 @17/5", "range 0x4000 @17/5");
    }
}
