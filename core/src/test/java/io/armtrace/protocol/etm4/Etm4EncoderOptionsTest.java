package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The encoder's cycle counts (TRCCONFIGR.CCI with a threshold), timestamps (TRCCONFIGR.TS), context IDs and
 * VMIDs (TRCCONFIGR.CID, VMID): OpenCSD's decoder reads them, and armtrace reads the same values, without
 * changing a single instruction.
 */
class Etm4EncoderOptionsTest {
    private static final Pattern RANGE = Pattern.compile(
            "OCSD_GEN_TRC_ELEM_INSTR_RANGE\\(exec range=0x(\\p{XDigit}+):\\[0x(\\p{XDigit}+)\\] num_i\\((\\d+)\\)");
    private static final Pattern CC = Pattern.compile("OCSD_GEN_TRC_ELEM_CYCLE_COUNT\\( \\[CC=(\\d+)\\]");
    private static final Pattern TS = Pattern.compile("OCSD_GEN_TRC_ELEM_TIMESTAMP\\( \\[ TS=0x(\\p{XDigit}+)\\];  \\[CC=(\\d+)\\]");
    private static final Pattern CTXT = Pattern.compile("OCSD_GEN_TRC_ELEM_PE_CONTEXT\\(.*VMID=0x(\\p{XDigit}+); CTXTID=0x(\\p{XDigit}+);");

    /**
     * {@code opencsd-1.3.3-encoded/linux-a64-cc-ts-ctxt.bin} is {@code armtrace encode --protocol etm4
     * --cycle-accurate=on --cycle-threshold=7 --timestamps=on --context-id=0x1234abcd --vmid=0x5a} of the corpus's
     * linux-a64 program; its {@code .decode.gz} the element lines of Debian's {@code trc_pkt_lister -decode}
     * (libopencsd 1.3.3) on that snapshot. armtrace's decode has the same instruction ranges, the same cycle
     * counts, the same timestamps with the same cycle counts, and the same context ID and VMID in every context.
     */
    @Test
    void openCsdReadsTheSameCycleCountsTimestampsAndContexts() throws IOException {
        Path dir = Path.of("src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3-encoded");
        if (!Files.isDirectory(dir)) {
            dir = Path.of("core").resolve(dir);
        }
        List<String> wantRanges = new ArrayList<>();
        List<Long> wantCycles = new ArrayList<>();
        List<String> wantTimestamps = new ArrayList<>();
        List<String> wantContexts = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(dir.resolve("linux-a64-cc-ts-ctxt.decode.gz"))),
                StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m;
                if ((m = RANGE.matcher(line)).find()) {
                    wantRanges.add(Long.parseUnsignedLong(m.group(1), 16) + "-" + Long.parseUnsignedLong(m.group(2), 16)
                            + "/" + m.group(3));
                } else if ((m = CC.matcher(line)).find()) {
                    wantCycles.add(Long.parseLong(m.group(1)));
                } else if ((m = TS.matcher(line)).find()) {
                    wantTimestamps.add(Long.parseUnsignedLong(m.group(1), 16) + " cc " + m.group(2));
                } else if ((m = CTXT.matcher(line)).find()) {
                    wantContexts.add(Long.parseLong(m.group(1), 16) + "/" + Long.parseLong(m.group(2), 16));
                }
            }
        }
        Registers regs = new Registers().putAll(new Etm4Encoder(false).cycleCounts(true, 7).timestamps(true)
                .context(0x1234abcdL, 0x5a).registers());
        byte[] trace = Files.readAllBytes(dir.resolve("linux-a64-cc-ts-ctxt.bin"));
        List<String> ranges = new ArrayList<>();
        List<Long> cycles = new ArrayList<>();
        List<String> timestamps = new ArrayList<>();
        List<String> contexts = new ArrayList<>();
        new Etm4Protocol(false).decode(new DecodeInput(-1, regs, Corpus.image("linux-a64"), TraceData.of("t", trace),
                DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        ranges.add(r.start() + "-" + r.end() + "/" + r.count());
                    } else if (e instanceof CycleCount c) {
                        cycles.add(c.cycles());
                    } else if (e instanceof Timestamp t) {
                        timestamps.add(t.value() + " cc " + t.cycles());
                    } else if (e instanceof Context c) {
                        contexts.add(c.vmid() + "/" + c.contextId());
                    }
                });
        assertThat(wantRanges).hasSize(10_574);
        assertThat(ranges).isEqualTo(wantRanges);
        assertThat(wantCycles).hasSizeGreaterThan(4_000).allMatch(c -> c >= 7);
        assertThat(cycles).isEqualTo(wantCycles);
        assertThat(wantTimestamps).hasSizeGreaterThan(20);
        assertThat(timestamps).isEqualTo(wantTimestamps);
        assertThat(wantContexts).isNotEmpty().allMatch(c -> c.equals(0x5a + "/" + 0x1234abcd));
        // OpenCSD gives a context only when a P0 element follows it (docs/etm4.md, differences)
        assertThat(contexts).hasSizeGreaterThanOrEqualTo(wantContexts.size()).allMatch(c -> c.equals(0x5a + "/" + 0x1234abcd));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "linux-a64, etm4, cycle-accurate=on timestamps=on context-id=0xfeed vmid=3",
        "linux-a64-O0, ete, cycle-accurate=on cycle-threshold=1 timestamps=on",
        "a53-el1, etm4, cycle-accurate=on cycle-threshold=4095 timestamps=on context-id=0 vmid=255",
        "a53-el1, ete, cycle-accurate=on timestamps=on q-elements=2",
    })
    void theInstructionsStayExactAndEachTimestampCountsTheInstructionsBeforeIt(String name, String protocol, String optionText)
            throws IOException {
        Map<String, String> options = new HashMap<>();
        for (String o : optionText.split(" ")) {
            options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
        }
        options.put("el", Integer.toString(Corpus.header(name).el()));
        Execution execution = Corpus.execution(name);
        Etm4Protocol p = new Etm4Protocol(protocol.equals("ete"));
        EncodeOutput enc = p.encode(execution, Corpus.image(name), options);
        Registers regs = new Registers().putAll(enc.registers());
        List<TraceElement> got = new ArrayList<>();
        p.decode(new DecodeInput(-1, regs, Corpus.image(name), TraceData.of("encoded", enc.trace()), DecodeOptions.DEFAULT),
                got::add);
        List<ExecutionEvent.Step> steps = execution.steps();
        long threshold = Long.decode(options.getOrDefault("cycle-threshold", "100"));
        long decoded = 0;
        long cycleTotal = 0;
        int timestampCount = 0;
        for (TraceElement e : got) {
            assertThat(e).isNotInstanceOf(Gap.class);
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    assertThat(r.addressOf(i)).isEqualTo(steps.get((int) decoded).address());
                    decoded++;
                }
            } else if (e instanceof io.armtrace.trace.InstructionCount c) {
                decoded += c.count();
            } else if (e instanceof Timestamp t) {
                // the encoder's clock is the instructions executed: a timestamp comes where trace (re)starts, when
                // every instruction before it has been given
                assertThat(t.value()).as("timestamp %d", timestampCount).isEqualTo(decoded);
                cycleTotal += t.cycles();
                timestampCount++;
            } else if (e instanceof CycleCount c) {
                assertThat(c.cycles()).isBetween(threshold, 4095L);
                cycleTotal += c.cycles();
            } else if (e instanceof Context c && options.containsKey("context-id")) {
                assertThat(c.contextId()).isEqualTo(Long.decode(options.get("context-id")));
                assertThat(c.vmid()).isEqualTo(Long.decode(options.get("vmid")));
            }
        }
        assertThat(decoded).isEqualTo(steps.size());
        assertThat(timestampCount).isPositive();
        // one cycle an instruction: the counts never add up to more than the instructions
        assertThat(cycleTotal).isLessThanOrEqualTo(steps.size()).isPositive();
    }
}
