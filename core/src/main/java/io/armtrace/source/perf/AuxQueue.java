package io.armtrace.source.perf;

/**
 * Where a piece of AUX data was collected: per CPU ({@code cpu} at least 0, as {@code perf record} does by
 * default and simpleperf always), or per thread ({@code perf record --per-thread}: {@code cpu} is -1 and
 * {@code tid} names the thread).
 */
public record AuxQueue(int cpu, int tid) implements Comparable<AuxQueue> {
    public boolean perThread() {
        return cpu < 0;
    }

    @Override
    public int compareTo(AuxQueue o) {
        return cpu != o.cpu ? Integer.compare(cpu, o.cpu) : Integer.compare(tid, o.tid);
    }

    @Override
    public String toString() {
        return perThread() ? "thread " + tid : "CPU " + cpu;
    }
}
