package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.armtrace.source.Registers;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.NoImage;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Flipped bits and dropped cycles: gaps and errors, resynchronization, never an exception or a hang. */
class Etm2CorruptCaptureTest {

    private static List<SyntheticProgram.Insn> decode(byte[] capture, Etm2Config cfg, SyntheticProgram p,
                                                      ElementCollector c) {
        Registers regs = new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr());
        assertThatCode(() -> Etm2Protocol.decode(capture, regs, p.image, c)).doesNotThrowAnyException();
        return SyntheticProgram.expand(c.elements());
    }

    private static void assertRecovered(List<SyntheticProgram.Insn> expected, List<SyntheticProgram.Insn> got,
                                        int tail) {
        assertThat(got.size()).isGreaterThanOrEqualTo(tail);
        assertThat(got.subList(got.size() - tail, got.size()))
                .isEqualTo(expected.subList(expected.size() - tail, expected.size()));
    }

    @ParameterizedTest
    @CsvSource({"1,4", "1,8", "1,16", "2,4", "2,8", "2,16"})
    void droppedCyclesGiveGapsThenResync(int version, int width) {
        Random rnd = new Random(version * 7 + width);
        SyntheticProgram p = new SyntheticProgram(300 + width, 6000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withSyncPeriod(150));
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(p.execution);
        int cycles = (capture.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
        int detected = 0;
        for (int t = 0; t < 10; t++) {
            int at = 100 + rnd.nextInt(cycles / 2);
            int n = 1 + rnd.nextInt(5);
            byte[] cut = new byte[capture.length - n * Etm2Capture.RECORD];
            int split = Etm2Capture.HEADER + at * Etm2Capture.RECORD;
            System.arraycopy(capture, 0, cut, 0, split);
            System.arraycopy(capture, split + n * Etm2Capture.RECORD, cut, split, cut.length - split);
            ElementCollector c = new ElementCollector();
            List<SyntheticProgram.Insn> got = decode(cut, cfg, p, c);
            if (!c.ofType(Gap.class).isEmpty() || !c.ofType(DecodeError.class).isEmpty()
                    || !c.ofType(NoImage.class).isEmpty() || got.size() != expected.size()) {
                detected++;
            }
            assertRecovered(expected, got, 1000);
        }
        assertThat(detected).isGreaterThan(5);
    }

    @ParameterizedTest
    @CsvSource({"1,4", "1,8", "1,16", "2,4", "2,8", "2,16"})
    void flippedBitsGiveErrorsThenResync(int version, int width) {
        Random rnd = new Random(version * 11 + width);
        SyntheticProgram p = new SyntheticProgram(500 + width, 6000);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        byte[] capture = Etm2Encoder.encode(p.execution, p.image, Etm2Encoder.Options.of(cfg).withSyncPeriod(150));
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(p.execution);
        int half = (capture.length - Etm2Capture.HEADER) / 2;
        for (int t = 0; t < 10; t++) {
            byte[] bad = capture.clone();
            for (int k = 0; k < 20; k++) {
                int pos = Etm2Capture.HEADER + rnd.nextInt(half);
                bad[pos] ^= (byte) (1 << rnd.nextInt(8));
            }
            ElementCollector c = new ElementCollector();
            List<SyntheticProgram.Insn> got = decode(bad, cfg, p, c);
            assertRecovered(expected, got, 1000);
        }
    }

    @ParameterizedTest
    @CsvSource({"1,8", "2,8", "2,4", "1,16"})
    void randomBytesInEveryFormat(int version, int width) {
        Random rnd = new Random(width + version);
        SyntheticProgram p = new SyntheticProgram(1, 50);
        Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
        for (int t = 0; t < 30; t++) {
            byte[] junk = new byte[rnd.nextInt(20000)];
            rnd.nextBytes(junk);
            if (t % 3 == 0 && junk.length > 16) {
                System.arraycopy(Etm2Capture.MAGIC, 0, junk, 0, Etm2Capture.MAGIC.length);
            } else if (t % 3 == 1) {
                String alphabet = "0123456789abcdefx,;\n #IEBDWTbx";
                for (int k = 0; k < junk.length; k++) {
                    junk[k] = (byte) alphabet.charAt(Math.floorMod(junk[k], alphabet.length()));
                }
            }
            decode(junk, cfg, p, new ElementCollector());
        }
    }
}
