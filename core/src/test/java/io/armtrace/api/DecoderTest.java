package io.armtrace.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.source.InputException;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The library API on real captures: the TC2 hardware capture and the MTB example. */
class DecoderTest {
    static final Path MTB = Path.of("examples/mtb-m0plus");

    @Test
    void snapshotSourcesAreThoseTheSnapshotDescribes() {
        Decoder d = Decoder.openSnapshot(SharedData.tc2(), DecodeOptions.DEFAULT);
        // TC2: five ETM/PTM sources in one formatted buffer, of which armtrace decodes the Cortex-A7 ETMs
        assertThat(d.sources()).extracting(TraceSource::traceId).contains(0x10, 0x11, 0x12);
        assertThat(d.sources().get(0).label()).contains("trace ID 0x");
        assertThat(d.files()).anyMatch(f -> f.getFileName().toString().equals("snapshot.ini"));
        // no dump names a space: one memory, the source's image, serves every space
        TraceSource s = d.sources().get(0);
        assertThat(s.codeMemory().at(io.armtrace.image.AddressSpace.parse("EL1S"), 1234)).isSameAs(s.image().memory());
    }

    @Test
    void callbackAndIteratorGiveTheElementsOfTheProtocolDecode() throws Exception {
        Decoder d = Decoder.openSnapshot(SharedData.tc2(), DecodeOptions.builder().source(0x11).source(0x10).build());
        assertThat(d.sources()).extracting(TraceSource::traceId).containsExactly(0x11, 0x10);
        // the protocol decoders' own entry, source by source, as the snapshot gives them
        List<TraceElement> direct = new ArrayList<>();
        for (int id : new int[] {0x11, 0x10}) {
            SnapshotSource s = Snapshot.load(SharedData.tc2()).source(id).orElseThrow();
            ElementCollector c = new ElementCollector();
            io.armtrace.protocol.Protocols.forDeviceType(s.type()).orElseThrow().decode(DecodeInput.of(s), c);
            direct.addAll(c.elements());
        }
        ElementCollector viaCallback = new ElementCollector();
        d.decode(viaCallback);
        List<TraceElement> viaIterator = new ArrayList<>();
        try (ElementIterator it = d.elements()) {
            it.forEachRemaining(viaIterator::add);
        }
        assertThat(direct).hasSizeGreaterThan(1000);
        assertThat(viaCallback.elements()).isEqualTo(direct);
        assertThat(viaIterator).isEqualTo(direct);
    }

    @Test
    void closingTheIteratorEarlyStopsItsThread() throws Exception {
        Decoder d = Decoder.openSnapshot(SharedData.tc2(), DecodeOptions.builder().iteratorBuffer(4, 1).build());
        long before = threads();
        ElementIterator it = d.elements();
        assertThat(it.next()).isNotNull();
        assertThat(it.next()).isNotNull();
        // the queue holds at most one batch of four: the decode waits, it does not run ahead
        Thread.sleep(50);
        assertThat(it.decoding()).isTrue();
        it.close();
        assertThat(it.decoding()).isFalse();
        assertThat(it.hasNext()).isFalse();
        assertThat(threads()).isEqualTo(before);
    }

    @Test
    void aDecodeThatCannotReadItsTraceFailsFromTheIterator(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path trace = java.nio.file.Files.copy(MTB.resolve("mtb_sram.bin"), tmp.resolve("mtb_sram.bin"));
        Decoder d = Decoder.openMtb(trace, DecodeOptions.builder().register("POSITION", 0x200039d4L)
                .register("MASTER", 0x80000008L).register("BASE", 0x20002000L).build());
        java.nio.file.Files.delete(trace); // gone between opening and decoding
        try (ElementIterator it = d.elements()) {
            assertThatThrownBy(it::hasNext).isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining("mtb_sram.bin");
            assertThat(it.hasNext()).isFalse();
        }
        assertThatThrownBy(() -> d.decode(new ElementCollector())).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void anIteratorDroppedWithoutClosingStopsItsThreadWhenCollected() throws Exception {
        Decoder d = Decoder.openSnapshot(SharedData.tc2(), DecodeOptions.builder().iteratorBuffer(4, 1).build());
        long before = threads();
        startAndDrop(d);
        assertThat(threads()).isEqualTo(before + 1); // waiting for its queue to empty
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (threads() > before && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(50);
        }
        assertThat(threads()).isEqualTo(before);
    }

    private static void startAndDrop(Decoder d) throws InterruptedException {
        ElementIterator it = d.elements();
        it.next();
        Thread.sleep(50);
    }

    private static long threads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("armtrace-elements")
                && t.isAlive()).count();
    }

    @Test
    void mtbDumpWithItsRegistersDecodesAsTheSnapshotDoes() throws Exception {
        // the registers mtb_0.ini gives, as a user would copy them from a debugger
        DecodeOptions o = DecodeOptions.builder().register("POSITION", 0x200039d4L).register("MASTER", 0x80000008L)
                .register("BASE", 0x20002000L).register("PC", 0xb2).image(MTB.resolve("program.elf")).build();
        Decoder raw = Decoder.openMtb(MTB.resolve("mtb_sram.bin"), o);
        assertThat(raw.sources()).hasSize(1);
        ElementCollector fromDump = new ElementCollector();
        raw.decode(fromDump);
        ElementCollector fromSnapshot = new ElementCollector();
        Decoder.openSnapshot(MTB, DecodeOptions.builder().image(MTB.resolve("program.elf").toString()).build())
                .decode(fromSnapshot);
        List<TraceElement> e = fromDump.elements();
        // the ground truth of the example (its README): SysTick taken with return address 0x220, then
        // PendSV tail-chained, the halt three instructions into PendSV_Handler at PC 0xb2
        ExceptionEntry systick = (ExceptionEntry) e.get(e.size() - 6);
        assertThat(e.subList(e.size() - 5, e.size())).filteredOn(x -> x instanceof ExceptionEntry)
                .extracting(x -> ((ExceptionEntry) x).name()).containsExactly("PendSV");
        assertThat(systick.name()).isEqualTo("SysTick");
        assertThat(systick.preferredReturn()).isEqualTo(0x220);
        InstructionRange last = (InstructionRange) e.get(e.size() - 1);
        assertThat(last.end()).isEqualTo(0xb2);
        // the same elements, but for the trace ID: a raw dump's source is 0, the snapshot's MTB has none (-1)
        assertThat(e).allMatch(x -> x.source() == 0);
        assertThat(e).usingRecursiveFieldByFieldElementComparatorIgnoringFields("source")
                .isEqualTo(fromSnapshot.elements());
    }

    @Test
    void mistakesAreOneSentenceNamingTheFile() {
        Path trace = MTB.resolve("mtb_sram.bin");
        assertThatThrownBy(() -> Decoder.openTrace(trace, "etm9", DecodeOptions.DEFAULT))
                .isInstanceOf(InputException.class).hasMessageContaining("etm9: unknown protocol");
        assertThatThrownBy(() -> Decoder.openTrace(trace, "mtb", DecodeOptions.builder().register("ETMCR", 1).build()))
                .isInstanceOf(InputException.class).hasMessageContaining("has no register of that name");
        assertThatThrownBy(() -> Decoder.openSnapshot(MTB.resolve("nothing-here"), DecodeOptions.DEFAULT))
                .isInstanceOf(InputException.class).hasMessageContaining("nothing-here");
        assertThatThrownBy(() -> Decoder.openSnapshot(SharedData.tc2(), DecodeOptions.builder().source(0x7e).build()))
                .isInstanceOf(InputException.class).hasMessageContaining("has no trace source with ID 0x7e");
    }
}
