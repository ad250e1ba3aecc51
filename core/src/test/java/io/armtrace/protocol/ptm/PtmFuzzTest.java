package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ElfImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * Arbitrary bytes through the PFT packet reader and flow decoder, with the configuration taken from
 * the input's first byte: nothing escapes, nothing hangs, output stays proportional to input.
 * {@code mvn test} replays the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class PtmFuzzTest {
    private static MemoryImage image;

    /** A real program's code: the Cortex-A9 Thumb-2 ground-truth program. */
    static synchronized MemoryImage image() {
        if (image == null) {
            try (InputStream in = PtmFuzzTest.class.getResourceAsStream("/groundtruth/a9-thumb.elf.gz")) {
                image = ElfImage.load(new GZIPInputStream(in).readAllBytes(), "a9-thumb.elf").memory();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return image;
    }

    static void run(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int a = data[0] & 0xFF;
        long cr = ((a & 1) != 0 ? PtmConfig.CR_CYCLE_ACCURATE : 0) | (long) ((a >> 1) & 3) << PtmConfig.CR_CONTEXT_ID_SHIFT
                | ((a & 8) != 0 ? PtmConfig.CR_RETURN_STACK : 0) | ((a & 16) != 0 ? PtmConfig.CR_BRANCH_BROADCAST : 0)
                | PtmConfig.CR_TIMESTAMP | PtmConfig.CR_VMID;
        long idr = (a & 32) != 0 ? 0x410CF300L : 0x411CF312L;
        long ccer = (a & 64) != 0 ? PtmConfig.CCER_TS_64BIT | PtmConfig.CCER_TS_BINARY : 0;
        PtmConfig cfg = new PtmConfig(cr, idr, ccer, 0x10);
        long[] n = {0};
        PtmFlow flow = new PtmFlow(cfg, image(), e -> n[0]++, (a & 128) != 0 ? 1 << 16 : 0);
        PtmPacketReader r = new PtmPacketReader(cfg, flow);
        int chunk = 1 + (a >> 3 & 7);
        for (int i = 1; i < data.length; i += chunk) {
            r.push(data, i, Math.min(chunk, data.length - i));
        }
        r.end();
        // an atom byte is at most 5 walks of at most 4096 bytes; a waypoint update at most the image
        assertThat(n[0]).isLessThanOrEqualTo(6000L * data.length + 8);
    }

    @FuzzTest(maxDuration = "20s")
    void readerAndFlowNeverThrow(byte[] data) {
        run(data);
    }
}
