package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Listing options of {@code decode}: filters show exactly what an independent filter of the full
 * listing keeps, running cycle counts agree with Arm DS-5, and the annotations are those of the image.
 */
class ListingTest {
    private static final JsonFactory JSON = new JsonFactory();

    /** One flat JSON object of the output, and its text. */
    record JsonNode(java.util.Map<String, String> fields, String text) {
        Value get(String key) {
            return new Value(fields.get(key));
        }

        boolean has(String key) {
            return fields.containsKey(key);
        }

        @Override
        public String toString() {
            return text;
        }

        static JsonNode parse(String line) throws IOException {
            java.util.Map<String, String> f = new java.util.LinkedHashMap<>();
            try (JsonParser p = JSON.createParser(line)) {
                assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    f.put(name, p.getText());
                }
            }
            return new JsonNode(f, line);
        }
    }

    record Value(String text) {
        String asText() {
            return text;
        }

        long asLong() {
            return Long.parseLong(text);
        }

        boolean asBoolean() {
            return Boolean.parseBoolean(text);
        }
    }

    /** One instruction line of the JSONL output, with its position in the unfiltered listing. */
    record Insn(long index, long address, boolean executed, long cycles, long ts, String line) {
    }

    static List<JsonNode> jsonl(String... args) throws IOException {
        CliTest.Result r = CliTest.run(args);
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> out = new ArrayList<>();
        for (String l : r.out().split("\n")) {
            if (!l.isBlank()) {
                out.add(JsonNode.parse(l));
            }
        }
        return out;
    }

    static List<Insn> insns(List<JsonNode> objects) {
        List<Insn> out = new ArrayList<>();
        for (JsonNode o : objects) {
            if (o.get("type").asText().equals("insn")) {
                out.add(new Insn(out.size(), Long.decode(o.get("addr").asText()), o.get("executed").asBoolean(),
                        o.has("cycles") ? o.get("cycles").asLong() : -1, o.has("ts") ? o.get("ts").asLong() : -1,
                        o.toString()));
            }
        }
        return out;
    }

    static String[] args(String base, String... more) {
        List<String> a = new ArrayList<>(List.of("decode", base));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    private static List<String> lines(List<Insn> l) {
        return l.stream().map(Insn::line).toList();
    }

    private static void assertFilter(String tc2, String source, List<Insn> all, Predicate<Insn> keep, String... filter)
            throws IOException {
        List<String> more = new ArrayList<>(List.of("--source", source, "--format", "jsonl", "--time"));
        more.addAll(List.of(filter));
        List<Insn> shown = insns(jsonl(args(tc2, more.toArray(String[]::new))));
        List<Insn> expected = all.stream().filter(keep).toList();
        assertThat(expected).as("the filter %s keeps something", List.of(filter)).isNotEmpty();
        assertThat(expected.size()).as("and drops something").isLessThan(all.size());
        assertThat(lines(shown)).as("filter %s", List.of(filter)).isEqualTo(lines(expected));
    }

    @Test
    void filtersShowWhatTheFullListingFilteredIndependentlyShows() throws IOException {
        String tc2 = SharedData.tc2().toString();
        for (String source : new String[] {"0x10", "0x13"}) {
            List<Insn> all = insns(jsonl(args(tc2, "--source", source, "--format", "jsonl", "--time")));
            assertThat(all).hasSizeGreaterThan(7000);
            // an address window that cuts through ranges: both bounds fall inside executed straight-line code
            long from = all.get(all.size() / 3).address() + 2;
            long to = all.get(all.size() / 3 + 5).address() + 2;
            if (to <= from) {
                to = from + 0x40;
            }
            long f = from;
            long t = to;
            assertFilter(tc2, source, all, i -> i.address() >= f && i.address() < t,
                    "--from", "0x" + Long.toHexString(from), "--to", "0x" + Long.toHexString(to));
            assertFilter(tc2, source, all, i -> i.address() >= f, "--from", "0x" + Long.toHexString(from));
            assertFilter(tc2, source, all, i -> i.index() >= 1000 && i.index() < 2345,
                    "--start", "insn:1000", "--stop", "insn:2345");
            long c1 = all.get(all.size() / 4).cycles();
            long c2 = all.get(all.size() / 2).cycles();
            assertFilter(tc2, source, all, i -> i.cycles() >= c1 && i.cycles() < c2,
                    "--start", "cycle:" + c1, "--stop", "cycle:" + c2);
            long ts = all.get(all.size() / 2).ts();
            assertThat(ts).isPositive();
            assertFilter(tc2, source, all, i -> i.ts() >= ts, "--start", "ts:0x" + Long.toHexString(ts));
            // everything together
            assertFilter(tc2, source, all, i -> i.address() >= f && i.index() >= 100 && i.index() < 5000,
                    "--from", "0x" + Long.toHexString(from), "--start", "insn:100", "--stop", "insn:5000");
        }
    }

    @Test
    void rangesAreSplitExactlyAtTheAddressBounds() throws IOException {
        String tc2 = SharedData.tc2().toString();
        List<Insn> all = insns(jsonl(args(tc2, "--source", "0x11", "--format", "jsonl")));
        long from = all.get(3000).address() + 4;
        long to = from + 0x30;
        List<JsonNode> ranges = jsonl(args(tc2, "--source", "0x11", "--format", "jsonl", "--ranges",
                "--from", "0x" + Long.toHexString(from), "--to", "0x" + Long.toHexString(to)));
        long count = 0;
        for (JsonNode r : ranges) {
            if (r.get("type").asText().equals("range")) {
                assertThat(Long.decode(r.get("start").asText())).isGreaterThanOrEqualTo(from);
                assertThat(Long.decode(r.get("end").asText())).isLessThanOrEqualTo(to);
                count += r.get("count").asLong();
            }
        }
        assertThat(count).isEqualTo(all.stream().filter(i -> i.address() >= from && i.address() < to).count());
    }

    @Test
    void functionFilterKeepsTheFunctionsInstructions() throws IOException {
        String example = Path.of("examples/etm3-a9-thumb").toString();
        List<JsonNode> all = jsonl("decode", example, "--format", "jsonl", "--annotate");
        List<String> inMain = all.stream().filter(o -> o.get("type").asText().equals("insn"))
                .filter(o -> o.has("sym") && o.get("sym").asText().matches("main(\\+0x[0-9a-f]+)?"))
                .map(JsonNode::toString).toList();
        assertThat(inMain).isNotEmpty();
        List<String> shown = jsonl("decode", example, "--format", "jsonl", "--annotate", "--function", "main").stream()
                .filter(o -> o.get("type").asText().equals("insn")).map(JsonNode::toString).toList();
        assertThat(shown).isEqualTo(inMain);

        // the analysis views take the same filter: the profile counts exactly those instructions
        CliTest.Result profile = CliTest.run("profile", example, "--function", "main");
        assertThat(profile.exit()).isZero();
        assertThat(profile.out()).startsWith(inMain.size() + " instructions in ");

        CliTest.Result bad = CliTest.run("decode", example, "--function", "no_such_function");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--function no_such_function").hasLineCount(1);
        assertThat(CliTest.run("decode", example, "--start", "bogus:12").exit()).isEqualTo(2);
        assertThat(CliTest.run("decode", example, "--stop", "insn:x").exit()).isEqualTo(2);
        assertThat(FilterOptions.bound("--start", "insn:0100").value()).isEqualTo(100);
        assertThat(FilterOptions.bound("--start", "ts:0x1234").value()).isEqualTo(0x1234);
        assertThat(FilterOptions.bound("--start", "cycle:5000").measure()).isEqualTo(io.armtrace.view.ElementFilter.Measure.CYCLE);
    }

    @Test
    void annotationsOfASnapshotsElfAreAddr2linesAndTheSymbols() throws IOException {
        java.util.Map<Long, io.armtrace.view.AnnotatorTest.Ref> byAddress = new java.util.HashMap<>();
        for (var r : io.armtrace.view.AnnotatorTest.table("example-etm3-a9-thumb")) {
            byAddress.put(r.address(), r);
        }
        var image = io.armtrace.image.ElfImage.load(Path.of("examples/etm3-a9-thumb/program.elf"));
        long withLine = 0;
        for (JsonNode o : jsonl("decode", "examples/etm3-a9-thumb", "--format", "jsonl", "--annotate")) {
            if (!o.get("type").asText().equals("insn")) {
                continue;
            }
            long a = Long.decode(o.get("addr").asText());
            var ref = byAddress.get(a);
            assertThat(ref).as("0x%x is an instruction objdump lists", a).isNotNull();
            if (ref.file() == null) {
                assertThat(o.has("file")).isFalse();
            } else {
                assertThat(Path.of(o.get("file").asText()).normalize()).isEqualTo(Path.of(ref.file()).normalize());
                assertThat(o.get("line").asLong()).isEqualTo(ref.line());
                withLine++;
            }
            // the symbol objdump names the address after (its <sym+off> for the same address: examples-objdump)
            io.armtrace.image.Symbol s = image.symbols().nameFor(a);
            String expected = s.address() == a ? s.name() : s.name() + "+0x" + Long.toHexString(a - s.address());
            assertThat(o.get("sym").asText()).isEqualTo(expected);
        }
        assertThat(withLine).isGreaterThan(1000);
        // and the text listing: the same two facts on each instruction line
        CliTest.Result text = CliTest.run("decode", "examples/etm3-a9-thumb", "--insn", "--annotate", "--stop", "insn:50");
        assertThat(text.out()).contains("<main>  tools/groundtruth/programs/cortex-a/main_a.c:40");
    }

    @Test
    void severalSourcesAreTheirSeparateListingsInTurn() throws IOException {
        String tc2 = SharedData.tc2().toString();
        CliTest.Result both = CliTest.run("decode", tc2, "--source", "0x11,0x12", "--jobs", "1");
        CliTest.Result one = CliTest.run("decode", tc2, "--source", "0x11");
        CliTest.Result two = CliTest.run("decode", tc2, "--source", "0x12");
        assertThat(both.exit()).isZero();
        String prefixed1 = one.out().lines().map(l -> "[0x11] " + l).reduce("", (a, b) -> a + b + "\n");
        String prefixed2 = two.out().lines().map(l -> "[0x12] " + l).reduce("", (a, b) -> a + b + "\n");
        String withoutHeaders = both.out().lines().filter(l -> !l.startsWith("# ")).reduce("", (a, b) -> a + b + "\n");
        assertThat(withoutHeaders).isEqualTo(prefixed1 + prefixed2);
    }

    /**
     * DS-5 lists a Cycles column per instruction and a "Cycle Count" record where trace turns on again
     * (the count carried by the I-sync). The running count of --time, less the cycles counted before the
     * first instruction (which DS-5 does not list), equals DS-5's running sum at every such record and
     * at the end of every source.
     */
    @Test
    void runningCycleCountsAgreeWithDs5() throws IOException {
        Path tc2 = SharedData.tc2();
        for (int id : new int[] {0x10, 0x11, 0x12}) {
            List<long[]> ds5 = new ArrayList<>(); // {instructions before, running total}
            long total = 0;
            long n = 0;
            for (String line : Files.readAllLines(tc2.resolve(String.format("ds5-dumps/etmv3_0x%x.txt", id)))) {
                String[] c = line.split("\t", -1);
                if (c.length > 4 && c[0].equals("Instruction") && !c[4].isBlank()) {
                    total += Long.parseLong(c[4].trim());
                    n++;
                } else if (c.length > 4 && c[0].equals("Cycle Count")) {
                    total += Long.parseLong(c[4].trim());
                    ds5.add(new long[] {n, total});
                }
            }
            List<JsonNode> objs = jsonl("decode", tc2.toString(), "--source", "0x" + Integer.toHexString(id),
                    "--format", "jsonl", "--time");
            long before = -1;
            long insns = 0;
            long last = 0;
            String previous = "";
            List<long[]> ours = new ArrayList<>();
            for (JsonNode o : objs) {
                String type = o.get("type").asText();
                if (type.equals("insn")) {
                    if (before < 0) {
                        before = o.get("cycles").asLong() - cyclesOfFirstRange(objs);
                    }
                    insns++;
                    last = o.get("cycles").asLong();
                } else if (type.equals("cycles") && previous.equals("trace_on")) {
                    ours.add(new long[] {insns, o.get("cycles").asLong()});
                }
                previous = type;
            }
            long offset = before;
            assertThat(insns).isEqualTo(n);
            assertThat(ours).hasSameSizeAs(ds5).hasSizeGreaterThan(20);
            for (int i = 0; i < ds5.size(); i++) {
                assertThat(ours.get(i)[0]).isEqualTo(ds5.get(i)[0]);
                assertThat(ours.get(i)[1] - offset).as("0x%x record %d", id, i).isEqualTo(ds5.get(i)[1]);
            }
            assertThat(last - offset).isEqualTo(total);
        }
    }

    @Test
    void textTimeColumnsAreTheJsonlFields() throws IOException {
        String tc2 = SharedData.tc2().toString();
        List<Insn> all = insns(jsonl(args(tc2, "--source", "0x12", "--format", "jsonl", "--time")));
        CliTest.Result text = CliTest.run("decode", tc2, "--source", "0x12", "--insn", "--time");
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("^ *(\\d+|-) +(\\d+|-)    0x([0-9a-f]{8})  T32 ");
        int i = 0;
        for (String l : text.out().split("\n")) {
            java.util.regex.Matcher m = line.matcher(l);
            if (m.find()) {
                Insn expected = all.get(i++);
                assertThat(Long.parseLong(m.group(3), 16)).isEqualTo(expected.address());
                assertThat(m.group(1)).isEqualTo(expected.cycles() < 0 ? "-" : Long.toString(expected.cycles()));
                assertThat(m.group(2)).isEqualTo(expected.ts() < 0 ? "-" : Long.toString(expected.ts()));
            }
        }
        assertThat(i).isEqualTo(all.size());
    }

    /** The cycles the decoder reported for the first instruction range (the count after it). */
    private static long cyclesOfFirstRange(List<JsonNode> objs) {
        boolean inRange = false;
        for (JsonNode o : objs) {
            String type = o.get("type").asText();
            if (type.equals("insn")) {
                inRange = true;
            } else if (inRange) {
                return type.equals("cycles") ? o.get("count").asLong() : 0;
            }
        }
        return 0;
    }
}
