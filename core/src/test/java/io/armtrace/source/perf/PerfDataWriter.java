package io.armtrace.source.perf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes perf.data recordings with known content, in the layout Linux perf writes them
 * (perf.data-file-format.txt): header, one attribute with its IDs, the data section, the feature table and
 * feature sections. Records carry a sample_id (TID, TIME, ID, CPU) as perf's with sample_id_all do. AUX
 * data can be written as holes (a sparse file), so that a recording with a gigabyte of AUX data costs no
 * disk. Test code: recordings for reader tests now, and for decode ground truth later.
 */
final class PerfDataWriter {
    static final long SAMPLE_TYPE = PerfAttr.SAMPLE_TID | PerfAttr.SAMPLE_TIME | PerfAttr.SAMPLE_ID | PerfAttr.SAMPLE_CPU;
    static final long EVENT_ID = 0x3c;

    private final ByteOrder order;
    private final List<Object> data = new ArrayList<>(); // byte[] records, or Long holes of AUX data
    private final Map<Integer, byte[]> features = new TreeMap<>();
    private final List<long[]> auxIndex = new ArrayList<>();
    /** Where each AUXTRACE record's data starts, counted from the data section. */
    private final List<Long> auxData = new ArrayList<>();
    private long dataLength;
    long sampleType = SAMPLE_TYPE;
    int pmuType = 8;
    /**
     * The auxtrace feature as simpleperf writes it (record_file_writer.cpp, WriteAuxTraceFeature): the
     * (file offset, size) pairs alone, without perf's leading count.
     */
    boolean simpleperfAuxIndex;

    PerfDataWriter() {
        this(ByteOrder.LITTLE_ENDIAN);
    }

    PerfDataWriter(ByteOrder order) {
        this.order = order;
    }

    private ByteBuffer record(int type, int misc, int bodyBytes) {
        int size = 8 + bodyBytes + Long.bitCount(sampleType) * 8;
        ByteBuffer b = ByteBuffer.allocate(size).order(order);
        b.putInt(type).putShort((short) misc).putShort((short) size);
        return b;
    }

    /** Appends the sample_id of a record: pid/tid, time, event ID, cpu (in that order, perf_event.h). */
    private void sampleId(ByteBuffer b, int pid, int tid, long time, int cpu) {
        b.position(b.capacity() - Long.bitCount(sampleType) * 8);
        if ((sampleType & PerfAttr.SAMPLE_TID) != 0) {
            b.putInt(pid).putInt(tid);
        }
        if ((sampleType & PerfAttr.SAMPLE_TIME) != 0) {
            b.putLong(time);
        }
        if ((sampleType & PerfAttr.SAMPLE_ID) != 0) {
            b.putLong(EVENT_ID);
        }
        if ((sampleType & PerfAttr.SAMPLE_CPU) != 0) {
            b.putInt(cpu).putInt(0);
        }
    }

    private PerfDataWriter add(ByteBuffer b) {
        data.add(b.array());
        dataLength += b.capacity();
        return this;
    }

    static int padded(String s) {
        return (s.getBytes(StandardCharsets.UTF_8).length + 1 + 7) & ~7;
    }

    private static void putString(ByteBuffer b, String s, int room) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.put(bytes);
        for (int i = bytes.length; i < room; i++) {
            b.put((byte) 0);
        }
    }

    PerfDataWriter mmap2(int pid, int tid, long start, long length, long pgoff, int prot, String path, byte[] buildId,
                         long time, int cpu) {
        int misc = (pid == -1 ? 1 : 2) | (buildId != null ? PerfData.MISC_MMAP_BUILD_ID : 0);
        ByteBuffer b = record(PerfData.MMAP2, misc, 64 + padded(path));
        b.putInt(pid).putInt(tid).putLong(start).putLong(length).putLong(pgoff);
        if (buildId != null) {
            b.put((byte) buildId.length).put((byte) 0).putShort((short) 0);
            byte[] id = java.util.Arrays.copyOf(buildId, 20);
            b.put(id);
        } else {
            b.putInt(8).putInt(1).putLong(1234).putLong(0);
        }
        b.putInt(prot).putInt(2); // MAP_PRIVATE
        putString(b, path, padded(path));
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter mmap(int pid, int tid, long start, long length, long pgoff, String path, long time, int cpu) {
        ByteBuffer b = record(PerfData.MMAP, pid == -1 ? 1 : 2, 32 + padded(path));
        b.putInt(pid).putInt(tid).putLong(start).putLong(length).putLong(pgoff);
        putString(b, path, padded(path));
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter comm(int pid, int tid, String comm, boolean exec, long time, int cpu) {
        ByteBuffer b = record(PerfData.COMM, exec ? PerfData.MISC_COMM_EXEC : 0, 8 + padded(comm));
        b.putInt(pid).putInt(tid);
        putString(b, comm, padded(comm));
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter fork(int pid, int ppid, int tid, int ptid, long time, int cpu) {
        return task(PerfData.FORK, pid, ppid, tid, ptid, time, cpu);
    }

    PerfDataWriter exit(int pid, int ppid, int tid, int ptid, long time, int cpu) {
        return task(PerfData.EXIT, pid, ppid, tid, ptid, time, cpu);
    }

    private PerfDataWriter task(int type, int pid, int ppid, int tid, int ptid, long time, int cpu) {
        ByteBuffer b = record(type, 0, 24);
        b.putInt(pid).putInt(ppid).putInt(tid).putInt(ptid).putLong(time);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter itraceStart(int pid, int tid, long time, int cpu) {
        ByteBuffer b = record(PerfData.ITRACE_START, 0, 8);
        b.putInt(pid).putInt(tid);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter aux(long offset, long size, long flags, int pid, int tid, long time, int cpu) {
        ByteBuffer b = record(PerfData.AUX, 0, 24);
        b.putLong(offset).putLong(size).putLong(flags);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    /** PERF_RECORD_AUX_OUTPUT_HW_ID: the CPU's trace ID (bits [7:0]) and versions and sink (upper bits) of {@code hwId}. */
    PerfDataWriter auxOutputHwId(long hwId, int pid, int tid, long time, int cpu) {
        ByteBuffer b = record(PerfData.AUX_OUTPUT_HW_ID, 0, 8);
        b.putLong(hwId);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter switchOut(boolean out, int pid, int tid, long time, int cpu) {
        ByteBuffer b = record(PerfData.SWITCH, out ? PerfData.MISC_SWITCH_OUT : 0, 0);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    /** SWITCH_CPU_WIDE: {@code pid}/{@code tid} switched in (or out), the other thread of the switch in the body. */
    PerfDataWriter switchCpuWide(boolean out, int pid, int tid, int otherPid, int otherTid, long time, int cpu) {
        ByteBuffer b = record(PerfData.SWITCH_CPU_WIDE, out ? PerfData.MISC_SWITCH_OUT : 0, 8);
        b.putInt(otherPid).putInt(otherTid);
        sampleId(b, pid, tid, time, cpu);
        return add(b);
    }

    PerfDataWriter lost(long count, int cpu) {
        ByteBuffer b = record(PerfData.LOST, 0, 16);
        b.putLong(EVENT_ID).putLong(count);
        sampleId(b, -1, -1, 0, cpu);
        return add(b);
    }

    /** A record of any type and body, without sample_id (user records, or unknown types). */
    PerfDataWriter raw(int type, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(8 + body.length).order(order);
        b.putInt(type).putShort((short) 0).putShort((short) (8 + body.length)).put(body);
        return add(b);
    }

    /** A simpleperf record (type 32768 and above): the size is 32 bits, high half first (record.h). */
    PerfDataWriter simpleperfRecord(int type, byte[] body) {
        int size = 8 + body.length;
        ByteBuffer b = ByteBuffer.allocate(size).order(order);
        b.putInt(type).putShort((short) (size >>> 16)).putShort((short) size).put(body);
        return add(b);
    }

    PerfDataWriter timeConv(long shift, long mult, long zero) {
        ByteBuffer b = ByteBuffer.allocate(56).order(order);
        b.putInt(PerfData.TIME_CONV).putShort((short) 0).putShort((short) 56).putLong(shift).putLong(mult).putLong(zero)
                .putLong(0).putLong(-1L).put((byte) 1).put((byte) 0);
        return add(b);
    }

    /** AUXTRACE_INFO for CoreSight: header version, then one block per unit, {magic, cpu, [n,] registers...}. */
    PerfDataWriter coreSightInfo(long version, boolean snapshot, List<long[]> units) {
        int words = 3 + units.stream().mapToInt(u -> u.length).sum();
        ByteBuffer b = ByteBuffer.allocate(16 + 8 * words).order(order);
        b.putInt(PerfData.AUXTRACE_INFO).putShort((short) 0).putShort((short) b.capacity()).putInt(3).putInt(0);
        b.putLong(version).putLong((long) pmuType << 32 | units.size()).putLong(snapshot ? 1 : 0);
        for (long[] u : units) {
            for (long w : u) {
                b.putLong(w);
            }
        }
        return add(b);
    }

    /** An ETMv4 block of header version 1: magic, cpu, 7 registers. */
    static long[] etm4(int cpu, long configr, int traceId) {
        return new long[] {TraceUnit.Kind.ETMV4.magic, cpu, 7, configr, traceId, 0x28000ea1L, 0x4100f423L, 0x20001088L, 0, 0x8c};
    }

    /**
     * An ETMv4 block with the registers of {@code r} (the names {@link CoreSightInfo} reads, in perf's order):
     * header version 0 gives magic, CPU and the seven registers of CS_ETMV4_NR_TRC_PARAMS_V0; version 1 and
     * later give magic, CPU, the number of parameters, and the seven registers followed by TS_SOURCE.
     */
    static long[] etm4(int cpu, io.armtrace.source.Registers r, long version) {
        long[] regs = registers(r, CoreSightInfo.ETMV4);
        if (version == 0) {
            long[] b = new long[2 + CoreSightInfo.V0_ETMV4];
            b[0] = TraceUnit.Kind.ETMV4.magic;
            b[1] = cpu;
            System.arraycopy(regs, 0, b, 2, CoreSightInfo.V0_ETMV4);
            return b;
        }
        return block(TraceUnit.Kind.ETMV4, cpu, regs);
    }

    /** An ETMv3/PTM block: magic, CPU, [the number of registers from version 1,] ETMCR, ETMTRACEIDR, ETMCCER, ETMIDR. */
    static long[] etm3(int cpu, io.armtrace.source.Registers r, long version) {
        long[] regs = registers(r, CoreSightInfo.ETMV3);
        if (version == 0) {
            long[] b = new long[2 + regs.length];
            b[0] = TraceUnit.Kind.ETMV3_PTM.magic;
            b[1] = cpu;
            System.arraycopy(regs, 0, b, 2, regs.length);
            return b;
        }
        return block(TraceUnit.Kind.ETMV3_PTM, cpu, regs);
    }

    /** An ETE block (header version 1 and later only): magic, CPU, nine parameters, TRCDEVARCH before TS_SOURCE. */
    static long[] ete(int cpu, io.armtrace.source.Registers r) {
        return block(TraceUnit.Kind.ETE, cpu, registers(r, CoreSightInfo.ETE));
    }

    private static long[] registers(io.armtrace.source.Registers r, String[] names) {
        long[] out = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = r.get(names[i], 0); // TS_SOURCE 0: no timestamp source recorded
        }
        return out;
    }

    private static long[] block(TraceUnit.Kind kind, int cpu, long[] regs) {
        long[] b = new long[3 + regs.length];
        b[0] = kind.magic;
        b[1] = cpu;
        b[2] = regs.length;
        System.arraycopy(regs, 0, b, 3, regs.length);
        return b;
    }

    /**
     * {@code raw[from, to)} as an ETR or ETF sink stores it: CoreSight 16-byte frames of trace ID {@code id}.
     * Each frame opens with the ID (effective at once) and carries 14 data bytes in bytes 1 to 14, the low
     * bit of even byte 2k in bit k of byte 15. The last frame is padded with the null ID 0: where the data
     * ends on an even byte, that byte becomes the ID change with its flag set (the change takes effect after
     * the odd byte that follows, which carries the last data byte).
     */
    static byte[] frames(int id, byte[] raw, int from, int to) {
        int n = to - from;
        int count = (n + 13) / 14;
        byte[] out = new byte[16 * Math.max(count, 0)];
        int at = from;
        for (int f = 0; f < count; f++) {
            int base = 16 * f;
            int flags = 0;
            out[base] = (byte) (id << 1 | 1);
            for (int p = 1; p <= 14; p++) {
                if (at == to) {
                    if ((p & 1) == 0) {
                        out[base + p] = 1; // null ID from here on; the rest of the frame is its data
                    } else {
                        // an odd byte left: move the last data byte here behind an ID change at p - 1
                        int last = (out[base + p - 1] & 0xFE) | (flags >> ((p - 1) / 2) & 1);
                        out[base + p - 1] = 1;
                        flags |= 1 << ((p - 1) / 2);
                        out[base + p] = (byte) last;
                    }
                    break;
                }
                int d = raw[at++] & 0xFF;
                if ((p & 1) == 0) {
                    out[base + p] = (byte) (d & 0xFE);
                    flags |= (d & 1) << (p / 2);
                } else {
                    out[base + p] = (byte) d;
                }
            }
            out[base + 15] = (byte) flags;
        }
        return out;
    }

    /** AUXTRACE with its data: bytes, or (when {@code bytes} is null) {@code size} bytes of holes. */
    PerfDataWriter auxtrace(long offset, byte[] bytes, long size, int idx, int tid, int cpu) {
        ByteBuffer b = ByteBuffer.allocate(48).order(order);
        long n = bytes == null ? size : bytes.length;
        b.putInt(PerfData.AUXTRACE).putShort((short) 0).putShort((short) 48).putLong(n).putLong(offset).putLong(0)
                .putInt(idx).putInt(tid).putInt(cpu).putInt(0);
        auxIndex.add(new long[] {dataLength, 48});
        add(b);
        auxData.add(dataLength);
        if (bytes != null) {
            data.add(bytes);
        } else {
            data.add(size);
        }
        dataLength += n;
        return this;
    }

    /** PERF_RECORD_COMPRESSED records holding {@code compressed}, cut into pieces of at most {@code piece} bytes. */
    PerfDataWriter compressed(byte[] compressed, int piece) {
        for (int at = 0; at < compressed.length; at += piece) {
            int n = Math.min(piece, compressed.length - at);
            ByteBuffer b = ByteBuffer.allocate(8 + n).order(order);
            b.putInt(PerfData.COMPRESSED).putShort((short) 0).putShort((short) (8 + n)).put(compressed, at, n);
            add(b);
        }
        return this;
    }

    /** The records added so far as one byte array (for compressing them), and forgets them. */
    byte[] takeRecords() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object o : data) {
            out.writeBytes((byte[]) o);
        }
        data.clear();
        dataLength = 0;
        return out.toByteArray();
    }

    PerfDataWriter cmdline(String... args) {
        int size = 4;
        for (String a : args) {
            size += 4 + padded(a);
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(order).putInt(args.length);
        for (String a : args) {
            b.putInt(padded(a));
            putString(b, a, padded(a));
        }
        features.put(11, b.array());
        return this;
    }

    PerfDataWriter stringFeature(int feature, String value) {
        ByteBuffer b = ByteBuffer.allocate(4 + padded(value)).order(order).putInt(padded(value));
        putString(b, value, padded(value));
        features.put(feature, b.array());
        return this;
    }

    /**
     * simpleperf's meta_info feature (record_file_format.h, FEAT_META_INFO = 129): key and value strings, each
     * NUL-terminated, one pair after the other.
     */
    PerfDataWriter simpleperfMetaInfo(Map<String, String> info) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Map.Entry<String, String> e : info.entrySet()) {
            out.writeBytes(e.getKey().getBytes(StandardCharsets.UTF_8));
            out.write(0);
            out.writeBytes(e.getValue().getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        features.put(129, out.toByteArray());
        return this;
    }

    /**
     * simpleperf's file2 feature (FEAT_FILE2 = 132): per file a 32-bit size and a FileFeature message
     * (record_file.proto): path (1), type (2: DSO_ELF_FILE is 2), min_vaddr (3), and for an ELF file an ElfFile
     * message (6) with file_offset_of_min_vaddr (1).
     */
    PerfDataWriter simpleperfFiles(List<Object[]> files) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object[] f : files) { // {path, minVaddr, fileOffsetOfMinVaddr}
            java.io.ByteArrayOutputStream m = new java.io.ByteArrayOutputStream();
            byte[] path = ((String) f[0]).getBytes(StandardCharsets.UTF_8);
            m.write(1 << 3 | 2);
            varint(m, path.length);
            m.writeBytes(path);
            m.write(2 << 3);
            varint(m, 2);
            m.write(3 << 3);
            varint(m, (Long) f[1]);
            java.io.ByteArrayOutputStream elf = new java.io.ByteArrayOutputStream();
            elf.write(1 << 3);
            varint(elf, (Long) f[2]);
            m.write(6 << 3 | 2);
            varint(m, elf.size());
            m.writeBytes(elf.toByteArray());
            out.writeBytes(ByteBuffer.allocate(4).order(order).putInt(m.size()).array());
            out.writeBytes(m.toByteArray());
        }
        features.put(132, out.toByteArray());
        return this;
    }

    private static void varint(java.io.ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** HEADER_BUILD_ID: one build_id_event per file, the ID's size in byte 20 (PERF_RECORD_MISC_BUILD_ID_SIZE). */
    PerfDataWriter buildIds(Map<String, byte[]> ids) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> e : ids.entrySet()) {
            int size = 8 + 4 + 24 + padded(e.getKey());
            ByteBuffer b = ByteBuffer.allocate(size).order(order);
            b.putInt(67).putShort((short) (2 | 0x8000)).putShort((short) size).putInt(-1);
            byte[] id = java.util.Arrays.copyOf(e.getValue(), 24);
            id[20] = (byte) e.getValue().length;
            b.put(id);
            putString(b, e.getKey(), padded(e.getKey()));
            out.writeBytes(b.array());
        }
        features.put(2, out.toByteArray());
        return this;
    }

    /** The attribute section's offset and entry size, and the data section's offset, in the file {@link #write} writes. */
    private static final long ATTRS_OFFSET = 104;
    private static final int ATTR_SIZE = 128 + 16;
    private static final long DATA_OFFSET = ATTRS_OFFSET + ATTR_SIZE + 8;

    /**
     * The file offsets of the AUXTRACE records' data, in the order they were added: where a caller fills in
     * the AUX data it wrote as holes, once the file is written (a recording too large to hold in memory).
     */
    long[] auxDataOffsets() {
        return auxData.stream().mapToLong(d -> DATA_OFFSET + d).toArray();
    }

    /** Writes the file; AUX holes become holes of a sparse file. */
    void write(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, StandardOpenOption.SPARSE)) {
            long attrsOffset = ATTRS_OFFSET;
            int attrSize = ATTR_SIZE;
            long idsOffset = attrsOffset + attrSize;
            long dataOffset = DATA_OFFSET;
            // the auxtrace index feature, perf's layout: nr, then (file offset, size) pairs
            if (!auxIndex.isEmpty()) {
                ByteBuffer ix = ByteBuffer.allocate((simpleperfAuxIndex ? 0 : 8) + 16 * auxIndex.size()).order(order);
                if (!simpleperfAuxIndex) {
                    ix.putLong(auxIndex.size());
                }
                for (long[] e : auxIndex) {
                    ix.putLong(dataOffset + e[0]).putLong(e[1]);
                }
                features.put(18, ix.array());
            }
            ByteBuffer h = ByteBuffer.allocate(104).order(order);
            h.putLong(PerfData.MAGIC).putLong(104).putLong(attrSize).putLong(attrsOffset).putLong(attrSize)
                    .putLong(dataOffset).putLong(dataLength).putLong(0).putLong(0);
            byte[] bits = new byte[32];
            for (int f : features.keySet()) {
                bits[f / 8] |= (byte) (1 << (f % 8));
            }
            h.put(bits);
            ch.write(h.flip(), 0);
            ByteBuffer a = ByteBuffer.allocate(attrSize).order(order);
            a.putInt(pmuType).putInt(128).putLong(0x4000).putLong(1).putLong(sampleType).putLong(0)
                    .putLong(1L << 18 | 1L << 23) // sample_id_all, mmap2
                    .putInt(0).putInt(0).putLong(0).putLong(0);
            a.position(attrSize - 16);
            a.putLong(idsOffset).putLong(8);
            ch.write(a.flip(), attrsOffset);
            ch.write(ByteBuffer.allocate(8).order(order).putLong(EVENT_ID).flip(), idsOffset);
            long pos = dataOffset;
            for (Object o : data) {
                if (o instanceof byte[]) {
                    byte[] bytes = (byte[]) o;
                    ch.write(ByteBuffer.wrap(bytes), pos);
                    pos += bytes.length;
                } else {
                    pos += (Long) o;
                }
            }
            long table = pos;
            long featureData = table + 16L * features.size();
            ByteBuffer t = ByteBuffer.allocate(16 * features.size()).order(order);
            for (byte[] f : features.values()) {
                t.putLong(featureData).putLong(f.length);
                ch.write(ByteBuffer.wrap(f), featureData);
                featureData += f.length;
            }
            ch.write(t.flip(), table);
            if (ch.size() < featureData) {
                ch.write(ByteBuffer.allocate(1), featureData - 1);
            }
        }
    }
}
