package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outputs of every command on the bundled examples and the conformance captures, byte for byte, as
 * they were before the element vocabulary was reworked: refactoring below the views must not change a
 * byte that no issue asks to change. Each row of {@code golden/outputs.tsv} is one command line (paths
 * relative to the repository root), its exit code, and the SHA-256 and length of its standard output.
 *
 * <p>An output that is meant to change (an issue asks for it) is re-recorded deliberately with
 * {@code -Darmtrace.golden.record=true}, and the commit says which issue changed which rows.
 */
class GoldenOutputsTest {
    static final Path TABLE = Path.of("core/src/test/resources/golden/outputs.tsv");

    static final String[] EXAMPLES = {"examples/etm2-arm926-thumb", "examples/etm3-a9-thumb",
        "examples/mtb-m0plus", "examples/ptm-a15", "conformance/TC2", "conformance/trace_cov_a15",
        "conformance/swtrace/itm_only_raw", "conformance/swtrace/stm-issue-27"};

    /** The command lines: every output a user sees, on every input with a known answer. */
    static List<String> commands() {
        List<String> c = new ArrayList<>();
        for (String e : EXAMPLES) {
            c.add("decode " + e);
            c.add("decode " + e + " --format jsonl");
            c.add("decode " + e + " --format jsonl --ranges");
            c.add("decode " + e + " --time");
            c.add("decode " + e + " --format jsonl --time");
            c.add("decode " + e + " --insn");
            c.add("decode " + e + " --insn --annotate --time");
            c.add("decode " + e + " --format jsonl --annotate");
            c.add("decode " + e + " --last 50");
            c.add("packets " + e);
            c.add("stats " + e);
            c.add("info " + e);
            c.add("profile " + e);
            c.add("profile " + e + " --by line");
            c.add("profile " + e + " --folded");
            c.add("callgraph " + e);
            c.add("callgraph " + e + " --format dot");
            c.add("coverage " + e);
            c.add("report " + e);
            c.add("timeline " + e);
        }
        // a call graph is drawn per source
        for (String id : new String[] {"0x10", "0x11", "0x12", "0x13"}) {
            c.add("callgraph conformance/TC2 --source " + id);
            c.add("profile conformance/TC2 --source " + id + " --folded");
        }
        return c;
    }

    record Outcome(int exit, int length, String sha256) {
        String row(String command) {
            return command + "\t" + exit + "\t" + length + "\t" + sha256;
        }
    }

    static Outcome run(String command) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(command.split(" "), new PrintWriter(out, true), new PrintWriter(err, true));
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return new Outcome(code, bytes.length, HexFormat.of().formatHex(md.digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static Map<String, String> recorded() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(TABLE)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            m.put(line.substring(0, tab), line);
        }
        return m;
    }

    @Test
    void everyOutputIsByteIdenticalToTheRecordedOne() throws IOException {
        List<String> commands = commands();
        if (Boolean.getBoolean("armtrace.golden.record")) {
            List<String> rows = new ArrayList<>();
            rows.add("# command\texit\tstdout bytes\tstdout SHA-256 (see GoldenOutputsTest)");
            for (String c : commands) {
                rows.add(run(c).row(c));
            }
            Files.write(TABLE, rows);
            return;
        }
        assertThat(TABLE).as("the recorded outputs").isRegularFile();
        Map<String, String> recorded = recorded();
        List<String> differ = new ArrayList<>();
        for (String c : commands) {
            String now = run(c).row(c);
            String then = recorded.get(c);
            if (!now.equals(then)) {
                differ.add("was: " + then + "\n    now: " + now);
            }
        }
        assertThat(differ).as("outputs that changed").isEmpty();
        assertThat(recorded.keySet()).as("recorded rows").containsExactlyInAnyOrderElementsOf(commands);
    }
}
