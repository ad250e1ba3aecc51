package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.InstructionRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * armtrace's decode of juno_r1_1 against Arm DS-5's instruction-level decode of the same trace
 * (conformance/etm4/juno_r1_1/ds-5-dumps), instruction for instruction and in order. DS-5 (2015) leaves out
 * the straight-line instructions that run from the last traced branch target up to each exception return
 * (it prints "Return from exception" after the instruction before them): every instruction armtrace gives
 * that DS-5 does not must belong to such a run, which ends at an ERET; everything else is the same.
 */
class Etm4Ds5Test {
    private static final Pattern ROW = Pattern.compile("^EL\\d[NS]:0x([0-9A-Fa-f]+)\\t([0-9A-Fa-f]{8})\\t");
    private static final long ERET = 0xD69F03E0L;

    @ParameterizedTest(name = "source 0x{0}")
    @CsvSource({
        // trace ID, DS-5 report, instructions DS-5 lists, instructions in runs before an ERET it leaves out, runs
        "11, Trace_Report_0x11_cpu_1_2015Sep17_104748.txt, 216, 9, 1",
        "13, Trace_Report_0x13_cpu_3_2015Sep17_104147.txt, 333, 9, 1",
    })
    void sameInstructionsAsDs5(String id, String report, int listed, int omitted, int runs) throws IOException {
        Path dir = SharedData.dir("etm4/juno_r1_1");
        int traceId = Integer.parseInt(id, 16);
        List<Long> ds5 = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("ds-5-dumps/" + report))) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                ds5.add(Long.parseUnsignedLong(m.group(1), 16));
            }
        }
        Snapshot snap = Snapshot.load(dir);
        SnapshotSource src = snap.source(traceId).orElseThrow();
        TraceProtocol p = Protocols.forDeviceType(src.type()).orElseThrow();
        List<Long> ours = new ArrayList<>();
        p.decode(new DecodeInput(traceId, src.registers(), src.image(), src.data(), DecodeOptions.DEFAULT), e -> {
            if (e instanceof InstructionRange r) {
                for (int i = 0; i < r.count(); i++) {
                    ours.add(r.addressOf(i));
                }
            }
        });
        MemoryImage mem = src.image().memory();
        int i = 0;
        int j = 0;
        int extra = 0;
        int extraRuns = 0;
        List<String> problems = new ArrayList<>();
        while (i < ours.size() && j < ds5.size() && problems.size() < 10) {
            if (ours.get(i).equals(ds5.get(j))) {
                i++;
                j++;
                continue;
            }
            // a run DS-5 leaves out: straight-line code ending at an ERET
            int k = i;
            while (k < ours.size() && mem.u32(ours.get(k)) != ERET
                    && (k == i || ours.get(k) == ours.get(k - 1) + 4)) {
                k++;
            }
            if (k < ours.size() && mem.u32(ours.get(k)) == ERET && (k == i || ours.get(k) == ours.get(k - 1) + 4)) {
                extra += k - i + 1;
                extraRuns++;
                i = k + 1;
            } else {
                problems.add(String.format("instruction %d: armtrace 0x%x, DS-5 (row %d) 0x%x", i, ours.get(i), j,
                        ds5.get(j)));
                break;
            }
        }
        while (i < ours.size() && j == ds5.size() && problems.isEmpty()) {
            problems.add(String.format("armtrace has %d instructions more at the end, from 0x%x", ours.size() - i,
                    ours.get(i)));
            break;
        }
        if (j < ds5.size() && problems.isEmpty()) {
            problems.add(String.format("DS-5 has %d instructions more at the end, from 0x%x", ds5.size() - j, ds5.get(j)));
        }
        assertThat(problems).as("armtrace against DS-5").isEmpty();
        assertThat(ds5.size()).as("instructions DS-5 lists").isEqualTo(listed);
        assertThat(extra).as("instructions before an ERET that DS-5 leaves out").isEqualTo(omitted);
        assertThat(extraRuns).as("runs ending at an ERET that DS-5 leaves out").isEqualTo(runs);
    }
}
