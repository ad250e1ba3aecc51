package io.armtrace.source.perf;

/**
 * A PERF_RECORD_SWITCH or SWITCH_CPU_WIDE: on {@code cpu} at {@code time}, the thread {@code pid}/{@code tid}
 * (the record's sample_id) was switched in, or out when {@code out}. A CPU-wide record also names the other
 * thread of the switch, {@code otherPid}/{@code otherTid}: the one switched in next when this one goes out,
 * the one switched out before when this one comes in (-1 in a SWITCH record).
 */
public record SwitchEvent(int cpu, long time, boolean out, int pid, int tid, int otherPid, int otherTid) {
}
