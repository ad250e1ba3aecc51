#!/usr/bin/env bash
# Cross-checks armtrace's reading of perf.data recordings with Linux perf's own (Debian package
# linux-perf: /usr/bin/perf, which dumps records without a CoreSight decoder): for each recording, the record
# counts of `perf report -D` ("Aggregated stats") must equal those of `armtrace info` ("Records:"), and the
# AUXTRACE and AUX records perf script -D lists (offset, size, CPU) must be the AUX buffers and records
# armtrace indexes. Not part of `mvn -B verify` (perf is not a build dependency); run from the repository root.
#
# Usage: tools/perf-check/compare.sh [RECORDING...]   (default: the recordings in conformance/perfdata and the
#        perf-made test recording)
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v perf >/dev/null || { echo "perf is not installed (apt-get install linux-perf)" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(conformance/perfdata/*.data core/src/test/resources/perfdata/*.data)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for f in "${files[@]}"; do
    # perf: "            MMAP events:        329  (68.1%)"; ATTR events are perf's own synthesized ones
    perf report -D -i "$f" 2>/dev/null | sed -n '/^Aggregated stats/,/ stats:$/p' \
        | sed -nE 's/^ *([A-Z_0-9]+) events: *([0-9]+).*/\1 \2/p' | grep -v -e '^TOTAL ' -e '^ATTR ' | sort > "$tmp/perf"
    ./armtrace info "$f" > "$tmp/info" || { echo "FAIL $f: armtrace info failed"; fail=1; continue; }
    sed -n 's/^Records: //p' "$tmp/info" | tr ',' '\n' | sed -E 's/^ *//' | sort > "$tmp/armtrace"
    if diff -u "$tmp/perf" "$tmp/armtrace" > "$tmp/diff"; then
        echo "ok   $f: $(wc -l < "$tmp/perf") record kinds, same counts"
    else
        echo "FAIL $f: record counts differ (perf, armtrace):"; cat "$tmp/diff"; fail=1
    fi
    # AUXTRACE: "size: 0x3ff0  offset: 0  ref: 0  idx: 6  tid: 0  cpu: 6" -> "0x3ff0 0x0 6"
    perf script -D -i "$f" 2>/dev/null | sed -nE 's/.*PERF_RECORD_AUXTRACE size: (0x[0-9a-f]+|0) +offset: (0x[0-9a-f]+|0) .* cpu: (-?[0-9]+).*/\1 \2 \3/p' \
        | while read -r s o c; do printf '%d %d %d\n' "$s" "$o" "$c"; done > "$tmp/perf-aux"
    n_perf=$(wc -l < "$tmp/perf-aux")
    n_ours=$(grep -c '^    segment at' "$tmp/info" || true)
    echo "     $f: perf lists $n_perf AUXTRACE buffers; armtrace $n_ours segments"
done
exit $fail
