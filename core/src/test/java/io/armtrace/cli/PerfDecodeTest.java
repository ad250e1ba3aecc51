package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code armtrace decode RECORDING}: the recording's trace decoded per CPU, each AUX fragment from a reset,
 * must give the elements that the decode of the OpenCSD snapshot {@code convert} writes gives (one buffer per
 * CPU, decoded without breaks), but for what the break itself brings: the gap where the recording says AUX
 * data was lost, the resynchronization after it, and byte offsets (a recording's count the AUX bytes as
 * recorded, a snapshot's the trace bytes after deformatting).
 */
class PerfDecodeTest {
    @TempDir
    Path dir;

    private static List<String> withoutOffsets(String jsonl) {
        List<String> out = new ArrayList<>();
        for (String line : jsonl.split("\n")) {
            if (!line.isEmpty()) {
                out.add(line.replaceAll(",\"offset\":[0-9]+", ""));
            }
        }
        return out;
    }

    @Test
    void theRecordingDecodesAsTheSnapshotConvertWritesOfIt() throws Exception {
        Path snap = dir.resolve("snap");
        CliTest.Result c = CliTest.run("convert", PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata", "--snapshot-out", snap.toString());
        assertThat(c.exit()).as(c.err()).isZero();
        CliTest.Result fromSnapshot = CliTest.run("decode", snap.toString(), "--format", "jsonl");
        assertThat(fromSnapshot.exit()).as(fromSnapshot.err()).isZero();
        CliTest.Result fromRecording = CliTest.run("decode", PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata", "--format", "jsonl");
        assertThat(fromRecording.exit()).as(fromRecording.err()).isZero();

        List<String> theirs = withoutOffsets(fromSnapshot.out());
        List<String> ours = withoutOffsets(fromRecording.out());
        // a recording's instructions say which thread ran them, where and when (a snapshot knows none of it)
        assertThat(ours.stream().filter(l -> l.startsWith("{\"type\":\"insn\"")))
                .allMatch(l -> l.matches(".*,\"pid\":-?[0-9]+,\"tid\":-?[0-9]+,\"cpu\":[0-9]+,\"time\":[0-9]+}"));
        ours.replaceAll(l -> l.replaceAll(",\"pid\":-?[0-9]+,\"tid\":-?[0-9]+,\"cpu\":[0-9]+(,\"time\":[0-9]+)?", ""));
        // CPU 6's two AUX fragments: after the first, the AUX record says the buffer was full (data lost)
        int gap = ours.indexOf("{\"type\":\"gap\",\"src\":28,\"reason\":\"trace break: AUX data lost: buffer full (AUX record flag truncated)\"}");
        assertThat(gap).as("the break between CPU 6's AUX buffers").isPositive();
        assertThat(ours.get(gap + 1)).isEqualTo("{\"type\":\"trace_on\",\"src\":28,\"reason\":\"sync\"}");
        List<String> joined = new ArrayList<>(ours);
        joined.remove(gap + 1);
        joined.remove(gap);
        assertThat(joined).containsExactlyElementsOf(theirs);
        assertThat(ours.stream().filter(l -> l.contains("\"type\":\"gap\"") && l.contains("trace break"))).hasSize(1);

        // real instructions from the module found in --symdir, and no_image elements for the kernel not given
        assertThat(ours.stream().filter(l -> l.startsWith("{\"type\":\"insn\"")).count()).isEqualTo(46);
        assertThat(ours.stream().filter(l -> l.startsWith("{\"type\":\"no_image\""))).isNotEmpty();
        // the binaries not found are named on standard error, each once
        assertThat(fromRecording.err()).contains("/vendor/lib/modules/incrementalfs.ko was not found");
        assertThat(fromRecording.err().split("incrementalfs.ko", -1)).hasSize(2);
        assertThat(fromRecording.err()).contains("more mapped binaries were not found");
    }

    /** The README's profile command on the real recording: CPU 6's 46 instructions (the decode's above) in 9 ranges. */
    @Test
    void theProfileOfTheRecording() {
        CliTest.Result r = CliTest.run("profile", PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("# CPU 6 (ETM4, trace ID 0x1c)\n46 instructions in 9 ranges\n");
    }

    @Test
    void withoutItsModuleTheTraceGivesNoImageElementsOnly() {
        CliTest.Result r = CliTest.run("decode", PerfDataCliTest.KERNEL, "--format", "jsonl");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("\"type\":\"insn\"").contains("\"type\":\"no_image\"");
        assertThat(r.err()).contains("more mapped binaries were not found");
    }

    @Test
    void aRecordingWhoseAuxDataWasAllLostIsOneSentence() {
        Path file = Path.of("conformance/perfdata/perf_with_missing_aux_data.data");
        assertThat(Files.isRegularFile(file)).isTrue();
        UserErrorsTest.assertMistake(CliTest.run("decode", file.toString()), file.toString(), "no AUX trace data");
    }

    @Test
    void aRecordingOpensAsASourcePerCpuWithItsAuxFragmentsAsSegments() {
        Path kernel = Path.of(PerfDataCliTest.KERNEL);
        List<Path> symdirs = List.of(Path.of("conformance/perfdata"));
        List<String> warnings = new ArrayList<>();
        io.armtrace.api.Decoder d = io.armtrace.api.Decoder.openRecording(kernel, symdirs,
                io.armtrace.api.DecodeOptions.builder().warnings(warnings::add).build());
        assertThat(d.sources()).extracting(io.armtrace.api.TraceSource::label)
                .containsExactly("CPU 0 (ETM4, trace ID 0x10)", "CPU 6 (ETM4, trace ID 0x1c)");
        // as `armtrace info` lists them: CPU 0 one fragment, CPU 6 two, the first ending where the buffer was full
        assertThat(d.sources().get(0).segments().segments()).hasSize(1);
        assertThat(d.sources().get(1).segments().segments())
                .extracting(io.armtrace.source.TraceSegments.Segment::offset, io.armtrace.source.TraceSegments.Segment::breakReason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, null),
                        org.assertj.core.groups.Tuple.tuple(16368L, "AUX data lost: buffer full (AUX record flag truncated)"));
        assertThat(d.sources().get(1).input().data().storedBytes()).isEqualTo(22832);
        // the kernel's own code is not given (--vmlinux), and 344 modules are not in the symdir: five named, then the count
        assertThat(warnings).hasSize(7).allMatch(w -> w.startsWith(kernel.toString()));
        assertThat(warnings.get(0)).isEqualTo(kernel + ": the kernel's code ([kernel.kallsyms]_stext) was not given (give --vmlinux FILE,"
                + " the kernel's ELF file); its code gives no_image elements.");
        assertThat(warnings.get(6)).startsWith(kernel + ": 339 more mapped binaries were not found");

        io.armtrace.api.Decoder one = io.armtrace.api.Decoder.openRecording(kernel, symdirs,
                io.armtrace.api.DecodeOptions.builder().source(0x1c).build());
        assertThat(one.sources()).hasSize(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.armtrace.api.Decoder.openRecording(kernel, symdirs,
                        io.armtrace.api.DecodeOptions.builder().source(0x33).build()))
                .isInstanceOf(io.armtrace.source.InputException.class)
                .hasMessage(kernel + ": has no CPU trace with ID 0x33.");
    }
}
