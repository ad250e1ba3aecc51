package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceSegments;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Arbitrary bytes cut into arbitrary segments with breaks, through the ETMv3, PFT and MTB decoders: nothing
 * escapes, every break gives exactly one gap at its offset, and every offset an element names lies in the
 * whole input. {@code mvn test} replays the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class SegmentedDecodeFuzzTest {
    private static ProgramImage image;

    static synchronized ProgramImage image() {
        if (image == null) {
            try (InputStream in = SegmentedDecodeFuzzTest.class.getResourceAsStream("/groundtruth/a9-thumb.elf.gz")) {
                image = ElfImage.load(new GZIPInputStream(in).readAllBytes(), "a9-thumb.elf");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return image;
    }

    @FuzzTest(maxDuration = "20s")
    void breaksAreGapsAndOffsetsStayInTheInput(byte[] data) throws IOException {
        if (data.length < 2) {
            return;
        }
        int a = data[0] & 0xFF;
        String name = switch (a % 3) {
            case 0 -> "etm3";
            case 1 -> "ptm";
            default -> "etm2";
        };
        TraceProtocol p = Protocols.byName(name).orElseThrow();
        Registers regs = new Registers();
        if (name.equals("etm3")) {
            regs.put("ETMCR", (a & 4) != 0 ? 0x1000 : 0x1000 | 1 << 12).put("ETMIDR", 0x4114F250L);
        } else if (name.equals("ptm")) {
            regs.put("ETMCR", (a & 4) != 0 ? 0x1000 : 0x1000 | 1 << 29);
        }
        // cut points from the second byte: up to 8 breaks
        byte[] trace = Arrays.copyOfRange(data, 2, data.length);
        int breaks = (data[1] & 7);
        TraceSegments.Builder b = new TraceSegments.Builder();
        List<Long> cuts = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= breaks; i++) {
            int to = i == breaks ? trace.length : Math.min(trace.length, from + 1 + (trace.length / (breaks + 1)));
            if (to <= from && i < breaks) {
                continue;
            }
            if (i > 0 && from < trace.length) {
                cuts.add((long) from);
            } else if (i > 0) {
                break;
            }
            b.add("segment " + i, Arrays.copyOfRange(trace, from, to), i == 0 ? null : "fuzz break " + i);
            from = to;
        }
        DecodeInput in = new DecodeInput(0x10, regs, image(), io.armtrace.source.TraceData.of("none", new byte[0]),
                DecodeOptions.DEFAULT);
        List<TraceElement> out = new ArrayList<>();
        p.decode(in, b.build(), out::add);
        List<Long> breakGaps = out.stream().filter(e -> e instanceof Gap g && g.reason().startsWith("trace break: "))
                .map(e -> ((Gap) e).offset()).toList();
        assertThat(breakGaps).isEqualTo(cuts);
        for (TraceElement e : out) {
            long offset = e instanceof Gap g ? g.offset() : e instanceof TraceOn t ? t.offset()
                    : e instanceof DecodeError d ? d.offset() : 0;
            assertThat(offset).as("%s", e).isBetween(0L, (long) trace.length);
        }
    }
}
