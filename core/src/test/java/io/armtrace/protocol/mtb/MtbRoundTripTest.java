package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Encode a ground-truth execution (QEMU runs of a Cortex-M0+ and a Cortex-M3 program with SysTick and
 * SVC exceptions) into an MTB buffer, decode it, and compare with what the MTB rule says the buffer
 * must give back ({@link MtbReference}): exactly the executed instructions of the newest packets that
 * fit, stretch by stretch.
 */
class MtbRoundTripTest {
    static final int[] SIZES = {64, 128, 256, 512, 1024, 2048, 4096};

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String name : Fixtures.names()) {
            for (int size : SIZES) {
                out.add(Arguments.of(name, size));
            }
        }
        return out.stream();
    }

    /**
     * Halt points: early (buffer not wrapped for the larger sizes), middle, the end of the run, and
     * right before the first exception entry and the first tail-chained one (an entry straight after
     * the handler's last instruction, with the preferred return of the exception it replaces): the
     * core stops after the instruction before them.
     */
    private static long[] haltPoints(Execution ex) {
        long n = ex.steps().size();
        long firstEntry = 0;
        long firstTailChain = 0;
        long steps = 0;
        java.util.ArrayDeque<Long> active = new java.util.ArrayDeque<>();
        ExecutionEvent previous = null;
        for (ExecutionEvent e : ex.events()) {
            if (e instanceof ExecutionEvent.Step) {
                steps++;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                if (firstEntry == 0) {
                    firstEntry = steps;
                }
                boolean tailChain = previous instanceof ExecutionEvent.Step && !active.isEmpty()
                        && active.peek() == x.preferredReturn();
                if (tailChain && firstTailChain == 0) {
                    firstTailChain = steps;
                }
                if (!tailChain) {
                    active.push(x.preferredReturn());
                }
            } else if (e instanceof ExecutionEvent.ExceptionReturned) {
                active.poll();
            }
            previous = e;
        }
        return new long[] {40, 300, 2500, n / 3, n / 2 + 7, 0, firstEntry, firstTailChain};
    }

    @ParameterizedTest(name = "{0} buffer {1} bytes")
    @MethodSource("cases")
    void haltsAnywhereWrappedOrNot(String name, int size) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        boolean sawWrapped = false;
        boolean sawUnwrapped = false;
        for (long halt : haltPoints(ex)) {
            for (boolean pc : new boolean[] {false, true}) {
                MtbEncoder.Options o = MtbEncoder.Options.ofSize(size).withHaltAfter(halt).withPc(pc);
                MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
                sawWrapped |= (r.position() & 4) != 0;
                sawUnwrapped |= (r.position() & 4) == 0;
                check(ex, image, o, r, r.registers(), r.sram());
            }
        }
        assertThat(sawWrapped).isTrue();
        if (size >= 2048) {
            assertThat(sawUnwrapped).isTrue();
        }
    }

    @ParameterizedTest(name = "{0} buffer {1} bytes")
    @MethodSource("cases")
    void startStopWindows(String name, int size) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        List<ExecutionEvent.Step> steps = ex.steps();
        // handler entries as TSTART/TSTOP comparators, and addresses picked from the run itself
        long systick = image.symbols().find("SysTick_Handler").address();
        long svc = image.symbols().find("SVC_Handler").address();

        SplittableRandom rnd = new SplittableRandom(size * 31L + name.length());
        List<long[][]> windows = new ArrayList<>();
        windows.add(new long[][] {{systick}, {svc}});
        windows.add(new long[][] {{svc}, {systick}});
        for (int k = 0; k < 2; k++) {
            long[] starts = new long[1 + rnd.nextInt(3)];
            long[] stops = new long[1 + rnd.nextInt(3)];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = steps.get(rnd.nextInt(steps.size())).address();
            }
            for (int i = 0; i < stops.length; i++) {
                stops[i] = steps.get(rnd.nextInt(steps.size())).address();
            }
            windows.add(new long[][] {starts, stops});
        }
        int restarts = 0;
        for (long[][] w : windows) {
            for (long halt : new long[] {0, steps.size() / 2}) {
                MtbEncoder.Options o = MtbEncoder.Options.ofSize(size).withWindows(w[0], w[1]).withHaltAfter(halt);
                MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
                restarts += check(ex, image, o, r, r.registers(), r.sram());
            }
        }
        // the windows above are drawn at random: for the corpus's own programs they are known to restart
        // trace inside buffers of 256 bytes and more; for other programs they may happen not to
        if (size >= 256 && io.armtrace.groundtruth.Corpus.names().contains(name)) {
            assertThat(restarts).as("stretches after a trace restart").isPositive();
        }
    }

    @ParameterizedTest(name = "{0} buffer {1} bytes")
    @MethodSource("cases")
    void bufferInsideLargerSram(String name, int size) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        long sram = Math.max(16384, size * 4L);
        long halt = ex.steps().size() / 2 + 3;
        for (long offset : new long[] {0, size, sram - size}) {
            for (int bits : new int[] {32, 15}) {
                MtbEncoder.Options o = MtbEncoder.Options.ofSize(size).withHaltAfter(halt)
                        .inSram(sram, offset, bits, 0x5eed + offset);
                MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
                assertThat(r.sram()).hasSize((int) sram);
                check(ex, image, o, r, r.registers(), r.sram());
                // the same dump read without BASE, as from a bus address aligned to the SRAM size
                Registers noBase = new Registers().put("POSITION", r.position()).put("MASTER", r.master());
                check(ex, image, o, r, noBase, r.sram());
            }
        }
    }

    @ParameterizedTest(name = "{0} buffer {1} bytes")
    @MethodSource("cases")
    void watermarkStopsTraceForGood(String name, int size) throws IOException {
        Execution ex = Fixtures.execution(name);
        ProgramImage image = Fixtures.image(name);
        long svc = image.symbols().find("SVC_Handler").address();
        for (long[] start : new long[][] {{}, {svc}}) {
            MtbEncoder.Options o = MtbEncoder.Options.ofSize(size).withWatermark(size / 2)
                    .withWindows(start, new long[0]).withHaltAfter(ex.steps().size() / 2);
            MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
            assertThat(r.flow()).isPresent();
            if (start.length == 0) {
                assertThat(r.master() >>> 31).as("EN cleared by AUTOSTOP").isZero();
                assertThat(r.position() & ~7L & (size - 1)).isEqualTo(size / 2);
            }
            check(ex, image, o, r, r.registers(), r.sram());
        }
    }

    /** Decodes and compares; returns the number of stretches that start after a trace restart. */
    static int check(Execution ex, ProgramImage image, MtbEncoder.Options o, MtbEncoder.Result r, Registers regs,
                     byte[] dump) throws IOException {
        MtbReference ref = MtbReference.of(ex, image, o.bufferSize() / 8, o.tstart(), o.tstop(), o.haltAfter(),
                regs.has("PC"), (int) (o.watermark() / 8));
        ElementCollector out = new ElementCollector();
        new MtbProtocol().decode(new DecodeInput(0, regs, image, TraceData.of("mtb.bin", dump), DecodeOptions.DEFAULT),
                out);
        String what = String.format("size %d halt %d window %s/%s pc %s", o.bufferSize(), o.haltAfter(),
                java.util.Arrays.toString(o.tstart()), java.util.Arrays.toString(o.tstop()), regs.has("PC"));
        assertThat(out.elements()).as(what).noneMatch(e -> e instanceof DecodeError || e instanceof NoImage
                || e instanceof Gap);
        assertThat(r.bufferPackets()).as(what).isEqualTo(ref.keptPackets);
        assertThat(expand(out.elements(), image.memory())).as(what).isEqualTo(ref.addresses);
        List<TraceOn> ons = out.ofType(TraceOn.class);
        assertThat(ons).as(what).hasSize(ref.stretches.size());
        return (int) ons.stream().filter(t -> t.reason() == TraceOn.Reason.TRACE_ENABLED).count();
    }

    /** Instruction addresses of the ranges, sizes from the image's first halfwords. */
    static List<Long> expand(List<TraceElement> elements, MemoryImage m) {
        List<Long> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                long a = r.start();
                for (int i = 0; i < r.count(); i++) {
                    out.add(a);
                    int hw = m.u16(a);
                    a += (hw >>> 11) >= 0x1D ? 4 : 2;
                }
                assertThat(a).isEqualTo(r.end());
            }
        }
        return out;
    }
}
