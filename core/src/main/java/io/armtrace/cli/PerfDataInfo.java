package io.armtrace.cli;

import io.armtrace.source.perf.AuxLoss;
import io.armtrace.source.perf.AuxQueue;
import io.armtrace.source.perf.AuxSegment;
import io.armtrace.source.perf.CoreSightInfo;
import io.armtrace.source.perf.Mapping;
import io.armtrace.source.perf.PerfAttr;
import io.armtrace.source.perf.PerfData;
import io.armtrace.source.perf.ThreadEvent;
import io.armtrace.source.perf.TraceUnit;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code armtrace info RECORDING.data}: what a perf.data recording holds, printed from {@link PerfData}:
 * header and features, the command line, the trace units with their registers (raw values by name), AUX
 * data per CPU or thread with where it was lost, processes and threads with their mappings and build IDs,
 * and record counts. Printing only: the reading is {@code source.perf}'s.
 */
final class PerfDataInfo {
    private PerfDataInfo() {
    }

    static void print(PerfData d, PrintWriter out) {
        out.println("Recording " + d.file());
        out.printf("  perf.data (PERFILE2), %s, %d bytes; data section %d bytes at byte %d%n",
                d.byteOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? "little-endian" : "big-endian", d.fileSize(),
                d.dataSize(), d.dataOffset());
        if (!d.commandLine().isEmpty()) {
            out.println("  command line: " + String.join(" ", d.commandLine()));
        }
        for (int f : new int[] {3, 4, 5, 6, 7, 8, 9, 10}) {
            String v = d.features().get(f);
            if (v != null && !v.isEmpty()) {
                out.printf("  %s: %s%n", PerfData.featureName(f), v);
            }
        }
        StringBuilder names = new StringBuilder();
        for (int f : d.features().keySet()) {
            names.append(names.length() == 0 ? "" : ", ").append(PerfData.featureName(f));
        }
        out.println("  features: " + (names.length() == 0 ? "none" : names));
        for (String key : new String[] {"simpleperf_version", "android_version", "android_build_fingerprint", "clockid",
            "system_wide_collection", "record_stat"}) {
            String v = d.metaInfo().get(key);
            if (v != null) {
                out.printf("  simpleperf %s: %s%n", key, v);
            }
        }
        if (!d.auxtraceIndex().isEmpty()) {
            out.printf("  AUXTRACE index: %d entries%n", d.auxtraceIndex().size());
        }

        out.println();
        out.println("Events:");
        int i = 0;
        for (PerfAttr a : d.attrs()) {
            out.printf("  event %d: PMU type %d, config 0x%x, config2 0x%x, sample_type 0x%x%s, %d IDs%n", i++, a.type(),
                    a.config(), a.config2(), a.sampleType(), a.sampleIdAll() ? ", sample_id_all" : "", a.ids().size());
        }

        out.println();
        CoreSightInfo cs = d.coreSight();
        if (cs == null) {
            out.println(d.auxtraceType() < 0 ? "Trace units: none (no AUXTRACE_INFO record)"
                    : "Trace units: AUXTRACE_INFO of type " + d.auxtraceType() + ", not CoreSight");
        } else {
            out.printf("Trace units (CoreSight AUXTRACE_INFO, header version %d, PMU type %d%s):%n", cs.version(), cs.pmuType(),
                    cs.snapshot() ? ", snapshot mode" : "");
            for (TraceUnit u : cs.units()) {
                Long hwId = d.hardwareIds().get(u.cpu());
                out.printf("  CPU %d: %s, trace ID %s%n", u.cpu(), u.kind().title(),
                        hwId != null ? String.format("0x%02x (AUX_OUTPUT_HW_ID)", hwId & 0x7F)
                                : u.traceId() < 0 ? "none" : String.format("0x%02x", u.traceId()));
                StringBuilder regs = new StringBuilder();
                u.registers().forEach((k, v) -> regs.append(regs.length() == 0 ? "" : " ").append(k).append("=0x")
                        .append(Long.toHexString(v)));
                out.println("    " + regs);
            }
        }

        out.println();
        List<AuxQueue> queues = d.auxQueues();
        out.println("AUX data:" + (queues.isEmpty() ? " none" : ""));
        for (AuxQueue q : queues) {
            List<AuxSegment> segs = d.auxSegments(q);
            long bytes = segs.stream().mapToLong(AuxSegment::size).sum();
            long buffers = d.auxBuffers().stream().filter(b -> b.queue().equals(q)).count();
            boolean anyFormatted = segs.stream().anyMatch(AuxSegment::formatted);
            boolean anyRaw = segs.stream().anyMatch(s -> !s.formatted());
            String format = segs.isEmpty() ? "" : anyFormatted && anyRaw ? ", formatted and raw mixed"
                    : anyRaw ? ", unformatted (the trace unit's own bytes, TRBE)" : ", formatted (CoreSight frames)";
            out.printf("  %s: %d bytes in %d buffers, %d segments%s%n", q, bytes, buffers, segs.size(), format);
            for (AuxSegment s : segs) {
                out.printf("    segment at stream byte %d: %d bytes from AUX offset 0x%x (file byte %d)%s%n", s.streamOffset(),
                        s.size(), s.auxOffset(), s.fileOffset(), s.time() < 0 ? "" : ", time " + s.time());
            }
            for (AuxLoss l : d.auxLosses(q)) {
                out.printf("    lost at stream byte %d (AUX offset 0x%x)%s: %s%s%n", l.streamOffset(), l.auxOffset(),
                        l.bytes() < 0 ? "" : ", " + l.bytes() + " bytes", l.reason().words(), l.time() < 0 ? "" : ", time " + l.time());
            }
        }

        out.println();
        out.println("Processes and threads:");
        Map<Integer, java.util.List<String>> processes = new TreeMap<>();
        for (ThreadEvent t : d.threads()) {
            String what = t.kind() == ThreadEvent.Kind.COMM ? (t.exec() ? "exec " : "comm ") + t.comm()
                    : t.kind() == ThreadEvent.Kind.FORK ? "fork from " + t.ppid() + "/" + t.ptid() : "exit";
            processes.computeIfAbsent(t.pid(), k -> new java.util.ArrayList<>())
                    .add(t.tid() + ": " + what + (t.time() > 0 ? " at " + t.time() : ""));
        }
        processes.forEach((pid, events) -> out.println("  process " + pid + ": " + String.join("; ", events)));
        Map<Integer, Integer> perPid = new TreeMap<>();
        for (Mapping m : d.mappings().all()) {
            perPid.merge(m.pid(), 1, Integer::sum);
        }
        out.println();
        out.println("Mappings (" + d.mappings().all().size() + "):");
        for (Map.Entry<Integer, Integer> e : perPid.entrySet()) {
            out.println("  " + (e.getKey() == -1 ? "kernel" : "process " + e.getKey()) + ": " + e.getValue() + " mappings");
            for (Mapping m : d.mappings().all()) {
                if (m.pid() == e.getKey()) {
                    out.printf("    %016x-%016x %s pgoff 0x%x %s%s%s%n", m.start(), m.end(),
                            m.prot() < 0 ? "x" : ((m.prot() & 1) != 0 ? "r" : "-") + ((m.prot() & 2) != 0 ? "w" : "-")
                                    + ((m.prot() & 4) != 0 ? "x" : "-"),
                            m.pgoff(), m.path(), m.buildId() == null ? "" : " build ID " + m.buildId(),
                            m.time() > 0 ? " at " + m.time() : "");
                }
            }
        }
        if (!d.files().isEmpty()) {
            out.println();
            out.println("simpleperf file feature (" + d.files().size() + " files):");
            for (PerfData.FileEntry f : d.files()) {
                out.printf("  %s: %s%s%s%n", f.path(), f.typeName(), f.offsetOfMinVaddr() < 0 ? ""
                        : f.type() == 1 ? String.format(", .text at module offset 0x%x", f.offsetOfMinVaddr())
                        : String.format(", min_vaddr 0x%x at file offset 0x%x", f.minVaddr(), f.offsetOfMinVaddr()),
                        f.symbols() == 0 ? "" : ", " + f.symbols() + " symbols");
            }
        }

        out.println();
        Map<String, Long> counts = new LinkedHashMap<>(d.recordCounts());
        StringBuilder rc = new StringBuilder();
        counts.forEach((k, v) -> rc.append(rc.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
        out.println("Records: " + (rc.length() == 0 ? "none" : rc));
        if (d.compressedRecords() > 0) {
            out.printf("  %d compressed records, %d bytes decompressed%n", d.compressedRecords(), d.decompressedBytes());
        }
        out.printf("  unknown records skipped: %d; lost events (LOST): %d; lost samples: %d; context switches: %d%n",
                d.unknownRecords(), d.lostEvents(), d.lostSamples(), d.switches());
        if (d.dropped() > 0) {
            out.printf("  %d records past %d of a kind were counted but not kept%n", d.dropped(), 1_000_000);
        }
    }
}
