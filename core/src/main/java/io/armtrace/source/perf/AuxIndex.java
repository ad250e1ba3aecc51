package io.armtrace.source.perf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Joins the AUXTRACE buffers of a recording with its PERF_RECORD_AUX records, per queue, as perf does
 * (tools/perf/util/cs-etm.c, cs_etm__queue_aux_fragment): each AUX record names a stretch of the queue's AUX
 * area that lies inside one buffer, and becomes a segment that carries the record's time and its
 * formatted/raw flag; a buffer no AUX record names is one segment. What the AUX records and buffer offsets
 * say was lost becomes {@link AuxLoss} points in the queue's stream.
 */
final class AuxIndex {
    final Map<AuxQueue, List<AuxSegment>> segments = new TreeMap<>();
    final Map<AuxQueue, List<AuxLoss>> losses = new TreeMap<>();

    AuxIndex(List<AuxBuffer> buffers, List<PerfData.AuxRecord> records) {
        boolean perThread = buffers.stream().anyMatch(b -> b.queue().perThread());
        Map<AuxQueue, List<AuxBuffer>> byQueue = new TreeMap<>();
        for (AuxBuffer b : buffers) {
            byQueue.computeIfAbsent(b.queue(), k -> new ArrayList<>()).add(b);
        }
        Map<AuxQueue, List<PerfData.AuxRecord>> auxByQueue = new TreeMap<>();
        for (PerfData.AuxRecord r : records) {
            AuxQueue q = perThread || r.queue().cpu() < 0 ? new AuxQueue(-1, r.queue().tid()) : new AuxQueue(r.queue().cpu(), -1);
            auxByQueue.computeIfAbsent(q, k -> new ArrayList<>()).add(r);
        }
        java.util.Set<AuxQueue> queues = new java.util.TreeSet<>(byQueue.keySet());
        queues.addAll(auxByQueue.keySet());
        for (AuxQueue q : queues) {
            index(q, byQueue.getOrDefault(q, List.of()), auxByQueue.getOrDefault(q, List.of()));
        }
    }

    private void index(AuxQueue q, List<AuxBuffer> buffers, List<PerfData.AuxRecord> records) {
        List<PerfData.AuxRecord> aux = new ArrayList<>(records);
        aux.sort(Comparator.comparingLong(PerfData.AuxRecord::auxOffset)); // stable: file order at equal offsets
        boolean[] covered = new boolean[aux.size()];
        long[] segmentStart = new long[aux.size()];
        List<AuxSegment> segs = new ArrayList<>();
        List<AuxLoss> lost = new ArrayList<>();
        long stream = 0;
        int first = 0;
        for (AuxBuffer b : buffers) {
            long lo = b.auxOffset();
            long hi = b.auxOffset() + b.size();
            // AUX records are in AUX offset order, as the buffers are: skip those wholly before this buffer
            while (first < aux.size() && aux.get(first).auxOffset() + aux.get(first).size() <= lo && aux.get(first).size() > 0
                    && aux.get(first).auxOffset() < lo) {
                first++;
            }
            boolean any = false;
            for (int i = first; i < aux.size() && aux.get(i).auxOffset() < hi; i++) {
                PerfData.AuxRecord r = aux.get(i);
                if (covered[i] || r.size() <= 0 || r.auxOffset() < lo || r.auxOffset() + r.size() > hi) {
                    continue;
                }
                covered[i] = true;
                segmentStart[i] = stream;
                segs.add(new AuxSegment(q, b.fileOffset() + (r.auxOffset() - lo), r.size(), r.auxOffset(), stream, r.time(),
                        r.formatted(), r.flags()));
                stream += r.size();
                any = true;
            }
            if (!any && b.size() > 0) {
                segs.add(new AuxSegment(q, b.fileOffset(), b.size(), lo, stream, -1, true, 0));
                stream += b.size();
            }
        }
        // losses the AUX records report
        for (int i = 0; i < aux.size(); i++) {
            PerfData.AuxRecord r = aux.get(i);
            if (!covered[i] && r.size() > 0) {
                lost.add(new AuxLoss(q, streamAt(segs, r.auxOffset(), stream), r.auxOffset(), r.size(), r.time(),
                        AuxLoss.Reason.NOT_IN_FILE));
                continue;
            }
            long end = covered[i] ? segmentStart[i] + r.size() : streamAt(segs, r.auxOffset(), stream);
            if (r.truncated()) {
                lost.add(new AuxLoss(q, end, r.auxOffset() + r.size(), -1, r.time(), AuxLoss.Reason.TRUNCATED));
            }
            if (r.collision()) {
                lost.add(new AuxLoss(q, end, r.auxOffset() + r.size(), -1, r.time(), AuxLoss.Reason.COLLISION));
            }
            if (r.partial()) {
                lost.add(new AuxLoss(q, covered[i] ? segmentStart[i] : end, r.auxOffset(), -1, r.time(), AuxLoss.Reason.PARTIAL));
            }
        }
        // AUX offsets that consecutive buffers skip, beyond what AUX records said was not saved
        List<AuxBuffer> byOffset = new ArrayList<>(buffers);
        byOffset.sort(Comparator.comparingLong(AuxBuffer::auxOffset));
        for (int i = 0; i + 1 < byOffset.size(); i++) {
            long end = byOffset.get(i).auxOffset() + byOffset.get(i).size();
            long next = byOffset.get(i + 1).auxOffset();
            if (next > end) {
                long gap = next - end;
                for (AuxLoss l : lost) {
                    if (l.reason() == AuxLoss.Reason.NOT_IN_FILE && l.auxOffset() >= end && l.auxOffset() < next) {
                        gap -= l.bytes();
                    }
                }
                if (gap > 0) {
                    lost.add(new AuxLoss(q, streamAt(segs, next, stream), end, gap, -1, AuxLoss.Reason.OFFSET_GAP));
                }
            }
        }
        lost.sort(Comparator.comparingLong(AuxLoss::streamOffset));
        if (!segs.isEmpty()) {
            segments.put(q, List.copyOf(segs));
        }
        if (!lost.isEmpty()) {
            losses.put(q, List.copyOf(lost));
        }
    }

    /** The stream offset of the first segment at or after AUX offset {@code auxOffset}, or {@code end}. */
    private static long streamAt(List<AuxSegment> segs, long auxOffset, long end) {
        for (AuxSegment s : segs) {
            if (s.auxOffset() >= auxOffset) {
                return s.streamOffset();
            }
        }
        return end;
    }
}
