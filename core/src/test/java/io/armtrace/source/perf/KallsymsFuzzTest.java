package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.SymbolTable;
import io.armtrace.source.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Arbitrary bytes as a --kallsyms file: they read as a symbol table, or one sentence naming the file says
 * why not ({@link InputException}). {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class KallsymsFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void readsOrSaysWhy(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".kallsyms");
        try {
            Files.write(file, data);
            SymbolTable t;
            try {
                t = Kallsyms.read(file);
            } catch (InputException e) {
                assertThat(e.getMessage()).startsWith(file.toString()).doesNotContain("\n");
                return;
            }
            for (io.armtrace.image.Symbol s : t.symbols()) {
                assertThat(t.nameFor(s.address())).isNotNull();
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
