package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.Execution;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.InstructionRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Etm2ProtocolTest {

    @Test
    void registeredForEtmv1AndEtmv2DeviceTypes() {
        assertThat(Protocols.byName("etm2")).get().isInstanceOf(Etm2Protocol.class);
        for (String t : List.of("ETM1.3", "ETM2.0", "ETMv1.2", "etmv2")) {
            assertThat(Protocols.forDeviceType(t)).as(t).get().isInstanceOf(Etm2Protocol.class);
        }
        assertThat(new Etm2Protocol().handlesDeviceType("ETM3.5")).isFalse();
    }

    @Test
    void describesTheRegistersInWords() {
        // ETMCR: 16-bit port (b010 in [6:4]), cycle-accurate [12], context ID size b10 = 2 bytes; ETMIDR[11:8] = 1
        Registers r = new Registers().put("ETMCR", 0x20 | 0x1000 | 0x8000).put("ETMIDR", 0x41000120);
        List<String> d = new Etm2Protocol().describe(r);
        assertThat(d.get(0)).startsWith("ETMv2");
        assertThat(d).anyMatch(s -> s.startsWith("TRACEPKT port 16 bits"));
        assertThat(d).anyMatch(s -> s.startsWith("cycle-accurate"));
        assertThat(d).anyMatch(s -> s.equals("context ID traced, 2 byte(s)"));
        assertThat(new Etm2Protocol().describe(new Registers().put("ETMIDR", 0x41000030)).get(0)).startsWith("ETMv1");
    }

    @Test
    void encodeOptionsAreCheckedAndGiveRegisters() {
        Etm2Protocol p = new Etm2Protocol();
        Execution ex = Corpus.execution("arm926-arm");
        ProgramImage img = Corpus.image("arm926-arm");
        EncodeOutput out = p.encode(ex, img, Map.of("etm-version", "1", "port-width", "16"));
        assertThat(out.deviceType()).isEqualTo("ETM1.3");
        assertThat(out.registers().get("ETMCR", 0) >> 4 & 7).isEqualTo(2);
        assertThat(out.registers().get("ETMIDR", 0) >> 8 & 15).isZero();
        assertThatThrownBy(() -> p.encode(ex, img, Map.of("port-width", "12")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4, 8 or 16");
        assertThatThrownBy(() -> p.encode(ex, img, Map.of("bogus", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--bogus");
        assertThat(p.encodeOptions()).containsKeys("etm-version", "port-width", "full-address", "sync-period");
    }

    @Test
    void packetListingHasOneLinePerCycle() throws Exception {
        SyntheticProgram prog = new SyntheticProgram(4, 300);
        Etm2Config cfg = Etm2Config.DEFAULT;
        byte[] cap = Etm2Encoder.encode(prog.execution, prog.image, Etm2Encoder.Options.of(cfg));
        List<String> lines = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        new Etm2Protocol().packets(new DecodeInput(0, new Registers(), ProgramImage.of(prog.image),
                TraceData.of("cap", cap), DecodeOptions.DEFAULT), p -> {
                    offsets.add(p.offset());
                    lines.add(p.text());
                    kinds.add(p.kind());
                });
        int cycles = (cap.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
        assertThat(lines).hasSize(cycles);
        for (int k = 0; k < cycles; k++) {
            assertThat(offsets.get(k)).isEqualTo(k);
        }
        assertThat(lines.get(0)).startsWith("TD").contains("TFO tracing enabled address 0x00008000 A32");
        // ETMv2: a branch is a DE cycle whose packets end with a branch address
        assertThat(lines).anyMatch(l -> l.startsWith("DE") && l.contains("branch address ("));
        // the record's kind is the PIPESTAT mnemonic the line starts with
        assertThat(kinds.get(0)).isEqualTo("TD");
        assertThat(kinds).contains("DE", "IE").allMatch(k -> k.matches("[A-Z]{2,4}"));
    }

    @Test
    void cycleCountsAddUpToTheCyclesOfTheCapture() {
        SyntheticProgram prog = new SyntheticProgram(8, 2000);
        Etm2Config cfg = Etm2Config.DEFAULT.withCycleAccurate(true);
        byte[] cap = Etm2Encoder.encode(prog.execution, prog.image, Etm2Encoder.Options.of(cfg));
        ElementCollector c = new ElementCollector();
        Etm2Protocol.decode(cap, new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr()),
                prog.image, c);
        long counted = c.ofType(CycleCount.class).stream().mapToLong(CycleCount::cycles).sum();
        int cycles = (cap.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
        // every cycle up to the last instruction is counted: the FIFO drain after it is not
        assertThat(counted).isLessThanOrEqualTo(cycles).isGreaterThan(cycles - 64L);
        // each instruction takes at least its own cycle
        long insns = c.ofType(InstructionRange.class).stream().mapToLong(InstructionRange::count).sum();
        assertThat(counted).isGreaterThanOrEqualTo(insns);
    }

    @Test
    void contextIdFromSyncPacketsBecomesAContextElement() {
        SyntheticProgram prog = new SyntheticProgram(9, 1000);
        for (int version = 1; version <= 2; version++) {
            Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withContextIdBytes(4);
            byte[] cap = Etm2Encoder.encode(prog.execution, prog.image,
                    new Etm2Encoder.Options(cfg, 100, false, 45, Etm2Capture.Format.CYCLES, 0xCAFE0042L));
            ElementCollector c = new ElementCollector();
            Etm2Protocol.decode(cap, new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr()),
                    prog.image, c);
            assertThat(c.ofType(Context.class)).as("v%d", version).hasSize(1);
            assertThat(c.ofType(Context.class).get(0).contextId()).isEqualTo(0xCAFE0042L);
            assertThat(SyntheticProgram.expand(c.elements())).isEqualTo(SyntheticProgram.steps(prog.execution));
        }
    }

    @Test
    void groundTruthDecodesFromArbitraryCycles() {
        Execution ex = Corpus.execution("arm926-thumb");
        ProgramImage img = Corpus.image("arm926-thumb");
        List<SyntheticProgram.Insn> expected = SyntheticProgram.steps(ex);
        Random rnd = new Random(926);
        for (int version = 1; version <= 2; version++) {
            for (int width : new int[] {4, 8, 16}) {
                Etm2Config cfg = Etm2Config.DEFAULT.withVersion(version).withPortWidth(width);
                byte[] cap = Etm2Encoder.encode(ex, img.memory(), Etm2Encoder.Options.of(cfg));
                int cycles = (cap.length - Etm2Capture.HEADER) / Etm2Capture.RECORD;
                int cut = rnd.nextInt(cycles / 2);
                byte[] tail = new byte[cap.length - cut * Etm2Capture.RECORD];
                System.arraycopy(cap, 0, tail, 0, Etm2Capture.HEADER);
                System.arraycopy(cap, Etm2Capture.HEADER + cut * Etm2Capture.RECORD, tail, Etm2Capture.HEADER,
                        tail.length - Etm2Capture.HEADER);
                ElementCollector c = new ElementCollector();
                Etm2Protocol.decode(tail, new Registers().put("ETMCR", cfg.etmcr()).put("ETMIDR", cfg.etmidr()),
                        img.memory(), c);
                List<SyntheticProgram.Insn> got = SyntheticProgram.expand(c.elements());
                assertThat(got.size()).as("v%d/%d cut %d", version, width, cut).isGreaterThan(expected.size() / 3);
                assertThat(got).as("v%d/%d cut %d", version, width, cut)
                        .isEqualTo(expected.subList(expected.size() - got.size(), expected.size()));
            }
        }
    }
}
