package io.armtrace.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * spark/fleet, the launcher of the job in local mode, passes the JVM flags Spark needs on Java 17 (the
 * same list the tests run with, the pom's spark.opens) and takes Spark from the classpath the build writes,
 * which names jars in the local Maven repository instead of copying them (177 MB) into the build.
 */
class FleetLauncherTest {
    static final Path LAUNCHER = Path.of("spark/fleet");
    static final Path POM = Path.of("spark/pom.xml");

    static TreeSet<String> opens(String text) {
        TreeSet<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("--add-opens=(\\S+)=ALL-UNNAMED").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void launcherPassesEveryAddOpensFlagOfThePom() throws IOException {
        assertThat(LAUNCHER).isRegularFile().isExecutable();
        String launcher = Files.readString(LAUNCHER);
        String pom = Files.readString(POM);
        Matcher property = Pattern.compile("<spark.opens>([^<]*)</spark.opens>").matcher(pom);
        assertThat(property.find()).isTrue();
        assertThat(opens(property.group(1))).hasSize(13);
        assertThat(opens(launcher)).isEqualTo(opens(property.group(1)));
        assertThat(launcher).contains("io.armtrace.spark.FleetDecode").contains("spark-classpath.txt")
                .contains("${MASTER:-local[*]}");
    }

    @Test
    void theBuildNamesSparksJarsInsteadOfCopyingThem() throws IOException {
        String pom = Files.readString(POM);
        assertThat(pom).contains("<goal>build-classpath</goal>").contains("spark-classpath.txt")
                .doesNotContain("<goal>copy-dependencies</goal>");
        // Spark is provided (the cluster has it) and stays out of the shaded job jar and of core
        assertThat(pom).containsPattern("<artifactId>spark-core_\\$\\{scala.binary.version}</artifactId>\\s*"
                + "<version>\\$\\{spark.version}</version>\\s*<scope>provided</scope>");
        String core = Files.readString(Path.of("core/pom.xml"));
        for (String group : List.of("org.apache.spark", "org.apache.hadoop", "org.scala-lang")) {
            assertThat(core).doesNotContain("<groupId>" + group + "</groupId>");
        }
    }
}
