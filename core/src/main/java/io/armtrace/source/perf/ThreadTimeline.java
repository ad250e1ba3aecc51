package io.armtrace.source.perf;

import io.armtrace.trace.Context;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.RunningThread;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which thread ran one CPU's decoded trace, and when, from what the recording says (one per decode of the CPU):
 *
 * <ul>
 * <li>time: the trace's own timestamps converted to the recording's clock with TIME_CONV, when the trace unit
 * timestamps with the architectural counter perf's clock relates to (TS_SOURCE 1, as perf requires); otherwise
 * the time of the PERF_RECORD_AUX that delivered the AUX fragment being decoded;</li>
 * <li>thread: the context ID of the trace's context elements when the trace unit traces it (the kernel writes
 * the thread ID to CONTEXTIDR with CONFIG_PID_IN_CONTEXTIDR; TRCCONFIGR.CID, ETMCR.ContextIDSize); otherwise
 * the thread that the ITRACE_START, SWITCH and SWITCH_CPU_WIDE records put on the CPU at that time;</li>
 * <li>process: the one the FORK, COMM, SWITCH and ITRACE_START records give the thread.</li>
 * </ul>
 *
 * <p>In a per-thread recording ({@code perf record --per-thread}) the thread is the one whose AUX buffer is
 * decoded, as perf takes it (tools/perf/util/cs-etm.c gives a per-thread queue's samples the queue's tid).
 *
 * <p>Breaks between AUX fragments are recognised by their gap's offset (where the fragment starts in the CPU's
 * AUX bytes).
 */
public final class ThreadTimeline implements RunningThread {
    private final int cpu;
    private final long[] segmentOffsets;
    private final long[] segmentTimes;
    private final long[] switchTimes;
    private final int[] switchPids;
    private final int[] switchTids;
    private final Map<Integer, Integer> pidOfTid;
    private final boolean contextIsThread;
    private final PerfData.TimeConversion conversion;
    /** The thread whose AUX stream this is (a per-thread recording), or -1. */
    private final int ownTid;

    private int segment;
    private long traceTime = -1;
    private long contextTid = -1;
    private long time;
    private long pid = -1;
    private long tid = -1;

    ThreadTimeline(PerfData data, int cpu, TraceUnit unit, List<AuxSegment> segments, int ownTid) {
        this.cpu = cpu;
        this.ownTid = ownTid;
        segmentOffsets = new long[segments.size()];
        segmentTimes = new long[segments.size()];
        for (int i = 0; i < segments.size(); i++) {
            segmentOffsets[i] = segments.get(i).streamOffset();
            segmentTimes[i] = segments.get(i).time();
        }
        // the thread put on this CPU from each time on, in time order
        List<long[]> on = new ArrayList<>();
        for (long[] s : data.itraceStarts()) { // {pid, tid, cpu, time}
            if (s[2] == cpu && s[3] >= 0) {
                on.add(new long[] {s[3], s[0], s[1]});
            }
        }
        for (SwitchEvent e : data.switchEvents()) {
            if (e.cpu() == cpu) {
                if (!e.out()) {
                    on.add(new long[] {e.time(), e.pid(), e.tid()});
                } else if (e.otherTid() >= 0) {
                    on.add(new long[] {e.time(), e.otherPid(), e.otherTid()});
                } else {
                    on.add(new long[] {e.time(), -1, -1});
                }
            }
        }
        Map<Integer, Integer> pids = processes(data);
        on.sort((a, b) -> Long.compare(a[0], b[0])); // stable: records of one time keep the file's order
        switchTimes = new long[on.size()];
        switchPids = new int[on.size()];
        switchTids = new int[on.size()];
        for (int i = 0; i < on.size(); i++) {
            switchTimes[i] = on.get(i)[0];
            switchPids[i] = (int) on.get(i)[1];
            switchTids[i] = (int) on.get(i)[2];
        }
        pidOfTid = pids;
        contextIsThread = tracesContextId(unit);
        PerfData.TimeConversion tc = data.timeConversion();
        Long source = unit.registers().get("TS_SOURCE");
        conversion = tc != null && source != null && source == 1 ? tc : null;
        settle();
    }

    /**
     * The process of each thread the recording names: FORK and COMM records say it outright; ITRACE_START and
     * SWITCH records (their sample_id, and the other thread of a CPU-wide switch) otherwise.
     */
    static Map<Integer, Integer> processes(PerfData data) {
        Map<Integer, Integer> pids = new HashMap<>();
        for (long[] s : data.itraceStarts()) {
            pids.putIfAbsent((int) s[1], (int) s[0]);
        }
        for (SwitchEvent e : data.switchEvents()) {
            pids.putIfAbsent(e.tid(), e.pid());
            if (e.otherTid() >= 0) {
                pids.putIfAbsent(e.otherTid(), e.otherPid());
            }
        }
        for (ThreadEvent t : data.threads()) {
            pids.put(t.tid(), t.pid());
        }
        pids.remove(-1);
        return pids;
    }

    /** TRCCONFIGR.CID (bit 6) for ETMv4 and ETE; ETMCR.ContextIDSize (bits 15:14) for ETMv3 and PTM. */
    static boolean tracesContextId(TraceUnit unit) {
        if (unit.kind() == TraceUnit.Kind.ETMV3_PTM) {
            Long cr = unit.registers().get("ETMCR");
            return cr != null && (cr >> 14 & 3) != 0;
        }
        Long cfg = unit.registers().get("TRCCONFIGR");
        return cfg != null && (cfg >> 6 & 1) != 0;
    }

    /** perf's conversion of an architectural counter value to its clock (tools/perf/util/tsc.c). */
    static long perfTime(PerfData.TimeConversion tc, long counter) {
        long cyc = counter;
        if (tc.capUserTimeShort()) {
            cyc = tc.timeCycles() + ((cyc - tc.timeCycles()) & tc.timeMask());
        }
        int shift = (int) Math.min(63, Math.max(0, tc.timeShift()));
        long quot = cyc >>> shift;
        long rem = cyc & ((1L << shift) - 1);
        return tc.timeZero() + quot * tc.timeMult() + ((rem * tc.timeMult()) >>> shift);
    }

    private void settle() {
        time = traceTime >= 0 ? traceTime : segment < segmentTimes.length ? segmentTimes[segment] : -1;
        if (ownTid >= 0) { // a per-thread recording: every line is the buffer's thread's
            tid = ownTid;
            pid = pidOfTid.getOrDefault(ownTid, -1);
            return;
        }
        if (contextTid >= 0) {
            tid = contextTid;
            Integer p = pidOfTid.get((int) contextTid);
            pid = p != null ? p : -1;
            return;
        }
        int i = time < 0 ? -1 : lastAtOrBefore(time);
        pid = i < 0 ? -1 : switchPids[i];
        tid = i < 0 ? -1 : switchTids[i];
    }

    private int lastAtOrBefore(long t) {
        int i = Arrays.binarySearch(switchTimes, t);
        if (i >= 0) {
            while (i + 1 < switchTimes.length && switchTimes[i + 1] == t) {
                i++;
            }
            return i;
        }
        return -i - 2;
    }

    /** Follows {@code e}: a break to the next AUX fragment, a timestamp, a context. */
    void see(TraceElement e) {
        if (e instanceof Gap g && g.reason().startsWith("trace break")) {
            int i = Arrays.binarySearch(segmentOffsets, g.offset());
            if (i >= 0) {
                segment = i;
                traceTime = -1; // a fresh decoder: the fragment's time until the trace says one
                contextTid = -1;
                settle();
            }
        } else if (e instanceof Timestamp t && conversion != null) {
            traceTime = perfTime(conversion, t.value());
            settle();
        } else if (e instanceof Context c && contextIsThread) {
            contextTid = c.contextId() & 0xFFFFFFFFL;
            settle();
        }
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public long tid() {
        return tid;
    }

    @Override
    public int cpu() {
        return cpu;
    }

    @Override
    public long time() {
        return time;
    }

    @Override
    public ElementSink feed(ElementSink next) {
        return new io.armtrace.trace.ForwardingSink() {
            @Override
            public void accept(TraceElement e) {
                if (!(e instanceof InstructionRange)) { // nearly every element, and never one that moves the thread or time
                    see(e);
                }
                next.accept(e);
            }

            /* Ranges and cycle counts never move the thread or the time: they go on as fields (ForwardingSink). */

            @Override
            public ElementSink next() {
                return next;
            }

            @Override
            public void end() {
                next.end();
            }
        };
    }
}
