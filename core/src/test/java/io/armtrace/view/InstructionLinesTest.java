package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code decode --insn}: the instruction lines made in place (address, opcode, the disassembly's cached bytes, the
 * condition, the symbol) are the lines made as text, byte for byte, on the decoded examples (A32, Thumb-2, A64,
 * Armv8-M, ARM926 Thumb; with and without symbols), with the source column and the time columns, and on code whose
 * symbols are not ASCII or too long to be made in place (those lines fall back to the text).
 */
class InstructionLinesTest {

    @Test
    void linesMadeInPlaceAreTheTextLinesOnTheExamples() throws Exception {
        List<Path> snapshots = List.of(Path.of("examples/etm3-a9-thumb"), Path.of("examples/ptm-a15"),
                Path.of("examples/mtb-m0plus"), Path.of("examples/etm2-arm926-thumb"), SharedData.dir("etm4/juno_r1_1"),
                SharedData.dir("etm4/armv8_1m_branches"), SharedData.tc2());
        int sources = 0;
        long lines = 0;
        for (Path dir : snapshots) {
            for (SnapshotSource src : Snapshot.load(dir).sources()) {
                TraceProtocol protocol = Protocols.forDeviceType(src.type()).orElse(null);
                if (protocol == null || src.bufferFile() == null || !protocol.tracesProgramFlow()) {
                    continue;
                }
                List<TraceElement> elements = new ArrayList<>();
                protocol.decode(DecodeInput.of(src), elements::add);
                ProgramImage image = src.image();
                for (int mode = 0; mode < 3; mode++) {
                    String direct = list(image, elements, true, mode);
                    String text = list(image, elements, false, mode);
                    assertThat(direct).as("%s %s mode %d", dir, src.name(), mode).isEqualTo(text);
                    lines += direct.lines().count();
                }
                sources++;
            }
        }
        assertThat(sources).isGreaterThanOrEqualTo(7);
        assertThat(lines).isGreaterThan(100_000);
    }

    /** Branches to symbols named in other scripts, or at length, appear in the disassembly and the symbol column. */
    @Test
    void symbolsThatAreNotAsciiOrLongFallBackToTheText() throws Exception {
        MemoryImage m = new MemoryImage();
        byte[] code = new byte[0x400];
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < code.length; i += 4) {
            // BL to random places in the image, conditional branches and data processing
            int w = switch (rnd.nextInt(3)) {
                case 0 -> 0xEB000000 | rnd.nextInt(0x80);
                case 1 -> 0x1A000000 | rnd.nextInt(0x80);
                default -> 0xE0800000 | rnd.nextInt(1 << 16);
            };
            for (int k = 0; k < 4; k++) {
                code[i + k] = (byte) (w >>> (8 * k));
            }
        }
        m.add(0x8000, code, "code");
        List<Symbol> symbols = List.of(new Symbol("main", 0x8000, 0x100, true),
                new Symbol("ça_va_très_bien", 0x8100, 0x80, true), new Symbol("函数", 0x8180, 0x80, true),
                new Symbol("x".repeat(600), 0x8200, 0x100, true), new Symbol("last", 0x8300, 0x100, true));
        ProgramImage image = new ProgramImage(m, SymbolTable.of(symbols, List.of()));
        List<TraceElement> elements = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            long start = 0x8000 + 4L * rnd.nextInt(0x100 - 8) - (rnd.nextInt(50) == 0 ? 0x100 : 0);
            int count = 1 + rnd.nextInt(8);
            elements.add(new InstructionRange(rnd.nextInt(2), start, start + 4L * count, count, Isa.A32,
                    WaypointKind.DIRECT_BRANCH, io.armtrace.trace.CallKind.NONE, rnd.nextBoolean(),
                    InstructionSizes.uniform(4)));
        }
        for (int mode = 0; mode < 3; mode++) {
            String direct = list(image, elements, true, mode);
            assertThat(direct).as("mode %d", mode).isEqualTo(list(image, elements, false, mode))
                    .contains("<ça_va_très_bien").contains("<函数").contains("<" + "x".repeat(600)).contains("<last")
                    .contains("(condition failed)");
        }
    }

    /** mode 0: plain; 1: with the source column; 2: with the time columns. */
    private static String list(ProgramImage image, List<TraceElement> elements, boolean inPlace, int mode) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EncodingWriter out = new EncodingWriter(bytes, StandardCharsets.UTF_8, 1 << 12);
        try (java.io.PrintWriter pw = out.printWriter(false)) {
            TextWriter w = new TextWriter(pw, image, true, mode == 1);
            w.instructionsInPlace = inPlace;
            io.armtrace.trace.ElementSink sink = w;
            if (mode == 2) {
                Timeline t = new Timeline();
                w.time(t);
                sink = t.feed(w);
            }
            ListingBytesTest.handOver(elements, sink);
            sink.end();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
