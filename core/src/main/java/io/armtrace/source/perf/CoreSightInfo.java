package io.armtrace.source.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CoreSight part of PERF_RECORD_AUXTRACE_INFO (type PERF_AUXTRACE_CS_ETM, 3), as Linux perf and
 * simpleperf write it (tools/perf/util/cs-etm.h): a header of three 64-bit words (version; PMU type in the
 * upper and number of CPUs in the lower half; snapshot mode), then one block per CPU that starts with a
 * magic number and the CPU. Version 0 blocks have a fixed number of registers per magic; from version 1 a
 * third word gives the number of registers that follow, so that newer writers can append some.
 * Version 2 means the trace IDs come in PERF_RECORD_AUX_OUTPUT_HW_ID records rather than TRCTRACEIDR.
 */
public record CoreSightInfo(long version, int pmuType, boolean snapshot, List<TraceUnit> units) {
    /** PERF_AUXTRACE_CS_ETM in enum auxtrace_type. */
    static final int AUXTRACE_CS_ETM = 3;

    static final String[] ETMV3 = {"ETMCR", "ETMTRACEIDR", "ETMCCER", "ETMIDR"};
    static final String[] ETMV4 = {"TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR8",
        "TRCAUTHSTATUS", "TS_SOURCE"};
    static final String[] ETE = {"TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR8",
        "TRCAUTHSTATUS", "TRCDEVARCH", "TS_SOURCE"};
    /** Version 0 blocks: ETMv3 4 registers, ETMv4 7 (CS_ETM_NR_TRC_PARAMS_V0, CS_ETMV4_NR_TRC_PARAMS_V0). */
    static final int V0_ETMV3 = 4;
    static final int V0_ETMV4 = 7;
    /** More CPUs or registers than any machine has: the record is damaged. */
    static final int MAX_CPUS = 4096;
    static final int MAX_PARAMS = 256;

    public CoreSightInfo {
        units = List.copyOf(units);
    }

    /**
     * Reads {@code priv}, the 64-bit words after the record's type and reserved fields; {@code where} names
     * the record for messages. Throws {@link IllegalArgumentException} with a sentence when it is damaged.
     */
    static CoreSightInfo read(ByteBuffer priv, String where) {
        int words = priv.remaining() / 8;
        int base = priv.position();
        if (words < 3) {
            throw new IllegalArgumentException(where + " is too short for the CoreSight header");
        }
        long version = priv.getLong(base);
        long pmuCpus = priv.getLong(base + 8);
        boolean snapshot = priv.getLong(base + 16) != 0;
        int cpus = (int) (pmuCpus & 0xFFFFFFFFL);
        if (version > 16) {
            throw new IllegalArgumentException(where + " has CoreSight header version " + version + ", which this reader does not know");
        }
        if (cpus < 0 || cpus > MAX_CPUS) {
            throw new IllegalArgumentException(where + " says " + (pmuCpus & 0xFFFFFFFFL) + " CPUs");
        }
        List<TraceUnit> units = new ArrayList<>();
        int i = 3;
        for (int c = 0; c < cpus; c++) {
            if (i + 2 > words) {
                throw new IllegalArgumentException(where + " ends before the block of CPU " + c + " of " + cpus);
            }
            long magic = priv.getLong(base + 8 * i);
            TraceUnit.Kind kind = TraceUnit.Kind.of(magic);
            if (kind == null) {
                throw new IllegalArgumentException(where + " has a trace unit block with unknown magic number 0x"
                        + Long.toHexString(magic));
            }
            long cpu = priv.getLong(base + 8 * i + 8);
            int params;
            int first;
            if (version == 0) {
                if (kind == TraceUnit.Kind.ETE) {
                    throw new IllegalArgumentException(where + " has an ETE block in a version 0 header, which cannot hold one");
                }
                params = kind == TraceUnit.Kind.ETMV3_PTM ? V0_ETMV3 : V0_ETMV4;
                first = i + 2;
            } else {
                if (i + 3 > words) {
                    throw new IllegalArgumentException(where + " ends inside the block of CPU " + c);
                }
                long n = priv.getLong(base + 8 * i + 16);
                if (n < 0 || n > MAX_PARAMS) {
                    throw new IllegalArgumentException(where + " says CPU " + cpu + " has " + n + " registers");
                }
                params = (int) n;
                first = i + 3;
            }
            if (first + params > words) {
                throw new IllegalArgumentException(where + " ends inside the registers of CPU " + cpu);
            }
            String[] names = kind == TraceUnit.Kind.ETMV3_PTM ? ETMV3 : kind == TraceUnit.Kind.ETMV4 ? ETMV4 : ETE;
            Map<String, Long> regs = new LinkedHashMap<>();
            for (int k = 0; k < params; k++) {
                regs.put(k < names.length ? names[k] : "PARAM" + k, priv.getLong(base + 8 * (first + k)));
            }
            if (cpu < 0 || cpu > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(where + " names CPU " + cpu);
            }
            units.add(new TraceUnit(kind, (int) cpu, regs));
            i = first + params;
        }
        return new CoreSightInfo(version, (int) (pmuCpus >>> 32), snapshot, units);
    }
}
