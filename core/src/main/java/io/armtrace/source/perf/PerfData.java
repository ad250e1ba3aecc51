package io.armtrace.source.perf;

import io.armtrace.source.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A perf.data recording read in one pass: the file header, attributes, feature sections and every record
 * of the data section (compressed ones decompressed as they come), kept as what a decoder and
 * {@code armtrace info} need: trace units, AUX data indexed per queue with its losses, mappings, threads,
 * record counts. AUX data itself stays in the file ({@link #openAux} streams it), so the heap does not grow
 * with the trace; every list a hostile file could make long is capped ({@link #MAX_ENTRIES}), with the
 * records past the cap counted.
 *
 * <p>A file that is not a perf.data recording, or whose header, sections or records are damaged or cut
 * short, gives an {@link InputException} with one sentence naming the file, the byte offset and the problem.
 */
public final class PerfData {
    /** "PERFILE2" read as a little-endian 64-bit number (perf's __perf_magic2). */
    static final long MAGIC = 0x32454c4946524550L;
    /** Entries kept per list (mappings, thread events, AUX buffers, AUX records); more are counted only. */
    static final int MAX_ENTRIES = 1_000_000;
    /** Longest string kept from a record or feature (path names, commands); longer ones are cut. */
    static final int MAX_STRING = 4096;
    /** Largest record read into memory (simpleperf's own records have 32-bit sizes); larger ones are skipped. */
    static final int MAX_RECORD = 16 << 20;

    // record types: include/uapi/linux/perf_event.h (enum perf_event_type), tools/perf/util/event.h (user types)
    static final int MMAP = 1;
    static final int LOST = 2;
    static final int COMM = 3;
    static final int EXIT = 4;
    static final int FORK = 7;
    static final int MMAP2 = 10;
    static final int AUX = 11;
    static final int ITRACE_START = 12;
    static final int LOST_SAMPLES = 13;
    static final int SWITCH = 14;
    static final int SWITCH_CPU_WIDE = 15;
    static final int AUX_OUTPUT_HW_ID = 21;
    static final int AUXTRACE_INFO = 70;
    static final int AUXTRACE = 71;
    static final int TIME_CONV = 79;
    static final int COMPRESSED = 81;
    static final int COMPRESSED2 = 83;
    /** simpleperf's records start here and have a 32-bit size (record.h, simpleperf_record_header). */
    static final int SIMPLEPERF_START = 32768;

    // PERF_RECORD_AUX flags (perf_event.h)
    static final long AUX_FLAG_TRUNCATED = 0x01;
    static final long AUX_FLAG_OVERWRITE = 0x02;
    static final long AUX_FLAG_PARTIAL = 0x04;
    static final long AUX_FLAG_COLLISION = 0x08;
    static final long AUX_FLAG_CORESIGHT_FORMAT_RAW = 0x0100;
    /** PERF_RECORD_MISC_MMAP_BUILD_ID: MMAP2 carries a build ID instead of device and inode. */
    static final int MISC_MMAP_BUILD_ID = 1 << 14;
    static final int MISC_COMM_EXEC = 1 << 13;
    static final int MISC_SWITCH_OUT = 1 << 13;
    static final int MISC_CPUMODE_MASK = 7;

    /** A PERF_RECORD_AUX: {@code size} bytes from {@code auxOffset} of the queue's AUX area are ready. */
    public record AuxRecord(AuxQueue queue, long auxOffset, long size, long flags, long time, long recordOffset) {
        public boolean truncated() {
            return (flags & AUX_FLAG_TRUNCATED) != 0;
        }

        public boolean partial() {
            return (flags & AUX_FLAG_PARTIAL) != 0;
        }

        public boolean collision() {
            return (flags & AUX_FLAG_COLLISION) != 0;
        }

        /** CoreSight formatted frames unless PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW (TRBE writes raw trace). */
        public boolean formatted() {
            return (flags & AUX_FLAG_CORESIGHT_FORMAT_RAW) == 0;
        }
    }

    /** A build ID the recording gives a file (HEADER_BUILD_ID feature, or PERF_RECORD_HEADER_BUILD_ID). */
    public record BuildId(int pid, String path, String id, boolean kernel) {
    }

    /** An entry of simpleperf's file feature (FEAT_FILE or FEAT_FILE2): a binary it looked at while recording. */
    public record FileEntry(String path, int type, long minVaddr, long offsetOfMinVaddr, int symbols) {
        /** simpleperf's DsoType (dso.h) in words. */
        public String typeName() {
            switch (type) {
                case 0: return "kernel";
                case 1: return "kernel module";
                case 2: return "ELF file";
                case 3: return "dex file";
                case 4: return "symbol map";
                default: return "unknown (" + type + ")";
            }
        }
    }

    /** PERF_RECORD_TIME_CONV: how perf time relates to the architectural counter (CNTVCT) that ETM timestamps count. */
    public record TimeConversion(long timeShift, long timeMult, long timeZero, long timeCycles, long timeMask,
                                 boolean capUserTimeZero, boolean capUserTimeShort) {
    }

    private final Path file;
    final ByteOrder order;
    final long fileSize;
    final long dataOffset;
    final long dataSize;
    final List<PerfAttr> attrs = new ArrayList<>();
    final Map<Integer, String> features = new TreeMap<>();
    final Map<Integer, long[]> featureSections = new TreeMap<>();
    final List<String> commandLine = new ArrayList<>();
    final Map<String, String> metaInfo = new LinkedHashMap<>();
    final List<BuildId> buildIds = new ArrayList<>();
    final List<FileEntry> files = new ArrayList<>();
    final List<long[]> auxtraceIndex = new ArrayList<>();
    int nrCpusAvailable = -1;
    int nrCpusOnline = -1;
    long totalMemory = -1;
    CoreSightInfo coreSight;
    int auxtraceType = -1;
    TimeConversion timeConversion;
    final Map<Integer, Long> hwIds = new TreeMap<>();
    final Map<String, long[]> recordCounts = new LinkedHashMap<>();
    long unknownRecords;
    long lostEvents;
    long lostSamples;
    long switches;
    long dropped;
    long compressedRecords;
    long decompressedBytes;
    final List<Mapping> mappings = new ArrayList<>();
    final List<ThreadEvent> threads = new ArrayList<>();
    final List<AuxBuffer> auxBuffers = new ArrayList<>();
    final List<AuxRecord> auxRecords = new ArrayList<>();
    final List<long[]> itraceStarts = new ArrayList<>();
    final List<SwitchEvent> switchEvents = new ArrayList<>();
    private Map<AuxQueue, List<AuxSegment>> segments;
    private Map<AuxQueue, List<AuxLoss>> losses;
    private Mappings mappingIndex;

    private PerfData(Path file, ByteOrder order, long fileSize, long dataOffset, long dataSize) {
        this.file = file;
        this.order = order;
        this.fileSize = fileSize;
        this.dataOffset = dataOffset;
        this.dataSize = dataSize;
    }

    /** True when the file starts with the perf.data magic number PERFILE2 (either byte order). */
    public static boolean looksLikePerfData(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] m = in.readNBytes(8);
            return m.length == 8 && (new String(m, StandardCharsets.ISO_8859_1).equals("PERFILE2")
                    || new String(m, StandardCharsets.ISO_8859_1).equals("2ELIFREP"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads a recording; see the class comment. */
    public static PerfData read(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return new PerfDataReader(file, ch).read();
        } catch (PerfDataReader.Damage e) {
            throw new InputException(file + ": " + e.getMessage() + ".", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read the recording (" + e.getMessage() + ").", e);
        }
    }

    static PerfData create(Path file, ByteOrder order, long fileSize, long dataOffset, long dataSize) {
        return new PerfData(file, order, fileSize, dataOffset, dataSize);
    }

    public Path file() {
        return file;
    }

    /** The byte order of the machine that wrote the recording. */
    public ByteOrder byteOrder() {
        return order;
    }

    public long fileSize() {
        return fileSize;
    }

    public long dataOffset() {
        return dataOffset;
    }

    public long dataSize() {
        return dataSize;
    }

    public List<PerfAttr> attrs() {
        return Collections.unmodifiableList(attrs);
    }

    /** The feature sections present, by number, with a short text for those that hold one (os release, arch...). */
    public Map<Integer, String> features() {
        return Collections.unmodifiableMap(features);
    }

    /** The name perf or simpleperf gives a feature number. */
    public static String featureName(int feature) {
        switch (feature) {
            case 1: return "tracing_data";
            case 2: return "build_id";
            case 3: return "hostname";
            case 4: return "osrelease";
            case 5: return "version";
            case 6: return "arch";
            case 7: return "nrcpus";
            case 8: return "cpudesc";
            case 9: return "cpuid";
            case 10: return "total_mem";
            case 11: return "cmdline";
            case 12: return "event_desc";
            case 13: return "cpu_topology";
            case 14: return "numa_topology";
            case 15: return "branch_stack";
            case 16: return "pmu_mappings";
            case 17: return "group_desc";
            case 18: return "auxtrace";
            case 19: return "stat";
            case 20: return "cache";
            case 21: return "sample_time";
            case 22: return "mem_topology";
            case 23: return "clockid";
            case 24: return "dir_format";
            case 25: return "bpf_prog_info";
            case 26: return "bpf_btf";
            case 27: return "compressed";
            case 28: return "cpu_pmu_caps";
            case 29: return "clock_data";
            case 30: return "hybrid_topology";
            case 31: return "pmu_caps";
            case 128: return "simpleperf file";
            case 129: return "simpleperf meta_info";
            case 130: return "simpleperf debug_unwind";
            case 131: return "simpleperf debug_unwind_file";
            case 132: return "simpleperf file2";
            case 133: return "simpleperf etm_branch_list";
            case 134: return "simpleperf init_map";
            default: return "feature " + feature;
        }
    }

    /** The command line that made the recording (HEADER_CMDLINE), or empty. */
    public List<String> commandLine() {
        return Collections.unmodifiableList(commandLine);
    }

    /** simpleperf's meta_info feature: key-value pairs (simpleperf_version, clockid, ...). */
    public Map<String, String> metaInfo() {
        return Collections.unmodifiableMap(metaInfo);
    }

    public List<BuildId> buildIds() {
        return Collections.unmodifiableList(buildIds);
    }

    public List<FileEntry> files() {
        return Collections.unmodifiableList(files);
    }

    /** HEADER_NRCPUS: CPUs available and online, or -1. */
    public int cpusAvailable() {
        return nrCpusAvailable;
    }

    public int cpusOnline() {
        return nrCpusOnline;
    }

    /** The AUXTRACE_INFO type (3 for CoreSight ETM), or -1 without one. */
    public int auxtraceType() {
        return auxtraceType;
    }

    /** The CoreSight trace units, or null when the recording has no CoreSight AUXTRACE_INFO. */
    public CoreSightInfo coreSight() {
        return coreSight;
    }

    public TimeConversion timeConversion() {
        return timeConversion;
    }

    /** PERF_RECORD_AUX_OUTPUT_HW_ID: the trace ID each CPU's trace unit used (header version 2), by CPU. */
    public Map<Integer, Long> hardwareIds() {
        return Collections.unmodifiableMap(hwIds);
    }

    /** How many records of each kind the data section held (compressed ones counted as the records inside). */
    public Map<String, Long> recordCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        recordCounts.forEach((k, v) -> m.put(k, v[0]));
        return m;
    }

    /** Records of types this reader does not know, skipped. */
    public long unknownRecords() {
        return unknownRecords;
    }

    /** Events the kernel said it lost (PERF_RECORD_LOST), and samples (PERF_RECORD_LOST_SAMPLES). */
    public long lostEvents() {
        return lostEvents;
    }

    public long lostSamples() {
        return lostSamples;
    }

    /** Context switch records (SWITCH, SWITCH_CPU_WIDE). */
    public long switches() {
        return switches;
    }

    /** Records past {@link #MAX_ENTRIES} of a kind, counted but not kept. */
    public long dropped() {
        return dropped;
    }

    public long compressedRecords() {
        return compressedRecords;
    }

    public long decompressedBytes() {
        return decompressedBytes;
    }

    /** HEADER_AUXTRACE: file offset and size of each AUXTRACE record, as the recorder indexed them. */
    public List<long[]> auxtraceIndex() {
        return Collections.unmodifiableList(auxtraceIndex);
    }

    public List<AuxBuffer> auxBuffers() {
        return Collections.unmodifiableList(auxBuffers);
    }

    public List<AuxRecord> auxRecords() {
        return Collections.unmodifiableList(auxRecords);
    }

    public List<ThreadEvent> threads() {
        return Collections.unmodifiableList(threads);
    }

    /** SWITCH and SWITCH_CPU_WIDE records that say their CPU and time, in the order of the file. */
    public List<SwitchEvent> switchEvents() {
        return Collections.unmodifiableList(switchEvents);
    }

    /** ITRACE_START records: {pid, tid, cpu, time}. */
    public List<long[]> itraceStarts() {
        return Collections.unmodifiableList(itraceStarts);
    }

    public Mappings mappings() {
        if (mappingIndex == null) {
            mappingIndex = new Mappings(Collections.unmodifiableList(mappings), Collections.unmodifiableList(threads));
        }
        return mappingIndex;
    }

    /** The queues that have AUX data or AUX records, in order (CPUs, then threads). */
    public List<AuxQueue> auxQueues() {
        index();
        java.util.TreeSet<AuxQueue> q = new java.util.TreeSet<>(segments.keySet());
        q.addAll(losses.keySet());
        return new ArrayList<>(q);
    }

    /** The AUX data of one queue in order, as the decoder reads it: one segment per AUX record fragment. */
    public List<AuxSegment> auxSegments(AuxQueue queue) {
        index();
        return segments.getOrDefault(queue, List.of());
    }

    /** Where the AUX data of one queue was lost, in stream order. */
    public List<AuxLoss> auxLosses(AuxQueue queue) {
        index();
        return losses.getOrDefault(queue, List.of());
    }

    /** The bytes of one segment, read from the file in chunks; the caller closes the stream. */
    public InputStream openAux(AuxSegment s) throws IOException {
        return new AuxInputStream(FileChannel.open(file, StandardOpenOption.READ), s.fileOffset(), s.size());
    }

    private synchronized void index() {
        if (segments == null) {
            AuxIndex x = new AuxIndex(auxBuffers, auxRecords);
            segments = x.segments;
            losses = x.losses;
        }
    }

    void count(String kind) {
        long[] c = recordCounts.get(kind);
        if (c == null) {
            if (recordCounts.size() >= 256) {
                kind = "other";
                c = recordCounts.computeIfAbsent(kind, k -> new long[1]);
            } else {
                c = new long[1];
                recordCounts.put(kind, c);
            }
        }
        c[0]++;
    }

    <T> void keep(List<T> list, T entry) {
        if (list.size() < MAX_ENTRIES) {
            list.add(entry);
        } else {
            dropped++;
        }
    }

    /** Streams {@code size} bytes from {@code offset} of a channel, which it closes. */
    static final class AuxInputStream extends InputStream {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        private long pos;
        private final long end;

        AuxInputStream(FileChannel ch, long offset, long size) {
            this.ch = ch;
            this.pos = offset;
            this.end = offset + size;
            buf.limit(0);
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return buf.get() & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, buf.remaining());
            buf.get(b, off, n);
            return n;
        }

        private boolean fill() throws IOException {
            if (buf.hasRemaining()) {
                return true;
            }
            if (pos >= end) {
                return false;
            }
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), end - pos));
            int n = ch.read(buf, pos);
            if (n <= 0) {
                throw new IOException("the recording ends inside its AUX data at byte " + pos);
            }
            pos += n;
            buf.flip();
            return true;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    static String hex(byte[] b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(Character.forDigit(b[i] >> 4 & 0xF, 16)).append(Character.forDigit(b[i] & 0xF, 16));
        }
        return sb.toString();
    }

    /** The name perf gives a record type (PERF_RECORD_ without the prefix), or "type N". */
    public static String recordName(int type) {
        switch (type) {
            case 1: return "MMAP";
            case 2: return "LOST";
            case 3: return "COMM";
            case 4: return "EXIT";
            case 5: return "THROTTLE";
            case 6: return "UNTHROTTLE";
            case 7: return "FORK";
            case 8: return "READ";
            case 9: return "SAMPLE";
            case 10: return "MMAP2";
            case 11: return "AUX";
            case 12: return "ITRACE_START";
            case 13: return "LOST_SAMPLES";
            case 14: return "SWITCH";
            case 15: return "SWITCH_CPU_WIDE";
            case 16: return "NAMESPACES";
            case 17: return "KSYMBOL";
            case 18: return "BPF_EVENT";
            case 19: return "CGROUP";
            case 20: return "TEXT_POKE";
            case 21: return "AUX_OUTPUT_HW_ID";
            case 64: return "HEADER_ATTR";
            case 65: return "HEADER_EVENT_TYPE";
            case 66: return "HEADER_TRACING_DATA";
            case 67: return "HEADER_BUILD_ID";
            case 68: return "FINISHED_ROUND";
            case 69: return "ID_INDEX";
            case 70: return "AUXTRACE_INFO";
            case 71: return "AUXTRACE";
            case 72: return "AUXTRACE_ERROR";
            case 73: return "THREAD_MAP";
            case 74: return "CPU_MAP";
            case 75: return "STAT_CONFIG";
            case 76: return "STAT";
            case 77: return "STAT_ROUND";
            case 78: return "EVENT_UPDATE";
            case 79: return "TIME_CONV";
            case 80: return "HEADER_FEATURE";
            case 81: return "COMPRESSED";
            case 82: return "FINISHED_INIT";
            case 83: return "COMPRESSED2";
            case 32769: return "simpleperf KERNEL_SYMBOL";
            case 32770: return "simpleperf DSO";
            case 32771: return "simpleperf SYMBOL";
            case 32772: return "simpleperf SPLIT";
            case 32773: return "simpleperf SPLIT_END";
            case 32774: return "simpleperf EVENT_ID";
            case 32775: return "simpleperf CALLCHAIN";
            case 32776: return "simpleperf UNWINDING_RESULT";
            case 32777: return "simpleperf TRACING_DATA";
            case 32778: return "simpleperf DEBUG";
            default: return "type " + Integer.toUnsignedString(type);
        }
    }

    /** Record types perf or simpleperf define (whether or not this reader uses them). */
    static boolean knownType(int type) {
        return type >= 1 && type <= 21 || type >= 64 && type <= 83 || type >= 32769 && type <= 32778;
    }
}
