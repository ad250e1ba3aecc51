package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Q elements against OpenCSD's decoder. The traces in {@code opencsd-1.3.3-encoded/} are the encoder's ETMv4 trace of
 * the corpus's linux-a64 program with one and with three P0 instructions per Q element ({@code armtrace encode
 * --protocol etm4 --q-elements=N}); their {@code .decode.gz} files are the element lines of Debian's
 * {@code trc_pkt_lister -decode} (libopencsd 1.3.3) on those snapshots, which
 * {@code tools/opencsd-check/etm4-encode.sh} also checks against QEMU's record.
 *
 * <p>OpenCSD walks a Q element's count from the current address up to the first branch and gives a range only
 * when the count ends there or at the Q element's address; otherwise it gives the count (I_RANGE_NOPATH).
 * armtrace gives every range OpenCSD gives, the same (start, end, instructions), and for each OpenCSD count
 * either the same count (start, instructions, next address) or - where exactly one path through the image
 * fits, found by search - ranges that start there and hold that many instructions, after which the two
 * decodes go on alike. ({@code Etm4QElementTest} checks those ranges against QEMU's record.)
 */
class Etm4QOpenCsdTest {
    private static final Pattern RANGE = Pattern.compile(
            "OCSD_GEN_TRC_ELEM_INSTR_RANGE\\(exec range=0x(\\p{XDigit}+):\\[0x(\\p{XDigit}+)\\] num_i\\((\\d+)\\)");
    private static final Pattern NOPATH = Pattern.compile(
            "OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH\\(first 0x(\\p{XDigit}+):\\[next 0x(\\p{XDigit}+)\\] num_i\\((\\d+)\\)");

    /** start, end (next address), instructions; count: OpenCSD gave no path. */
    record Run(long start, long end, long n, boolean count) {
    }

    @ParameterizedTest(name = "q-elements={0}")
    @CsvSource({"1, 10574, 0", "3, 23, 3520"})
    void sameRangesAndCountsAsOpenCsdOrExactRangesWhereOnePathFits(int q, int openCsdRanges, int openCsdCounts)
            throws IOException {
        Path dir = Path.of("src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3-encoded");
        if (!Files.isDirectory(dir)) {
            dir = Path.of("core").resolve(dir);
        }
        byte[] trace = Files.readAllBytes(dir.resolve("linux-a64-q" + q + ".bin"));
        List<Run> want = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(dir.resolve("linux-a64-q" + q + ".decode.gz"))),
                StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = RANGE.matcher(line);
                boolean range = m.find();
                if (!range) {
                    m = NOPATH.matcher(line);
                    if (!m.find()) {
                        continue;
                    }
                }
                want.add(new Run(Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16),
                        Long.parseLong(m.group(3)), !range));
            }
        }
        assertThat(want.stream().filter(w -> !w.count).count()).isEqualTo(openCsdRanges);
        assertThat(want.stream().filter(w -> w.count).count()).isEqualTo(openCsdCounts);

        Registers regs = new Registers().putAll(new Etm4Encoder(false).qElements(q).registers());
        List<TraceElement> got = new ArrayList<>();
        new Etm4Protocol(false).decode(new DecodeInput(-1, regs, Corpus.image("linux-a64"), TraceData.of("q", trace),
                DecodeOptions.DEFAULT), got::add);
        List<Run> have = new ArrayList<>();
        for (TraceElement e : got) {
            if (e instanceof InstructionRange r) {
                have.add(new Run(r.start(), r.end(), r.count(), false));
            } else if (e instanceof InstructionCount c) {
                have.add(new Run(c.start(), c.end(), c.count(), true));
            }
        }
        int h = 0;
        int sameCounts = 0;
        int placed = 0;
        for (int i = 0; i < want.size(); i++) {
            Run w = want.get(i);
            assertThat(h).as("OpenCSD element %d (%s): armtrace has nothing more", i, w).isLessThan(have.size());
            Run a = have.get(h);
            if (!w.count || a.count) {
                assertThat(a).as("OpenCSD element %d", i).isEqualTo(w);
                h++;
                sameCounts += w.count ? 1 : 0;
                continue;
            }
            // ranges that place OpenCSD's count
            assertThat(a.start).as("OpenCSD count %d (%s): armtrace's ranges start there", i, w).isEqualTo(w.start);
            long n = 0;
            while (n < w.n) {
                assertThat(have.get(h).count).isFalse();
                n += have.get(h).n;
                h++;
            }
            assertThat(n).as("OpenCSD count %d (%s): armtrace's ranges hold as many", i, w).isEqualTo(w.n);
            placed++;
        }
        assertThat(h).as("armtrace has no more instructions than OpenCSD").isEqualTo(have.size());
        System.out.printf("q-elements=%d: OpenCSD %d ranges and %d counts; armtrace the same counts for %d, ranges for %d%n",
                q, openCsdRanges, openCsdCounts, sameCounts, placed);
        if (q == 1) {
            assertThat(placed + sameCounts).isZero();
        } else {
            assertThat(placed).isPositive();
        }
    }
}
