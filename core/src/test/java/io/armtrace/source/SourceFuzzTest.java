package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Arbitrary bytes through the frame deformatter (memory-buffer and port-capture modes) and the .ini
 * parser: the deformatter never throws and never gives out more bytes than came in; the parser either
 * parses or says what is wrong with an {@link InputException}, nothing else.
 * {@code mvn test} replays the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class SourceFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void deformatterNeverThrows(byte[] data) {
        for (boolean syncs : new boolean[] {false, true}) {
            long[] out = {0};
            FrameDeformatter d = new FrameDeformatter((id, buf, off, len) -> {
                assertThat(FrameDeformatter.isSource(id)).isTrue();
                out[0] += len;
            }, syncs);
            int chunk = data.length == 0 ? 1 : 1 + (data[0] & 31);
            for (int i = 0; i < data.length; i += chunk) {
                d.push(data, i, Math.min(chunk, data.length - i));
            }
            assertThat(out[0]).isLessThanOrEqualTo(data.length);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void iniParserOnlyReportsInputErrors(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        try {
            IniFile ini = IniFile.parse(Path.of("fuzz.ini"), text);
            for (IniFile.Section s : ini.sections()) {
                assertThat(s.name()).isNotEmpty();
            }
        } catch (InputException e) {
            assertThat(e.getMessage()).startsWith("fuzz.ini");
        }
    }
}
