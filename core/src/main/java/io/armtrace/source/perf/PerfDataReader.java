package io.armtrace.source.perf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one pass over a perf.data file that fills a {@link PerfData}: header (perf.data-file-format.txt,
 * "struct perf_header"), attribute section, feature sections, then the data section record by record
 * through a window of the file, so that memory stays bounded whatever the file's size.
 */
final class PerfDataReader {
    /** A damaged or truncated file; the message says where and what, without the file's name. */
    static final class Damage extends RuntimeException {
        Damage(String message) {
            super(message);
        }

        Damage(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final int HEADER_SIZE = 104;
    private static final int WINDOW = 1 << 20;

    private final Path path;
    private final FileChannel ch;
    private final long size;
    private PerfData out;
    private ByteOrder order;
    private Map<Long, PerfAttr> attrById;
    private PerfAttr defaultAttr;
    private boolean identifier;
    private ZstdRecords zstd;

    PerfDataReader(Path path, FileChannel ch) throws IOException {
        this.path = path;
        this.ch = ch;
        this.size = ch.size();
    }

    PerfData read() throws IOException {
        if (size < HEADER_SIZE) {
            throw new Damage("is not a perf.data recording (" + size + " bytes, shorter than its header)");
        }
        ByteBuffer h = readAt(0, HEADER_SIZE);
        String magic = new String(h.array(), 0, 8, StandardCharsets.ISO_8859_1);
        if (magic.equals("PERFILE2")) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (magic.equals("2ELIFREP")) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (magic.equals("PERFFILE")) {
            throw new Damage("is a perf.data file of the first version (PERFFILE), which perf stopped writing in 2011; "
                    + "re-record it or convert it with a perf of that time");
        } else {
            throw new Damage("is not a perf.data recording (it does not start with PERFILE2)");
        }
        h.order(order);
        long headerSize = h.getLong(8);
        long attrSize = h.getLong(16);
        long attrsOffset = h.getLong(24);
        long attrsSize = h.getLong(32);
        long dataOffset = h.getLong(40);
        long dataSize = h.getLong(48);
        if (headerSize == 16) {
            throw new Damage("is a perf.data stream written to a pipe (perf record -o -), which has no sections; "
                    + "record to a file, or save the stream with perf inject -o FILE");
        }
        if (headerSize < HEADER_SIZE || headerSize > size) {
            throw new Damage("has a damaged header (header size " + headerSize + ")");
        }
        section("attribute section", attrsOffset, attrsSize);
        section("data section", dataOffset, dataSize);
        out = PerfData.create(path, order, size, dataOffset, dataSize);
        readAttrs(attrSize, attrsOffset, attrsSize);
        readFeatures(h, dataOffset + dataSize);
        readData(dataOffset, dataSize);
        return out;
    }

    private void section(String what, long offset, long length) {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw new Damage("has its " + what + " (" + length + " bytes at byte " + offset + ") outside the file of "
                    + size + " bytes: it is truncated or damaged");
        }
    }

    private ByteBuffer readAt(long offset, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            int n = ch.read(b, offset + b.position());
            if (n < 0) {
                throw new Damage("ends at byte " + (offset + b.position()) + ", inside a structure that needs "
                        + length + " bytes from byte " + offset);
            }
        }
        return b.flip().order(order == null ? ByteOrder.LITTLE_ENDIAN : order);
    }

    // ------------------------------------------------------------------------------------------ attributes

    private void readAttrs(long attrSize, long offset, long length) throws IOException {
        if (length == 0) {
            throw new Damage("has no event attributes (an empty attribute section)");
        }
        if (attrSize < 64 + 16 || attrSize > 4096 || length % attrSize != 0) {
            throw new Damage("has attribute entries of " + attrSize + " bytes in a section of " + length
                    + " bytes, which no perf writes");
        }
        long n = length / attrSize;
        if (n > 4096) {
            throw new Damage("has " + n + " event attributes, more than a recording holds");
        }
        attrById = new HashMap<>();
        for (int i = 0; i < n; i++) {
            ByteBuffer a = readAt(offset + i * attrSize, (int) attrSize);
            int own = a.getInt(4);
            int known = (int) attrSize - 16;
            long config1 = own >= 64 && known >= 64 ? a.getLong(56) : 0;
            long config2 = own >= 72 && known >= 72 ? a.getLong(64) : 0;
            long idsOffset = a.getLong((int) attrSize - 16);
            long idsSize = a.getLong((int) attrSize - 8);
            List<Long> ids = new ArrayList<>();
            if (idsSize > 0) {
                section("event ID list of attribute " + i, idsOffset, idsSize);
                if (idsSize > 8L * 65536) {
                    throw new Damage("has " + idsSize / 8 + " event IDs for attribute " + i + ", more than a recording holds");
                }
                ByteBuffer idb = readAt(idsOffset, (int) idsSize);
                for (int k = 0; k + 8 <= idsSize; k += 8) {
                    ids.add(idb.getLong(k));
                }
            }
            PerfAttr attr = new PerfAttr(a.getInt(0), a.getLong(8), a.getLong(24), a.getLong(40), config1, config2, ids);
            out.attrs.add(attr);
            for (long id : ids) {
                attrById.putIfAbsent(id, attr);
            }
        }
        defaultAttr = out.attrs.get(0);
        identifier = (defaultAttr.sampleType() & PerfAttr.SAMPLE_IDENTIFIER) != 0;
    }

    // ------------------------------------------------------------------------------------------ features

    private void readFeatures(ByteBuffer header, long tableOffset) throws IOException {
        List<Integer> present = new ArrayList<>();
        for (int bit = 0; bit < 256; bit++) {
            if ((header.get(72 + bit / 8) >> (bit % 8) & 1) != 0) {
                present.add(bit);
            }
        }
        if (present.isEmpty()) {
            return;
        }
        section("feature table", tableOffset, 16L * present.size());
        ByteBuffer table = readAt(tableOffset, 16 * present.size());
        for (int i = 0; i < present.size(); i++) {
            int feature = present.get(i);
            long offset = table.getLong(16 * i);
            long length = table.getLong(16 * i + 8);
            section(PerfData.featureName(feature) + " feature section", offset, length);
            out.featureSections.put(feature, new long[] {offset, length});
            out.features.put(feature, "");
            if (length > 64L << 20) {
                continue; // larger than any feature armtrace reads: listed, not parsed
            }
            ByteBuffer f = readAt(offset, (int) length);
            try {
                feature(feature, f);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                throw new Damage("has a damaged " + PerfData.featureName(feature) + " feature section at byte " + offset, e);
            }
        }
    }

    private void feature(int feature, ByteBuffer f) {
        switch (feature) {
            case 2: // HEADER_BUILD_ID: build_id_event records
                buildIds(f);
                break;
            case 3: case 4: case 5: case 6: case 8: case 9:
                out.features.put(feature, headerString(f, 0));
                break;
            case 7: // HEADER_NRCPUS: nr_cpus_available, nr_cpus_online (tools/perf/util/header.c write_nrcpus)
                out.nrCpusAvailable = f.getInt(0);
                out.nrCpusOnline = f.getInt(4);
                out.features.put(feature, out.nrCpusAvailable + " available, " + out.nrCpusOnline + " online");
                break;
            case 10:
                out.totalMemory = f.getLong(0);
                out.features.put(feature, out.totalMemory + " kB");
                break;
            case 11: { // HEADER_CMDLINE: perf_header_string_list
                int n = f.getInt(0);
                int at = 4;
                for (int i = 0; i < n && at < f.limit(); i++) {
                    int len = f.getInt(at);
                    if (len < 0 || len > f.limit() - at - 4) {
                        throw new IllegalArgumentException("string length");
                    }
                    out.commandLine.add(cstring(f, at + 4, at + 4 + len));
                    at += 4 + len;
                }
                out.features.put(feature, String.join(" ", out.commandLine));
                break;
            }
            case 18: // HEADER_AUXTRACE: perf writes nr then nr (offset, size); simpleperf the pairs alone
                auxtraceIndex(f);
                break;
            case 129: { // simpleperf meta_info: key\0value\0 ...
                int at = 0;
                while (at < f.limit() && out.metaInfo.size() < 4096) {
                    int k = end(f, at);
                    int v = end(f, Math.min(k + 1, f.limit()));
                    if (k >= f.limit()) {
                        break;
                    }
                    out.metaInfo.put(cstring(f, at, k), cstring(f, k + 1, v));
                    at = v + 1;
                }
                break;
            }
            case 128:
                simpleperfFiles(f);
                break;
            case 132:
                simpleperfFiles2(f);
                break;
            case 134: // simpleperf init_map: MMAP, MMAP2 and COMM records
                records(f, 0, f.limit(), -1, false);
                break;
            default:
                break;
        }
    }

    private void buildIds(ByteBuffer f) {
        int at = 0;
        while (at + 8 <= f.limit()) {
            int misc = f.getShort(at + 4) & 0xFFFF;
            int len = f.getShort(at + 6) & 0xFFFF;
            if (len < 8 + 4 + 24 || at + len > f.limit()) {
                break;
            }
            int pid = f.getInt(at + 8);
            byte[] id = new byte[24];
            f.get(at + 12, id);
            // PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15): byte 20 of the field gives the size; else 20
            // bytes, of which trailing zeros are padding of a shorter ID
            int n = (misc & 0x8000) != 0 ? Math.min(id[20] & 0xFF, 20) : 20;
            while (n > 0 && id[n - 1] == 0 && (misc & 0x8000) == 0) {
                n--;
            }
            String name = cstring(f, at + 36, at + len);
            if (out.buildIds.size() < PerfData.MAX_ENTRIES) {
                out.buildIds.add(new PerfData.BuildId(pid, name, PerfData.hex(id, 0, n),
                        (misc & PerfData.MISC_CPUMODE_MASK) == 1 || (misc & PerfData.MISC_CPUMODE_MASK) == 3));
            }
            at += len;
        }
    }

    private void auxtraceIndex(ByteBuffer f) {
        int start = 0;
        long n = f.limit() / 16;
        if (f.limit() % 16 == 8) {
            n = f.getLong(0);
            start = 8;
            if (n < 0 || n > (f.limit() - 8) / 16) {
                throw new IllegalArgumentException("index count");
            }
        }
        for (int i = 0; i < n && out.auxtraceIndex.size() < PerfData.MAX_ENTRIES; i++) {
            out.auxtraceIndex.add(new long[] {f.getLong(start + 16 * i), f.getLong(start + 16 * i + 8)});
        }
    }

    /** simpleperf's file feature (record_file_format.h): per file, size, path, type, min_vaddr, symbols, and more. */
    private void simpleperfFiles(ByteBuffer f) {
        int at = 0;
        while (at + 4 <= f.limit() && out.files.size() < PerfData.MAX_ENTRIES) {
            long len = f.getInt(at) & 0xFFFFFFFFL;
            int end = (int) Math.min(f.limit(), at + 4 + len);
            int p = at + 4;
            int pathEnd = end(f, p);
            String name = cstring(f, p, pathEnd);
            p = pathEnd + 1;
            int type = f.getInt(p);
            long minVaddr = f.getLong(p + 4);
            int symbols = f.getInt(p + 12);
            p += 16;
            for (int i = 0; i < symbols && p < end; i++) {
                p = end(f, p + 12) + 1; // start_vaddr, len, name
            }
            long offset = -1;
            if (type == 2 && p + 8 <= end) { // DSO_ELF_FILE: file_offset_of_min_vaddr
                offset = f.getLong(p);
            } else if (type == 1 && p + 8 <= end) { // DSO_KERNEL_MODULE: memory_offset_of_min_vaddr
                offset = f.getLong(p);
            }
            out.files.add(new PerfData.FileEntry(name, type, minVaddr, offset, symbols));
            at = end;
        }
    }

    /** simpleperf's file2 feature: per file, its size and a FileFeature message (record_file.proto). */
    private void simpleperfFiles2(ByteBuffer f) {
        int at = 0;
        while (at + 4 <= f.limit() && out.files.size() < PerfData.MAX_ENTRIES) {
            long len = f.getInt(at) & 0xFFFFFFFFL;
            if (len > f.limit() - at - 4) {
                throw new IllegalArgumentException("message size");
            }
            Protobuf m = new Protobuf(f, at + 4, (int) (at + 4 + len));
            String name = "";
            int type = -1;
            long minVaddr = 0;
            long offset = -1;
            int symbols = 0;
            while (m.next()) {
                switch (m.field) {
                    case 1: name = m.string(); break;
                    case 2: type = (int) m.varint; break;
                    case 3: minVaddr = m.varint; break;
                    case 4: symbols++; break;
                    case 6: case 7: { // ElfFile.file_offset_of_min_vaddr, KernelModule.memory_offset_of_min_vaddr
                        Protobuf inner = m.message();
                        while (inner.next()) {
                            if (inner.field == 1) {
                                offset = inner.varint;
                            }
                        }
                        break;
                    }
                    default: break;
                }
            }
            out.files.add(new PerfData.FileEntry(name, type, minVaddr, offset, symbols));
            at += 4 + (int) len;
        }
    }

    /** The protobuf wire format (varint, 64-bit, length-delimited, 32-bit), enough to walk a message. */
    static final class Protobuf {
        private final ByteBuffer b;
        private int pos;
        private final int end;
        int field;
        int wire;
        long varint;
        int from;
        int to;

        Protobuf(ByteBuffer b, int from, int to) {
            this.b = b;
            this.pos = from;
            this.end = to;
        }

        boolean next() {
            if (pos >= end) {
                return false;
            }
            long key = readVarint();
            field = (int) (key >>> 3);
            wire = (int) (key & 7);
            switch (wire) {
                case 0: varint = readVarint(); break;
                case 1: varint = b.getLong(pos); pos += 8; break;
                case 5: varint = b.getInt(pos) & 0xFFFFFFFFL; pos += 4; break;
                case 2: {
                    long n = readVarint();
                    if (n < 0 || n > end - pos) {
                        throw new IllegalArgumentException("protobuf length");
                    }
                    from = pos;
                    to = pos + (int) n;
                    pos = to;
                    break;
                }
                default: throw new IllegalArgumentException("protobuf wire type " + wire);
            }
            if (pos > end) {
                throw new IllegalArgumentException("protobuf field past its message");
            }
            return true;
        }

        String string() {
            return cstring(b, from, Math.min(to, from + PerfData.MAX_STRING));
        }

        Protobuf message() {
            return new Protobuf(b, from, to);
        }

        private long readVarint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new IllegalArgumentException("protobuf varint past its message");
                }
                int c = b.get(pos++);
                v |= (long) (c & 0x7F) << shift;
                if ((c & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("protobuf varint too long");
        }
    }

    // ------------------------------------------------------------------------------------------ records

    private void readData(long offset, long length) throws IOException {
        long pos = offset;
        long end = offset + length;
        ByteBuffer window = ByteBuffer.allocate(WINDOW).order(order);
        long windowStart = 0;
        window.limit(0);
        while (pos < end) {
            if (end - pos < 8) {
                throw new Damage("ends its data section with " + (end - pos) + " bytes at byte " + pos
                        + ", too few for a record header");
            }
            if (pos < windowStart || pos + 8 > windowStart + window.limit()) {
                windowStart = pos;
                window = fill(window, pos, end);
            }
            int at = (int) (pos - windowStart);
            int type = window.getInt(at);
            int misc;
            long recSize;
            if (type >= PerfData.SIMPLEPERF_START && type < PerfData.SIMPLEPERF_START + 256) {
                misc = 0;
                recSize = (window.getShort(at + 4) & 0xFFFFL) << 16 | (window.getShort(at + 6) & 0xFFFFL);
            } else {
                misc = window.getShort(at + 4) & 0xFFFF;
                recSize = window.getShort(at + 6) & 0xFFFF;
            }
            if (recSize < 8) {
                throw new Damage("has a record of " + recSize + " bytes at byte " + pos + ", shorter than its header");
            }
            if (recSize > end - pos) {
                throw new Damage("is cut short: the record at byte " + pos + " needs " + recSize + " bytes, the data section holds "
                        + (end - pos));
            }
            long next = pos + recSize;
            if (recSize <= PerfData.MAX_RECORD) {
                if (pos + recSize > windowStart + window.limit()) {
                    windowStart = pos;
                    window = fill(window, pos, end);
                    at = 0;
                }
                if (type == PerfData.AUXTRACE) {
                    long auxSize = auxtrace(window, at, (int) recSize, pos);
                    if (auxSize < 0 || auxSize > end - next) {
                        throw new Damage("is cut short: the AUXTRACE record at byte " + pos + " announces " + auxSize
                                + " bytes of AUX data, the data section holds " + (end - next) + " after it");
                    }
                    next += auxSize;
                } else {
                    record(window, at, type, misc, (int) recSize, pos, false);
                }
            } else {
                out.count(PerfData.recordName(type));
            }
            pos = next;
        }
        if (zstd != null) {
            try {
                zstd.finish((buf, from, to) -> records(buf.order(order), from, to, end, true));
            } catch (ZstdRecords.Malformed e) {
                throw new Damage("has damaged zstd data at the end of its compressed records", e);
            }
            out.decompressedBytes = zstd.produced;
        }
    }

    /** Refills the window from {@code pos}: at least the rest of the data section or the window's size. */
    private ByteBuffer fill(ByteBuffer window, long pos, long end) throws IOException {
        ByteBuffer w = window;
        int want = (int) Math.min(Math.max(WINDOW, 8), end - pos);
        if (w.capacity() < want) {
            w = ByteBuffer.allocate(want).order(order);
        }
        w.clear();
        w.limit(want);
        while (w.hasRemaining()) {
            int n = ch.read(w, pos + w.position());
            if (n < 0) {
                throw new Damage("ends at byte " + (pos + w.position()) + ", inside its data section");
            }
        }
        w.flip();
        return w;
    }

    /** Walks records held in memory (a feature section, or decompressed data) from {@code from} to {@code to}. */
    private int records(ByteBuffer b, int from, int to, long fileOffset, boolean compressed) {
        int at = from;
        while (to - at >= 8) {
            int type = b.getInt(at);
            int misc = b.getShort(at + 4) & 0xFFFF;
            int recSize = b.getShort(at + 6) & 0xFFFF;
            if (type >= PerfData.SIMPLEPERF_START && type < PerfData.SIMPLEPERF_START + 256) {
                misc = 0;
                recSize = (b.getShort(at + 4) & 0xFFFF) << 16 | (b.getShort(at + 6) & 0xFFFF);
            }
            if (recSize < 8) {
                throw new Damage((compressed ? "has compressed records that hold" : "holds") + " a record of " + recSize
                        + " bytes" + (fileOffset >= 0 ? " (the compressed record at byte " + fileOffset + ")" : ""));
            }
            if (recSize > to - at) {
                return at; // the rest comes with the next compressed record
            }
            if (type == PerfData.AUXTRACE) {
                throw new Damage("holds an AUXTRACE record inside compressed data (at the compressed record at byte "
                        + fileOffset + "), which no perf writes");
            }
            record(b, at, type, misc, recSize, fileOffset, compressed);
            at += recSize;
        }
        return at;
    }

    /** The sample_id at the end of a non-sample record: {tid, time, id, cpu}, -1 where absent. */
    private long[] sampleId(ByteBuffer b, int at, int recSize, int bodySize) {
        long[] s = {-1, -1, -1, -1, -1};
        PerfAttr attr = defaultAttr;
        if (identifier && recSize >= bodySize + 8) {
            PerfAttr a = attrById.get(b.getLong(at + recSize - 8));
            if (a != null) {
                attr = a;
            }
        }
        int n = attr.sampleIdSize();
        if (n == 0 || recSize < bodySize + n) {
            return s;
        }
        int p = at + recSize - n;
        long t = attr.sampleType();
        if ((t & PerfAttr.SAMPLE_TID) != 0) {
            s[0] = b.getInt(p);
            s[1] = b.getInt(p + 4);
            p += 8;
        }
        if ((t & PerfAttr.SAMPLE_TIME) != 0) {
            s[2] = b.getLong(p);
            p += 8;
        }
        if ((t & PerfAttr.SAMPLE_ID) != 0) {
            p += 8;
        }
        if ((t & PerfAttr.SAMPLE_STREAM_ID) != 0) {
            p += 8;
        }
        if ((t & PerfAttr.SAMPLE_CPU) != 0) {
            s[3] = b.getInt(p);
        }
        return s;
    }

    private static final int TIME = 2;
    private static final int CPU = 3;

    private void record(ByteBuffer b, int at, int type, int misc, int recSize, long fileOffset, boolean compressed) {
        out.count(PerfData.recordName(type));
        int body = recSize; // without sample_id: the record's own fields are read from the front only
        switch (type) {
            case PerfData.MMAP: {
                need(recSize, 40, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 41);
                String name = cstring(b, at + 40, at + body);
                boolean kernel = (misc & PerfData.MISC_CPUMODE_MASK) == 1 || (misc & PerfData.MISC_CPUMODE_MASK) == 3;
                out.keep(out.mappings, new Mapping(b.getInt(at + 8), b.getInt(at + 12), b.getLong(at + 16), b.getLong(at + 24),
                        b.getLong(at + 32), name, buildIdOf(name), Math.max(0, id[TIME]), -1, kernel));
                break;
            }
            case PerfData.MMAP2: {
                need(recSize, 72, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 73);
                String name = cstring(b, at + 72, at + body);
                String buildId;
                if ((misc & PerfData.MISC_MMAP_BUILD_ID) != 0) {
                    int n = Math.min(b.get(at + 40) & 0xFF, 20);
                    byte[] raw = new byte[20];
                    b.get(at + 44, raw);
                    buildId = PerfData.hex(raw, 0, n);
                } else {
                    buildId = buildIdOf(name);
                }
                boolean kernel = (misc & PerfData.MISC_CPUMODE_MASK) == 1 || (misc & PerfData.MISC_CPUMODE_MASK) == 3;
                out.keep(out.mappings, new Mapping(b.getInt(at + 8), b.getInt(at + 12), b.getLong(at + 16), b.getLong(at + 24),
                        b.getLong(at + 32), name, buildId, Math.max(0, id[TIME]), b.getInt(at + 64), kernel));
                break;
            }
            case PerfData.COMM: {
                need(recSize, 16, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 17);
                out.keep(out.threads, new ThreadEvent(ThreadEvent.Kind.COMM, b.getInt(at + 8), b.getInt(at + 12), -1, -1,
                        cstring(b, at + 16, at + body), (misc & PerfData.MISC_COMM_EXEC) != 0, id[TIME]));
                break;
            }
            case PerfData.FORK:
            case PerfData.EXIT: {
                need(recSize, 32, type, fileOffset);
                out.keep(out.threads, new ThreadEvent(type == PerfData.FORK ? ThreadEvent.Kind.FORK : ThreadEvent.Kind.EXIT,
                        b.getInt(at + 8), b.getInt(at + 16), b.getInt(at + 12), b.getInt(at + 20), null, false, b.getLong(at + 24)));
                break;
            }
            case PerfData.LOST:
                need(recSize, 24, type, fileOffset);
                out.lostEvents += b.getLong(at + 16);
                break;
            case PerfData.LOST_SAMPLES:
                need(recSize, 16, type, fileOffset);
                out.lostSamples += b.getLong(at + 8);
                break;
            case PerfData.AUX: {
                need(recSize, 32, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 32);
                AuxQueue q = new AuxQueue((int) id[CPU], (int) id[1]);
                out.keep(out.auxRecords, new PerfData.AuxRecord(q, b.getLong(at + 8), b.getLong(at + 16), b.getLong(at + 24),
                        id[TIME], fileOffset));
                break;
            }
            case PerfData.ITRACE_START: {
                need(recSize, 16, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 16);
                out.keep(out.itraceStarts, new long[] {b.getInt(at + 8), b.getInt(at + 12), id[CPU], id[TIME]});
                break;
            }
            case PerfData.SWITCH:
            case PerfData.SWITCH_CPU_WIDE: {
                out.switches++;
                boolean wide = type == PerfData.SWITCH_CPU_WIDE;
                long[] id = sampleId(b, at, recSize, wide ? 16 : 8);
                if (id[CPU] >= 0 && id[TIME] >= 0 && (!wide || recSize >= 16)) { // (a record without them says nothing usable)
                    out.keep(out.switchEvents, new SwitchEvent((int) id[CPU], id[TIME], (misc & PerfData.MISC_SWITCH_OUT) != 0,
                            (int) id[0], (int) id[1], wide ? b.getInt(at + 8) : -1, wide ? b.getInt(at + 12) : -1));
                }
                break;
            }
            case PerfData.AUX_OUTPUT_HW_ID: {
                need(recSize, 16, type, fileOffset);
                long[] id = sampleId(b, at, recSize, 16);
                if (out.hwIds.size() < 4096) {
                    out.hwIds.put((int) id[CPU], b.getLong(at + 8));
                }
                break;
            }
            case PerfData.AUXTRACE_INFO: {
                need(recSize, 16, type, fileOffset);
                out.auxtraceType = b.getInt(at + 8);
                if (out.auxtraceType == CoreSightInfo.AUXTRACE_CS_ETM) {
                    ByteBuffer priv = b.duplicate().order(order).position(at + 16).limit(at + recSize);
                    try {
                        out.coreSight = CoreSightInfo.read(priv.slice().order(order), "the AUXTRACE_INFO record at byte " + fileOffset);
                    } catch (IllegalArgumentException e) {
                        throw new Damage(e.getMessage(), e);
                    }
                }
                break;
            }
            case PerfData.TIME_CONV: {
                need(recSize, 32, type, fileOffset);
                boolean ext = recSize >= 56;
                out.timeConversion = new PerfData.TimeConversion(b.getLong(at + 8), b.getLong(at + 16), b.getLong(at + 24),
                        ext ? b.getLong(at + 32) : 0, ext ? b.getLong(at + 40) : 0, ext && b.get(at + 48) != 0, ext && b.get(at + 49) != 0);
                break;
            }
            case PerfData.COMPRESSED:
            case PerfData.COMPRESSED2: {
                if (compressed) {
                    throw new Damage("holds a compressed record inside compressed data (the record at byte " + fileOffset + ")");
                }
                int dataAt = at + 8;
                int dataLen = recSize - 8;
                if (type == PerfData.COMPRESSED2) {
                    need(recSize, 16, type, fileOffset);
                    long n = b.getLong(at + 8);
                    if (n < 0 || n > recSize - 16) {
                        throw new Damage("has a COMPRESSED2 record at byte " + fileOffset + " whose data size " + n
                                + " exceeds the record");
                    }
                    dataAt = at + 16;
                    dataLen = (int) n;
                }
                out.compressedRecords++;
                if (zstd == null) {
                    zstd = new ZstdRecords();
                }
                try {
                    zstd.feed(b, dataAt, dataLen, (buf, from, to) -> records(buf.order(order), from, to, fileOffset, true));
                } catch (ZstdRecords.Malformed e) {
                    throw new Damage("has damaged zstd data in the compressed record at byte " + fileOffset, e);
                }
                out.decompressedBytes = zstd.produced;
                break;
            }
            default:
                if (!PerfData.knownType(type)) {
                    out.unknownRecords++;
                }
                break;
        }
    }

    /** Reads an AUXTRACE record (its fixed part) and returns the size of the AUX data after it. */
    private long auxtrace(ByteBuffer b, int at, int recSize, long fileOffset) {
        out.count(PerfData.recordName(PerfData.AUXTRACE));
        need(recSize, 48, PerfData.AUXTRACE, fileOffset);
        long auxSize = b.getLong(at + 8);
        long auxOffset = b.getLong(at + 16);
        int idx = b.getInt(at + 32);
        int tid = b.getInt(at + 36);
        int cpu = b.getInt(at + 40);
        if (auxSize >= 0) {
            out.keep(out.auxBuffers, new AuxBuffer(new AuxQueue(cpu, cpu < 0 ? tid : -1), idx, auxOffset, auxSize,
                    fileOffset + recSize, fileOffset));
        }
        return auxSize;
    }

    private static void need(int recSize, int bytes, int type, long fileOffset) {
        if (recSize < bytes) {
            throw new Damage("has a " + PerfData.recordName(type) + " record of " + recSize + " bytes"
                    + (fileOffset >= 0 ? " at byte " + fileOffset : "") + ", too short for its fields");
        }
    }

    /** The build ID the recording's build ID table gives a path, or null. */
    private String buildIdOf(String path) {
        if (buildIdByPath == null) {
            buildIdByPath = new HashMap<>();
            for (PerfData.BuildId id : out.buildIds) {
                buildIdByPath.putIfAbsent(id.path(), id.id());
            }
        }
        return buildIdByPath.get(path);
    }

    private Map<String, String> buildIdByPath;

    /** The index of the first NUL at or after {@code from}, or the limit. */
    private static int end(ByteBuffer b, int from) {
        int i = from;
        while (i < b.limit() && b.get(i) != 0) {
            i++;
        }
        return i;
    }

    /** The NUL-terminated string in [from, to), cut at {@link PerfData#MAX_STRING} bytes. */
    static String cstring(ByteBuffer b, int from, int to) {
        int limit = Math.min(Math.min(to, b.limit()), from + PerfData.MAX_STRING);
        int e = from;
        while (e < limit && b.get(e) != 0) {
            e++;
        }
        if (e <= from) {
            return "";
        }
        byte[] s = new byte[e - from];
        b.get(from, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    /** perf_header_string: u32 length (with padding), then the NUL-terminated string. */
    private static String headerString(ByteBuffer f, int at) {
        int len = f.getInt(at);
        if (len < 0 || len > f.limit() - at - 4) {
            throw new IllegalArgumentException("string length");
        }
        return cstring(f, at + 4, at + 4 + len);
    }
}
