package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code armtrace autofdo} on the command line: the text layout, inputs adding up, and its refusals. */
class AutofdoCommandTest {
    static final String MTB = "examples/mtb-m0plus";
    static final String ETM3 = "examples/etm3-a9-thumb";

    /** The sections of a profile of one binary: ranges, addresses, branches, then the comment lines. */
    private record Sections(Map<String, Long> ranges, int addresses, Map<String, Long> branches, List<String> comments) {
    }

    private static Sections parse(String text) {
        List<String> lines = text.lines().toList();
        int i = 0;
        Map<String, Long> ranges = new LinkedHashMap<>();
        int n = Integer.parseInt(lines.get(i++));
        for (int k = 0; k < n; k++) {
            String[] kv = lines.get(i++).split(":");
            assertThat(kv[0]).matches("[0-9a-f]+-[0-9a-f]+");
            ranges.put(kv[0], Long.parseLong(kv[1]));
        }
        int addresses = Integer.parseInt(lines.get(i++));
        Map<String, Long> branches = new LinkedHashMap<>();
        n = Integer.parseInt(lines.get(i++));
        for (int k = 0; k < n; k++) {
            String[] kv = lines.get(i++).split(":");
            assertThat(kv[0]).matches("[0-9a-f]+->[0-9a-f]+");
            branches.put(kv[0], Long.parseLong(kv[1]));
        }
        return new Sections(ranges, addresses, branches, lines.subList(i, lines.size()));
    }

    @Test
    void aCortexMCaptureGivesAProfileOfItsProgram() {
        CliTest.Result r = CliTest.run("autofdo", MTB);
        assertThat(r.exit()).as(r.err()).isZero();
        Sections s = parse(r.out());
        assertThat(s.ranges()).isNotEmpty();
        assertThat(s.branches()).isNotEmpty();
        assertThat(s.addresses()).isZero();
        assertThat(s.comments()).containsExactly("// " + MTB + "/program.elf", "");
    }

    @Test
    void aRawMtbBufferGivesTheSameProfileAsItsSnapshotButTheNewestRun() {
        // the snapshot adds the halted core's PC, which completes the newest run; the raw buffer has no PC
        CliTest.Result r = CliTest.run("autofdo", "--protocol", "mtb", "--trace", MTB + "/mtb_sram.bin", "--reg", "POSITION=0x200039d4",
                "--reg", "MASTER=0x80000008", "--reg", "BASE=0x20002000", "--image", MTB + "/program.elf");
        assertThat(r.exit()).as(r.err()).isZero();
        Sections raw = parse(r.out());
        Sections snapshot = parse(CliTest.run("autofdo", MTB).out());
        assertThat(raw.branches()).isEqualTo(snapshot.branches());
        Map<String, Long> onlyInSnapshot = new LinkedHashMap<>(snapshot.ranges());
        raw.ranges().forEach((k, v) -> onlyInSnapshot.merge(k, -v, Long::sum));
        onlyInSnapshot.values().removeIf(v -> v == 0);
        assertThat(onlyInSnapshot).hasSize(1).containsValue(1L);
    }

    @Test
    void severalInputsAddUp() {
        Sections once = parse(CliTest.run("autofdo", ETM3).out());
        CliTest.Result r = CliTest.run("autofdo", ETM3, ETM3);
        assertThat(r.exit()).as(r.err()).isZero();
        Sections twice = parse(r.out());
        assertThat(twice.ranges().keySet()).containsExactlyElementsOf(once.ranges().keySet());
        assertThat(twice.branches().keySet()).containsExactlyElementsOf(once.branches().keySet());
        once.ranges().forEach((k, v) -> assertThat(twice.ranges().get(k)).isEqualTo(2 * v));
        once.branches().forEach((k, v) -> assertThat(twice.branches().get(k)).isEqualTo(2 * v));
    }

    @Test
    void binariesAreChosenByRegex() {
        CliTest.Result r = CliTest.run("autofdo", MTB, "--binary", "program\\.elf$");
        assertThat(r.exit()).as(r.err()).isZero();
        UserErrorsTest.assertMistake(CliTest.run("autofdo", MTB, "--binary", "libc"), "--binary libc");
        UserErrorsTest.assertMistake(CliTest.run("autofdo", MTB, "--binary", "[x"), "--binary [x", "regular expression");
    }

    @Test
    void aRecordingGivesTheProfileOfTheModuleItsTraceRanIn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path out = tmp.resolve("kernel.afdo");
        CliTest.Result r = CliTest.run("autofdo", PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        String text = java.nio.file.Files.readString(out);
        // the only binary found is the module rq_stats.ko, whose code CPU 6 ran
        assertThat(text).contains("rq_stats.ko");
        assertThat(text.lines().findFirst().orElseThrow()).matches("[1-9][0-9]*");
    }
}
