package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RangeTable} against a plain map of the same ranges: its slots of eight longs and the two successors a slot
 * remembers must count every range as the map does, whatever the order the ranges come in.
 */
class RangeTableTest {

    private static final SymbolTable SYMBOLS = SymbolTable.of(List.of(new Symbol("f", 0x8000, 0x400, true),
            new Symbol("g", 0x8400, 0x400, true), new Symbol("h", 0x1_0000_8000L, 0x400, false)), List.of());

    /** One distinct range of the pool the streams draw from. */
    private record Shape(long start, long end, int count, Isa isa, InstructionSizes sizes, int sizesIndex) {
    }

    /** What the plain map keeps per distinct range. */
    private static final class Expected {
        final Shape shape;
        long times;
        long failed;
        long cycles;
        int tracked = -1;

        Expected(Shape shape) {
            this.shape = shape;
        }
    }

    /**
     * Ranges that share a start (other ends), share start and end (other ISA), differ only in the high address
     * bits, and mixed Thumb sizes; streams that loop, alternate among two and three successors, and jump at random.
     */
    private static List<Shape> pool(SplittableRandom rnd) {
        List<Shape> pool = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long start = 0x8000 + 4L * rnd.nextInt(0x200);
            if (i % 7 == 0) {
                start |= 0x1_0000_0000L; // the same low bits as another range, another 4 GB
            }
            int count = 1 + rnd.nextInt(6);
            if (i % 3 == 0) {
                // T32: 2- and 4-byte instructions, from instruction 1 of the run
                int[] offsets = new int[count + 2];
                for (int k = 1; k < offsets.length; k++) {
                    offsets[k] = offsets[k - 1] + (rnd.nextBoolean() ? 2 : 4);
                }
                InstructionSizes sizes = InstructionSizes.ofOffsets(offsets);
                long s = start + 2;
                pool.add(new Shape(s, s + offsets[count + 1] - offsets[1], count, Isa.T32, sizes, 1));
            } else {
                pool.add(new Shape(start, start + 4L * count, count, Isa.A32, InstructionSizes.uniform(4), 0));
            }
            Shape last = pool.get(pool.size() - 1);
            if (i % 5 == 0 && last.isa() == Isa.A32) {
                // the same start and end in the other ISA, and the same start with another end
                pool.add(new Shape(last.start(), last.end(), last.count() * 2, Isa.T32, InstructionSizes.uniform(2), 0));
                pool.add(new Shape(last.start(), last.end() + 4, last.count() + 1, Isa.A32, InstructionSizes.uniform(4), 0));
            }
        }
        return pool;
    }

    @Test
    void countsEveryRangeAsAPlainMapDoes() {
        for (int seed = 1; seed <= 8; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<Shape> pool = pool(rnd);
            FunctionMap functions = new FunctionMap(SYMBOLS);
            RangeTable table = new RangeTable(functions);
            Map<Shape, Expected> expected = new LinkedHashMap<>();
            List<Integer> slots = new ArrayList<>();
            int at = 0;
            for (int i = 0; i < 40_000; i++) {
                int mode = (i / 500) % 4;
                if (mode == 0) {
                    at = (at + 1) % 5; // a loop of five ranges
                } else if (mode == 1) {
                    at = at == 0 ? 1 + rnd.nextInt(2) : 0; // after 0, one of two successors
                } else if (mode == 2) {
                    at = at == 0 ? 1 + rnd.nextInt(3) : 0; // one of three: more than a slot remembers
                } else {
                    at = rnd.nextInt(pool.size());
                }
                Shape r = pool.get(at);
                int tracked = rnd.nextInt(5);
                boolean passed = rnd.nextInt(4) != 0;
                long cycles = rnd.nextInt(50);
                int s = table.slot(r.start(), r.end(), r.count(), r.isa(), r.sizes(), r.sizesIndex());
                table.ran(s, tracked, passed);
                table.cycles(s, cycles);
                assertThat(table.symbol(s)).isEqualTo(functions.at(r.start()));
                Expected e = expected.computeIfAbsent(r, Expected::new);
                if (e.times == 0) {
                    slots.add(s);
                }
                e.times++;
                e.failed += passed ? 0 : 1;
                e.cycles += cycles;
                if (e.tracked < 0) {
                    e.tracked = tracked;
                }
            }
            // slots are numbered in order of first sight, one per distinct (start, end, ISA)
            assertThat(slots).containsExactlyElementsOf(java.util.stream.IntStream.range(0, expected.size()).boxed().toList());
            assertThat(table.ranges).isEqualTo(expected.size());

            List<String> want = new ArrayList<>();
            for (Expected e : expected.values()) {
                Shape r = e.shape;
                long a = r.start();
                for (int i = 0; i < r.count(); i++) {
                    int size = r.sizes().size(r.sizesIndex() + i);
                    int f = functions.at(a) >= 0 ? functions.at(a) : e.tracked;
                    long failed = i == r.count() - 1 ? e.failed : 0;
                    want.add(String.format("%x %s %d %d %d %d %.6f", a, r.isa(), size, f, e.times - failed, failed,
                            (double) e.cycles / r.count()));
                    a += size;
                }
            }
            List<String> got = new ArrayList<>();
            table.forEachInstruction((address, isa, size, function, passed, failed, cycles) -> got.add(String.format(
                    "%x %s %d %d %d %d %.6f", address, isa, size, function, passed, failed, cycles)));
            assertThat(got).as("seed %d", seed).containsExactlyElementsOf(want);
        }
    }

    /** The decoder's primitive {@code range} call and the element give the same analysis (calls found by address). */
    @Test
    void rangesFromTheDecoderAndAsElementsAnalyseAlike() {
        MemoryImage m = new MemoryImage();
        m.add(0x8000, new byte[0x800], "code");
        ProgramImage image = new ProgramImage(m, SYMBOLS);
        SplittableRandom rnd = new SplittableRandom(3);
        List<Shape> pool = pool(rnd);
        TraceAnalysis direct = new TraceAnalysis(image);
        TraceAnalysis elements = new TraceAnalysis(image);
        for (int i = 0; i < 20_000; i++) {
            Shape r = pool.get(rnd.nextInt(pool.size()));
            WaypointKind kind = rnd.nextBoolean() ? WaypointKind.DIRECT_BRANCH : WaypointKind.INDIRECT_BRANCH;
            CallKind call = CallKind.values()[rnd.nextInt(CallKind.values().length)];
            boolean executed = rnd.nextInt(5) != 0;
            int source = rnd.nextInt(2);
            direct.range(source, r.start(), r.end(), r.count(), r.isa(), kind, call, executed, r.sizes(), r.sizesIndex());
            elements.accept(new InstructionRange(source, r.start(), r.end(), r.count(), r.isa(), kind, call, executed,
                    r.sizes(), (short) r.sizesIndex()));
            CycleCount c = new CycleCount(source, rnd.nextInt(100));
            direct.accept(c);
            elements.accept(c);
            // the call sites (callgrind's positions: each edge's last call instruction) after every range
            assertThat(java.util.Arrays.copyOf(direct.tables.edgeSite, direct.tables.edges)).as("range %d", i)
                    .containsExactly(java.util.Arrays.copyOf(elements.tables.edgeSite, elements.tables.edges));
        }
        direct.end();
        elements.end();
        assertThat(direct.calls()).isPositive();
        assertThat(direct.calls()).isEqualTo(elements.calls());
        assertThat(direct.elements()).isEqualTo(elements.elements());
        assertThat(describe(direct)).isEqualTo(describe(elements));
        assertThat(direct.tables.edges).isGreaterThan(1);
    }

    private static String describe(TraceAnalysis a) {
        StringWriter w = new StringWriter();
        Profile p = new Profile(a);
        p.writeFolded(new PrintWriter(w), false);
        p.writeTable(new PrintWriter(w), Profile.By.FUNCTION, 50);
        new CallGraph(a).writeCallgrind(new PrintWriter(w), null);
        return w.toString();
    }
}
