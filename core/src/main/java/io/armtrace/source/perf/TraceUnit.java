package io.armtrace.source.perf;

import java.util.Map;

/**
 * The trace unit of one CPU as AUXTRACE_INFO describes it (tools/perf/util/cs-etm.h): its kind (magic
 * number), the CPU, and the registers perf or simpleperf recorded, by their architectural names in the
 * order of the layout (ETMv3/PTM: ETMCR, ETMTRACEIDR, ETMCCER, ETMIDR; ETMv4: TRCCONFIGR, TRCTRACEIDR,
 * TRCIDR0, TRCIDR1, TRCIDR2, TRCIDR8, TRCAUTHSTATUS, TS_SOURCE; ETE: those and TRCDEVARCH before TS_SOURCE).
 * Values past the names this reader knows keep the name {@code PARAM<n>}.
 */
public record TraceUnit(Kind kind, int cpu, Map<String, Long> registers) {
    /** The per-CPU block's magic number says which trace unit it describes. */
    public enum Kind {
        ETMV3_PTM(0x3030303030303030L, "ETMv3/PTM"),
        ETMV4(0x4040404040404040L, "ETMv4"),
        ETE(0x5050505050505050L, "ETE");

        final long magic;
        final String title;

        Kind(long magic, String title) {
            this.magic = magic;
            this.title = title;
        }

        public String title() {
            return title;
        }

        static Kind of(long magic) {
            for (Kind k : values()) {
                if (k.magic == magic) {
                    return k;
                }
            }
            return null;
        }
    }

    public TraceUnit {
        registers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(registers));
    }

    /** The CoreSight trace ID (TRCTRACEIDR or ETMTRACEIDR bits [6:0]), or -1 if none was recorded. */
    public int traceId() {
        Long v = registers.get(kind == Kind.ETMV3_PTM ? "ETMTRACEIDR" : "TRCTRACEIDR");
        return v == null ? -1 : (int) (v & 0x7F);
    }
}
