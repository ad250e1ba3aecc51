package io.armtrace.source.perf;

/**
 * A record about a thread: COMM (name, {@code exec} when the process executed a new program), FORK or EXIT,
 * with the sample time ({@code time}, -1 when the records carry none).
 */
public record ThreadEvent(Kind kind, int pid, int tid, int ppid, int ptid, String comm, boolean exec, long time) {
    /** Which record. */
    public enum Kind { COMM, FORK, EXIT }
}
