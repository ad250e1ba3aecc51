package io.armtrace.source.perf;

/**
 * A PERF_RECORD_MMAP or MMAP2: process {@code pid} (-1 for the kernel) mapped {@code length} bytes of
 * {@code path} from file offset {@code pgoff} at {@code start}, at {@code time} (0 for the mappings perf
 * synthesizes when recording starts). {@code buildId} comes from the MMAP2 record itself
 * (PERF_RECORD_MISC_MMAP_BUILD_ID) or the recording's build ID table, else null; {@code prot} is the MMAP2
 * protection (PROT_EXEC = 4), or -1 for MMAP, which perf writes for executable mappings only.
 */
public record Mapping(int pid, int tid, long start, long length, long pgoff, String path, String buildId, long time,
                      int prot, boolean kernel) {
    public long end() {
        return start + length;
    }

    /** Executable: PROT_EXEC in MMAP2, and every MMAP (perf records MMAP for executable mappings). */
    public boolean executable() {
        return prot < 0 || (prot & 4) != 0;
    }

    Mapping withBuildId(String id) {
        return new Mapping(pid, tid, start, length, pgoff, path, id, time, prot, kernel);
    }
}
