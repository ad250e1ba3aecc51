package io.armtrace.view;

import java.io.PrintWriter;
import java.util.Arrays;

/**
 * The outermost levels of the call stack over time, kept small enough to draw in the HTML report as an SVG
 * (no scripts): slices of the first {@link #LEVELS} stack levels with their start and end in instructions and
 * cycles. At most {@link #CAPACITY} slices are kept; when full, the shortest go (those shorter than a
 * threshold that doubles each time), so memory is fixed and the long activations, which are what a picture a
 * thousand pixels wide can show, stay.
 */
final class TimelineSketch implements CallStack.Frames {
    static final int LEVELS = 4;
    static final int CAPACITY = 4096;
    static final int WIDTH = 1000;
    static final int ROW = 18;

    private final CallStack stack;
    private final FunctionMap functions;

    private int count;
    private final byte[] level = new byte[CAPACITY];
    private final int[] function = new int[CAPACITY];
    private final long[] startInsn = new long[CAPACITY];
    private final long[] endInsn = new long[CAPACITY];
    private final long[] startCycles = new long[CAPACITY];
    private final long[] endCycles = new long[CAPACITY];
    /** Slices shorter than this (in instructions) are not kept. */
    private long threshold;

    private final int[] openFunction = new int[LEVELS];
    private final long[] openInsn = new long[LEVELS];
    private final long[] openCycles = new long[LEVELS];
    private int depth;

    TimelineSketch(CallStack stack, FunctionMap functions) {
        this.stack = stack;
        this.functions = functions;
    }

    @Override
    public void opened(int lvl, int fn, byte kind) {
        if (lvl < LEVELS) {
            closeTo(lvl);
            openFunction[lvl] = fn;
            openInsn[lvl] = stack.instructions;
            openCycles[lvl] = stack.cycles;
            depth = lvl + 1;
        }
    }

    @Override
    public void closed(int lvl) {
        closeTo(lvl);
    }

    @Override
    public void moved(int lvl, int fn) {
        if (lvl < depth) {
            closeTo(lvl);
            opened(lvl, fn, CallStack.FRAME_CALL);
        }
    }

    @Override
    public void outermostDropped() {
        // the outermost slice ends here; the others move one level out
        closeTo(0);
    }

    private void closeTo(int lvl) {
        while (depth > lvl) {
            depth--;
            add(depth, openFunction[depth], openInsn[depth], stack.instructions, openCycles[depth], stack.cycles);
        }
    }

    private void add(int lvl, int fn, long s, long e, long sc, long ec) {
        if (e - s < threshold || e <= s) {
            return;
        }
        if (count == CAPACITY) {
            threshold = Math.max(1, threshold * 2);
            int kept = 0;
            for (int i = 0; i < count; i++) {
                if (endInsn[i] - startInsn[i] >= threshold) {
                    level[kept] = level[i];
                    function[kept] = function[i];
                    startInsn[kept] = startInsn[i];
                    endInsn[kept] = endInsn[i];
                    startCycles[kept] = startCycles[i];
                    endCycles[kept] = endCycles[i];
                    kept++;
                }
            }
            count = kept;
            if (e - s < threshold || count == CAPACITY) {
                return;
            }
        }
        level[count] = (byte) lvl;
        function[count] = fn;
        startInsn[count] = s;
        endInsn[count] = e;
        startCycles[count] = sc;
        endCycles[count] = ec;
        count++;
    }

    /** Slices kept. */
    int slices() {
        return count;
    }

    /**
     * Writes the sketch as an inline SVG, on cycles when the trace counted them ({@code cycles}), else on
     * instructions; each slice has its function's name as its tooltip. Nothing when no slice was kept.
     */
    void writeSvg(PrintWriter out, boolean cycles) {
        if (count == 0) {
            return;
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total = Math.max(total, cycles ? endCycles[i] : endInsn[i]);
        }
        if (total <= 0) {
            return;
        }
        int rows = 0;
        for (int i = 0; i < count; i++) {
            rows = Math.max(rows, level[i] + 1);
        }
        out.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
                + "style=\"font:11px sans-serif;border:1px solid #ddd\">%n", WIDTH, rows * ROW + 16);
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> level[a] != level[b] ? level[a] - level[b]
                : Long.compare(startInsn[a], startInsn[b]));
        for (int k = 0; k < count; k++) {
            int i = order[k];
            double x0 = WIDTH * (double) (cycles ? startCycles[i] : startInsn[i]) / total;
            double x1 = WIDTH * (double) (cycles ? endCycles[i] : endInsn[i]) / total;
            if (x1 - x0 < 0.5) {
                continue;
            }
            String name = functions.name(function[i]);
            int hue = Math.floorMod(name.hashCode(), 360);
            out.printf("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"hsl(%d,55%%,75%%)\">"
                    + "<title>%s</title></rect>%n", x0, level[i] * ROW, x1 - x0, ROW - 2, hue, HtmlReport.esc(name));
            if (x1 - x0 > 7 * name.length() + 4) {
                out.printf("<text x=\"%.1f\" y=\"%d\">%s</text>%n", x0 + 2, level[i] * ROW + 12, HtmlReport.esc(name));
            }
        }
        out.printf("<text x=\"0\" y=\"%d\" fill=\"#666\">0</text><text x=\"%d\" y=\"%d\" fill=\"#666\" text-anchor=\"end\">%d %s</text>%n",
                rows * ROW + 12, WIDTH, rows * ROW + 12, total, cycles ? "cycles" : "instructions");
        out.println("</svg>");
    }
}
