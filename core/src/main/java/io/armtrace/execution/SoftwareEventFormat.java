package io.armtrace.execution;

import io.armtrace.trace.DataTrace;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A known run of software trace: the text format that {@code armtrace encode --protocol itm|stm --events FILE}
 * reads (docs/software-events.md). Each line is one event, and each event is the element the decoder gives
 * back for it, so decode(encode(events)) can be compared with the events element for element. Two lines are
 * not elements: {@code sync} (a synchronization packet, which the decoder reports only the first time) and, for
 * the STM, {@code master} and {@code channel} (the master and channel of the messages that follow).
 */
public final class SoftwareEventFormat {
    /** Bits of each ITM payload size name. */
    private static final String[] SIZES = {"u8", "u16", "u32"};
    private static final String[] RELATIONS = {"synchronous", "timestamp-delayed", "packet-delayed", "both-delayed"};
    private static final String[] FUNCTIONS = {"entry", "exit", "return"};

    private SoftwareEventFormat() {
    }

    /** Reads the events of {@code file} for {@code protocol} ("itm" or "stm"), as elements of trace ID {@code source}. */
    public static List<TraceElement> read(Path file, String protocol, int source) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString(), protocol, source);
    }

    /**
     * Parses events; {@code name} names the text in messages. A line that is not an event of {@code protocol}
     * is a mistake, reported as an {@link IllegalArgumentException} that names the line.
     */
    public static List<TraceElement> parse(List<String> lines, String name, String protocol, int source) {
        boolean stm = switch (protocol.toLowerCase(Locale.ROOT)) {
            case "itm" -> false;
            case "stm" -> true;
            default -> throw new IllegalArgumentException("software events are ITM or STM events, not " + protocol + ".");
        };
        Parser p = new Parser(name, source, stm);
        for (int i = 0; i < lines.size(); i++) {
            p.line(i + 1, lines.get(i));
        }
        return p.out;
    }

    private static final class Parser {
        final String name;
        final int source;
        final boolean stm;
        final List<TraceElement> out = new ArrayList<>();
        int master;
        int channel;
        int lineNo;

        Parser(String name, int source, boolean stm) {
            this.name = name;
            this.source = source;
            this.stm = stm;
        }

        IllegalArgumentException error(String message) {
            return new IllegalArgumentException(name + " line " + lineNo + ": " + message + ".");
        }

        void line(int number, String text) {
            lineNo = number;
            List<String> t = tokens(text);
            if (t.isEmpty()) {
                return;
            }
            String verb = t.get(0).toLowerCase(Locale.ROOT);
            switch (verb) {
                case "sync" -> {
                    args(t, 1, 1);
                    out.add(new TraceOn(source, TraceOn.Reason.SYNC, -1));
                    master = 0; // an STM's VERSION after the ASYNC resets both
                    channel = 0;
                }
                case "timestamp" -> {
                    args(t, 2, 2);
                    out.add(new Timestamp(source, number(t.get(1), -1)));
                }
                default -> {
                    if (stm) {
                        stmLine(verb, t);
                    } else {
                        itmLine(verb, t);
                    }
                }
            }
        }

        void itmLine(String verb, List<String> t) {
            switch (verb) {
                case "overflow" -> {
                    args(t, 1, 1);
                    out.add(new TraceOn(source, TraceOn.Reason.OVERFLOW, -1));
                }
                case "port" -> {
                    args(t, 3, 4);
                    int port = (int) number(t.get(1), 255);
                    if (t.size() == 3 && t.get(2).startsWith("\"")) {
                        String s = t.get(2).substring(1);
                        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
                            out.add(new SoftwareMessage(source, SoftwareMessage.Kind.DATA, SoftwareMessage.NO_MASTER, port, 8,
                                    b & 0xFF, false, false));
                        }
                        return;
                    }
                    args(t, 4, 4);
                    int bytes = size(t.get(2));
                    out.add(new SoftwareMessage(source, SoftwareMessage.Kind.DATA, SoftwareMessage.NO_MASTER, port, 8 * bytes,
                            number(t.get(3), mask(8 * bytes)), false, false));
                }
                case "lts" -> {
                    args(t, 2, 3);
                    int relation = t.size() == 3 ? choice(t.get(2), RELATIONS) : 0;
                    out.add(new LocalTimestamp(source, number(t.get(1), -1), LocalTimestamp.Relation.values()[relation]));
                }
                case "exception" -> {
                    args(t, 3, 3);
                    int n = (int) number(t.get(1), 511);
                    out.add(new ExceptionTrace(source, ExceptionTrace.Function.values()[choice(t.get(2), FUNCTIONS)], n));
                }
                case "pc" -> {
                    args(t, 2, 2);
                    if (t.get(1).equalsIgnoreCase("sleep")) {
                        out.add(new PcSample(source, -1, true));
                    } else {
                        out.add(new PcSample(source, number(t.get(1), 0xFFFFFFFFL), false));
                    }
                }
                case "counters" -> {
                    args(t, 1, 7);
                    int bits = 0;
                    for (int i = 1; i < t.size(); i++) {
                        bits |= 1 << choice(t.get(i), EventCounterWrap.NAMES);
                    }
                    out.add(new EventCounterWrap(source, bits));
                }
                case "data" -> {
                    args(t, 4, 5);
                    int comparator = (int) number(t.get(1), 3);
                    String kind = t.get(2).toLowerCase(Locale.ROOT);
                    switch (kind) {
                        case "pc" -> {
                            args(t, 4, 4);
                            out.add(new DataTrace(source, comparator, DataTrace.Kind.PC_VALUE, number(t.get(3), 0xFFFFFFFFL), 4, false));
                        }
                        case "address" -> {
                            args(t, 4, 4);
                            out.add(new DataTrace(source, comparator, DataTrace.Kind.ADDRESS, number(t.get(3), 0xFFFF), 2, false));
                        }
                        case "read", "write" -> {
                            args(t, 5, 5);
                            int bytes = size(t.get(3));
                            out.add(new DataTrace(source, comparator, DataTrace.Kind.DATA_VALUE, number(t.get(4), mask(8 * bytes)),
                                    bytes, kind.equals("write")));
                        }
                        default -> throw error("data trace is 'pc', 'address', 'read' or 'write', not '" + t.get(2) + "'");
                    }
                }
                default -> throw error("'" + t.get(0) + "' is not an ITM event (sync, overflow, port, lts, timestamp, "
                        + "exception, pc, counters, data)");
            }
        }

        void stmLine(String verb, List<String> t) {
            switch (verb) {
                case "master" -> {
                    args(t, 2, 2);
                    master = (int) number(t.get(1), 0xFFFF);
                    channel = 0; // a new master starts on channel 0, as M8 and M16 say
                }
                case "channel" -> {
                    args(t, 2, 2);
                    channel = (int) number(t.get(1), 0xFFFF);
                }
                case "d4", "d8", "d16", "d32", "d64" -> {
                    int bits = Integer.parseInt(verb.substring(1));
                    Options o = options(t, 2, true);
                    message(SoftwareMessage.Kind.DATA, bits, number(t.get(1), mask(bits)), o);
                }
                case "flag" -> message(SoftwareMessage.Kind.FLAG, 0, 0, options(t, 1, false));
                case "trigger" -> message(SoftwareMessage.Kind.TRIGGER, 8, number(arg(t, 1), 0xFF), options(t, 2, false));
                case "freq" -> message(SoftwareMessage.Kind.FREQUENCY, 32, number(arg(t, 1), 0xFFFFFFFFL), options(t, 2, false));
                case "xsync" -> message(SoftwareMessage.Kind.XSYNC, 8, number(arg(t, 1), 0xFF), options(t, 2, false));
                case "user", "time" -> {
                    int bits = (int) number(arg(t, 1), 64);
                    if (bits % 4 != 0 || bits < (verb.equals("user") ? 4 : 0)) {
                        throw error(verb + " takes a size in bits, a multiple of 4 up to 64");
                    }
                    if (verb.equals("time") && (bits == 52 || bits == 60)) {
                        throw error("a time value is 0 to 48, 56 or 64 bits long (STPv2 has no 13 or 15 nibble size)");
                    }
                    message(verb.equals("user") ? SoftwareMessage.Kind.USER : SoftwareMessage.Kind.TIME, bits,
                            number(arg(t, 2), mask(bits)), options(t, 3, false));
                }
                case "error" -> {
                    args(t, 3, 3);
                    String which = t.get(1).toLowerCase(Locale.ROOT);
                    long v = number(t.get(2), 0xFF);
                    if (which.equals("master")) {
                        channel = 0; // MERR resets the channel
                        out.add(new SoftwareMessage(source, SoftwareMessage.Kind.MASTER_ERROR, master, channel, 8, v, false, false));
                    } else if (which.equals("global")) {
                        master = 0; // GERR resets master and channel
                        channel = 0;
                        out.add(new SoftwareMessage(source, SoftwareMessage.Kind.GLOBAL_ERROR, master, channel, 8, v, false, false));
                    } else {
                        throw error("an error is 'master' or 'global', not '" + t.get(1) + "'");
                    }
                }
                default -> throw error("'" + t.get(0) + "' is not an STM event (sync, master, channel, d4, d8, d16, d32, "
                        + "d64, flag, trigger, freq, user, time, xsync, error, timestamp)");
            }
        }

        record Options(boolean marker, long timestamp) {
        }

        /** {@code marker} (data only) and {@code ts=T} after the packet's own arguments. */
        Options options(List<String> t, int from, boolean markerAllowed) {
            if (t.size() < from) {
                throw error("'" + t.get(0) + "' needs " + (from - 1) + (from == 2 ? " value" : " values"));
            }
            boolean marker = false;
            long ts = -1;
            for (int i = from; i < t.size(); i++) {
                String a = t.get(i).toLowerCase(Locale.ROOT);
                if (a.equals("marker") && markerAllowed && !marker) {
                    marker = true;
                } else if (a.startsWith("ts=") && ts < 0) {
                    ts = number(a.substring(3), -1);
                    if (ts < 0) {
                        throw error("timestamps are at most 0x7fffffffffffffff here");
                    }
                } else {
                    throw error("'" + t.get(i) + "' is not an option of '" + t.get(0) + "'"
                            + (markerAllowed ? " (marker, ts=T)" : " (ts=T)"));
                }
            }
            return new Options(marker, ts);
        }

        void message(SoftwareMessage.Kind kind, int bits, long value, Options o) {
            if (o.timestamp() >= 0) {
                out.add(new Timestamp(source, o.timestamp()));
            }
            out.add(new SoftwareMessage(source, kind, master, channel, bits, value, o.marker(), o.timestamp() >= 0));
        }

        String arg(List<String> t, int i) {
            if (t.size() <= i) {
                throw error("'" + t.get(0) + "' needs " + i + (i == 1 ? " value" : " values"));
            }
            return t.get(i);
        }

        void args(List<String> t, int min, int max) {
            if (t.size() < min || t.size() > max) {
                throw error("'" + t.get(0) + "' takes " + (min == max ? String.valueOf(min - 1) : (min - 1) + " to " + (max - 1))
                        + (max == 2 ? " value" : " values") + ", not " + (t.size() - 1));
            }
        }

        int size(String s) {
            return 1 << choice(s, SIZES);
        }

        int choice(String s, String[] names) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equalsIgnoreCase(s)) {
                    return i;
                }
            }
            throw error("'" + s + "' is not one of " + String.join(", ", names));
        }

        /** A number, decimal or 0x hex, at most {@code max} (-1: any non-negative 64-bit value). */
        long number(String s, long max) {
            long v;
            try {
                v = s.startsWith("0x") || s.startsWith("0X") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseUnsignedLong(s);
            } catch (NumberFormatException e) {
                throw error("'" + s + "' is not a number");
            }
            if (max != -1 && Long.compareUnsigned(v, max) > 0) {
                throw error(s + " is larger than " + (max < 1024 ? String.valueOf(max) : "0x" + Long.toHexString(max)));
            }
            return v;
        }

        /** Splits a line into words; a "quoted string" is one word (its opening quote kept, escapes resolved). */
        List<String> tokens(String text) {
            List<String> t = new ArrayList<>();
            int i = 0;
            int n = text.length();
            while (i < n) {
                char c = text.charAt(i);
                if (c == '#') {
                    break;
                }
                if (Character.isWhitespace(c)) {
                    i++;
                    continue;
                }
                StringBuilder w = new StringBuilder();
                if (c == '"') {
                    w.append('"');
                    i++;
                    boolean closed = false;
                    while (i < n) {
                        char d = text.charAt(i++);
                        if (d == '"') {
                            closed = true;
                            break;
                        }
                        if (d == '\\' && i < n) {
                            char e = text.charAt(i++);
                            switch (e) {
                                case 'n' -> w.append('\n');
                                case 't' -> w.append('\t');
                                case 'r' -> w.append('\r');
                                case '0' -> w.append('\0');
                                case 'x' -> {
                                    if (i + 2 > n) {
                                        throw error("\\x needs two hex digits");
                                    }
                                    try {
                                        w.append((char) Integer.parseInt(text.substring(i, i + 2), 16));
                                    } catch (NumberFormatException ex) {
                                        throw error("\\x needs two hex digits");
                                    }
                                    i += 2;
                                }
                                default -> w.append(e);
                            }
                        } else {
                            w.append(d);
                        }
                    }
                    if (!closed) {
                        throw error("the string has no closing quote");
                    }
                } else {
                    while (i < n && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '#') {
                        w.append(text.charAt(i++));
                    }
                }
                t.add(w.toString());
            }
            return t;
        }
    }

    private static long mask(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /**
     * The text of {@code events} (as {@link #parse} reads them back: the same elements). Elements that are not
     * software events of {@code protocol} are left out.
     */
    public static String write(List<TraceElement> events, String protocol) {
        boolean stm = protocol.equalsIgnoreCase("stm");
        StringBuilder sb = new StringBuilder();
        sb.append("# armtrace software events (").append(stm ? "STM" : "ITM").append(")\n");
        int master = 0;
        int channel = 0;
        long pendingTs = -1;
        for (TraceElement e : events) {
            if (pendingTs >= 0 && !(e instanceof SoftwareMessage sm && sm.timestamped())) {
                sb.append("timestamp ").append(Long.toUnsignedString(pendingTs)).append('\n'); // an STM NULL_TS
                pendingTs = -1;
            }
            if (e instanceof TraceOn t) {
                if (t.reason() == TraceOn.Reason.SYNC) {
                    sb.append("sync\n");
                    master = 0;
                    channel = 0;
                } else if (t.reason() == TraceOn.Reason.OVERFLOW && !stm) {
                    sb.append("overflow\n");
                }
            } else if (e instanceof Timestamp t) {
                if (stm) {
                    pendingTs = t.value(); // the ts= of the message that follows, or a NULL_TS
                } else {
                    sb.append("timestamp ").append(Long.toUnsignedString(t.value())).append('\n');
                }
            } else if (e instanceof SoftwareMessage m && m.master() == SoftwareMessage.NO_MASTER) {
                sb.append("port ").append(m.channel()).append(" u").append(m.bits()).append(" 0x")
                        .append(Long.toHexString(m.value())).append('\n');
            } else if (e instanceof SoftwareMessage m) {
                if (m.kind() == SoftwareMessage.Kind.GLOBAL_ERROR) {
                    sb.append("error global 0x").append(Long.toHexString(m.value())).append('\n');
                    master = 0;
                    channel = 0;
                    continue;
                }
                if (m.master() != master) {
                    sb.append("master 0x").append(Integer.toHexString(m.master())).append('\n');
                    master = m.master();
                    channel = 0;
                }
                if (m.kind() == SoftwareMessage.Kind.MASTER_ERROR) {
                    sb.append("error master 0x").append(Long.toHexString(m.value())).append('\n');
                    channel = 0;
                    continue;
                }
                if (m.channel() != channel) {
                    sb.append("channel 0x").append(Integer.toHexString(m.channel())).append('\n');
                    channel = m.channel();
                }
                switch (m.kind()) {
                    case DATA -> sb.append('d').append(m.bits()).append(" 0x").append(Long.toHexString(m.value()));
                    case FLAG -> sb.append("flag");
                    case TRIGGER -> sb.append("trigger 0x").append(Long.toHexString(m.value()));
                    case FREQUENCY -> sb.append("freq ").append(m.value());
                    case XSYNC -> sb.append("xsync 0x").append(Long.toHexString(m.value()));
                    case USER -> sb.append("user ").append(m.bits()).append(" 0x").append(Long.toHexString(m.value()));
                    case TIME -> sb.append("time ").append(m.bits()).append(" 0x").append(Long.toHexString(m.value()));
                    default -> {
                    }
                }
                if (m.marker()) {
                    sb.append(" marker");
                }
                if (m.timestamped() && pendingTs >= 0) {
                    sb.append(" ts=").append(pendingTs);
                    pendingTs = -1;
                }
                sb.append('\n');
            } else if (e instanceof LocalTimestamp l) {
                sb.append("lts ").append(l.ticks()).append(' ').append(RELATIONS[l.relation().ordinal()]).append('\n');
            } else if (e instanceof ExceptionTrace x) {
                sb.append("exception ").append(x.number()).append(' ').append(FUNCTIONS[x.function().ordinal()]).append('\n');
            } else if (e instanceof PcSample s) {
                sb.append(s.sleep() ? "pc sleep" : "pc 0x" + Long.toHexString(s.address())).append('\n');
            } else if (e instanceof EventCounterWrap w) {
                sb.append("counters");
                for (int i = 0; i < EventCounterWrap.NAMES.length; i++) {
                    if ((w.counters() >> i & 1) != 0) {
                        sb.append(' ').append(EventCounterWrap.NAMES[i]);
                    }
                }
                sb.append('\n');
            } else if (e instanceof DataTrace d) {
                sb.append("data ").append(d.comparator()).append(' ');
                switch (d.kind()) {
                    case PC_VALUE -> sb.append("pc 0x").append(Long.toHexString(d.value()));
                    case ADDRESS -> sb.append("address 0x").append(Long.toHexString(d.value()));
                    case DATA_VALUE -> sb.append(d.write() ? "write u" : "read u").append(8 * d.bytes()).append(" 0x")
                            .append(Long.toHexString(d.value()));
                }
                sb.append('\n');
            }
        }
        if (pendingTs >= 0) {
            sb.append("timestamp ").append(Long.toUnsignedString(pendingTs)).append('\n');
        }
        return sb.toString();
    }
}
