package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCodec;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Addresses are 64-bit below the protocols: code placed at 0xFFFF_0000_0800_0000 (an AArch64 kernel's
 * address, negative as a Java long) goes through the code walker, the element stream and every view
 * with no address cut to 32 bits, no address taken for "unknown" because of its sign, and text that
 * prints such an address in all its digits (16 here: no leading zeros beyond the usual 8).
 */
class HighAddressTest {
    static final long BASE = 0xFFFF_0000_0800_0000L;

    /**
     * T32 code (ARM DDI 0406C encodings): main calls leaf and returns; instructions of both sizes.
     * <pre>
     * main:  +0x0  b510        push {r4, lr}
     *        +0x2  f000 f803   bl   leaf          (+0x2 + 4 + 6)
     *        +0x6  2001        movs r0, #1
     *        +0x8  bd10        pop  {r4, pc}
     *        +0xa  bf00        nop
     * leaf:  +0xc  f04f 0000   mov.w r0, #0
     *        +0x10 4770        bx   lr
     * </pre>
     */
    static ProgramImage image() {
        int[] halfwords = {0xB510, 0xF000, 0xF803, 0x2001, 0xBD10, 0xBF00, 0xF04F, 0x0000, 0x4770};
        byte[] code = new byte[halfwords.length * 2];
        for (int i = 0; i < halfwords.length; i++) {
            code[2 * i] = (byte) halfwords[i];
            code[2 * i + 1] = (byte) (halfwords[i] >>> 8);
        }
        MemoryImage m = new MemoryImage().add(BASE, code, "high");
        SymbolTable symbols = new SymbolTable(List.of(new Symbol("main", BASE, 0xC, true),
                new Symbol("leaf", BASE + 0xC, 6, true)), new long[0], new byte[0]);
        return new ProgramImage(m, symbols);
    }

    /** The ranges a flow decoder makes of main calling leaf: each walked block whole, its sizes shared. */
    static List<TraceElement> elements(ProgramImage image) {
        CodeWalker walker = new CodeWalker(image.memory(), new InstructionClassifier(io.armtrace.isa.Profile.AR), false, 4096);
        List<TraceElement> out = new ArrayList<>();
        out.add(new TraceOn(0x10, TraceOn.Reason.SYNC, 0));
        long at = BASE;
        for (int k = 0; k < 3; k++) {
            Block b = walker.block(at, Isa.T32);
            InstructionRange r = new InstructionRange(0x10, b.start(), b.nextAddress(), b.count(), Isa.T32, b.kind(),
                    b.call(), true, b.sizes());
            assertThat(r.lastAddress()).isEqualTo(b.lastAddress());
            out.add(r);
            at = b.kind() == WaypointKind.DIRECT_BRANCH ? b.target() : b.returnAddress() == BASE + 0x12 ? BASE + 6 : -1;
        }
        out.add(new ExceptionEntry(0x10, 6, "IRQ", BASE + 6, false));
        out.add(new ExceptionReturn(0x10, BASE + 6));
        out.add(new NoImage(0x10, BASE + 0x100, Isa.T32));
        out.add(new DecodeError(0x10, "test", BASE + 2, 9));
        return out;
    }

    private static void feed(List<TraceElement> elements, ElementSink sink) {
        elements.forEach(sink::accept);
        sink.end();
    }

    @Test
    void theWalkerKeepsEveryAddressBit() {
        CodeWalker walker = new CodeWalker(image().memory(), new InstructionClassifier(io.armtrace.isa.Profile.AR), false, 4096);
        Block main = walker.block(BASE, Isa.T32);
        assertThat(main.count()).isEqualTo(2);
        assertThat(main.lastAddress()).isEqualTo(BASE + 2);
        assertThat(main.kind()).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(main.call()).isEqualTo(CallKind.CALL);
        assertThat(main.target()).isEqualTo(BASE + 0xC); // AArch32 arithmetic wraps in the branch's 4 GiB window
        assertThat(main.returnAddress()).isEqualTo(BASE + 6);
        assertThat(main.sizes().size(0)).isEqualTo(2);
        assertThat(main.sizes().size(1)).isEqualTo(4);
        Block leaf = walker.block(BASE + 0xC, Isa.T32);
        assertThat(leaf.call()).isEqualTo(CallKind.RETURN);
        assertThat(leaf.sizes().size(0)).isEqualTo(4);
        Block missing = walker.block(BASE + 0x12, Isa.T32);
        assertThat(missing.end()).isEqualTo(Block.End.NO_IMAGE);
        assertThat(missing.missingAddress()).isEqualTo(BASE + 0x12);
    }

    @Test
    void textPrintsAllTheDigits() {
        ProgramImage image = image();
        StringWriter w = new StringWriter();
        feed(elements(image), new TextWriter(new PrintWriter(w), image, false, false));
        assertThat(w.toString().lines()).containsExactly(
                "trace on (sync) at byte 0",
                "range 0xffff000008000000-0xffff000008000006     2 insn T32, ends with direct branch  <main>",
                "range 0xffff00000800000c-0xffff000008000012     2 insn T32, ends with indirect branch  <leaf>",
                "range 0xffff000008000006-0xffff00000800000a     2 insn T32, ends with indirect branch  <main+0x6>",
                "exception 6 (IRQ), returns to 0xffff000008000006  <main+0x6>",
                "exception return to 0xffff000008000006  <main+0x6>",
                "no image at 0xffff000008000100 T32: code not in the program image, waiting for the next address",
                "*** error at byte 9 (address 0xffff000008000002): test");
    }

    @Test
    void instructionListingExpandsRangesByTheirSizes() {
        ProgramImage image = image();
        StringWriter w = new StringWriter();
        feed(elements(image), new TextWriter(new PrintWriter(w), image, true, false));
        List<String> insns = w.toString().lines().filter(l -> l.startsWith("  0x")).map(l -> l.substring(2, 20)).toList();
        assertThat(insns).containsExactly("0xffff000008000000", "0xffff000008000002", "0xffff00000800000c",
                "0xffff000008000010", "0xffff000008000006", "0xffff000008000008");
        assertThat(w.toString()).contains("f000 f803", "f04f 0000", "4770     ");
    }

    @Test
    void jsonlKeepsEveryAddress() {
        ProgramImage image = image();
        StringWriter w = new StringWriter();
        feed(elements(image), new JsonlWriter(w, image, false));
        String out = w.toString();
        assertThat(out.lines().filter(l -> l.contains("\"insn\"")).map(l -> l.replaceAll(".*\"addr\":\"([^\"]*)\".*\"size\":(\\d).*", "$1/$2")))
                .containsExactly("0xffff000008000000/2", "0xffff000008000002/4", "0xffff00000800000c/4",
                        "0xffff000008000010/2", "0xffff000008000006/2", "0xffff000008000008/2");
        assertThat(out).contains("\"return\":\"0xffff000008000006\"", "\"target\":\"0xffff000008000006\"",
                "{\"type\":\"no_image\",\"addr\":\"0xffff000008000100\"", "\"addr\":\"0xffff000008000002\"");
        StringWriter r = new StringWriter();
        feed(elements(image), new JsonlWriter(r, image, false, true));
        assertThat(r.toString()).contains("\"start\":\"0xffff00000800000c\",\"end\":\"0xffff000008000012\","
                + "\"count\":2,\"isa\":\"T32\",\"last\":\"0xffff000008000010\"");
    }

    @Test
    void analysesFollowTheCallAndWalkTheFunctions() {
        ProgramImage image = image();
        TraceAnalysis a = new TraceAnalysis(image);
        feed(elements(image), a);
        assertThat(a.calls()).isEqualTo(1);
        assertThat(new CallGraph(a).edges()).containsExactly(new CallGraph.Edge("main", "leaf", 1, 2, 0));
        assertThat(new Profile(a).byFunction()).extracting(Profile.Entry::name, Profile.Entry::instructions)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("main", 4L), org.assertj.core.groups.Tuple.tuple("leaf", 2L));
        Coverage.Result c = new Coverage(a).result();
        assertThat(c.functions()).extracting(Coverage.FunctionCoverage::name, Coverage.FunctionCoverage::instructions,
                Coverage.FunctionCoverage::instructionsHit).containsExactly(
                org.assertj.core.groups.Tuple.tuple("main", 5, 4), org.assertj.core.groups.Tuple.tuple("leaf", 2, 2));
        assertThat(c.instructions().keySet()).contains(BASE + 0xA, BASE + 0x10);
        assertThat(a.summary.errorMessages).containsExactly("source 0x10, byte 9, address 0xffff000008000002: test");
    }

    @Test
    void filtersAndStagesCompareAddressesUnsigned() {
        ProgramImage image = image();
        ElementCollector c = new ElementCollector();
        feed(elements(image), new ElementFilter(c, List.of(new ElementFilter.AddressRange(BASE + 0xC, BASE + 0x12)),
                null, null, null));
        assertThat(c.ofType(InstructionRange.class)).extracting(InstructionRange::start).containsExactly(BASE + 0xC);
        ElementCollector all = new ElementCollector();
        feed(elements(image), new ElementFilter(all, List.of(new ElementFilter.AddressRange(0, -1)), null, null, null));
        assertThat(all.ofType(InstructionRange.class)).hasSize(3);
        ElementCollector last = new ElementCollector();
        feed(elements(image), new LastInstructions(last, 3));
        assertThat(last.ofType(InstructionRange.class)).extracting(InstructionRange::start, InstructionRange::count)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(BASE + 0x10, 1),
                        org.assertj.core.groups.Tuple.tuple(BASE + 6, 2));
    }

    @Test
    void theCodecKeepsEveryAddress() throws IOException {
        List<TraceElement> in = elements(image());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ElementCodec.Output out = new ElementCodec.Output(bytes)) {
            for (TraceElement e : in) {
                out.write(e);
            }
        }
        List<TraceElement> back = new ArrayList<>();
        try (ElementCodec.Input read = new ElementCodec.Input(new ByteArrayInputStream(bytes.toByteArray()))) {
            for (int i = 0; i < in.size(); i++) {
                back.add(read.read());
            }
        }
        assertThat(back).isEqualTo(in);
    }
}
