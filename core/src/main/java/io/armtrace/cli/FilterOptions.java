package io.armtrace.cli;

import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.source.IniFile;
import io.armtrace.source.InputException;
import io.armtrace.trace.ElementSink;
import io.armtrace.view.ElementFilter;
import io.armtrace.view.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * What a decode-based command shows of the decoded stream: an address range, functions, and a window
 * from --start to --stop. Decoding is the same with or without them.
 */
final class FilterOptions {
    @Option(names = "--from", paramLabel = "ADDR",
            description = "Show only instructions at or above ADDR (ranges are split there).")
    String from;

    @Option(names = "--to", paramLabel = "ADDR",
            description = "Show only instructions below ADDR (exclusive).")
    String to;

    @Option(names = "--function", paramLabel = "NAME",
            description = "Show only instructions inside the function NAME (from the ELF symbols). Repeatable.")
    List<String> functions = new ArrayList<>();

    @Option(names = "--start", paramLabel = "WHERE",
            description = "Show from this point of the trace on: insn:N (the Nth decoded instruction, from 0), "
                    + "cycle:N (running cycle count) or ts:N (timestamp); numbers in decimal or 0x hex.")
    String start;

    @Option(names = "--stop", paramLabel = "WHERE",
            description = "Show up to (not including) this point of the trace: insn:N, cycle:N or ts:N, as --start.")
    String stop;

    boolean active() {
        return from != null || to != null || !functions.isEmpty() || start != null || stop != null;
    }

    /** True when a bound counts cycles or timestamps, which needs a {@link Timeline} upstream. */
    boolean needsTimeline() {
        return measure(start) != ElementFilter.Measure.INSN || measure(stop) != ElementFilter.Measure.INSN;
    }

    private static ElementFilter.Measure measure(String bound) {
        return bound == null ? ElementFilter.Measure.INSN : bound("--start/--stop", bound).measure();
    }

    /** {@code sink} behind the filter; {@code timeline} may be null when {@link #needsTimeline()} is false. */
    ElementSink wrap(ElementSink sink, ProgramImage image, Timeline timeline) {
        if (!active()) {
            return sink;
        }
        return new ElementFilter(sink, image.memory(), ranges(image), start == null ? null : bound("--start", start),
                stop == null ? null : bound("--stop", stop), timeline);
    }

    /** Checks the options without an image (names of functions are checked per image). */
    void validate() {
        if (start != null) {
            bound("--start", start);
        }
        if (stop != null) {
            bound("--stop", stop);
        }
        if (from != null) {
            address("--from", from);
        }
        if (to != null) {
            address("--to", to);
        }
    }

    private List<ElementFilter.AddressRange> ranges(ProgramImage image) {
        long lo = from == null ? 0 : address("--from", from);
        long hi = to == null ? Long.MAX_VALUE : address("--to", to);
        List<ElementFilter.AddressRange> out = new ArrayList<>();
        if (functions.isEmpty()) {
            if (from != null || to != null) {
                out.add(new ElementFilter.AddressRange(lo, hi));
            }
            return out;
        }
        for (String name : functions) {
            Symbol s = image.symbols().find(name);
            if (s == null) {
                throw new InputException("--function " + clip(name) + ": the image has no symbol of that name"
                        + (image.symbols().isEmpty() ? " (it has no symbols: give the ELF file with --image)." : "."));
            }
            long end = s.size() > 0 ? s.address() + s.size() : image.symbols().nextStart(s.address());
            // with --from/--to as well: the part of the function inside them
            long a = Math.max(lo, s.address());
            long b = Math.min(hi, end);
            if (a < b) {
                out.add(new ElementFilter.AddressRange(a, b));
            }
        }
        if (out.isEmpty()) {
            out.add(new ElementFilter.AddressRange(0, 0)); // nothing left to show
        }
        return out;
    }

    private static long address(String option, String text) {
        try {
            long v = IniFile.parseNumber(text);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new InputException(option + " " + clip(text) + ": not an address (e.g. 0x80000000).");
        }
    }

    static ElementFilter.Bound bound(String option, String text) {
        int colon = text.indexOf(':');
        String kind = colon < 0 ? "" : text.substring(0, colon).toLowerCase(Locale.ROOT);
        ElementFilter.Measure m = switch (kind) {
            case "insn" -> ElementFilter.Measure.INSN;
            case "cycle", "cycles" -> ElementFilter.Measure.CYCLE;
            case "ts" -> ElementFilter.Measure.TS;
            default -> throw new InputException(option + " " + clip(text)
                    + ": expected insn:N, cycle:N or ts:N (e.g. insn:1000, ts:0x1234).");
        };
        try {
            // decimal or 0x hex only: a leading zero is not octal here (insn:0100 is instruction 100)
            String n = text.substring(colon + 1).trim();
            if (!n.chars().allMatch(c -> c < 0x80)) {
                throw new NumberFormatException(); // ASCII digits only (parseUnsignedLong takes full-width ones)
            }
            long v = n.startsWith("0x") || n.startsWith("0X") ? Long.parseUnsignedLong(n.substring(2), 16)
                    : Long.parseUnsignedLong(n);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return new ElementFilter.Bound(m, v);
        } catch (NumberFormatException e) {
            throw new InputException(option + " " + clip(text) + ": the value after '" + kind + ":' is not a number.");
        }
    }

    private static String clip(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
