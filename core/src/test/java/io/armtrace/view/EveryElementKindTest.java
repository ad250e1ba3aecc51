package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
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
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SecurityState;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.SoftwareTrace;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The element kinds are a sealed hierarchy, and nothing that consumes elements may drop a kind
 * silently: this enumerates {@link TraceElement}'s permitted subclasses and fails when a kind has no
 * visitor method, when an element sink of the views is no {@link ElementVisitor}, or when a writer,
 * a stage or the analysis does nothing with one kind. A new kind fails here until it has a sample
 * below and every view shows it.
 */
class EveryElementKindTest {
    /** A32 code at 0x8000 (NOPs, then BL) for the writers that disassemble. */
    private static ProgramImage image() {
        byte[] code = new byte[16];
        for (int i = 0; i < 12; i += 4) {
            code[i] = 0x00;
            code[i + 1] = (byte) 0xF0;
            code[i + 2] = 0x20;
            code[i + 3] = (byte) 0xE3; // A32 NOP (E320F000)
        }
        code[12] = 0x10;
        code[15] = (byte) 0xEB; // BL
        return new ProgramImage(new MemoryImage().add(0x8000, code, "code"),
                new SymbolTable(List.of(new Symbol("f", 0x8000, 16, false)), new long[0], new byte[0]));
    }

    /** One element of every kind, each with its optional fields given. */
    static Map<Class<? extends TraceElement>, TraceElement> samples() {
        Map<Class<? extends TraceElement>, TraceElement> m = new LinkedHashMap<>();
        m.put(InstructionRange.class, new InstructionRange(0x10, 0x8000, 0x8010, 4, Isa.A32, WaypointKind.DIRECT_BRANCH,
                CallKind.CALL, true, InstructionSizes.uniform(4)));
        m.put(InstructionCount.class, new InstructionCount(0x10, 0x8000, 12, Isa.A32, 0x8030));
        m.put(ExceptionEntry.class, new ExceptionEntry(0x10, 6, "IRQ", 0x8004, true, 1));
        m.put(ExceptionReturn.class, new ExceptionReturn(0x10, 0x8004));
        m.put(TraceOn.class, new TraceOn(0x10, TraceOn.Reason.OVERFLOW, 3));
        m.put(Gap.class, new Gap(0x10, "lost", 10));
        m.put(NoImage.class, new NoImage(0x10, 0x9000, Isa.A32));
        m.put(Context.class, new Context(0x10, 0x42, 3, SecurityState.REALM, 1, true, false));
        m.put(Timestamp.class, new Timestamp(0x10, 1000, 5));
        m.put(CycleCount.class, new CycleCount(0x10, 7));
        m.put(Event.class, new Event(0x10, 2));
        m.put(Trigger.class, new Trigger(0x10, 3));
        m.put(DecodeError.class, new DecodeError(0x10, "bad", 0x8000, 5));
        m.put(SoftwareMessage.class, new SoftwareMessage(0x10, SoftwareMessage.Kind.DATA, 0x22, 0x104, 32, 0x6c6c6548L,
                true, true));
        m.put(LocalTimestamp.class, new LocalTimestamp(0x10, 120, LocalTimestamp.Relation.PACKET_DELAYED));
        m.put(PcSample.class, new PcSample(0x10, 0x8004, false));
        m.put(ExceptionTrace.class, new ExceptionTrace(0x10, ExceptionTrace.Function.ENTRY, 15));
        m.put(DataTrace.class, new DataTrace(0x10, 1, DataTrace.Kind.DATA_VALUE, 0xbeef, 2, true));
        m.put(EventCounterWrap.class, new EventCounterWrap(0x10, EventCounterWrap.CPI | EventCounterWrap.CYC));
        return m;
    }

    /** The kinds: the permitted subclasses of {@link TraceElement}, and of the sealed groups among them ({@link SoftwareTrace}). */
    private static List<Class<?>> kinds() {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> k : TraceElement.class.getPermittedSubclasses()) {
            out.addAll(k.isSealed() ? Arrays.asList(k.getPermittedSubclasses()) : List.of(k));
        }
        return out;
    }

    @Test
    void everyKindHasASampleAndAVisitorMethod() throws NoSuchMethodException {
        assertThat(samples().keySet()).as("a sample of every kind").containsExactlyInAnyOrderElementsOf(
                kinds().stream().map(k -> k.asSubclass(TraceElement.class)).toList());
        for (Class<?> k : kinds()) {
            Method m = ElementVisitor.class.getMethod("visit", k);
            assertThat(m.isDefault()).as("visit(%s) must not have a default", k.getSimpleName()).isFalse();
        }
        assertThat(Arrays.stream(ElementVisitor.class.getMethods()).filter(m -> m.getName().equals("visit")))
                .hasSize(kinds().size());
        // accept() reaches the kind's own method
        for (TraceElement e : samples().values()) {
            List<Object> seen = new ArrayList<>();
            e.accept((ElementVisitor) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ElementVisitor.class}, (p, method, args) -> seen.add(method.getParameterTypes()[0])));
            assertThat(seen).containsExactly(e.getClass());
        }
    }

    /** Every element sink of the view package (and the stages among them) is an element visitor. */
    @Test
    void everyElementSinkOfTheViewsIsAVisitor() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir = Path.of(TextWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("io/armtrace/view");
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
                    .map(n -> "io.armtrace.view." + n.substring(0, n.length() - 6)).sorted().toList();
        }
        List<String> sinks = new ArrayList<>();
        for (String n : names) {
            Class<?> c = Class.forName(n, false, getClass().getClassLoader());
            if (ElementSink.class.isAssignableFrom(c) && !c.isInterface() && !c.isAnonymousClass()) {
                sinks.add(c.getSimpleName());
                assertThat(ElementVisitor.class.isAssignableFrom(c)).as("%s handles every kind", c.getName()).isTrue();
            }
        }
        assertThat(sinks).contains("TextWriter", "JsonlWriter", "TraceAnalysis", "Timeline", "ElementFilter",
                "LastInstructions", "Profile", "CallGraph", "Coverage", "Track");
    }

    private static String text(TraceElement e, boolean perInstruction, boolean withSource) {
        StringWriter w = new StringWriter();
        TextWriter t = new TextWriter(new PrintWriter(w), image(), perInstruction, withSource);
        t.accept(e);
        t.end();
        return w.toString();
    }

    private static String jsonl(TraceElement e, boolean ranges) {
        StringWriter w = new StringWriter();
        JsonlWriter j = new JsonlWriter(w, image(), true, ranges);
        j.accept(e);
        j.end();
        return w.toString();
    }

    @Test
    void writersWriteEveryKindTheirOwnWay() {
        Set<String> textLines = new HashSet<>();
        Set<String> types = new HashSet<>();
        for (TraceElement e : samples().values()) {
            for (boolean perInstruction : new boolean[] {false, true}) {
                String t = text(e, perInstruction, true);
                assertThat(t).as("text of %s", e).isNotBlank().startsWith("[0x10] ");
                if (!perInstruction) {
                    textLines.add(t);
                }
            }
            for (boolean ranges : new boolean[] {false, true}) {
                String j = jsonl(e, ranges);
                assertThat(j).as("JSONL of %s", e).isNotBlank();
                for (String line : j.split("\n")) {
                    assertThat(line).startsWith("{\"type\":\"").contains("\"src\":16").endsWith("}");
                    if (ranges) {
                        types.add(line.substring(9, line.indexOf('"', 9)));
                    }
                }
            }
        }
        assertThat(textLines).as("a line of its own per kind").hasSize(kinds().size());
        assertThat(types).as("a JSONL type of its own per kind").hasSize(kinds().size());
    }

    @Test
    void writersShowTheFieldsOfLaterProtocols() {
        Map<Class<? extends TraceElement>, TraceElement> s = samples();
        assertThat(text(s.get(Context.class), false, false)).isEqualTo("context id=0x00000042 vmid=3 realm EL1 AArch64"
                + System.lineSeparator());
        assertThat(jsonl(s.get(Context.class), false)).contains("\"security\":\"realm\"", "\"el\":1", "\"aarch64\":true");
        assertThat(text(s.get(ExceptionEntry.class), false, false)).startsWith("exception 6 (IRQ) to EL1, returns to 0x00008004");
        assertThat(jsonl(s.get(ExceptionEntry.class), false)).contains("\"el\":1");
        assertThat(text(s.get(Timestamp.class), false, false)).startsWith("timestamp 1000 (5 cycles after the last cycle count)");
        assertThat(jsonl(s.get(Timestamp.class), false)).contains("\"value\":1000,\"cycle_count\":5");
        assertThat(text(s.get(InstructionCount.class), false, false))
                .startsWith("12 insn A32 from 0x00008000  <f>, path not traced, then 0x00008030");
        assertThat(jsonl(s.get(InstructionCount.class), false))
                .contains("\"type\":\"insn_count\"", "\"count\":12", "\"start\":\"0x8000\"", "\"end\":\"0x8030\"");
        assertThat(text(s.get(Event.class), false, false)).startsWith("event 2");
    }

    @Test
    void writersShowSoftwareTrace() {
        Map<Class<? extends TraceElement>, TraceElement> s = samples();
        String nl = System.lineSeparator();
        assertThat(text(s.get(SoftwareMessage.class), false, false))
                .isEqualTo("software master 0x22 channel 0x0104 32 bits 0x6c6c6548 marker" + nl);
        assertThat(text(s.get(LocalTimestamp.class), false, false)).isEqualTo("local timestamp +120 (packet delayed)" + nl);
        assertThat(text(s.get(PcSample.class), false, false)).isEqualTo("pc sample 0x00008004  <f+0x4>" + nl);
        assertThat(text(s.get(DataTrace.class), false, false)).isEqualTo("data trace comparator 1: write 0xbeef" + nl);
        assertThat(text(s.get(EventCounterWrap.class), false, false)).isEqualTo("event counters wrapped: cpi cyc" + nl);
        // exception names come from the one M-profile table; a reserved number is shown by its number
        assertThat(text(s.get(ExceptionTrace.class), false, false)).isEqualTo("exception trace: entered 15 (SysTick)" + nl);
        assertThat(text(new ExceptionTrace(0x10, ExceptionTrace.Function.RETURN, 9), false, false))
                .isEqualTo("exception trace: returned to 9 (exception 9)" + nl);
        assertThat(text(new ExceptionTrace(0x10, ExceptionTrace.Function.EXIT, 16 + 5), false, false))
                .isEqualTo("exception trace: exited 21 (IRQ5)" + nl);
        assertThat(jsonl(s.get(ExceptionTrace.class), false)).contains("\"type\":\"exception_trace\"", "\"function\":\"entry\"",
                "\"number\":15", "\"name\":\"SysTick\"");
        assertThat(jsonl(s.get(SoftwareMessage.class), false)).contains("\"type\":\"software\"", "\"master\":34",
                "\"channel\":260", "\"bits\":32", "\"value\":\"0x6c6c6548\"", "\"marker\":true", "\"timestamped\":true");
    }

    /**
     * The timeline writes every kind into a document that is still JSON; what draws something draws it on the
     * element's own track (exception entries and ranges draw slices, software messages, gaps and errors instants).
     */
    @Test
    void timelineWritesEveryKind() throws java.io.IOException {
        for (TraceElement e : samples().values()) {
            StringWriter w = new StringWriter();
            TraceEventWriter t = new TraceEventWriter(w, "one element");
            TraceEventWriter.Track track = t.track("source", image());
            track.accept(e);
            track.end();
            t.finish();
            try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(w.toString())) {
                int events = 0;
                while (p.nextToken() != null) {
                    if (p.currentToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME && p.getCurrentName().equals("ph")) {
                        events++;
                    }
                }
                assertThat(events).as("%s", e).isGreaterThanOrEqualTo(2); // the process and track names at least
            }
            boolean draws = e instanceof InstructionRange || e instanceof io.armtrace.trace.SoftwareMessage
                    || e instanceof io.armtrace.trace.Gap || e instanceof io.armtrace.trace.DecodeError
                    || e instanceof io.armtrace.trace.PcSample || e instanceof io.armtrace.trace.DataTrace;
            if (draws) {
                assertThat(track.slices() + track.instants()).as("%s is drawn", e).isPositive();
            }
        }
    }

    /** The stages between decoder and writers pass every kind on (nothing filtered, no bound). */
    @Test
    void stagesPassEveryKindOn() {
        List<Function<ElementSink, ElementSink>> stages = List.of(
                Timeline::new,
                next -> new ElementFilter(next, List.of(), null, null, null),
                next -> new LastInstructions(next, 1000));
        for (Function<ElementSink, ElementSink> stage : stages) {
            for (TraceElement e : samples().values()) {
                ElementCollector c = new ElementCollector();
                ElementSink s = stage.apply(c);
                s.accept(e);
                s.end();
                assertThat(c.elements()).as("%s passes %s", s.getClass().getSimpleName(), e).containsExactly(e);
            }
        }
    }

    /**
     * The report of a stream of one element says something about it that the empty stream's does not;
     * software trace, which says nothing of program flow, the analyses pass by: not even counted.
     */
    @Test
    void theAnalysisCountsEveryKind() {
        String empty = report(List.of());
        for (TraceElement e : samples().values()) {
            if (e instanceof SoftwareTrace) {
                assertThat(report(List.of(e))).as("the report passes %s by", e).isEqualTo(empty);
            } else {
                assertThat(report(List.of(e))).as("the report shows %s", e).isNotEqualTo(empty);
            }
        }
        // not even between program flow: the report of a capture is the same with its software trace or without
        List<TraceElement> flow = samples().values().stream().filter(e -> !(e instanceof SoftwareTrace)).toList();
        List<TraceElement> all = new ArrayList<>();
        for (TraceElement e : flow) {
            all.add(e);
            samples().values().stream().filter(x -> x instanceof SoftwareTrace).forEach(all::add);
        }
        assertThat(report(all)).isEqualTo(report(flow));
    }

    private static String report(List<TraceElement> elements) {
        TraceAnalysis a = new TraceAnalysis(image());
        elements.forEach(a::accept);
        a.end();
        StringWriter w = new StringWriter();
        new HtmlReport("t").section("s", a).write(new PrintWriter(w), 10);
        // every element counts as one: the row of that count says nothing of its kind
        return w.toString().replaceAll("<tr><td>elements</td><td class=\"n\">\\d+</td></tr>", "");
    }

    @Test
    void theAnalysisViewsForwardEveryKind() {
        for (TraceElement e : samples().values()) {
            TraceAnalysis a = new TraceAnalysis(image());
            AnalysisView v = new Profile(a);
            e.accept(v);
            assertThat(a.elements()).as("%s reaches the analysis", e).isEqualTo(e instanceof SoftwareTrace ? 0 : 1);
            assertThat(Modifier.isAbstract(AnalysisView.class.getModifiers())).isTrue();
        }
    }
}
