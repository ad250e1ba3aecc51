package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Registers;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceOn;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** decode(encode(execution)) gives back exactly the executed instructions, for every version and port. */
class Etm2RoundTripTest {

    static List<SyntheticProgram.Insn> decode(byte[] capture, Etm2Config cfg, SyntheticProgram p) {
        ElementCollector c = new ElementCollector();
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        Etm2Protocol.decode(capture, regs, p.image, c);
        assertThat(c.ofType(Gap.class)).isEmpty();
        return SyntheticProgram.expand(c.elements());
    }

    @ParameterizedTest
    @CsvSource({"1,4", "1,8", "1,16", "2,4", "2,8", "2,16"})
    void exactForEveryPortWidthAndVersion(int version, int width) {
        for (long seed = 1; seed <= 6; seed++) {
            SyntheticProgram p = new SyntheticProgram(seed * 31 + width, 4000);
            Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
            byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withSyncPeriod(200));
            List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(p.execution);
            List<SyntheticProgram.Insn> got = decode(capture, cfg, p);
            assertThat(got).as("seed %d", seed).hasSameSizeAs(expected);
            assertThat(got).as("seed %d", seed).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @CsvSource({"1,4,cycles", "1,8,csv", "1,16,etb", "2,4,etb", "2,8,etb", "2,16,csv", "1,8,etb", "2,4,csv"})
    void everyCaptureFormat(int version, int width, String format) {
        SyntheticProgram p = new SyntheticProgram(77 + width, 3000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        Etm2Capture.Format f = switch (format) {
            case "csv" -> Etm2Capture.Format.CSV;
            case "etb" -> Etm2Capture.Format.ETB;
            default -> Etm2Capture.Format.CYCLES;
        };
        byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withFormat(f));
        assertThat(decode(capture, cfg, p)).isEqualTo(SyntheticProgram.steps(p.execution));
    }

    @ParameterizedTest
    @CsvSource({"1,8,false", "2,8,false", "2,16,true", "1,4,true", "2,4,false"})
    void branchOutputFullAddressAndDroppedIdleCycles(int version, int width, boolean full) {
        SyntheticProgram p = new SyntheticProgram(5 + width, 3000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width).withBranchOutput(true)
                .withCycleAccurate(version == 2);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withFullAddress(full));
        assertThat(decode(capture, cfg, p)).isEqualTo(SyntheticProgram.steps(p.execution));
    }

    @ParameterizedTest
    @CsvSource({"1,4", "1,8", "1,16", "2,4", "2,8", "2,16"})
    void triggerHoldsTheFifoForACycleAndIsReported(int version, int width) {
        SyntheticProgram p = new SyntheticProgram(60 + width, 3000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        for (long at : new long[] {3, 500, 1777}) {
            byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withTrigger(at));
            ElementCollector c = new ElementCollector();
            Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
            Etm2Protocol.decode(capture, regs, p.image, c);
            assertThat(c.ofType(io.armtrace.trace.Trigger.class)).as("trigger at %d", at).hasSize(1);
            assertThat(c.ofType(io.armtrace.trace.Trigger.class).get(0).offset()).isGreaterThanOrEqualTo(at);
            assertThat(SyntheticProgram.expand(c.elements())).isEqualTo(SyntheticProgram.steps(p.execution));
        }
    }

    @ParameterizedTest
    @CsvSource({"4", "8", "16"})
    void branchPhantomsOfFoldedBranches(int width) {
        SyntheticProgram p = new SyntheticProgram(70 + width, 4000);
        Etm2Config cfg = Etm2Config.DEFAULT.withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image,
                Etm2Encoder.Options.of(cfg).withBranchFolding(true));
        int phantoms = 0;
        for (int k = Etm2Capture.HEADER; k < capture.length; k += Etm2Capture.RECORD) {
            if ((capture[k] & 8) != 0) {
                phantoms++;
            }
        }
        assertThat(phantoms).isGreaterThan(50);
        assertThat(decode(capture, cfg, p)).isEqualTo(SyntheticProgram.steps(p.execution));
    }

    /**
     * Without stalling, a small FIFO on a narrow port overflows: trace is lost until it drains and restarts
     * with reason b10 (IHI 0014Q Table 6.7). Every stretch between restarts is exact.
     */
    @ParameterizedTest
    @CsvSource({"1,4", "2,4", "1,8", "2,8"})
    void fifoOverflowLosesTraceThenRestarts(int version, int width) {
        SyntheticProgram p = new SyntheticProgram(40 + width, 6000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image,
                Etm2Encoder.Options.of(cfg).withSyncPeriod(300).withFifo(4, false));
        ElementCollector c = new ElementCollector();
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        Etm2Protocol.decode(capture, regs, p.image, c);
        long overflows = c.ofType(TraceOn.class).stream().filter(t -> t.reason() == TraceOn.Reason.OVERFLOW).count();
        assertThat(overflows).isGreaterThan(3);
        // split the decode at each TraceOn; each stretch is a contiguous part of the execution, in order
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(p.execution);
        java.util.List<io.armtrace.trace.TraceElement> stretch = new java.util.ArrayList<>();
        int from = 0;
        int decoded = 0;
        java.util.List<io.armtrace.trace.TraceElement> all = new java.util.ArrayList<>(c.elements());
        all.add(new TraceOn(0, TraceOn.Reason.SYNC, -1));
        for (io.armtrace.trace.TraceElement e : all) {
            if (e instanceof TraceOn) {
                List<SyntheticProgram.Insn> got = SyntheticProgram.expand(stretch);
                if (!got.isEmpty()) {
                    int at = java.util.Collections.indexOfSubList(expected.subList(from, expected.size()), got);
                    assertThat(at).as("stretch of %d instructions after %d", got.size(), from).isGreaterThanOrEqualTo(0);
                    from += at + got.size();
                    decoded += got.size();
                }
                stretch.clear();
            } else {
                stretch.add(e);
            }
        }
        assertThat(decoded).isGreaterThan(100).isLessThan(expected.size());
    }

    /** Decoding from an arbitrary cycle is exact from the next sync point on: a suffix of the execution. */
    @ParameterizedTest
    @CsvSource({"1,4", "1,8", "1,16", "2,4", "2,8", "2,16"})
    void startAtAnArbitraryCycle(int version, int width) {
        SyntheticProgram p = new SyntheticProgram(900 + width, 5000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withSyncPeriod(300));
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(p.execution);
        int cycles = (capture.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
        java.util.Random rnd = new java.util.Random(version * 100 + width);
        for (int t = 0; t < 12; t++) {
            int cut = 1 + rnd.nextInt(cycles / 2);
            byte[] tail = new byte[Etm2Capture.HEADER + (cycles - cut) * Etm2Capture.RECORD];
            System.arraycopy(capture, 0, tail, 0, Etm2Capture.HEADER);
            System.arraycopy(capture, Etm2Capture.HEADER + cut * Etm2Capture.RECORD, tail, Etm2Capture.HEADER,
                    tail.length - Etm2Capture.HEADER);
            ElementCollector c = new ElementCollector();
            Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
            Etm2Protocol.decode(tail, regs, p.image, c);
            List<SyntheticProgram.Insn> got = SyntheticProgram.expand(c.elements());
            assertThat(c.ofType(TraceOn.class)).as("cut at %d", cut).isNotEmpty();
            assertThat(got.size()).as("cut at %d", cut).isGreaterThan(expected.size() / 3);
            assertThat(got).as("cut at cycle %d", cut)
                    .isEqualTo(expected.subList(expected.size() - got.size(), expected.size()));
        }
    }

    static String show(List<SyntheticProgram.Insn> l, int from, int n) {
        return Arrays.toString(l.subList(Math.max(0, from), Math.min(l.size(), from + n)).toArray());
    }
}
