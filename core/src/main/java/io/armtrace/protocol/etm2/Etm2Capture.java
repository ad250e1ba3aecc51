package io.armtrace.protocol.etm2;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The three capture formats armtrace reads for ETMv1/ETMv2 trace ports (docs/etm2-capture-formats.md):
 * <ul>
 * <li>{@link Format#CYCLES}: armtrace's own per-cycle records, a 16-byte header then 3 bytes a cycle;</li>
 * <li>{@link Format#CSV}: text, one cycle a line (PIPESTAT, TRACEPKT, TRACESYNC), as logic analyzers export;</li>
 * <li>{@link Format#ETB}: 32-bit little-endian words of an ETM9-class Embedded Trace Buffer, 3, 2 or 1 cycles
 * a word for 4-, 8- and 16-bit ports.</li>
 * </ul>
 * Reading streams: memory does not grow with the capture.
 */
final class Etm2Capture {
    static final byte[] MAGIC = "ARMTETM2".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER = 16;
    static final int RECORD = 3;

    enum Format { CYCLES, CSV, ETB }

    private Etm2Capture() {
    }

    /** The format of a capture that starts with {@code head}. */
    static Format detect(byte[] head, int n) {
        if (n >= MAGIC.length) {
            boolean m = true;
            for (int i = 0; i < MAGIC.length; i++) {
                m &= head[i] == MAGIC[i];
            }
            if (m) {
                return Format.CYCLES;
            }
        }
        if (n == 0) {
            return Format.CYCLES;
        }
        // Text: printable only, with a line break, and a first line of separated fields. ETB words of a
        // 4-bit port can be printable bytes, but not lines of separated fields.
        boolean newline = false;
        boolean separator = false;
        for (int i = 0; i < n; i++) {
            int c = head[i] & 0xFF;
            boolean text = c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7F);
            if (!text) {
                return Format.ETB;
            }
            if (c == '\n') {
                newline = true;
            } else if (!newline && (c == ',' || c == ';' || c == '\t' || c == ' ')) {
                separator = true;
            }
        }
        return (newline || n < 256) && separator ? Format.CSV : Format.ETB;
    }

    /** Header fields of a {@link Format#CYCLES} capture: ETM version and port width, 0 if not given. */
    record Header(int version, int portWidth) {
    }

    /** Writes the {@link Format#CYCLES} header. */
    static void writeHeader(ByteArrayOutputStream out, Etm2Config cfg) {
        out.write(MAGIC, 0, MAGIC.length);
        out.write(1); // record format version
        out.write(cfg.version());
        out.write(cfg.portWidth());
        out.write((cfg.cycleAccurate() ? 1 : 0) | (cfg.halfRate() ? 2 : 0));
        out.write(0);
        out.write(0);
        out.write(0);
        out.write(0);
    }

    static void writeRecord(ByteArrayOutputStream out, int pipestat, int tracepkt, boolean tracesync) {
        out.write((pipestat & 15) | (tracesync ? 0x10 : 0));
        out.write(tracepkt & 0xFF);
        out.write((tracepkt >> 8) & 0xFF);
    }

    /**
     * Reads a capture of any of the three formats from {@code in} into {@code sink}. Returns the header of a
     * {@link Format#CYCLES} capture (so that its version and width can stand in for missing registers), or
     * null for the other formats. {@code configure} is called with the header before the first cycle.
     */
    static Format read(InputStream in, java.util.function.Function<Header, Etm2Config> configure, Etm2CycleSink sink)
            throws IOException {
        byte[] buf = new byte[1 << 16];
        int n = readFully(in, buf, 0, buf.length);
        Format f = detect(buf, Math.min(n, 256));
        switch (f) {
            case CYCLES -> {
                Header h = new Header(0, 0);
                int start = 0;
                if (n >= HEADER && startsWithMagic(buf)) {
                    h = new Header(buf[9] & 0xFF, buf[10] & 0xFF);
                    start = HEADER;
                }
                configure.apply(h);
                readCycles(in, buf, start, n, sink);
            }
            case CSV -> {
                Etm2Config cfg = configure.apply(new Header(0, 0));
                readCsv(in, buf, n, cfg, sink);
            }
            case ETB -> {
                Etm2Config cfg = configure.apply(new Header(0, 0));
                readEtb(in, buf, n, cfg, sink);
            }
        }
        return f;
    }

    private static boolean startsWithMagic(byte[] b) {
        for (int i = 0; i < MAGIC.length; i++) {
            if (b[i] != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    static int readFully(InputStream in, byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = in.read(b, off + n, len - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    /** Handles one fixed-size record at {@code buf[pos]}. */
    @FunctionalInterface
    private interface RecordHandler {
        void record(byte[] buf, int pos);
    }

    /**
     * Streams fixed-size records: {@code n} bytes are in {@code buf} from {@code pos} on; more are read as
     * they are used up. A partial record at the end of the capture is reported with {@code partial}.
     */
    private static void readRecords(InputStream in, byte[] buf, int pos, int n, int size, String partial,
            Etm2CycleSink sink, RecordHandler handler) throws IOException {
        long base = 0;
        while (true) {
            while (n - pos >= size) {
                handler.record(buf, pos);
                pos += size;
            }
            int rest = n - pos;
            System.arraycopy(buf, pos, buf, 0, rest);
            base += pos;
            int r = readFully(in, buf, rest, buf.length - rest);
            if (r == 0) {
                if (rest > 0) {
                    sink.lost(base, partial);
                }
                return;
            }
            n = rest + r;
            pos = 0;
        }
    }

    private static void readCycles(InputStream in, byte[] buf, int pos, int n, Etm2CycleSink sink) throws IOException {
        readRecords(in, buf, pos, n, RECORD, "capture ends inside a cycle record", sink, (b, p) -> {
            int b0 = b[p] & 0xFF;
            int pkt = (b[p + 1] & 0xFF) | (b[p + 2] & 0xFF) << 8;
            sink.cycle(b0 & 15, pkt, (b0 & 0x10) != 0);
        });
    }

    private static void readEtb(InputStream in, byte[] buf, int n, Etm2Config cfg, Etm2CycleSink sink) throws IOException {
        int w = cfg.portWidth();
        int field = 3 + w + 1;
        int perWord = w == 4 ? 3 : w == 8 ? 2 : 1;
        int pktMask = (1 << w) - 1;
        boolean v2 = cfg.version() == 2;
        readRecords(in, buf, 0, n, 4, "capture ends inside an ETB word", sink, (b, p) -> {
            int word = (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
            for (int k = 0; k < perWord; k++) {
                int f = word >>> (k * field);
                int ps = f & 7;
                int pkt = (f >>> 3) & pktMask;
                boolean top = ((f >>> (3 + w)) & 1) != 0;
                if (v2) {
                    sink.cycle(ps | (top ? 8 : 0), pkt, false);
                } else {
                    sink.cycle(ps, pkt, top);
                }
            }
        });
    }

    /** Writes one ETB word's worth of cycles; {@code pipestat}, {@code pkt}, {@code sync} hold perWord cycles. */
    static int etbWord(Etm2Config cfg, int[] pipestat, int[] pkt, boolean[] sync, int from, int count) {
        int w = cfg.portWidth();
        int field = 3 + w + 1;
        int word = 0;
        for (int k = 0; k < count; k++) {
            int ps = pipestat[from + k];
            boolean top = cfg.version() == 2 ? (ps & 8) != 0 : sync[from + k];
            int f = (ps & 7) | (pkt[from + k] & ((1 << w) - 1)) << 3 | (top ? 1 : 0) << (3 + w);
            word |= f << (k * field);
        }
        return word;
    }

    static int cyclesPerEtbWord(int width) {
        return width == 4 ? 3 : width == 8 ? 2 : 1;
    }

    // ---- CSV -------------------------------------------------------------------------------------------

    private static final int COL_PIPESTAT = 0;
    private static final int COL_TRACEPKT = 1;
    private static final int COL_TRACESYNC = 2;
    private static final int COL_OTHER = -1;

    private static void readCsv(InputStream in, byte[] buf, int n, Etm2Config cfg, Etm2CycleSink sink)
            throws IOException {
        StringBuilder line = new StringBuilder(128);
        int[] cols = {COL_PIPESTAT, COL_TRACEPKT, COL_TRACESYNC, COL_OTHER, COL_OTHER, COL_OTHER, COL_OTHER, COL_OTHER};
        boolean[] headerSeen = {false};
        long lineNo = 0;
        int pos = 0;
        while (true) {
            while (pos < n) {
                int c = buf[pos++] & 0xFF;
                if (c == '\n') {
                    lineNo++;
                    csvLine(line, lineNo, cols, headerSeen, cfg, sink);
                    line.setLength(0);
                } else if (c != '\r') {
                    if (line.length() < 4096) {
                        line.append((char) c);
                    }
                }
            }
            n = readFully(in, buf, 0, buf.length);
            pos = 0;
            if (n == 0) {
                if (line.length() > 0) {
                    csvLine(line, lineNo + 1, cols, headerSeen, cfg, sink);
                }
                return;
            }
        }
    }

    private static void csvLine(CharSequence line, long lineNo, int[] cols, boolean[] headerSeen, Etm2Config cfg,
                                Etm2CycleSink sink) {
        int len = line.length();
        int s = 0;
        while (s < len && line.charAt(s) <= ' ') {
            s++;
        }
        if (s == len || line.charAt(s) == '#' || line.charAt(s) == ';') {
            return;
        }
        // split into fields on commas, semicolons or tabs if the line has any, otherwise on spaces
        boolean delimited = false;
        for (int k = s; k < len && !delimited; k++) {
            char ch = line.charAt(k);
            delimited = ch == ',' || ch == ';' || ch == '\t';
        }
        int[] fs = new int[8];
        int[] fe = new int[8];
        int nf = 0;
        int i = s;
        while (i <= len && nf < 8) {
            int st = i;
            while (i < len && !isSeparator(line.charAt(i), delimited)) {
                i++;
            }
            int a = st;
            int b = i;
            while (a < b && line.charAt(a) == ' ') {
                a++;
            }
            while (b > a && line.charAt(b - 1) == ' ') {
                b--;
            }
            if (delimited || b > a) {
                fs[nf] = a;
                fe[nf] = b;
                nf++;
            }
            i++;
        }
        if (!headerSeen[0] && !startsLikeValue(line, fs[0], fe[0])) {
            headerSeen[0] = true;
            for (int k = 0; k < cols.length; k++) {
                cols[k] = COL_OTHER;
            }
            for (int k = 0; k < nf; k++) {
                String name = line.subSequence(fs[k], fe[k]).toString().toLowerCase(java.util.Locale.ROOT);
                if (name.contains("pipestat")) {
                    cols[k] = COL_PIPESTAT;
                } else if (name.contains("tracepkt") || name.contains("packet")) {
                    cols[k] = COL_TRACEPKT;
                } else if (name.contains("tracesync") || name.equals("sync")) {
                    cols[k] = COL_TRACESYNC;
                }
            }
            return;
        }
        headerSeen[0] = true;
        int ps = -1;
        int pkt = 0;
        boolean sync = false;
        for (int k = 0; k < nf; k++) {
            int col = cols[k];
            if (col == COL_OTHER) {
                continue;
            }
            long v = col == COL_PIPESTAT ? parsePipestat(line, fs[k], fe[k], cfg) : parseValue(line, fs[k], fe[k]);
            if (v < 0) {
                sink.lost(lineNo, "line " + lineNo + " of the capture has an unreadable field");
                return;
            }
            switch (col) {
                case COL_PIPESTAT -> ps = (int) v;
                case COL_TRACEPKT -> pkt = (int) v;
                default -> sync = v != 0;
            }
        }
        if (ps < 0 || ps > 15) {
            sink.lost(lineNo, "line " + lineNo + " of the capture has no PIPESTAT");
            return;
        }
        sink.cycle(ps, pkt & 0xFFFF, sync);
    }

    private static boolean isSeparator(char c, boolean delimited) {
        return delimited ? c == ',' || c == ';' || c == '\t' : c == ' ';
    }

    private static boolean startsLikeValue(CharSequence l, int s, int e) {
        if (s >= e) {
            return false;
        }
        char c = l.charAt(s);
        if (c >= '0' && c <= '9') {
            return true;
        }
        return parsePipestatMnemonic(l, s, e, 1) >= 0 || parsePipestatMnemonic(l, s, e, 2) >= 0;
    }

    private static long parsePipestat(CharSequence l, int s, int e, Etm2Config cfg) {
        int m = parsePipestatMnemonic(l, s, e, cfg.version());
        if (m >= 0) {
            return m;
        }
        return parseValue(l, s, e);
    }

    /** The PIPESTAT value of a mnemonic of protocol {@code version} (Table 5.1; ETMv2 6.1), or -1. */
    private static int parsePipestatMnemonic(CharSequence l, int s, int e, int version) {
        int n = e - s;
        if (n != 2 && n != 4) {
            return -1;
        }
        int codes = version == 1 ? 8 : 16;
        for (int code = 0; code < codes; code++) {
            String mn = Etm2CycleRing.mnemonic(version, code);
            if (mn.length() != n) {
                continue;
            }
            boolean same = true;
            for (int k = 0; k < n && same; k++) {
                same = Character.toUpperCase(l.charAt(s + k)) == mn.charAt(k);
            }
            if (same) {
                return code;
            }
        }
        return -1;
    }

    /** Decimal, 0x hex, 0b or b binary (as IHI 0014Q writes bit patterns); -1 if unreadable. */
    static long parseValue(CharSequence l, int s, int e) {
        if (s >= e) {
            return -1;
        }
        int radix = 10;
        if (e - s > 2 && l.charAt(s) == '0' && (l.charAt(s + 1) == 'x' || l.charAt(s + 1) == 'X')) {
            radix = 16;
            s += 2;
        } else if (e - s > 2 && l.charAt(s) == '0' && (l.charAt(s + 1) == 'b' || l.charAt(s + 1) == 'B')) {
            radix = 2;
            s += 2;
        } else if (e - s > 1 && (l.charAt(s) == 'b' || l.charAt(s) == 'B')) {
            radix = 2;
            s += 1;
        }
        long v = 0;
        for (int i = s; i < e; i++) {
            int d = Character.digit(l.charAt(i), radix);
            if (d < 0 || v > 0xFFFFFL) {
                return -1;
            }
            v = v * radix + d;
        }
        return v;
    }
}
