package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.armtrace.execution.Execution;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Damaged MTB buffers give error elements: never an exception, a hang, or output without bound. */
class MtbCorruptTest {

    static List<TraceElement> decode(Registers regs, byte[] dump, ProgramImage image) throws IOException {
        ElementCollector out = new ElementCollector();
        new MtbProtocol().decode(new DecodeInput(0, regs, image, TraceData.of("mtb.bin", dump), DecodeOptions.DEFAULT),
                out);
        return out.elements();
    }

    static long errors(List<TraceElement> e) {
        return e.stream().filter(x -> x instanceof DecodeError || x instanceof NoImage).count();
    }

    @Test
    void randomWordsAndRegisters() {
        ProgramImage image = Fixtures.image("m0plus");
        SplittableRandom rnd = new SplittableRandom(6);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            long totalErrors = 0;
            for (int i = 0; i < 300; i++) {
                int size = 8 << rnd.nextInt(10);
                byte[] dump = new byte[size + (rnd.nextBoolean() ? 0 : rnd.nextInt(16))];
                rnd.nextBytes(dump);
                if (i % 3 == 0) {
                    // plausible words: Thumb addresses inside the program, random A/S bits
                    for (int w = 0; w + 4 <= dump.length; w += 4) {
                        int v = rnd.nextInt(0x2e00) & ~1 | rnd.nextInt(2);
                        dump[w] = (byte) v;
                        dump[w + 1] = (byte) (v >> 8);
                        dump[w + 2] = 0;
                        dump[w + 3] = 0;
                    }
                }
                Registers regs = new Registers().put("POSITION", rnd.nextLong() & 0xFFFFFFFFL)
                        .put("MASTER", rnd.nextLong() & 0xFFFFFFFFL);
                if (rnd.nextBoolean()) {
                    regs.put("PC", rnd.nextInt(0x3000));
                }
                if (rnd.nextBoolean()) {
                    regs.put("BASE", rnd.nextLong() & 0xFFFFFFFFL);
                }
                List<TraceElement> e = decode(regs, dump, image);
                // bounded: a few elements per packet at most
                assertThat(e.size()).isLessThanOrEqualTo(4 * (dump.length / 8) + 4);
                totalErrors += errors(e);
            }
            assertThat(totalErrors).isPositive();
        });
    }

    @Test
    void tornWriteAtPointer() throws IOException {
        Execution ex = Fixtures.execution("m0plus");
        ProgramImage image = Fixtures.image("m0plus");
        MtbEncoder.Options o = MtbEncoder.Options.ofSize(1024).withHaltAfter(ex.steps().size() / 2);
        MtbEncoder.Result r = MtbEncoder.encode(ex, image, o);
        assertThat(r.position() & 4).as("wrapped").isNotZero();
        List<TraceElement> clean = decode(r.registers(), r.sram(), image);
        assertThat(errors(clean)).isZero();
        int ptr = (int) (r.position() & 1023 & ~7);

        // The next packet's source word was written at POINTER (the oldest packet) before the core
        // stopped: the oldest packet's source is never walked to, so the decode does not change.
        byte[] torn = r.sram().clone();
        torn[ptr] = (byte) 0x4a;
        torn[ptr + 1] = 0x02;
        List<TraceElement> e = decode(r.registers(), torn, image);
        assertThat(instructions(e)).isEqualTo(instructions(clean));

        // The newest packet holds a stale source word (the location still had the packet of one wrap
        // earlier when it was read): its walk cannot reach that source.
        byte[] stale = r.sram().clone();
        int newest = (ptr + 1024 - 8) % 1024;
        int older = (ptr + 8 * 5) % 1024;
        System.arraycopy(stale, older, stale, newest, 4);
        List<TraceElement> h = decode(r.registers(), stale, image);
        assertThat(errors(h)).isPositive();
        assertThat(instructions(h)).isLessThan(instructions(clean));
    }

    @Test
    void wrongImage() throws IOException {
        Execution ex = Fixtures.execution("m0plus");
        MtbEncoder.Result r = MtbEncoder.encode(ex, Fixtures.image("m0plus"), MtbEncoder.Options.ofSize(2048));
        List<TraceElement> e = decode(r.registers(), r.sram(), Fixtures.image("m3"));
        long packets = r.bufferPackets();
        assertThat(errors(e)).isGreaterThan(packets / 4);
        assertThat(e.size()).isLessThanOrEqualTo((int) (4 * packets + 4));
    }

    @Test
    void flippedBitsStayLocal() throws IOException {
        Execution ex = Fixtures.execution("m0plus");
        ProgramImage image = Fixtures.image("m0plus");
        MtbEncoder.Result r = MtbEncoder.encode(ex, image, MtbEncoder.Options.ofSize(4096));
        long clean = instructions(decode(r.registers(), r.sram(), image));
        SplittableRandom rnd = new SplittableRandom(61);
        for (int i = 0; i < 50; i++) {
            byte[] d = r.sram().clone();
            int at = rnd.nextInt(d.length);
            d[at] ^= (byte) (1 << rnd.nextInt(8));
            List<TraceElement> e = decode(r.registers(), d, image);
            // one damaged packet costs at most the instructions around it, never the whole buffer
            assertThat(instructions(e)).isGreaterThan(clean / 2);
            assertThat(errors(e)).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void emptyAndTinyDumps() throws IOException {
        ProgramImage image = Fixtures.image("m0plus");
        Registers regs = new Registers().put("POSITION", 0x20000010L).put("MASTER", 0x80000000L | 31);
        assertThat(decode(regs, new byte[0], image)).singleElement().isInstanceOf(DecodeError.class);
        assertThat(decode(regs, new byte[7], image)).singleElement().isInstanceOf(DecodeError.class);
        // MASK above what the dump holds acts as the largest buffer the dump can be: 8 bytes, POINTER 0
        assertThat(instructions(decode(regs, new byte[12], image))).isZero();
    }

    @Test
    void noImageIsOneError() throws IOException {
        MtbEncoder.Result r = MtbEncoder.encode(Fixtures.execution("m0plus"), Fixtures.image("m0plus"),
                MtbEncoder.Options.ofSize(512));
        List<TraceElement> e = decode(r.registers(), r.sram(),
                io.armtrace.image.ProgramImage.of(new io.armtrace.image.MemoryImage()));
        assertThat(e).singleElement().isInstanceOf(DecodeError.class);
    }

    static long instructions(List<TraceElement> e) {
        return e.stream().filter(x -> x instanceof InstructionRange).mapToLong(x -> ((InstructionRange) x).count()).sum();
    }
}
