package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code armtrace decode EXAMPLE --insn} against GNU objdump: every listed instruction's disassembly
 * (branch targets with their symbols, IT-block conditions, also after an exception returns into an IT
 * block) is the text {@code arm-none-eabi-objdump -d} prints for that address of the example's ELF
 * (the committed table from tools/isa-oracle/listing.py).
 */
class ListingOracleTest {
    private static final Pattern INSN = Pattern.compile(
            "^  0x([0-9a-f]{8})  (?:A32|T32) \\S+(?: \\S{4})?\\s+(.*?)(?:\\s{2,}(?:\\(condition failed\\)|<).*)?$");

    static Map<Long, String> objdump(String example) throws IOException {
        Map<Long, String> m = new HashMap<>();
        try (InputStream in = ListingOracleTest.class.getResourceAsStream("/isa/examples-objdump.tsv.gz")) {
            assertThat(in).isNotNull();
            BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split("\t");
                if (!line.startsWith("#") && f[0].equals(example)) {
                    m.put(Long.parseLong(f[1], 16), f[2]);
                }
            }
        }
        return m;
    }

    @ParameterizedTest
    @CsvSource({"etm2-arm926-thumb, 86981", "etm3-a9-thumb, 55081", "mtb-m0plus, 2515"})
    void everyListedInstructionReadsAsObjdumpPrintsIt(String example, int instructions) throws IOException {
        Map<Long, String> expected = objdump(example);
        CliTest.Result r = CliTest.run("decode", "examples/" + example, "--insn");
        assertThat(r.exit()).isZero();
        int compared = 0;
        List<String> differ = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            Matcher m = INSN.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String want = expected.get(Long.parseLong(m.group(1), 16));
            assertThat(want).as("objdump has an instruction at the listed address: %s", line).isNotNull();
            compared++;
            String got = String.join(" ", m.group(2).trim().split("\\s+"));
            if (!got.equals(want) && differ.size() < 10) {
                differ.add(line + "   objdump: " + want);
            }
        }
        assertThat(compared).isEqualTo(instructions);
        assertThat(differ).isEmpty();
    }

    /** The JSONL {@code disasm} field of {@code --annotate} is the same text, one per {@code insn} object. */
    @ParameterizedTest
    @CsvSource({"etm2-arm926-thumb, 86981", "etm3-a9-thumb, 55081", "mtb-m0plus, 2515"})
    void everyJsonlInstructionCarriesObjdumpsText(String example, int instructions) throws IOException {
        Map<Long, String> expected = objdump(example);
        CliTest.Result r = CliTest.run("decode", "examples/" + example, "--format", "jsonl", "--annotate");
        assertThat(r.exit()).isZero();
        int compared = 0;
        List<String> differ = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            ListingTest.JsonNode o = ListingTest.JsonNode.parse(line);
            if (!o.get("type").asText().equals("insn")) {
                continue;
            }
            String want = expected.get(Long.parseLong(o.get("addr").asText().substring(2), 16));
            assertThat(want).as("objdump has an instruction at %s", line).isNotNull();
            assertThat(o.has("disasm")).as("disasm field in %s", line).isTrue();
            compared++;
            if (!o.get("disasm").asText().equals(want) && differ.size() < 10) {
                differ.add(line + "   objdump: " + want);
            }
        }
        assertThat(compared).isEqualTo(instructions);
        assertThat(differ).isEmpty();
    }
}
