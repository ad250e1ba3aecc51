package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.view.SoftwareTraceSummary;
import io.armtrace.view.TraceEventWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exception slices against ground truth: the Cortex-M programs of the QEMU corpus take SysTick, PendSV and
 * SVCall. Their exception entries and returns, as DWT exception trace would report them (entry, exit, return to
 * the exception or thread mode interrupted; a tail-chained entry, which the record shows as an entry returning
 * where the active one would have, is the exit of that one and the entry of the next) with a local timestamp of the instructions executed since the
 * previous packet, go through the ITM encoder and decoder into the timeline. Each exception's slices must be as
 * many as QEMU took it, and last exactly the instructions QEMU executed from its entry to its return; the
 * report's {@link SoftwareTraceSummary} counts the same entries and time in each handler.
 */
class TimelineExceptionTraceTest {
    @TempDir
    Path dir;

    static List<String> cortexM() {
        return Corpus.names(Profile.M);
    }

    @ParameterizedTest
    @MethodSource("cortexM")
    void handlersAreTheExceptionsQemuTook(String name) throws IOException {
        Execution truth = Corpus.execution(name);
        Map<String, Long> taken = new TreeMap<>();
        Map<String, Long> instructions = new TreeMap<>();
        List<TraceElement> events = new ArrayList<>();
        Deque<Integer> active = new ArrayDeque<>();
        Deque<Long> enteredAt = new ArrayDeque<>();
        Deque<Long> returnsTo = new ArrayDeque<>();
        long steps = 0;
        long lastEvent = 0;
        for (ExecutionEvent e : truth.events()) {
            if (e instanceof ExecutionEvent.Step) {
                steps++;
                continue;
            }
            if (steps > lastEvent) {
                events.add(new LocalTimestamp(0, steps - lastEvent, LocalTimestamp.Relation.SYNCHRONOUS));
                lastEvent = steps;
            }
            if (e instanceof ExecutionEvent.ExceptionTaken x) {
                if (!active.isEmpty() && returnsTo.peek() == x.preferredReturn()) {
                    // tail-chained (the record has no R, the entry returns where the one it replaces would have):
                    // DWT reports the exit of the first and the entry of the next, with no return between
                    int n = active.pop();
                    returnsTo.pop();
                    instructions.merge(ExceptionTrace.mProfileName(n), steps - enteredAt.pop(), Long::sum);
                    events.add(new ExceptionTrace(0, ExceptionTrace.Function.EXIT, n));
                }
                returnsTo.push(x.preferredReturn());
                String n = ExceptionTrace.mProfileName(x.number());
                taken.merge(n, 1L, Long::sum);
                active.push(x.number());
                enteredAt.push(steps);
                events.add(new ExceptionTrace(0, ExceptionTrace.Function.ENTRY, x.number()));
            } else if (e instanceof ExecutionEvent.ExceptionReturned && !active.isEmpty()) {
                int n = active.pop();
                returnsTo.pop();
                instructions.merge(ExceptionTrace.mProfileName(n), steps - enteredAt.pop(), Long::sum);
                events.add(new ExceptionTrace(0, ExceptionTrace.Function.EXIT, n));
                events.add(new ExceptionTrace(0, ExceptionTrace.Function.RETURN, active.isEmpty() ? 0 : active.peek()));
            }
        }
        assertThat(taken).as("the program takes exceptions").isNotEmpty();

        TraceProtocol itm = Protocols.byName("itm").orElseThrow();
        EncodeOutput enc = itm.encodeSoftware(events, Map.of());
        Path json = dir.resolve(name + ".json");
        try (Writer out = Files.newBufferedWriter(json)) {
            TraceEventWriter w = new TraceEventWriter(out, name);
            TraceEventWriter.Track track = w.track("ITM", ProgramImage.of(new MemoryImage()));
            itm.decode(new DecodeInput(1, enc.registers(), null, TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), track);
            track.end();
            w.finish();
            assertThat(track.clock()).isEqualTo(TraceEventWriter.Clock.LOCAL_TIMESTAMPS);
        }
        TimelineCommandTest.Events ev = TimelineCommandTest.read(json);
        assertThat(ev.beginsByName()).isEqualTo(taken);
        assertThat(ev.durations()).isEqualTo(instructions);

        // the report's summary of the same trace: entries and the time in each handler
        SoftwareTraceSummary summary = new SoftwareTraceSummary(ProgramImage.of(new MemoryImage()));
        itm.decode(new DecodeInput(1, enc.registers(), null, TraceData.of(name, enc.trace()), DecodeOptions.DEFAULT), summary);
        assertThat(summary.timed()).isTrue();
        Map<String, Long> entered = new TreeMap<>();
        Map<String, Long> ticks = new TreeMap<>();
        for (SoftwareTraceSummary.ExceptionLine l : summary.exceptions()) {
            String n = l.name().substring(l.name().indexOf(' ') + 1);
            entered.put(n, l.entered());
            ticks.put(n, l.ticks());
        }
        assertThat(entered).isEqualTo(taken);
        assertThat(ticks).isEqualTo(instructions);
    }
}
