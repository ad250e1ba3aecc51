package io.armtrace.view;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One self-contained HTML page (inline CSS, no scripts) about a capture: per decoded source a summary
 * (instructions, gaps, exceptions, errors), the functions that took the most instructions, and the
 * coverage summary.
 */
public final class HtmlReport {
    private final String title;
    private final List<String> inputs = new ArrayList<>();
    private final List<Section> sections = new ArrayList<>();

    private record Section(String label, TraceAnalysis analysis, Coverage coverage) {
    }

    private record SoftwareSection(String label, SoftwareTraceSummary summary) {
    }

    private final List<SoftwareSection> software = new ArrayList<>();

    /** Adds what the DWT of a software trace source said (exception trace, PC samples); shown after the decoded sources. */
    public HtmlReport software(String label, SoftwareTraceSummary summary) {
        software.add(new SoftwareSection(label, summary));
        return this;
    }

    public HtmlReport(String title) {
        this.title = title;
    }

    /** A line about the inputs (files, snapshot), shown at the top. */
    public HtmlReport input(String description) {
        inputs.add(description);
        return this;
    }

    /** Adds a decoded source; {@code analysis} must have seen the whole stream (and its end). */
    public HtmlReport section(String label, TraceAnalysis analysis) {
        sections.add(new Section(label, analysis, new Coverage(analysis)));
        return this;
    }

    public void write(PrintWriter out, int topFunctions) {
        out.println("<!DOCTYPE html>");
        out.println("<html lang=\"en\"><head><meta charset=\"utf-8\">");
        out.println("<title>" + esc(title) + "</title>");
        out.println("<style>");
        out.println("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:70em}");
        out.println("h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}");
        out.println("table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;text-align:left;border-bottom:1px solid #eee}");
        out.println("td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.95em}");
        out.println(".bar{background:#4a7bb7;height:.8em;display:inline-block}.warn{color:#a40}.ok{color:#272}");
        // coverage rates coloured as genhtml colours them (its default limits and legend colours)
        out.println(".hi{background:#a7fc9d}.med{background:#ffea20}.lo{background:#ff6230}");
        out.println("</style></head><body>");
        out.println("<h1>" + esc(title) + "</h1>");
        for (String i : inputs) {
            out.println("<p><code>" + esc(i) + "</code></p>");
        }
        for (Section s : sections) {
            section(out, s, topFunctions);
        }
        for (SoftwareSection s : software) {
            software(out, s, topFunctions);
        }
        out.println("<p style=\"color:#888;font-size:.85em\">Written by armtrace.</p>");
        out.println("</body></html>");
        out.flush();
    }

    private void section(PrintWriter out, Section s, int top) {
        TraceAnalysis a = s.analysis();
        out.println("<h2>" + esc(s.label()) + "</h2>");
        out.println("<h3>Capture</h3><table>");
        row(out, "trace sources", a.summary.sources.isEmpty() ? "none" : a.summary.sources.stream()
                .map(CaptureSummary::sourceText).reduce((x, y) -> x + ", " + y).orElse(""));
        row(out, "elements", a.summary.elements);
        row(out, "instructions", a.summary.instructions);
        row(out, "instruction ranges", a.summary.rangeElements);
        if (a.summary.pathlessInstructions > 0) {
            row(out, "instructions without a traced path", a.summary.pathlessInstructions);
        }
        if (a.summary.cycles > 0) {
            row(out, "cycles", a.summary.cycles);
        }
        row(out, "calls (branches with link)", a.calls());
        long exceptions = a.summary.exceptionsByName.values().stream().mapToLong(Long::longValue).sum();
        row(out, "exceptions", exceptions);
        row(out, "exception returns", a.summary.exceptionReturns);
        row(out, "trace (re)starts", a.summary.traceOns);
        if (a.summary.timestamps > 0) {
            row(out, "timestamps", a.summary.timestamps);
        }
        if (a.summary.contexts > 0) {
            row(out, "context changes", a.summary.contexts);
        }
        if (a.summary.events > 0) {
            row(out, "events", a.summary.events);
        }
        if (a.summary.triggers > 0) {
            row(out, "triggers", a.summary.triggers);
        }
        rowWarn(out, "gaps (trace lost)", a.summary.gaps);
        rowWarn(out, "code not in the image", a.summary.noImage);
        rowWarn(out, "decode errors", a.summary.errors);
        out.println("</table>");
        if (!a.summary.exceptionsByName.isEmpty()) {
            out.println("<table><tr><th>exception</th><th class=\"n\">taken</th></tr>");
            for (Map.Entry<String, Long> e : a.summary.exceptionsByName.entrySet()) {
                out.println("<tr><td>" + esc(e.getKey()) + "</td><td class=\"n\">" + e.getValue() + "</td></tr>");
            }
            out.println("</table>");
        }
        TimelineSketch sketch = a.timelineSketch();
        if (sketch != null && sketch.slices() > 0) {
            out.println("<h3>Timeline</h3>");
            out.println("<p>The outer " + TimelineSketch.LEVELS + " levels of the call stack over the trace ('armtrace timeline' "
                    + "writes all of it for Perfetto UI or speedscope).</p>");
            sketch.writeSvg(out, a.summary.cycles > 0);
        }
        messages(out, "Gaps", a.summary.gapMessages, a.summary.gaps);
        messages(out, "Decode errors", a.summary.errorMessages, a.summary.errors);

        Profile p = new Profile(a);
        List<Profile.Entry> fns = p.byFunction();
        out.println("<h3>Top functions</h3>");
        if (fns.isEmpty()) {
            out.println("<p>No instructions were decoded.</p>");
        } else {
            boolean cycles = a.summary.cycles > 0;
            out.println("<table><tr><th class=\"n\">instructions</th><th class=\"n\">%</th>"
                    + (cycles ? "<th class=\"n\">cycles</th>" : "") + "<th class=\"n\">calls in</th><th></th><th>function</th></tr>");
            double max = fns.get(0).instructions();
            for (int i = 0; i < fns.size() && i < top; i++) {
                Profile.Entry e = fns.get(i);
                int fn = indexOf(a.functions(), e.name());
                out.printf("<tr><td class=\"n\">%d</td><td class=\"n\">%.2f</td>%s<td class=\"n\">%d</td>"
                                + "<td><span class=\"bar\" style=\"width:%.1fem\"></span></td><td><code>%s</code></td></tr>%n",
                        e.instructions(), Profile.pct(e.instructions(), a.summary.instructions),
                        cycles ? String.format("<td class=\"n\">%.0f</td>", e.cycles()) : "",
                        fn < 0 ? 0 : a.callsInto(fn), 12 * e.instructions() / max, esc(e.name()));
            }
            out.println("</table>");
        }

        if (!a.image.lines().isEmpty() && !fns.isEmpty()) {
            List<Profile.Entry> lines = p.byLine();
            out.println("<h3>Top source lines</h3>");
            out.println("<table><tr><th class=\"n\">instructions</th><th class=\"n\">%</th><th>line</th><th>function</th></tr>");
            for (int i = 0; i < lines.size() && i < top; i++) {
                Profile.Entry e = lines.get(i);
                out.printf("<tr><td class=\"n\">%d</td><td class=\"n\">%.2f</td><td><code>%s</code></td><td><code>%s</code></td></tr>%n",
                        e.instructions(), Profile.pct(e.instructions(), a.summary.instructions), esc(e.name()), esc(e.function()));
            }
            out.println("</table>");
        }

        Coverage.Result r = s.coverage().result();
        out.println("<h3>Coverage</h3>");
        long fnTotal = r.functions().size();
        long insnTotal = r.functions().stream().mapToLong(Coverage.FunctionCoverage::instructions).sum();
        long insnHit = r.functions().stream().mapToLong(Coverage.FunctionCoverage::instructionsHit).sum();
        out.println("<table>");
        if (fnTotal > 0) {
            out.printf("<tr><td>functions hit</td><td class=\"n\">%d of %d</td><td class=\"n %s\">%.1f%%</td></tr>%n",
                    r.functionsHit(), fnTotal, rate(r.functionsHit(), fnTotal), Profile.pct(r.functionsHit(), fnTotal));
            out.printf("<tr><td>instructions executed</td><td class=\"n\">%d of %d</td><td class=\"n %s\">%.1f%%</td></tr>%n",
                    insnHit, insnTotal, rate(insnHit, insnTotal), Profile.pct(insnHit, insnTotal));
        } else {
            out.printf("<tr><td>distinct instructions executed</td><td class=\"n\">%d</td><td>(no function symbols: totals unknown)</td></tr>%n",
                    r.instructionsHit());
        }
        if (r.linesTotal() > 0) {
            out.printf("<tr><td>source lines hit</td><td class=\"n\">%d of %d</td><td class=\"n %s\">%.1f%%</td></tr>%n",
                    r.linesHit(), r.linesTotal(), rate(r.linesHit(), r.linesTotal()), Profile.pct(r.linesHit(), r.linesTotal()));
        }
        out.printf("<tr><td>conditional instructions seen passing and failing</td><td class=\"n\">%d of %d</td><td class=\"n %s\">%.1f%%</td></tr>%n",
                r.bothWays(), r.conditionals(), rate(r.bothWays(), r.conditionals()), Profile.pct(r.bothWays(), r.conditionals()));
        out.println("</table>");
        if (fnTotal > 0) {
            out.println("<table><tr><th class=\"n\">instructions</th><th class=\"n\">%</th><th class=\"n\">lines</th>"
                    + "<th class=\"n\">conditions both ways</th><th>function</th></tr>");
            for (Coverage.FunctionCoverage f : r.functions()) {
                out.printf("<tr><td class=\"n\">%d / %d</td><td class=\"n %s\">%.1f</td><td class=\"n\">%d / %d</td>"
                                + "<td class=\"n\">%d / %d</td><td><code>%s</code></td></tr>%n",
                        f.instructionsHit(), f.instructions(), rate(f.instructionsHit(), f.instructions()),
                        Profile.pct(f.instructionsHit(), f.instructions()),
                        f.linesHit(), f.linesTotal(), f.bothWays(), f.conditionals(), esc(f.name()));
            }
            out.println("</table>");
        }
    }

    private void software(PrintWriter out, SoftwareSection s, int top) {
        SoftwareTraceSummary t = s.summary();
        out.println("<h2>" + esc(s.label()) + "</h2>");
        List<SoftwareTraceSummary.ExceptionLine> ex = t.exceptions();
        out.println("<h3>Exception trace</h3>");
        if (ex.isEmpty()) {
            out.println("<p>No exception trace.</p>");
        } else {
            out.println("<table><tr><th>exception</th><th class=\"n\">entered</th><th class=\"n\">exited</th>"
                    + (t.timed() ? "<th class=\"n\">time in handler (local timestamp ticks)</th><th class=\"n\">per exit</th>" : "")
                    + "</tr>");
            for (SoftwareTraceSummary.ExceptionLine l : ex) {
                out.printf("<tr><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td>%s</tr>%n", esc(l.name()), l.entered(),
                        l.exited(), t.timed() ? String.format("<td class=\"n\">%d</td><td class=\"n\">%.1f</td>", l.ticks(),
                                l.exited() == 0 ? 0.0 : (double) l.ticks() / l.exited()) : "");
            }
            out.println("</table>");
            if (!t.timed()) {
                out.println("<p>Local timestamps were off: no time in handlers.</p>");
            }
        }
        if (t.samples() > 0) {
            out.println("<h3>PC samples</h3>");
            out.println("<table><tr><th class=\"n\">samples</th><th class=\"n\">%</th><th>function</th></tr>");
            List<SoftwareTraceSummary.SampleLine> lines = t.samplesByFunction();
            for (int i = 0; i < lines.size() && i < top; i++) {
                SoftwareTraceSummary.SampleLine l = lines.get(i);
                out.printf("<tr><td class=\"n\">%d</td><td class=\"n\">%.2f</td><td><code>%s</code></td></tr>%n", l.samples(),
                        Profile.pct(l.samples(), t.samples()), esc(l.function()));
            }
            if (t.sleeping() > 0) {
                out.printf("<tr><td class=\"n\">%d</td><td class=\"n\">%.2f</td><td>(asleep)</td></tr>%n", t.sleeping(),
                        Profile.pct(t.sleeping(), t.samples()));
            }
            out.println("</table>");
        }
    }

    /** genhtml's default limits (lcovrc genhtml_hi_limit 90, genhtml_med_limit 75). */
    static final double HI_LIMIT = 90;
    static final double MED_LIMIT = 75;

    /**
     * The colour class of a coverage rate, as genhtml chooses it: hi from 90%, med from 75%, else lo, on
     * the rate as shown with one decimal (never 100.0 unless all were hit, never 0.0 if any was); nothing
     * to cover counts as hi.
     */
    static String rate(long hit, long total) {
        if (total == 0) {
            return "hi";
        }
        double shown = Math.round(1000.0 * hit / total) / 10.0;
        if (shown == 0 && hit > 0) {
            shown = 0.1;
        } else if (shown == 100 && hit != total) {
            shown = 99.9;
        }
        return shown >= HI_LIMIT ? "hi" : shown >= MED_LIMIT ? "med" : "lo";
    }

    private static int indexOf(FunctionMap f, String name) {
        for (int i = 0; i < f.count(); i++) {
            if (f.name(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static void messages(PrintWriter out, String what, List<String> list, long total) {
        if (list.isEmpty()) {
            return;
        }
        out.println("<h3>" + what + "</h3><ul>");
        for (String m : list) {
            out.println("<li><code>" + esc(m) + "</code></li>");
        }
        if (total > list.size()) {
            out.println("<li>... and " + (total - list.size()) + " more</li>");
        }
        out.println("</ul>");
    }

    private static void row(PrintWriter out, String k, Object v) {
        out.println("<tr><td>" + esc(k) + "</td><td class=\"n\">" + esc(String.valueOf(v)) + "</td></tr>");
    }

    private static void rowWarn(PrintWriter out, String k, long v) {
        out.println("<tr><td>" + esc(k) + "</td><td class=\"n " + (v > 0 ? "warn" : "ok") + "\">" + v + "</td></tr>");
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
