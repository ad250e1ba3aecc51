package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Arbitrary bytes as an OFLOW capture: nothing escapes, a frame never yields more bytes than it holds, and the
 * decoder's memory is its one frame buffer. {@code mvn test} replays the stored inputs.
 */
class OflowFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void framesDecodeOrAreDropped(byte[] data) {
        long[] n = {0};
        OflowDecoder d = new OflowDecoder((tag, b, off, len) -> {
            assertThat(tag).isBetween(0, 255);
            n[0] += len;
        });
        int chunk = data.length == 0 ? 1 : 1 + (data[0] & 15);
        for (int i = 0; i < data.length; i += chunk) {
            d.push(data, i, Math.min(chunk, data.length - i));
        }
        assertThat(n[0]).isLessThanOrEqualTo(data.length);
    }
}
