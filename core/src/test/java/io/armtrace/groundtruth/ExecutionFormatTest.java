package io.armtrace.groundtruth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutionFormatTest {

    /** The example of docs/execution-format.md. */
    private static final String DOC_EXAMPLE = """
            # Cortex-A9, A32: an SVC and its return
            armtrace-execution 1 profile=AR core=cortex-a9
            I 60010150 A32 4 E
            I 60010154 A32 4 N
            I 60010158 A32 4 E
            X 2 6001015c 60010008
            I 60010008 A32 4 E
            I 6001003c A32 4 E
            R 6001015c

            I 6001015c T32 2 E
            """;

    private static ExecutionFormat.Reader reader(String text) throws IOException {
        return ExecutionFormat.reader(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void readsTheDocumentedExample() throws IOException {
        try (ExecutionFormat.Reader r = reader(DOC_EXAMPLE)) {
            assertThat(r.header()).isEqualTo(new ExecutionFormat.Header(Profile.AR, "cortex-a9"));
            assertThat(r.readAll().events()).containsExactly(
                    new ExecutionEvent.Step(0x60010150L, Isa.A32, 4, true),
                    new ExecutionEvent.Step(0x60010154L, Isa.A32, 4, false),
                    new ExecutionEvent.Step(0x60010158L, Isa.A32, 4, true),
                    new ExecutionEvent.ExceptionTaken(2, 0x6001015cL, 0x60010008L),
                    new ExecutionEvent.Step(0x60010008L, Isa.A32, 4, true),
                    new ExecutionEvent.Step(0x6001003cL, Isa.A32, 4, true),
                    new ExecutionEvent.ExceptionReturned(0x6001015cL),
                    new ExecutionEvent.Step(0x6001015cL, Isa.T32, 2, true));
        }
    }

    @Test
    void writesWhatItReads(@TempDir Path dir) throws IOException {
        Execution ex;
        try (ExecutionFormat.Reader r = reader(DOC_EXAMPLE)) {
            ex = r.readAll();
        }
        for (String name : List.of("x.exec", "x.exec.gz")) {
            Path f = dir.resolve(name);
            ExecutionFormat.write(f, new ExecutionFormat.Header(Profile.AR, "cortex-a9"), ex, "a comment");
            assertThat(ExecutionFormat.read(f)).isEqualTo(ex);
            assertThat(ExecutionFormat.readHeader(f).core()).isEqualTo("cortex-a9");
        }
        String text = Files.readString(dir.resolve("x.exec"));
        assertThat(text).startsWith("# a comment\narmtrace-execution 1 profile=AR core=cortex-a9\nI 60010150 A32 4 E\n");
        assertThat(text).contains("\nX 2 6001015c 60010008\n", "\nR 6001015c\n", "\nI 60010154 A32 4 N\n");
    }

    @Test
    void corpusRecordsSurviveWriteAndRead(@TempDir Path dir) throws IOException {
        for (String name : List.of("a9-thumb", "m3")) {
            Path f = dir.resolve(name + ".exec.gz");
            ExecutionFormat.write(f, Corpus.header(name), Corpus.execution(name));
            assertThat(ExecutionFormat.read(f)).isEqualTo(Corpus.execution(name));
            assertThat(ExecutionFormat.readHeader(f)).isEqualTo(Corpus.header(name));
        }
    }

    @Test
    void readsGzipFromAStream() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(DOC_EXAMPLE.getBytes(StandardCharsets.US_ASCII));
        }
        try (ExecutionFormat.Reader r = ExecutionFormat.reader(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(r.readAll().steps()).hasSize(6);
        }
    }

    @Test
    void unknownHeaderKeysAreAllowed() throws IOException {
        try (ExecutionFormat.Reader r = reader("armtrace-execution 1 core=cortex-m0plus profile=M clock=48MHz\nI 100 T32 2 E\n")) {
            assertThat(r.header().profile()).isEqualTo(Profile.M);
            assertThat(r.next()).isEqualTo(new ExecutionEvent.Step(0x100, Isa.T32, 2, true));
            assertThat(r.next()).isNull();
        }
    }

    /** Corrupt records end in a FormatException naming the line, never in anything else. */
    @Test
    void mutatedRecordsFailCleanly() throws IOException {
        byte[] good = DOC_EXAMPLE.getBytes(StandardCharsets.US_ASCII);
        java.util.Random random = new java.util.Random(42);
        byte[] alphabet = "0123456789abcdefxXIRTAEN #\n\t=-".getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 2000; round++) {
            byte[] b = good.clone();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                int at = random.nextInt(b.length);
                b[at] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            try (ExecutionFormat.Reader r = ExecutionFormat.reader(new ByteArrayInputStream(b))) {
                r.readAll();
            } catch (ExecutionFormat.FormatException e) {
                assertThat(e.getMessage()).startsWith("line ");
            }
        }
    }

    @Test
    void errorsNameTheLine() {
        String h = "armtrace-execution 1 profile=M\n";
        assertThatThrownBy(() -> reader("I 100 T32 2 E\n")).hasMessageContaining("line 1").hasMessageContaining("armtrace-execution");
        assertThatThrownBy(() -> reader("armtrace-execution 2 profile=M\n")).hasMessageContaining("version 2");
        assertThatThrownBy(() -> reader("armtrace-execution 1\n")).hasMessageContaining("profile");
        assertThatThrownBy(() -> reader("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> reader(h + "#\nI 100 T32 3 E\n").readAll()).hasMessageContaining("line 3").hasMessageContaining("size 3");
        assertThatThrownBy(() -> reader(h + "I 100 T32 2 Y\n").readAll()).hasMessageContaining("E or N");
        assertThatThrownBy(() -> reader(h + "I 100 ARM 4 E\n").readAll()).hasMessageContaining("unknown ISA");
        assertThatThrownBy(() -> reader(h + "I 1zz T32 2 E\n").readAll()).hasMessageContaining("hexadecimal");
        assertThatThrownBy(() -> reader(h + "I 123456789 T32 2 E\n").readAll()).hasMessageContaining("32 bits");
        assertThatThrownBy(() -> reader(h + "I 100 T32 2\n").readAll()).hasMessageContaining("missing field");
        assertThatThrownBy(() -> reader(h + "R 100 200\n").readAll()).hasMessageContaining("unexpected text");
        assertThatThrownBy(() -> reader(h + "Q 100\n").readAll()).hasMessageContaining("unknown event kind");
        assertThatThrownBy(() -> reader(h + "X 99999 100 200\n").readAll()).hasMessageContaining("out of range");
    }
}
