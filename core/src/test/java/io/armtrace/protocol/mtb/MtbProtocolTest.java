package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.Execution;
import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.Protocols;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The protocol entry: registry, register description, options, and the example snapshot. */
class MtbProtocolTest {
    static final Path EXAMPLE = Path.of("examples/mtb-m0plus");

    @Test
    void registeredUnderItsNameAndDeviceType() {
        assertThat(Protocols.byName("mtb")).get().isInstanceOf(MtbProtocol.class);
        assertThat(Protocols.forDeviceType("MTB")).get().isInstanceOf(MtbProtocol.class);
        assertThat(Protocols.forDeviceType("mtb")).get().isInstanceOf(MtbProtocol.class);
    }

    @Test
    void exampleSnapshotEndsInPendSvAfterATailChainedReturn() throws Exception {
        Snapshot snap = Snapshot.load(EXAMPLE);
        SnapshotSource src = snap.sources().get(0);
        assertThat(src.type()).isEqualTo("MTB");
        ProgramImage elf = ElfImage.load(EXAMPLE.resolve("program.elf"));
        DecodeInput in = DecodeInput.of(src);
        ElementCollector out = new ElementCollector();
        new MtbProtocol().decode(new DecodeInput(in.traceId(), in.registers(), elf, in.data(), in.options()), out);
        List<TraceElement> e = out.elements();
        assertThat(e).noneMatch(x -> x instanceof DecodeError || x instanceof NoImage);
        int n = e.size();
        // ... SysTick, its handler (a range that ends at the handler's not-taken branch, then the rest),
        // the return tail-chained into PendSV, and PendSV's first instructions
        assertThat(e.get(n - 6)).isInstanceOf(ExceptionEntry.class);
        assertThat(((ExceptionEntry) e.get(n - 6)).name()).isEqualTo("SysTick");
        assertThat(((ExceptionEntry) e.get(n - 6)).preferredReturn()).isEqualTo(0x220);
        assertThat(e.get(n - 5)).isInstanceOf(InstructionRange.class);
        assertThat(((InstructionRange) e.get(n - 5)).lastExecuted()).isFalse();
        assertThat(e.get(n - 4)).isInstanceOf(InstructionRange.class);
        assertThat(e.get(n - 3)).isInstanceOf(ExceptionReturn.class);
        assertThat(((ExceptionReturn) e.get(n - 3)).target()).isEqualTo(-1);
        assertThat(e.get(n - 2)).isInstanceOf(ExceptionEntry.class);
        assertThat(((ExceptionEntry) e.get(n - 2)).name()).isEqualTo("PendSV");
        assertThat(e.get(n - 1)).isInstanceOf(InstructionRange.class);
        InstructionRange last = out.ofType(InstructionRange.class).get(out.ofType(InstructionRange.class).size() - 1);
        assertThat(last.end()).isEqualTo(0xb2);
        assertThat(elf.symbols().lookup(last.start()).name()).isEqualTo("PendSV_Handler");
        assertThat(new MtbProtocol().describe(src.registers()))
                .anyMatch(l -> l.contains("4096 bytes") && l.contains("EN=1"))
                .anyMatch(l -> l.contains("WRAP=1"));
    }

    @Test
    void packetListingNamesEveryPacketOldestFirst() throws Exception {
        SnapshotSource src = Snapshot.load(EXAMPLE).sources().get(0);
        List<String> lines = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        new MtbProtocol().packets(DecodeInput.of(src), p -> {
            offsets.add(p.offset());
            lines.add(p.text());
            kinds.add(p.kind());
            lengths.add(p.length());
        });
        assertThat(lines.get(0)).contains("4096 bytes at byte 4096").contains("wrapped").contains("512 packets");
        assertThat(lines).hasSize(1 + 512);
        assertThat(kinds.get(0)).isEqualTo("buffer");
        assertThat(lengths.get(0)).isZero();
        assertThat(kinds.subList(1, kinds.size())).containsOnly("MTB");
        assertThat(lengths.subList(1, lengths.size())).containsOnly(8);
        assertThat(lines.get(lines.size() - 1)).contains("exception return (2 of 2)");
        long pointer = 0x200039d0L - 0x20003000L;
        assertThat(offsets.get(1)).isEqualTo(4096 + pointer);
        assertThat(offsets.get(lines.size() - 1)).isEqualTo(4096 + pointer - 8);
    }

    @Test
    void encodeOptionsAcceptSymbolsAndRejectUnknownNames() throws Exception {
        Execution ex = Fixtures.execution("m0plus");
        ProgramImage image = Fixtures.image("m0plus");
        MtbProtocol p = new MtbProtocol();
        EncodeOutput out = p.encode(ex, image, Map.of("buffer-size", "256", "tstart", "SVC_Handler",
                "tstop", "PendSV_Handler", "sram-size", "1024", "buffer-offset", "512"));
        assertThat(out.deviceType()).isEqualTo("MTB");
        assertThat(out.trace()).hasSize(1024);
        assertThat(out.registers().get("MASTER", 0) & 0x7F).isEqualTo(0x60 | 4);
        ElementCollector c = new ElementCollector();
        p.decode(new DecodeInput(0, out.registers(), image, TraceData.of("t", out.trace()), null), c);
        assertThat(c.ofType(InstructionRange.class)).isNotEmpty();
        assertThat(c.elements()).noneMatch(x -> x instanceof DecodeError);
        assertThatThrownBy(() -> p.encode(ex, image, Map.of("bufer-size", "256")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bufer-size");
        assertThatThrownBy(() -> p.encode(ex, image, Map.of("tstart", "no_such_function")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no_such_function");
        assertThat(Files.isDirectory(EXAMPLE)).isTrue();
    }
}
