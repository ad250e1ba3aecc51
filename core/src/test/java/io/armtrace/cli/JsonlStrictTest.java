package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.armtrace.testdata.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** JSON Lines is one JSON object on every line: no blank line, nothing between or after objects. */
class JsonlStrictTest {
    static final JsonFactory JSON = new JsonFactory();

    /** Parses {@code line} as exactly one JSON object with a "type"; fails otherwise. */
    static void assertOneObject(String line, String where) throws Exception {
        assertThat(line).as(where + ": blank line").isNotBlank();
        try (JsonParser p = JSON.createParser(line)) {
            assertThat(p.nextToken()).as(where).isEqualTo(JsonToken.START_OBJECT);
            assertThat(p.nextToken()).as(where).isEqualTo(JsonToken.FIELD_NAME);
            assertThat(p.currentName()).as(where).isEqualTo("type");
            p.nextToken();
            while (p.nextToken() != JsonToken.END_OBJECT) {
                p.nextToken();
                p.skipChildren();
            }
            assertThat(p.nextToken()).as(where + ": text after the object").isNull();
        }
    }

    @Test
    void everyLineOfEveryBundledExampleAndTc2IsOneJsonObject() throws Exception {
        List<Path> inputs = new ArrayList<>();
        try (Stream<Path> examples = Files.list(Path.of(System.getProperty("user.dir")).resolve("examples"))) {
            examples.filter(d -> Files.isRegularFile(d.resolve("snapshot.ini"))).sorted().forEach(inputs::add);
        }
        inputs.add(SharedData.tc2());
        assertThat(inputs).hasSizeGreaterThanOrEqualTo(5);
        for (Path in : inputs) {
            for (List<String> extra : List.of(List.<String>of(), List.of("--ranges"), List.of("--last", "20"),
                    List.of("--jobs", "1"))) {
                List<String> args = new ArrayList<>(List.of("decode", in.toString(), "--format", "jsonl"));
                args.addAll(extra);
                CliTest.Result r = CliTest.run(args.toArray(String[]::new));
                assertThat(r.exit()).as(args + r.err()).isZero();
                assertThat(r.out()).as(args.toString()).endsWith("}\n");
                String[] lines = r.out().split("\n", -1);
                assertThat(lines.length).as(args.toString()).isGreaterThan(2);
                for (int i = 0; i < lines.length - 1; i++) {
                    assertOneObject(lines[i], args + " line " + (i + 1));
                }
                assertThat(lines[lines.length - 1]).isEmpty(); // the newline that ends the last line
            }
        }
    }
}
