package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.WaypointKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code armtrace timeline} on the bundled examples and software-trace captures: the JSON keeps to the Trace
 * Event Format (every B has its E on the same track, with the same name, time never goes back), and its slices
 * and instant events are as many as the calls, exceptions and messages counted straight from the decoded
 * element stream.
 */
class TimelineCommandTest {
    @TempDir
    Path dir;

    /** What a timeline holds, per category, checked for nesting as it is read. */
    record Events(Map<String, Long> begins, Map<String, Long> instants, List<String> trackNames, int maxDepth,
                  Map<String, Long> beginsByName, Map<String, Long> durations) {
        long begins(String category) {
            return begins.getOrDefault(category, 0L);
        }
    }

    static Events read(Path json) throws IOException {
        Map<String, Long> begins = new HashMap<>();
        Map<String, Long> instants = new HashMap<>();
        List<String> names = new ArrayList<>();
        Map<Long, Deque<String>> open = new HashMap<>();
        Map<Long, Deque<Long>> openTs = new HashMap<>();
        Map<String, Long> byName = new java.util.TreeMap<>();
        Map<String, Long> durations = new java.util.TreeMap<>();
        Map<Long, Long> lastTs = new HashMap<>();
        int maxDepth = 0;
        try (JsonParser p = new JsonFactory().createParser(json.toFile())) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(p.nextFieldName()).isEqualTo("traceEvents");
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            while (p.nextToken() == JsonToken.START_OBJECT) {
                Map<String, Object> e = new HashMap<>();
                String metaName = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.getCurrentName();
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String k = p.getCurrentName();
                            p.nextToken();
                            if (f.equals("args") && k.equals("name")) {
                                metaName = p.getText();
                            }
                        }
                    } else {
                        e.put(f, t.isNumeric() ? (Object) p.getLongValue() : p.getText());
                    }
                }
                String ph = (String) e.get("ph");
                assertThat(e.get("pid")).isEqualTo(1L);
                long tid = (Long) e.get("tid");
                if (ph.equals("M")) {
                    if (e.get("name").equals("thread_name")) {
                        names.add(metaName);
                    }
                    continue;
                }
                long ts = (Long) e.get("ts");
                assertThat(ts).as("time on track %d goes on", tid).isGreaterThanOrEqualTo(lastTs.getOrDefault(tid, 0L));
                lastTs.put(tid, ts);
                Deque<String> stack = open.computeIfAbsent(tid, k -> new ArrayDeque<>());
                switch (ph) {
                    case "B" -> {
                        stack.push((String) e.get("name"));
                        openTs.computeIfAbsent(tid, k -> new ArrayDeque<>()).push(ts);
                        byName.merge((String) e.get("name"), 1L, Long::sum);
                        maxDepth = Math.max(maxDepth, stack.size());
                        begins.merge((String) e.get("cat"), 1L, Long::sum);
                    }
                    case "E" -> {
                        assertThat(stack).as("an E on track %d with nothing open", tid).isNotEmpty();
                        String n = stack.pop();
                        assertThat(e.get("name")).isEqualTo(n);
                        durations.merge(n, ts - openTs.get(tid).pop(), Long::sum);
                    }
                    case "i" -> instants.merge((String) e.get("cat"), 1L, Long::sum);
                    default -> throw new AssertionError("phase " + ph);
                }
            }
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_ARRAY);
        }
        open.forEach((tid, s) -> assertThat(s).as("slices left open on track %d", tid).isEmpty());
        return new Events(begins, instants, names, maxDepth, byName, durations);
    }

    /**
     * Counts taken from the element stream itself, not from the call stack the timeline uses: executed calls,
     * and exceptions whose handler ran in the trace (an entry followed by code before a gap, a lost trace, a
     * return or another entry).
     */
    static final class Counted implements ElementSink {
        long calls;
        long exceptions;
        long messages;
        private boolean entered;

        @Override
        public void accept(TraceElement e) {
            if (e instanceof InstructionRange r) {
                if (entered) {
                    exceptions++;
                    entered = false;
                }
                if (r.lastCall() == CallKind.CALL && r.lastExecuted()
                        && (r.lastKind() == WaypointKind.DIRECT_BRANCH || r.lastKind() == WaypointKind.INDIRECT_BRANCH)) {
                    calls++;
                }
            } else if (e instanceof ExceptionEntry) {
                entered = true;
            } else if (e instanceof Gap || e instanceof ExceptionReturn
                    || (e instanceof TraceOn t && t.reason() == TraceOn.Reason.OVERFLOW)) {
                entered = false;
            } else if (e instanceof SoftwareMessage) {
                messages++;
            }
        }
    }

    static Counted decode(String... inputArgs) throws IOException {
        TimelineCommand cmd = new TimelineCommand();
        new CommandLine(cmd).parseArgs(inputArgs);
        Counted c = new Counted();
        for (InputOptions.Job job : cmd.input.jobs()) {
            job.protocol().decode(job.input(), c);
        }
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"examples/etm2-arm926-thumb", "examples/etm3-a9-thumb", "examples/mtb-m0plus",
        "examples/ptm-a15", "conformance/TC2", "conformance/trace_cov_a15"})
    void slicesAreTheDecodedCallsAndExceptions(String example) throws IOException {
        Path out = dir.resolve("t.json");
        CliTest.Result r = ViewCommandsTest.run("timeline", example, "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Events ev = read(out);
        Counted c = decode(example);
        assertThat(c.calls + c.exceptions).as("the example has calls to draw").isPositive();
        assertThat(ev.maxDepth()).isLessThan(128);
        assertThat(ev.begins("call")).isEqualTo(c.calls);
        assertThat(ev.begins("exception")).isEqualTo(c.exceptions);
        assertThat(ev.trackNames()).isNotEmpty().allSatisfy(n -> assertThat(n).matches(".*\\((cycles|timestamps|instructions|messages|local timestamp ticks)\\)"));
    }

    @Test
    void cycleAccurateCaptureRunsOnCycles() throws IOException {
        Path out = dir.resolve("t.json");
        assertThat(ViewCommandsTest.run("timeline", "examples/etm3-a9-thumb", "-o", out.toString()).exit()).isZero();
        assertThat(read(out).trackNames()).containsExactly("trace ID 0x10 ETMv3 (cycles)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"conformance/swtrace/itm_only_raw", "conformance/swtrace/itm_only_csformat",
        "conformance/swtrace/stm_only", "conformance/swtrace/stm_only-juno", "conformance/swtrace/stm-issue-27"})
    void softwareMessagesAreInstantEvents(String capture) throws IOException {
        Path out = dir.resolve("t.json");
        CliTest.Result r = ViewCommandsTest.run("timeline", capture, "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Events ev = read(out);
        Counted c = decode(capture);
        assertThat(c.messages).isPositive();
        assertThat(ev.instants().getOrDefault("message", 0L)).isEqualTo(c.messages);
    }

    @Test
    void aMissingCaptureIsOneSentenceAndExitTwo() {
        CliTest.Result r = ViewCommandsTest.run("timeline", dir.resolve("nothing").toString(), "-o", dir.resolve("t.json").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(Files.exists(dir.resolve("t.json"))).isFalse();
    }
}
