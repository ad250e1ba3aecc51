package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stored ETMv4 encodings of the corpus's AArch32 programs, with the element lines of Debian's {@code trc_pkt_lister
 * -decode} (libopencsd 1.3.3) on their snapshots ({@code opencsd-1.3.3-encoded/NAME.bin} and {@code .decode.gz},
 * made as {@code tools/opencsd-check/etm4-encode.sh} makes its snapshots, with the options below): linux-thumb
 * (T32 with A32 calls, user mode, SVCs into the kernel), a9-arm with branch broadcast (bare metal at EL1, IRQs and
 * SVCs) and linux-arm as a Cortex-R52 unit with the return stack (core Cortex-R52). OpenCSD's instruction ranges
 * are exactly QEMU's record, instruction by instruction with their 2- and 4-byte sizes; armtrace's decode of the
 * same bytes has the same ranges (start, end, count, instruction set, E or N) and the same exceptions (number and
 * preferred return address), in the same order.
 */
class Etm4AArch32OpenCsdTest {
    private static final Pattern RANGE = Pattern.compile("OCSD_GEN_TRC_ELEM_INSTR_RANGE\\(exec range=0x(\\p{XDigit}+):"
            + "\\[0x(\\p{XDigit}+)\\] num_i\\((\\d+)\\) last_sz\\((\\d+)\\) \\(ISA=(\\w+)\\) ([EN])");
    private static final Pattern EXCEPTION = Pattern.compile(
            "OCSD_GEN_TRC_ELEM_EXCEPTION\\(pref ret addr:0x(\\p{XDigit}+); excep num \\(0x(\\p{XDigit}+)\\)");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "linux-thumb, linux-thumb, el=0, 9511, 17",
        "a9-arm-bb, a9-arm, el=1 branch-broadcast=on, 10724, 18",
        "linux-arm-r52, linux-arm, el=0 unit=r52 return-stack=on, 9535, 17",
    })
    void openCsdAndArmtraceDecodeTheRecord(String stored, String name, String optionText, int rangeCount, int exceptionCount)
            throws IOException {
        Path dir = Path.of("src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3-encoded");
        if (!Files.isDirectory(dir)) {
            dir = Path.of("core").resolve(dir);
        }
        List<String> want = new ArrayList<>();
        List<long[]> wantRanges = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(dir.resolve(stored + ".decode.gz"))), StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m;
                if ((m = RANGE.matcher(line)).find()) {
                    long start = Long.parseLong(m.group(1), 16);
                    long end = Long.parseLong(m.group(2), 16);
                    want.add(String.format("range 0x%x-0x%x %s %s %s", start, end, m.group(3), m.group(5), m.group(6)));
                    wantRanges.add(new long[] {start, end, Long.parseLong(m.group(3))});
                } else if ((m = EXCEPTION.matcher(line)).find()) {
                    want.add(String.format("exception 0x%x at 0x%x", Integer.parseInt(m.group(2), 16),
                            Long.parseLong(m.group(1), 16)));
                }
            }
        }
        assertThat(wantRanges).hasSize(rangeCount);
        assertThat(want.stream().filter(s -> s.startsWith("exception"))).hasSize(exceptionCount);

        // OpenCSD's ranges are the record's steps, in order, every one
        List<ExecutionEvent.Step> steps = Corpus.execution(name).steps();
        int i = 0;
        for (long[] range : wantRanges) {
            long a = range[0];
            for (int k = 0; k < range[2]; k++, i++) {
                assertThat(i).as("OpenCSD's ranges within the record").isLessThan(steps.size());
                assertThat(steps.get(i).address()).as("step %d", i).isEqualTo(a);
                a += steps.get(i).size();
            }
            assertThat(a).as("the range 0x%x-0x%x ends after its last step", range[0], range[1]).isEqualTo(range[1]);
        }
        assertThat(i).as("every step of the record").isEqualTo(steps.size());

        // armtrace's decode of the same bytes
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
        }
        Registers regs = new Registers().putAll(Etm4Encoder.fromOptions(options, false).registers());
        byte[] trace = Files.readAllBytes(dir.resolve(stored + ".bin"));
        List<String> got = new ArrayList<>();
        List<Object> gaps = new ArrayList<>();
        new Etm4Protocol(false).decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of(stored, trace),
                DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        got.add(String.format("range 0x%x-0x%x %d %s %s", r.start(), r.end(), r.count(), r.isa(),
                                r.lastExecuted() ? "E" : "N"));
                    } else if (e instanceof ExceptionEntry x) {
                        got.add(String.format("exception 0x%x at 0x%x", x.number(), x.preferredReturn()));
                    } else if (e instanceof Gap g) {
                        gaps.add(g);
                    }
                });
        assertThat(gaps).isEmpty();
        assertThat(got).isEqualTo(want);
    }
}
