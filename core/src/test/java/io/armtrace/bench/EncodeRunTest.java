package io.armtrace.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's large-footprint inputs are made by {@link VsOpenCsd#encodeRun}: a QEMU plugin log, cut into
 * pieces, each encoded as PTM and ETMv3. Here the log is the Linux Thumb-2 ground-truth program's (its
 * recorded steps written as the plugin writes them), and the traces must decode back to that run.
 */
class EncodeRunTest {
    private static final String NAME = "linux-thumb";
    private static final int PIECE = 5000;

    @TempDir
    Path dir;

    @Test
    void piecesDecodeToTheWholeRunAndTheFootprintIsTheRunsCode() throws IOException {
        Execution run = Corpus.execution(NAME);
        int steps = run.steps().size();
        Path elf = dir.resolve(NAME + ".elf");
        Files.write(elf, Corpus.elfBytes(NAME));
        VsOpenCsd.encodeRun(pluginLog(run, Corpus.image(NAME).memory()), dir, elf, "Cortex-A15", "gt", Long.MAX_VALUE, PIECE, false);

        // ETMv3 states every instruction, so the trace gives back the run's count exactly; PTM cannot state
        // the instructions of a piece after its last waypoint, at most a block per piece
        int pieces = (steps + PIECE - 1) / PIECE;
        assertThat(decodedInstructions(dir.resolve("gt-etm3"))).isEqualTo(steps);
        assertThat(decodedInstructions(dir.resolve("gt-ptm"))).isLessThanOrEqualTo(steps)
                .isGreaterThan(steps - 200L * pieces);

        Set<Long> code = new HashSet<>();
        for (ExecutionEvent.Step s : run.steps()) {
            for (int i = 0; i < s.size(); i++) {
                code.add(s.address() + i);
            }
        }
        for (String p : new String[] {"ptm", "etm3"}) {
            String facts = Files.readString(dir.resolve("gt-" + p).resolve("input.txt"));
            assertThat(facts).contains(steps + " instructions, " + code.size() + " bytes of distinct code executed");
            assertThat(dir.resolve("gt-" + p).resolve("opencsd.args")).exists();
        }
    }

    @Test
    void sameRunEncodesTheSameInstructionsUntilThePtmTraceReachesTheSize() throws IOException {
        Execution run = Corpus.execution(NAME);
        Path elf = dir.resolve(NAME + ".elf");
        Files.write(elf, Corpus.elfBytes(NAME));
        VsOpenCsd.encodeRun(pluginLog(run, Corpus.image(NAME).memory()), dir, elf, "Cortex-A15", "gt", 3000, PIECE, true);
        long ptm = Files.size(dir.resolve("gt-ptm").resolve("trace_0.bin"));
        long etm3 = Files.size(dir.resolve("gt-etm3").resolve("trace_0.bin"));
        assertThat(ptm).isGreaterThanOrEqualTo(3000);
        // ETMv3 states every instruction: its trace is the larger one, and holds the pieces PTM's does
        assertThat(etm3).isGreaterThan(ptm);
        long insns = decodedInstructions(dir.resolve("gt-etm3"));
        assertThat(insns).isLessThan(run.steps().size()).isPositive();
        for (String p : new String[] {"ptm", "etm3"}) {
            assertThat(Files.readString(dir.resolve("gt-" + p).resolve("input.txt"))).contains(": " + insns + " instructions, ");
        }
    }

    @Test
    void eachTraceStopsAtTheFirstPieceThatReachesTheSize() throws IOException {
        Execution run = Corpus.execution(NAME);
        Path elf = dir.resolve(NAME + ".elf");
        Files.write(elf, Corpus.elfBytes(NAME));
        VsOpenCsd.encodeRun(pluginLog(run, Corpus.image(NAME).memory()), dir, elf, "Cortex-A15", "gt", 3000, PIECE, false);
        for (String p : new String[] {"ptm", "etm3"}) {
            long size = Files.size(dir.resolve("gt-" + p).resolve("trace_0.bin"));
            long insns = decodedInstructions(dir.resolve("gt-" + p));
            assertThat(size).as(p).isGreaterThanOrEqualTo(3000);
            // fewer pieces than the whole run: the trace stopped growing once it was large enough
            assertThat(insns).as(p).isLessThan(run.steps().size()).isPositive();
        }
    }

    /** The run as tools/groundtruth/pctrace.c logs it: {@code I <pc> <size> <bytes in memory order>}. */
    private static InputStream pluginLog(Execution run, MemoryImage memory) {
        StringBuilder log = new StringBuilder();
        byte[] b = new byte[4];
        for (ExecutionEvent.Step s : run.steps()) {
            memory.read(s.address(), b, 0, s.size());
            log.append(String.format("I %08x %d ", s.address(), s.size()));
            for (int i = 0; i < s.size(); i++) {
                log.append(String.format("%02x", b[i] & 0xff));
            }
            log.append('\n');
        }
        return new ByteArrayInputStream(log.toString().getBytes(StandardCharsets.US_ASCII));
    }

    private static long decodedInstructions(Path snapshot) throws IOException {
        SnapshotSource s = Snapshot.load(snapshot).sources().get(0);
        TraceProtocol protocol = Protocols.all().stream().filter(p -> p.handlesDeviceType(s.type())).findFirst()
                .orElseThrow();
        VsOpenCsd.Counts counts = new VsOpenCsd.Counts();
        protocol.decode(new DecodeInput(s.traceId(), s.registers(), s.image(), s.data(), DecodeOptions.DEFAULT), counts);
        return counts.instructions;
    }
}
