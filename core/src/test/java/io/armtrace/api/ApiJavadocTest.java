package io.armtrace.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every public type and member of the API package has its javadoc, and the javadoc is well formed. */
class ApiJavadocTest {
    @TempDir
    Path tmp;

    @Test
    void apiPackageHasNoMissingOrBrokenComments() throws Exception {
        List<java.io.File> sources;
        try (Stream<Path> files = Files.list(Path.of("core/src/main/java/io/armtrace/api"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toFile).sorted().toList();
        }
        assertThat(sources).extracting(java.io.File::getName).contains("Decoder.java", "DecodeOptions.java",
                "ElementIterator.java", "TraceSource.java", "package-info.java");
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        StringWriter log = new StringWriter();
        var fm = javadoc.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        boolean ok = javadoc.getTask(log, fm, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", tmp.toString(), "-quiet",
                        "-Xdoclint:all", "-Xwerror", "-public"), fm.getJavaFileObjectsFromFiles(sources)).call();
        assertThat(log.toString()).doesNotContain("warning").doesNotContain("error");
        assertThat(ok).as(log.toString()).isTrue();
        assertThat(tmp.resolve("io/armtrace/api/Decoder.html")).exists();
    }
}
