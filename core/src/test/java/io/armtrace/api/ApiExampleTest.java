package io.armtrace.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of docs/api.md compiles against the library and, run on examples/etm3-a9-thumb, prints what
 * the ground truth of that capture says: the instructions QEMU executed (examples/executions/a9-thumb.exec.gz)
 * and the functions that executed most of them.
 */
class ApiExampleTest {
    @TempDir
    Path tmp;

    /** The first {@code ```java} block of docs/api.md. */
    static String example() throws Exception {
        String doc = Files.readString(Path.of("docs/api.md"));
        int start = doc.indexOf("```java\n");
        assertThat(start).as("docs/api.md has a java example").isNotNegative();
        int end = doc.indexOf("```", start + 8);
        return doc.substring(start + 8, end);
    }

    @Test
    void docsExampleCompilesAndPrintsTheGroundTruth() throws Exception {
        Path src = Files.writeString(tmp.resolve("ApiExample.java"), example());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean ok = javac.getTask(new PrintWriter(diagnostics), null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", tmp.toString(), "-Xlint:all",
                        "-Werror"), null, javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                        .getJavaFileObjects(src.toFile())).call();
        assertThat(ok).as(diagnostics.toString()).isTrue();

        Path javaCommand = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaCommand.toString(), "-cp",
                tmp + java.io.File.pathSeparator + System.getProperty("java.class.path"), "ApiExample",
                "examples/etm3-a9-thumb").redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(printed).isZero();

        // the ground truth: every instruction QEMU stepped through (passed its condition or not), by function
        Execution truth = ExecutionFormat.read(Path.of("examples/executions/a9-thumb.exec.gz"));
        ProgramImage elf = ElfImage.load(Path.of("examples/etm3-a9-thumb/program.elf"));
        Map<String, Long> perFunction = new HashMap<>();
        long n = 0;
        for (ExecutionEvent.Step s : truth.steps()) {
            n++;
            Symbol f = elf.symbols().lookup(s.address());
            perFunction.merge(f == null ? "?" : f.name(), 1L, Long::sum);
        }
        List<String> expected = new ArrayList<>();
        expected.add("trace_0 (ETM3.5, trace ID 0x10): " + n + " instructions");
        perFunction.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(5).forEach(f -> expected.add("  " + f.getValue() + " " + f.getKey()));
        assertThat(printed.lines().toList()).isEqualTo(expected);
    }
}
