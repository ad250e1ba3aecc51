/**
 * Linux perf and Android simpleperf recordings ({@code perf.data}, magic {@code PERFILE2}) of CoreSight
 * trace: the file header, attributes, data and feature sections, the records that say which process ran
 * which binary where and when, and the AUX area data (the trace itself) indexed per CPU or thread and
 * streamed from the file, never read whole.
 *
 * <p>{@link io.armtrace.source.perf.PerfData} reads a recording in one pass over its records and answers
 * the two questions a decoder asks: the AUX bytes of a CPU (or thread) in order, with the points where data
 * was lost and the time of each buffer ({@link io.armtrace.source.perf.PerfData#auxSegments},
 * {@link io.armtrace.source.perf.PerfData#openAux}), and the binaries mapped into a process at a time
 * ({@link io.armtrace.source.perf.Mappings#at}).
 *
 * <p>Formats: Linux tools/perf/Documentation/perf.data-file-format.txt and include/uapi/linux/perf_event.h
 * (records, perf_event_attr, sample_id), tools/perf/util/cs-etm.h (AUXTRACE_INFO metadata of CoreSight
 * trace units), and simpleperf's record_file_format.h, record.h and record_file.proto (its own feature
 * sections and record types).
 */
package io.armtrace.source.perf;
