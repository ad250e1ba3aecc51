package io.armtrace.execution;

import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The execution record text format (docs/execution-format.md): one event per line.
 *
 * <pre>
 * armtrace-execution 1 profile=AR core=cortex-a9
 * I 60010008 A32 4 E          instruction: address, ISA, size, E executed / N condition failed
 * X 6 60010234 60010018       exception taken: number, preferred return address, handler address
 * R 60010234                  exception return: address execution resumes at
 * </pre>
 *
 * Version 2 adds what Armv8 cores need: the header's exception level and security state
 * ({@code el=1 security=non-secure}), the exception level on {@code X} and {@code R} lines and the
 * exception class of synchronous AArch64 exceptions ({@code X 8 40200040 ffffff8040005400 el=1 ec=0x15},
 * {@code R 40200040 el=0}). Addresses have up to 16 hex digits in both versions (8 are written
 * below 2^32, 16 above). A record is written as version 1 unless its header states an exception
 * level or security state, so that version 1 records are rewritten byte for byte.
 *
 * Lines starting with {@code #} and blank lines are comments. Files may be gzip-compressed; the
 * readers recognise the gzip magic bytes.
 */
public final class ExecutionFormat {
    /** First word of the header line. */
    public static final String MAGIC = "armtrace-execution";
    /** The format version of records without exception levels and security state. */
    public static final int VERSION = 1;
    /** The format version of records whose header states an exception level or security state. */
    public static final int VERSION_2 = 2;

    private ExecutionFormat() {
    }

    /** The security state of a core: Secure or Non-secure (TrustZone; Arm DDI 0487 for A profile, DDI 0553 for Armv8-M). */
    public enum Security {
        SECURE("secure"), NON_SECURE("non-secure");

        private final String word;

        Security(String word) {
            this.word = word;
        }

        /** The word the header line uses. */
        public String word() {
            return word;
        }
    }

    /**
     * The header line: the profile of the core that executed, a free-form core name, and where the
     * record states them (version 2), the exception level of the first instruction ({@code el}, 0-3,
     * or {@link ExecutionEvent.ExceptionTaken#UNKNOWN}) and the security state the core runs in (or
     * null).
     */
    public record Header(Profile profile, String core, int el, Security security) {
        public Header {
            if (profile == null) {
                throw new IllegalArgumentException("an execution record needs a profile");
            }
            if (core == null || core.isEmpty()) {
                core = "unknown";
            }
            for (int i = 0; i < core.length(); i++) {
                if (core.charAt(i) <= ' ') {
                    throw new IllegalArgumentException("core name must not contain white space: '" + core + "'");
                }
            }
            if (el < ExecutionEvent.ExceptionTaken.UNKNOWN || el > 3) {
                throw new IllegalArgumentException("exception level " + el + " is not 0 to 3");
            }
        }

        /** A header without exception level and security state (a version 1 record). */
        public Header(Profile profile, String core) {
            this(profile, core, ExecutionEvent.ExceptionTaken.UNKNOWN, null);
        }

        /** The format version a record with this header is written in. */
        public int version() {
            return el >= 0 || security != null ? VERSION_2 : VERSION;
        }
    }

    /** A malformed record: names the line. */
    public static final class FormatException extends RuntimeException {
        private final long line;

        public FormatException(long line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        public long line() {
            return line;
        }
    }

    // ---------------------------------------------------------------- reading

    /** Reads a whole record (plain or gzip-compressed). */
    public static Execution read(Path file) throws IOException {
        try (Reader r = reader(Files.newInputStream(file))) {
            return r.readAll();
        }
    }

    /** Reads only the header of a record (plain or gzip-compressed). */
    public static Header readHeader(Path file) throws IOException {
        try (Reader r = reader(Files.newInputStream(file))) {
            return r.header();
        }
    }

    /** A streaming reader over {@code in} (plain or gzip-compressed); reads the header at once. */
    public static Reader reader(InputStream in) throws IOException {
        return new Reader(decompressIfGzip(in));
    }

    static InputStream decompressIfGzip(InputStream in) throws IOException {
        BufferedInputStream b = new BufferedInputStream(in, 1 << 16);
        b.mark(2);
        int m0 = b.read();
        int m1 = b.read();
        b.reset();
        if (m0 == 0x1f && m1 == 0x8b) {
            return new GZIPInputStream(b, 1 << 16);
        }
        return b;
    }

    /** Streams the events of a record, one line at a time. */
    public static final class Reader implements Closeable {
        private final BufferedReader in;
        private final Header header;
        private long lineNo;

        Reader(InputStream in) throws IOException {
            this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
            this.header = parseHeader();
        }

        public Header header() {
            return header;
        }

        /** Number of the line last read (1-based). */
        public long lineNumber() {
            return lineNo;
        }

        private String nextContentLine() throws IOException {
            String s;
            while ((s = in.readLine()) != null) {
                lineNo++;
                int i = skipSpace(s, 0);
                if (i < s.length() && s.charAt(i) != '#') {
                    return s;
                }
            }
            return null;
        }

        private Header parseHeader() throws IOException {
            String s = nextContentLine();
            if (s == null) {
                throw new FormatException(lineNo, "empty record: no '" + MAGIC + "' header line");
            }
            Tokens t = new Tokens(s, lineNo);
            if (!MAGIC.equals(t.word())) {
                throw new FormatException(lineNo, "the first line must start with '" + MAGIC + "'");
            }
            long version = t.decimal();
            if (version != VERSION && version != VERSION_2) {
                throw new FormatException(lineNo, "format version " + version + " is not supported (only "
                        + VERSION + " and " + VERSION_2 + ")");
            }
            Profile profile = null;
            String core = null;
            int el = ExecutionEvent.ExceptionTaken.UNKNOWN;
            Security security = null;
            while (t.more()) {
                String kv = t.word();
                int eq = kv.indexOf('=');
                String key = eq < 0 ? kv : kv.substring(0, eq);
                String value = eq < 0 ? "" : kv.substring(eq + 1);
                switch (key) {
                    case "profile" -> {
                        if (value.equals("AR")) {
                            profile = Profile.AR;
                        } else if (value.equals("M")) {
                            profile = Profile.M;
                        } else {
                            throw new FormatException(lineNo, "profile must be AR or M, not '" + value + "'");
                        }
                    }
                    case "core" -> core = value;
                    case "el" -> el = exceptionLevel(value, lineNo);
                    case "security" -> {
                        if (value.equals(Security.SECURE.word())) {
                            security = Security.SECURE;
                        } else if (value.equals(Security.NON_SECURE.word())) {
                            security = Security.NON_SECURE;
                        } else {
                            throw new FormatException(lineNo, "security must be secure or non-secure, not '" + value + "'");
                        }
                    }
                    default -> {
                        // unknown keys are allowed: later versions may add information
                    }
                }
            }
            if (profile == null) {
                throw new FormatException(lineNo, "the header line has no profile=AR|M");
            }
            try {
                return new Header(profile, core, el, security);
            } catch (IllegalArgumentException e) {
                throw new FormatException(lineNo, e.getMessage());
            }
        }

        /** The next event, or null at the end of the record. */
        public ExecutionEvent next() throws IOException {
            String s = nextContentLine();
            if (s == null) {
                return null;
            }
            Tokens t = new Tokens(s, lineNo);
            String kind = t.word();
            ExecutionEvent e;
            switch (kind) {
                case "I" -> {
                    long addr = t.hex();
                    String isaName = t.word();
                    Isa isa = switch (isaName) {
                        case "A32" -> Isa.A32;
                        case "T32" -> Isa.T32;
                        case "J" -> Isa.JAZELLE;
                        case "TEE" -> Isa.THUMB_EE;
                        case "A64" -> Isa.A64;
                        default -> throw new FormatException(lineNo, "unknown ISA '" + isaName + "' (A32, T32, J, TEE, A64)");
                    };
                    long size = t.decimal();
                    if (size != 1 && size != 2 && size != 4) {
                        throw new FormatException(lineNo, "instruction size " + size + " is not 1, 2 or 4");
                    }
                    String ex = t.word();
                    boolean executed;
                    if (ex.equals("E")) {
                        executed = true;
                    } else if (ex.equals("N")) {
                        executed = false;
                    } else {
                        throw new FormatException(lineNo, "executed flag must be E or N, not '" + ex + "'");
                    }
                    e = new ExecutionEvent.Step(addr, isa, (int) size, executed);
                }
                case "X" -> {
                    long number = t.decimal();
                    long ret = t.hex();
                    long handler = t.hex();
                    if (number > 511) {
                        throw new FormatException(lineNo, "exception number " + number + " out of range");
                    }
                    int el = ExecutionEvent.ExceptionTaken.UNKNOWN;
                    int ec = ExecutionEvent.ExceptionTaken.UNKNOWN;
                    while (t.more()) {
                        String kv = t.word();
                        if (kv.startsWith("el=") && el < 0) {
                            el = exceptionLevel(kv.substring(3), lineNo);
                        } else if (kv.startsWith("ec=") && ec < 0) {
                            ec = exceptionClass(kv.substring(3), lineNo);
                        } else {
                            throw new FormatException(lineNo, "unexpected '" + kv + "' (el=N, ec=0xNN) in '" + s + "'");
                        }
                    }
                    e = new ExecutionEvent.ExceptionTaken((int) number, ret, handler, el, ec);
                }
                case "R" -> {
                    long resume = t.hex();
                    int el = ExecutionEvent.ExceptionTaken.UNKNOWN;
                    if (t.more()) {
                        String kv = t.word();
                        if (!kv.startsWith("el=")) {
                            throw new FormatException(lineNo, "unexpected '" + kv + "' (el=N) in '" + s + "'");
                        }
                        el = exceptionLevel(kv.substring(3), lineNo);
                    }
                    e = new ExecutionEvent.ExceptionReturned(resume, el);
                }
                default -> throw new FormatException(lineNo, "unknown event kind '" + kind + "' (I, X, R)");
            }
            if (t.more()) {
                throw new FormatException(lineNo, "unexpected text after the event: '" + s + "'");
            }
            return e;
        }

        /** Reads all remaining events. */
        public Execution readAll() throws IOException {
            List<ExecutionEvent> events = new ArrayList<>();
            ExecutionEvent e;
            while ((e = next()) != null) {
                events.add(e);
            }
            return new Execution(events);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static int exceptionLevel(String v, long lineNo) {
        if (v.length() != 1 || v.charAt(0) < '0' || v.charAt(0) > '3') {
            throw new FormatException(lineNo, "exception level must be 0 to 3, not '" + v + "'");
        }
        return v.charAt(0) - '0';
    }

    /** ESR_ELx.EC (bits 31:26 of the syndrome register, Arm DDI 0487 "ESR_EL1"): six bits, in hex. */
    private static int exceptionClass(String v, long lineNo) {
        int at = v.startsWith("0x") || v.startsWith("0X") ? 2 : 0;
        int ec = 0;
        if (at == v.length() || v.length() - at > 2) {
            throw new FormatException(lineNo, "exception class must be 0x00 to 0x3f, not '" + v + "'");
        }
        for (int i = at; i < v.length(); i++) {
            int d = Character.digit(v.charAt(i), 16);
            if (d < 0) {
                throw new FormatException(lineNo, "exception class must be 0x00 to 0x3f, not '" + v + "'");
            }
            ec = ec * 16 + d;
        }
        if (ec > 0x3f) {
            throw new FormatException(lineNo, "exception class must be 0x00 to 0x3f, not '" + v + "'");
        }
        return ec;
    }

    static int skipSpace(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** White-space separated fields of one line; no regex, no split. */
    static final class Tokens {
        private final String s;
        private final long line;
        private int pos;

        Tokens(String s, long line) {
            this.s = s;
            this.line = line;
        }

        boolean more() {
            pos = skipSpace(s, pos);
            return pos < s.length();
        }

        String word() {
            pos = skipSpace(s, pos);
            int start = pos;
            while (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t') {
                pos++;
            }
            if (start == pos) {
                throw new FormatException(line, "missing field in '" + s + "'");
            }
            return s.substring(start, pos);
        }

        long hex() {
            pos = skipSpace(s, pos);
            int start = pos;
            if (pos + 1 < s.length() && s.charAt(pos) == '0' && (s.charAt(pos + 1) == 'x' || s.charAt(pos + 1) == 'X')) {
                pos += 2;
                start = pos;
            }
            long v = 0;
            while (pos < s.length()) {
                int d = Character.digit(s.charAt(pos), 16);
                if (d < 0) {
                    break;
                }
                if (pos - start >= 16) {
                    throw new FormatException(line, "address wider than 64 bits in '" + s + "'");
                }
                v = (v << 4) | d;
                pos++;
            }
            if (start == pos || (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t')) {
                throw new FormatException(line, "expected a hexadecimal address in '" + s + "'");
            }
            return v;
        }

        long decimal() {
            pos = skipSpace(s, pos);
            int start = pos;
            long v = 0;
            while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                if (pos - start >= 9) {
                    throw new FormatException(line, "number too long in '" + s + "'");
                }
                v = v * 10 + (s.charAt(pos) - '0');
                pos++;
            }
            if (start == pos || (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t')) {
                throw new FormatException(line, "expected a decimal number in '" + s + "'");
            }
            return v;
        }
    }

    // ---------------------------------------------------------------- writing

    /** Writes a whole record; gzip-compressed when the file name ends in ".gz". */
    public static void write(Path file, Header header, Execution execution, String... comments) throws IOException {
        OutputStream out = Files.newOutputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            out = new GZIPOutputStream(out, 1 << 16);
        }
        try (EventWriter w = writer(out, header, comments)) {
            for (ExecutionEvent e : execution.events()) {
                w.write(e);
            }
        }
    }

    /** A streaming writer: writes the comments and the header line at once. */
    public static EventWriter writer(OutputStream out, Header header, String... comments) throws IOException {
        return new EventWriter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.US_ASCII), 1 << 16),
                header, comments);
    }

    /** Writes events one line each, reusing one buffer. */
    public static final class EventWriter implements Closeable {
        private final Writer out;
        private final char[] buf = new char[64];

        EventWriter(Writer out, Header header, String... comments) throws IOException {
            this.out = out;
            for (String c : comments) {
                for (String line : c.split("\n", -1)) {
                    out.write("# ");
                    out.write(line);
                    out.write('\n');
                }
            }
            out.write(MAGIC + " " + header.version() + " profile=" + header.profile().name() + " core=" + header.core()
                    + (header.el() >= 0 ? " el=" + header.el() : "")
                    + (header.security() != null ? " security=" + header.security().word() : "") + "\n");
        }

        public void write(ExecutionEvent e) {
            try {
                int n;
                if (e instanceof ExecutionEvent.Step s) {
                    buf[0] = 'I';
                    buf[1] = ' ';
                    n = address(s.address(), 2);
                    buf[n++] = ' ';
                    String isa = switch (s.isa()) {
                        case A32 -> "A32";
                        case T32 -> "T32";
                        case JAZELLE -> "J";
                        case THUMB_EE -> "TEE";
                        case A64 -> "A64";
                    };
                    isa.getChars(0, isa.length(), buf, n);
                    n += isa.length();
                    buf[n++] = ' ';
                    buf[n++] = (char) ('0' + s.size());
                    buf[n++] = ' ';
                    buf[n++] = s.executed() ? 'E' : 'N';
                } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                    buf[0] = 'X';
                    buf[1] = ' ';
                    String num = Integer.toString(x.number());
                    num.getChars(0, num.length(), buf, 2);
                    n = 2 + num.length();
                    buf[n++] = ' ';
                    n = address(x.preferredReturn(), n);
                    buf[n++] = ' ';
                    n = address(x.handler(), n);
                    n = exceptionLevel(x.el(), n);
                    if (x.exceptionClass() >= 0) {
                        buf[n++] = ' ';
                        buf[n++] = 'e';
                        buf[n++] = 'c';
                        buf[n++] = '=';
                        buf[n++] = '0';
                        buf[n++] = 'x';
                        buf[n++] = Character.forDigit((x.exceptionClass() >>> 4) & 0xF, 16);
                        buf[n++] = Character.forDigit(x.exceptionClass() & 0xF, 16);
                    }
                } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                    buf[0] = 'R';
                    buf[1] = ' ';
                    n = address(r.resume(), 2);
                    n = exceptionLevel(r.el(), n);
                } else {
                    throw new IllegalArgumentException("unknown event " + e);
                }
                buf[n++] = '\n';
                out.write(buf, 0, n);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }

        /** 8 hex digits for an address below 2^32 (as version 1 always wrote), 16 above. */
        private int address(long v, int at) {
            int digits = (v >>> 32) == 0 ? 8 : 16;
            for (int i = digits - 1; i >= 0; i--) {
                buf[at + digits - 1 - i] = Character.forDigit((int) ((v >>> (4 * i)) & 0xF), 16);
            }
            return at + digits;
        }

        private int exceptionLevel(int el, int at) {
            if (el < 0) {
                return at;
            }
            buf[at] = ' ';
            buf[at + 1] = 'e';
            buf[at + 2] = 'l';
            buf[at + 3] = '=';
            buf[at + 4] = (char) ('0' + el);
            return at + 5;
        }

        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
