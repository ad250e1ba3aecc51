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
}
