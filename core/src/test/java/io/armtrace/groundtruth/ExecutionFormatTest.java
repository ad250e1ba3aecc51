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

    /** The version 2 example of docs/execution-format.md: an SVC from EL0 to an upper-half kernel and back. */
    private static final String A64_EXAMPLE = """
            # Cortex-A53, AArch64: an SVC from EL0 to an EL1 kernel in the upper half
            armtrace-execution 2 profile=AR core=cortex-a53 el=0 security=non-secure
            I 40200020 A64 4 E
            I 40200024 A64 4 N
            I 40200028 A64 4 E
            X 8 4020002c ffffff8040005400 el=1 ec=0x15
            I ffffff8040005400 A64 4 E
            I ffffff8040005600 A64 4 E
            R 4020002c el=0
            I 4020002c A64 4 E
            """;

    @Test
    void readsAndWritesVersion2(@TempDir Path dir) throws IOException {
        Execution ex;
        ExecutionFormat.Header header;
        try (ExecutionFormat.Reader r = reader(A64_EXAMPLE)) {
            header = r.header();
            ex = r.readAll();
        }
        assertThat(header).isEqualTo(new ExecutionFormat.Header(Profile.AR, "cortex-a53", 0,
                ExecutionFormat.Security.NON_SECURE));
        assertThat(ex.events()).containsExactly(
                new ExecutionEvent.Step(0x40200020L, Isa.A64, 4, true),
                new ExecutionEvent.Step(0x40200024L, Isa.A64, 4, false),
                new ExecutionEvent.Step(0x40200028L, Isa.A64, 4, true),
                new ExecutionEvent.ExceptionTaken(8, 0x4020002cL, 0xffffff8040005400L, 1, 0x15),
                new ExecutionEvent.Step(0xffffff8040005400L, Isa.A64, 4, true),
                new ExecutionEvent.Step(0xffffff8040005600L, Isa.A64, 4, true),
                new ExecutionEvent.ExceptionReturned(0x4020002cL, 0),
                new ExecutionEvent.Step(0x4020002cL, Isa.A64, 4, true));
        Path f = dir.resolve("a64.exec");
        ExecutionFormat.write(f, header, ex, "Cortex-A53, AArch64: an SVC from EL0 to an EL1 kernel in the upper half");
        assertThat(Files.readString(f)).isEqualTo(A64_EXAMPLE);
        // without exception level and security state the header is version 1, as before
        ExecutionFormat.write(f, new ExecutionFormat.Header(Profile.AR, "cortex-a53"), ex);
        assertThat(Files.readString(f)).contains("armtrace-execution 1 profile=AR core=cortex-a53\n");
        assertThat(ExecutionFormat.read(f)).isEqualTo(ex);
        // a level or a class the record does not state stays unknown; 0x prefix and case are optional
        try (ExecutionFormat.Reader r = reader("armtrace-execution 2 profile=AR\nX 5 40 280\nX 4 40 200 ec=3C\nR 40\n")) {
            assertThat(r.header().el()).isEqualTo(ExecutionEvent.ExceptionTaken.UNKNOWN);
            assertThat(r.header().security()).isNull();
            assertThat(r.readAll().events()).containsExactly(new ExecutionEvent.ExceptionTaken(5, 0x40, 0x280),
                    new ExecutionEvent.ExceptionTaken(4, 0x40, 0x200, -1, 0x3c), new ExecutionEvent.ExceptionReturned(0x40));
        }
    }

    @Test
    void errorsNameTheLine() {
        String h = "armtrace-execution 1 profile=M\n";
        assertThatThrownBy(() -> reader("I 100 T32 2 E\n")).hasMessageContaining("line 1").hasMessageContaining("armtrace-execution");
        assertThatThrownBy(() -> reader("armtrace-execution 3 profile=M\n")).hasMessageContaining("version 3");
        assertThatThrownBy(() -> reader("armtrace-execution 1\n")).hasMessageContaining("profile");
        assertThatThrownBy(() -> reader("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> reader(h + "#\nI 100 T32 3 E\n").readAll()).hasMessageContaining("line 3").hasMessageContaining("size 3");
        assertThatThrownBy(() -> reader(h + "I 100 T32 2 Y\n").readAll()).hasMessageContaining("E or N");
        assertThatThrownBy(() -> reader(h + "I 100 ARM 4 E\n").readAll()).hasMessageContaining("unknown ISA");
        assertThatThrownBy(() -> reader(h + "I 1zz T32 2 E\n").readAll()).hasMessageContaining("hexadecimal");
        assertThatThrownBy(() -> reader(h + "I 12345678901234567 A64 4 E\n").readAll()).hasMessageContaining("64 bits");
        assertThatThrownBy(() -> reader(h + "I 100 T32 2\n").readAll()).hasMessageContaining("missing field");
        assertThatThrownBy(() -> reader(h + "R 100 200\n").readAll()).hasMessageContaining("unexpected '200'");
        assertThatThrownBy(() -> reader(h + "R 100 el=0 el=0\n").readAll()).hasMessageContaining("unexpected text");
        assertThatThrownBy(() -> reader(h + "X 5 100 200 el=4\n").readAll()).hasMessageContaining("0 to 3");
        assertThatThrownBy(() -> reader(h + "X 5 100 200 ec=0x40\n").readAll()).hasMessageContaining("0x00 to 0x3f");
        assertThatThrownBy(() -> reader(h + "X 5 100 200 ec=0x\n").readAll()).hasMessageContaining("0x00 to 0x3f");
        assertThatThrownBy(() -> reader(h + "X 5 100 200 el=1 el=1\n").readAll()).hasMessageContaining("unexpected 'el=1'");
        assertThatThrownBy(() -> reader(h + "X 5 100 200 pc=1\n").readAll()).hasMessageContaining("unexpected 'pc=1'");
        assertThatThrownBy(() -> reader("armtrace-execution 2 profile=AR el=x\n")).hasMessageContaining("0 to 3");
        assertThatThrownBy(() -> reader("armtrace-execution 2 profile=AR security=ns\n")).hasMessageContaining("non-secure");
        assertThatThrownBy(() -> reader(h + "Q 100\n").readAll()).hasMessageContaining("unknown event kind");
        assertThatThrownBy(() -> reader(h + "X 99999 100 200\n").readAll()).hasMessageContaining("out of range");
    }
}
