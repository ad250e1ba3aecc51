package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceElement;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
    @Test
    void summarisesTheCaptureWithGapsErrorsAndExceptionsEscaped() {
        GroundTruth.Case c = GroundTruth.load("m3");
        TraceAnalysis a = new TraceAnalysis(c.image());
        for (TraceElement e : GroundTruth.elements(c)) {
            a.accept(e);
        }
        a.accept(new Gap(0x10, "corrupt <packet> & more", 1234));
        a.accept(new DecodeError(0x10, "branch to \"nowhere\"", 0x1000, 99));
        a.accept(new ExceptionEntry(0x10, 15, "SysTick", -1, false));
        a.end();
        StringWriter w = new StringWriter();
        new HtmlReport("m3 <test>").input("image m3.elf").section("ETM & m3", a).write(new PrintWriter(w), 10);
        String html = w.toString();
        long steps = c.execution().steps().size();
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n").doesNotContain("<script")
                .contains("<title>m3 &lt;test&gt;</title>")
                .contains("<h2>ETM &amp; m3</h2>")
                .contains("<td>instructions</td><td class=\"n\">" + steps + "</td>")
                .contains("corrupt &lt;packet&gt; &amp; more").contains("byte 1234")
                .contains("branch to &quot;nowhere&quot;").contains("address 0x00001000")
                .contains("<td>SysTick</td><td class=\"n\">1</td>")
                .contains("Top functions").contains("<code>quicksort</code>")
                .contains("Top source lines").contains("work.c:")
                .contains("functions hit");
        // the gap and the error are counted as warnings
        assertThat(html).contains("<td>gaps (trace lost)</td><td class=\"n warn\">1</td>")
                .contains("<td>decode errors</td><td class=\"n warn\">1</td>");
    }

    /**
     * The report draws the outer call-stack levels as an inline SVG: the function the trace starts in spans the
     * whole width, and every slice is a function the ground truth ran at that depth.
     */
    @Test
    void drawsASmallTimelineOfTheCallStackWithoutScripts() {
        GroundTruth.Case c = GroundTruth.load("m3");
        TraceAnalysis a = new TraceAnalysis(c.image()).sketch();
        for (TraceElement e : GroundTruth.elements(c)) {
            a.accept(e);
        }
        a.end();
        StringWriter w = new StringWriter();
        new HtmlReport("m3").section("m3", a).write(new PrintWriter(w), 10);
        String html = w.toString();
        assertThat(html).contains("<h3>Timeline</h3>").contains("<svg").doesNotContain("<script");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "<rect x=\"([0-9.]+)\" y=\"(\\d+)\" width=\"([0-9.]+)\"[^>]*><title>([^<]*)</title>").matcher(html);
        java.util.Set<String> names = new java.util.TreeSet<>();
        int outermost = 0;
        while (m.find()) {
            double x = Double.parseDouble(m.group(1));
            double width = Double.parseDouble(m.group(3));
            assertThat(x).isBetween(0.0, (double) TimelineSketch.WIDTH);
            assertThat(x + width).isLessThanOrEqualTo(TimelineSketch.WIDTH + 0.1);
            if (m.group(2).equals("0")) {
                outermost++;
                assertThat(width).as("the outermost function spans the trace").isGreaterThan(TimelineSketch.WIDTH * 0.99);
            }
            names.add(m.group(4));
        }
        assertThat(outermost).isEqualTo(1);
        java.util.Set<String> ran = new java.util.TreeSet<>();
        for (var s : c.execution().steps()) {
            var sym = c.image().symbols().lookup(s.address());
            if (sym != null) {
                ran.add(sym.name());
            }
        }
        assertThat(names).hasSizeGreaterThan(3).isSubsetOf(ran).contains("Reset_Handler", "work");
    }

    /**
     * Coverage rates are coloured as genhtml colours them (lcovrc: genhtml_hi_limit 90, genhtml_med_limit 75,
     * on the rate it shows with one decimal): not every covered function green.
     */
    @Test
    void coverageRatesAreColouredByGenhtmlsLimits() {
        assertThat(HtmlReport.rate(10, 10)).isEqualTo("hi");
        assertThat(HtmlReport.rate(9, 10)).isEqualTo("hi");
        assertThat(HtmlReport.rate(1799, 2000)).isEqualTo("hi"); // 89.95 shows as 90.0
        assertThat(HtmlReport.rate(1797, 2000)).isEqualTo("med"); // 89.85: below 90 however it rounds
        assertThat(HtmlReport.rate(3, 4)).isEqualTo("med");
        assertThat(HtmlReport.rate(2999, 4000)).isEqualTo("med"); // 74.975 shows as 75.0
        assertThat(HtmlReport.rate(7, 10)).isEqualTo("lo");
        assertThat(HtmlReport.rate(1, 10000)).isEqualTo("lo");
        assertThat(HtmlReport.rate(0, 0)).isEqualTo("hi"); // nothing to cover
        GroundTruth.Case c = GroundTruth.load("m3");
        TraceAnalysis a = new TraceAnalysis(c.image());
        for (TraceElement e : GroundTruth.elements(c)) {
            a.accept(e);
        }
        a.end();
        StringWriter w = new StringWriter();
        new HtmlReport("m3").section("ETM", a).write(new PrintWriter(w), 10);
        String html = w.toString();
        assertThat(html).contains(".hi{background:#a7fc9d}.med{background:#ffea20}.lo{background:#ff6230}");
        // each function's rate cell: its class follows its rate
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("<tr><td class=\"n\">(\\d+) / (\\d+)</td><td class=\"n (\\w+)\">").matcher(html);
        int rows = 0;
        java.util.Set<String> classes = new java.util.HashSet<>();
        while (m.find()) {
            double pct = 100.0 * Long.parseLong(m.group(1)) / Math.max(1, Long.parseLong(m.group(2)));
            String expected = Long.parseLong(m.group(2)) == 0 || pct >= 90 ? "hi" : pct >= 75 ? "med" : "lo";
            if (Math.abs(pct - 90) > 0.1 && Math.abs(pct - 75) > 0.1) { // away from the rounding of the limits
                assertThat(m.group(3)).as(m.group()).isEqualTo(expected);
            }
            classes.add(m.group(3));
            rows++;
        }
        assertThat(rows).isGreaterThan(10);
        assertThat(classes).contains("hi", "lo");
    }
}
