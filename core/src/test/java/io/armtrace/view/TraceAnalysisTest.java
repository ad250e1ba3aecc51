package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.CycleCount;
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

    /** Branch-with-link encodings as the ARM ARM gives them (DDI 0406C A8.8.25, A8.8.26), and near misses. */
    @Test
    void callSitesRecogniseExactlyTheBranchWithLinkEncodings() {
        MemoryImage m = new MemoryImage();
        byte[] code = new byte[64];
        int[][] words = {
            {0, 0xEB000010},  // BL (A1, cond AL)
            {4, 0x1B000010},  // BLNE
            {8, 0xFA000010},  // BLX imm (A2)
            {12, 0xE12FFF33}, // BLX r3 (A1)
            {16, 0xE12FFF13}, // BX r3: no link
            {20, 0xEA000010}, // B: no link
        };
        for (int[] w : words) {
            for (int i = 0; i < 4; i++) {
                code[w[0] + i] = (byte) (w[1] >>> (8 * i));
            }
        }
        int[][] halves = {
            {32, 0xF000}, {34, 0xF800}, // BL (T1)
            {36, 0xF000}, {38, 0xE800}, // BLX imm (T2)
            {40, 0x4798},               // BLX r3 (T1)
            {42, 0x4718},               // BX r3: no link
            {44, 0xF000}, {46, 0xB800}, // B.W (T4): no link
        };
        for (int[] h : halves) {
            code[h[0]] = (byte) h[1];
            code[h[0] + 1] = (byte) (h[1] >>> 8);
        }
        m.add(0x1000, code, "code");
        assertThat(CallSites.linkSize(m, 0x1000, Isa.A32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x1004, Isa.A32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x1008, Isa.A32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x100C, Isa.A32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x1010, Isa.A32)).isZero();
        assertThat(CallSites.linkSize(m, 0x1014, Isa.A32)).isZero();
        assertThat(CallSites.linkSize(m, 0x1020, Isa.T32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x1024, Isa.T32)).isEqualTo(4);
        assertThat(CallSites.linkSize(m, 0x1028, Isa.T32)).isEqualTo(2);
        assertThat(CallSites.linkSize(m, 0x102A, Isa.T32)).isZero();
        assertThat(CallSites.linkSize(m, 0x102C, Isa.T32)).isZero();
        assertThat(CallSites.linkSize(m, 0x9000, Isa.T32)).isZero(); // not in the image
    }

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
            assertThat(w.toString().lines().filter(l -> !l.isEmpty() && l.chars().filter(ch -> ch == ';').count() >= TraceAnalysis.MAX_DEPTH))
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
            a.accept(new InstructionRange(0, 0x8000, 0x8004, 1, Isa.A32, 0x8000, WaypointKind.DIRECT_BRANCH, true));
        }
        for (int i = 0; i < n; i++) {
            a.accept(new InstructionRange(0, 0x8004, 0x8008, 1, Isa.A32, 0x8004, WaypointKind.NONE, true));
        }
        a.end();
        assertThat(a.calls()).isEqualTo(n);
        assertThat(a.nodes).isLessThanOrEqualTo(TraceAnalysis.MAX_DEPTH + 2);
        assertThat(a.instructions()).isEqualTo(2L * n);
    }
}
