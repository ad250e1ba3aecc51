package io.armtrace.source.perf;

import java.util.List;

/**
 * One event of the recording (perf_event_attr, include/uapi/linux/perf_event.h): its PMU type and
 * config, which sample fields its records carry, and the event IDs that name it in records.
 */
public record PerfAttr(int type, long config, long sampleType, long flags, long config1, long config2, List<Long> ids) {
    // perf_event_attr.sample_type bits (enum perf_event_sample_format)
    static final long SAMPLE_TID = 1L << 1;
    static final long SAMPLE_TIME = 1L << 2;
    static final long SAMPLE_ID = 1L << 6;
    static final long SAMPLE_CPU = 1L << 7;
    static final long SAMPLE_STREAM_ID = 1L << 9;
    static final long SAMPLE_IDENTIFIER = 1L << 16;

    public PerfAttr {
        ids = List.copyOf(ids);
    }

    /** sample_id_all (bit 18 of the flag word): records other than samples end with a sample_id. */
    public boolean sampleIdAll() {
        return (flags >>> 18 & 1) != 0;
    }

    /** Bytes of the sample_id at the end of a non-sample record. */
    int sampleIdSize() {
        if (!sampleIdAll()) {
            return 0;
        }
        int n = 0;
        for (long bit : new long[] {SAMPLE_TID, SAMPLE_TIME, SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_IDENTIFIER}) {
            if ((sampleType & bit) != 0) {
                n += 8;
            }
        }
        return n;
    }
}
