package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.groundtruth.Corpus;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Timestamp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The M-profile encoding against OpenCSD's decoder. {@code opencsd-1.3.3-encoded/m33.bin} is the encoder's ETMv4
 * trace of the corpus's Cortex-M33 program ({@code armtrace encode --protocol etm4}, core Cortex-M33), and
 * {@code m33.decode.gz} the element lines of Debian's {@code trc_pkt_lister -decode} (libopencsd 1.3.3) on that
 * snapshot; {@code m33-rs} is the same with the return stack and {@code m33-cc-ts} with cycle counts (threshold 7) and
 * timestamps. {@code tools/opencsd-check/etm4-encode-m.sh} also checks them against QEMU's record.
 *
 * <p>armtrace's decode of the trace gives OpenCSD's instruction ranges (start, end, instructions, E or N), its
 * exceptions (number and preferred return address), its exception returns and its timestamps and cycle counts,
 * in order. One difference, left
 * out and counted: OpenCSD 1.3.3 does not know M-profile tail-chaining, so for an Exception packet whose address
 * is 0xFFFFFFFE it walks from the handler's return instruction towards that address and gives a range of
 * instructions that did not run, then ADDR_NACC where the image ends; armtrace gives no range there. And where
 * OpenCSD gives that exception with the address 0xFFFFFFFE, armtrace gives an exception return whose target is
 * unknown (the handler's return went straight into the next exception) and the exception without a return
 * address: the one it replaces returns there, and the trace does not repeat it.
 */
class Etm4MOpenCsdTest {
    private static final Pattern RANGE = Pattern.compile("^Idx:(\\d+);.*OCSD_GEN_TRC_ELEM_INSTR_RANGE\\(exec range="
            + "0x(\\p{XDigit}+):\\[0x(\\p{XDigit}+)\\] num_i\\((\\d+)\\) last_sz\\(\\d+\\) \\(ISA=T32\\) ([EN])");
    private static final Pattern TIMESTAMP = Pattern.compile("OCSD_GEN_TRC_ELEM_TIMESTAMP\\( \\[ TS=0x(\\p{XDigit}+)\\];\\s*\\[CC=(\\d+)\\]");
    private static final Pattern CYCLES = Pattern.compile("OCSD_GEN_TRC_ELEM_CYCLE_COUNT\\( \\[CC=(\\d+)\\]");
    private static final Pattern EXCEPTION = Pattern.compile("^Idx:(\\d+);.*OCSD_GEN_TRC_ELEM_EXCEPTION\\("
            + "pref ret addr:0x(\\p{XDigit}+)[^;]*; excep num \\(0x(\\p{XDigit}+)\\)");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "m33, ''",
        "m33-rs, return-stack=on",
        "m33-cc-ts, cycle-accurate=on cycle-threshold=7 timestamps=on",
    })
    void sameRangesExceptionsAndReturnsAsOpenCsd(String name, String optionText) throws IOException {
        Path dir = Path.of("src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3-encoded");
        if (!Files.isDirectory(dir)) {
            dir = Path.of("core").resolve(dir);
        }
        byte[] trace = Files.readAllBytes(dir.resolve(name + ".bin"));
        Map<String, String> options = new HashMap<>(Map.of("profile", "M", "security", "secure"));
        for (String o : optionText.split(" ")) {
            if (!o.isEmpty()) {
                options.put(o.substring(0, o.indexOf('=')), o.substring(o.indexOf('=') + 1));
            }
        }
        Etm4Protocol p = new Etm4Protocol(false);
        assertThat(p.encode(Corpus.execution("m33"), Corpus.image("m33"), options).trace())
                .as("the stored trace is what the encoder writes").isEqualTo(trace);

        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(dir.resolve(name + ".decode.gz"))), StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                lines.add(line);
            }
        }
        Set<String> tailChainPackets = new HashSet<>();
        for (String line : lines) {
            Matcher m = EXCEPTION.matcher(line);
            if (m.find() && m.group(2).equalsIgnoreCase("fffffffe")) {
                tailChainPackets.add(m.group(1));
            }
        }
        List<String> want = new ArrayList<>();
        int leftOut = 0;
        for (String line : lines) {
            Matcher m = RANGE.matcher(line);
            if (m.find()) {
                if (tailChainPackets.contains(m.group(1))) {
                    leftOut++;
                    continue;
                }
                want.add("range " + m.group(2) + "-" + m.group(3) + " " + m.group(4) + " " + m.group(5));
                continue;
            }
            m = EXCEPTION.matcher(line);
            if (m.find()) {
                if (m.group(2).equalsIgnoreCase("fffffffe")) {
                    // armtrace: the handler's return (target unknown), then the exception without a return address
                    want.add("return");
                    want.add("exception " + Integer.parseInt(m.group(3), 16) + " -");
                } else {
                    want.add("exception " + Integer.parseInt(m.group(3), 16) + " " + m.group(2));
                }
            } else if (line.contains("OCSD_GEN_TRC_ELEM_EXCEPTION_RET")) {
                want.add("return");
            } else if ((m = TIMESTAMP.matcher(line)).find()) {
                want.add("timestamp " + Long.parseLong(m.group(1), 16) + " " + m.group(2));
            } else if ((m = CYCLES.matcher(line)).find()) {
                want.add("cycles " + m.group(1));
            } else if (line.contains("OCSD_GEN_TRC_ELEM_ADDR_NACC")) {
                Matcher idx = Pattern.compile("^Idx:(\\d+);").matcher(line);
                assertThat(idx.find() && tailChainPackets.contains(idx.group(1)))
                        .as("OpenCSD finds no code only where it walks towards a tail chain: %s", line).isTrue();
            }
        }
        assertThat(tailChainPackets).hasSize(5);
        assertThat(leftOut).isEqualTo(5);

        Registers regs = new Registers().putAll(p.encode(Corpus.execution("m33"), Corpus.image("m33"), options).registers())
                .putAll(p.registersForCore("Cortex-M33"));
        List<String> have = new ArrayList<>();
        p.decode(new DecodeInput(-1, regs, Corpus.image("m33"), TraceData.of("m33", trace), DecodeOptions.DEFAULT), e -> {
            if (e instanceof InstructionRange r) {
                have.add("range " + Long.toHexString(r.start()) + "-" + Long.toHexString(r.end()) + " " + r.count() + " "
                        + (r.lastExecuted() ? "E" : "N"));
            } else if (e instanceof ExceptionEntry x) {
                have.add("exception " + x.number() + " " + (x.preferredReturn() == -1 ? "-" : Long.toHexString(x.preferredReturn())));
            } else if (e instanceof ExceptionReturn) {
                have.add("return");
            } else if (e instanceof Timestamp t) {
                have.add("timestamp " + t.value() + " " + Math.max(0, t.cycles()));
            } else if (e instanceof CycleCount c) {
                have.add("cycles " + c.cycles());
            }
        });
        assertThat(want).hasSizeGreaterThan(16_000);
        assertThat(have).isEqualTo(want);
    }
}
