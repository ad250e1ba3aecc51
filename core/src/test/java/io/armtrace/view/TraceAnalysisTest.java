package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TraceAnalysisTest {

    /** Random element streams (wild addresses, unbalanced exceptions, gaps): no exception, bounded stack. */
    @Test
    void arbitraryStreamsNeverBreakTheAnalysis() {
        MemoryImage m = new MemoryImage();
        byte[] code = new byte[4096];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < code.length; i += 4) {
            // a mix of BL, BLX and other words
            int w = rnd.nextInt(3) == 0 ? 0xEB000000 | rnd.nextInt(1 << 24) : rnd.nextInt();
            for (int k = 0; k < 4; k++) {
                code[i + k] = (byte) (w >>> (8 * k));
            }
        }
        m.add(0x8000, code, "code");
        SymbolTable symbols = SymbolTable.of(List.of(new Symbol("f", 0x8000, 0x400, false), new Symbol("g", 0x8400, 0x400, true),
                new Symbol("h", 0x8800, 0, false, Symbol.Type.NONE)), List.of());
        ProgramImage image = new ProgramImage(m, symbols);
        for (int run = 0; run < 6; run++) {
            TraceAnalysis a = new TraceAnalysis(image);
            long insns = 0;
            for (int i = 0; i < 20_000; i++) {
                int k = rnd.nextInt(20);
                long start = rnd.nextInt(4) == 0 ? rnd.nextLong(1L << 32) : 0x8000 + 4L * rnd.nextInt(1100);
                if (k < 14) {
                    int count = 1 + rnd.nextInt(8);
                    Isa isa = rnd.nextInt(4) == 0 ? Isa.T32 : Isa.A32;
                    WaypointKind kind = WaypointKind.values()[rnd.nextInt(WaypointKind.values().length)];
                    a.accept(new InstructionRange(rnd.nextInt(3), start, start + 4L * count, count, isa,
                            start + 4L * (count - 1), kind, rnd.nextBoolean()));
                    insns += count;
                } else if (k == 14) {
                    a.accept(new ExceptionEntry(0, rnd.nextInt(16), null, rnd.nextBoolean() ? start : -1, rnd.nextBoolean()));
                } else if (k == 15) {
                    a.accept(new ExceptionReturn(0, rnd.nextBoolean() ? start : -1));
                } else if (k == 16) {
                    a.accept(new Gap(0, "test", i));
                } else if (k == 17) {
                    a.accept(new TraceOn(0, TraceOn.Reason.values()[rnd.nextInt(5)], i));
                } else if (k == 18) {
                    a.accept(new CycleCount(0, rnd.nextInt(1000)));
                } else {
                    a.accept(new NoImage(0, start, Isa.A32));
                }
            }
            a.end();
            assertThat(a.instructions()).isEqualTo(insns);
            long[] self = a.selfInstructions();
            assertThat(java.util.Arrays.stream(self).sum()).isEqualTo(insns);
            StringWriter w = new StringWriter();
            Profile p = new Profile(a);
            p.writeFolded(new PrintWriter(w), false);
            p.writeTable(new PrintWriter(w), Profile.By.LINE, 10);
            new CallGraph(a).writeCallgrind(new PrintWriter(w), null);
            new CallGraph(a).writeDot(new PrintWriter(w));
            Coverage c = new Coverage(a);
            c.writeLcov(new PrintWriter(w), "t");
            c.writeSummary(new PrintWriter(w));
            new HtmlReport("t").section("s", a).write(new PrintWriter(w), 10);
            // folded stacks never deeper than the bound
            assertThat(w.toString().lines().filter(l -> !l.isEmpty() && l.chars().filter(ch -> ch == ';').count() >= CallStack.MAX_DEPTH))
                    .isEmpty();
        }
    }

    /** A deep recursion keeps the stack bounded and still counts every call. */
    @Test
    void deepRecursionIsBounded() {
        MemoryImage m = new MemoryImage();
        // f: BL f (recursing) at 0x8000, and a return target after it
        m.add(0x8000, new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xEB, 0, 0, (byte) 0xA0, (byte) 0xE1}, "f");
        ProgramImage image = new ProgramImage(m, SymbolTable.of(List.of(new Symbol("f", 0x8000, 8, false)), List.of()));
        TraceAnalysis a = new TraceAnalysis(image);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            a.accept(new InstructionRange(0, 0x8000, 0x8004, 1, Isa.A32, WaypointKind.DIRECT_BRANCH, CallKind.CALL,
                    true, InstructionSizes.uniform(4)));
        }
        for (int i = 0; i < n; i++) {
            a.accept(new InstructionRange(0, 0x8004, 0x8008, 1, Isa.A32, 0x8004, WaypointKind.NONE, true));
        }
        a.end();
        assertThat(a.calls()).isEqualTo(n);
        assertThat(a.tables.nodes).isLessThanOrEqualTo(CallStack.MAX_DEPTH + 2);
        assertThat(a.instructions()).isEqualTo(2L * n);
    }
}
