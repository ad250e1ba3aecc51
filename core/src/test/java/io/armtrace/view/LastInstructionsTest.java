package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;
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
}
