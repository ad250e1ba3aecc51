#!/usr/bin/env bash
# The large-recording figure of perf.data decoding: a recording with 1 GB of AUX data decodes in a 256 MB
# heap, at the rate of the same trace given as a raw trace file.
#
#   bench/vs-opencsd/perfdata-1g.sh OUT_DIR [MB]
#
# Writes into OUT_DIR (LargeEncodedRecording, from the compiled test classes): the ETMv4 encoder's trace of
# the ground-truth program linux-a64 repeated to MB megabytes (default 1024) as
#   large.raw        the trace bytes alone,
#   large.data       a perf.data recording of one CPU, CoreSight-formatted AUX data (ETR), 4 MiB buffers,
#   large-trbe.data  the same recording with raw AUX data (TRBE),
# then times `java -Xmx256m -jar core/target/armtrace.jar decode INPUT -o /dev/null` (the text listing) on
# each and prints wall and CPU time (user + system, from /usr/bin/time), the rate in MB of trace bytes per
# second of each, the peak resident memory, and the load average before and after. KEEP=1 keeps the files
# (about 3 GB); otherwise they are deleted at the end.
set -euo pipefail
out=${1:?usage: perfdata-1g.sh OUT_DIR [MB]}
mb=${2:-1024}
repo=$(cd "$(dirname "$0")/../.." && pwd)
jar="$repo/core/target/armtrace.jar"
if [ ! -f "$jar" ] || [ ! -f "$repo/core/target/test-classes/io/armtrace/source/perf/LargeEncodedRecording.class" ]; then
  (cd "$repo" && mvn -q -B -pl core -DskipTests package)
fi
[ -x /usr/bin/time ] || { echo "perfdata-1g.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$out"/large.raw "$out"/large.data "$out"/large-trbe.data' EXIT
java -Xmx1g -cp "$jar:$repo/core/target/test-classes" io.armtrace.source.perf.LargeEncodedRecording "$out" "$mb"
trace_bytes=$(stat -c %s "$out/large.raw")
before=$(cut -d' ' -f1-3 /proc/loadavg)
printf '| input | file MB | trace MB | exit | wall s | CPU s | MB/s (wall) | MB/s (CPU) | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for input in raw data trbe; do
  case $input in
    raw) name="raw trace (--trace large.raw --protocol etm4)"; file="$out/large.raw"
         read -r -a args < "$out/raw.args"; args=(--trace "$file" "${args[@]}");;
    data) name="perf.data, formatted AUX (ETR)"; file="$out/large.data"; args=("$file" --symdir "$out/symbols");;
    trbe) name="perf.data, raw AUX (TRBE)"; file="$out/large-trbe.data"; args=("$file" --symdir "$out/symbols");;
  esac
  set +e
  /usr/bin/time -o "$out/time.txt" -f '%e %U %S %M' java -Xmx256m -jar "$jar" decode "${args[@]}" -o /dev/null 2> "$out/err.txt"
  rc=$?
  set -e
  read -r wall user sys rss < <(tail -1 "$out/time.txt")
  awk -v n="$name" -v f="$(stat -c %s "$file")" -v t="$trace_bytes" -v rc=$rc -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
    'BEGIN { c = u + s; printf "| %s | %.0f | %.0f | %d | %.1f | %.1f | %.1f | %.1f | %.0f |\n", n, f / 1e6, t / 1e6, rc, w, c, t / 1e6 / w, t / 1e6 / c, r / 1024 }'
  [ $rc = 0 ] || { echo "perfdata-1g.sh: decode of $input FAILED:"; head -5 "$out/err.txt"; exit 1; }
done
echo "load average before: $before; after: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(java -version 2>&1 | head -1)"
