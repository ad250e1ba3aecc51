#!/usr/bin/env bash
# One source on several threads: `armtrace decode --jobs 1` against `--jobs 2` (or JOBS) in pieces
# (`--chunk-size`) and in one piece (the decoder beside its listing), and the serial fraction of each phase of the
# pieces with the speed-up Amdahl's law predicts from it.
#
#   bench/jobs/run.sh            (one command from a clean clone; about 5-10 minutes on an idle machine)
#
# Builds a copy of this tree in a scratch directory, makes the 50 MB inputs there (TC2's ETMv3 source 0x10 and
# PTM source 0x13, each repeated to 50 MB, as bench/vs-opencsd does), and prints two tables in the form of
# docs/performance.md, "One source on several threads":
#   1. wall time of the whole command (start-up included) at 1 and JOBS threads, in pieces and in one piece,
#      median of REPEAT runs, output to /dev/null, with the load average before each row; the outputs' checksums
#      must agree (the script fails if they do not); beside them the CPU time (user + system, median) of the same runs, and the most the
#      processors allow: JOBS threads cannot take less wall time than their CPU time over JOBS, so the speed-up
#      is at most JOBS x (wall at 1) / (CPU at JOBS). The one-thread run's CPU time is above its wall time: the
#      JIT compilers and the garbage collector use the second processor while it decodes;
#   2. where the CPU time goes, one run each, by thread (Linux /proc): the calling thread, the pieces' decoders
#      or the listing's thread, the JIT compilers and the garbage collector;
#   3. phases, best of RUNS in one JVM (io.armtrace.bench.JobsPhases): decode alone, decode and format on one
#      thread, and the calling thread's serial phases of the split decode (split scan, probes, joining bytes).
#      The serial fraction s is (scan + join) / one-thread time; Amdahl: speed-up(N) = 1 / (s + (1 - s) / N).
#      The probes run in parallel (one per piece) and count as parallel work.
# Nothing is written into the source tree. Measure on an idle machine: on a shared one the wall times say
# more about the other load than about armtrace (the load average is printed beside each figure for that).
#
# Environment:
#   TC2=DIR       the TC2 snapshot (default: conformance/TC2 in the repository)
#   SCRATCH=DIR   where to build and write inputs (default: a new temporary directory, removed at the end
#                 unless KEEP=1)
#   JOBS=N        threads of the split runs (default 2)
#   REPEAT=N      command runs per figure, median taken (default 5)
#   RUNS=N        in-JVM runs per phase, best taken (default 3)
#   CHUNK=BYTES   piece size (default 4194304, the automatic one)
#   INPUTS="DIR..." snapshot directories to time instead of the two TC2 inputs (for example the large-footprint
#                 ones bench/vs-opencsd/sqlite-input.sh makes, nothing repeated); each is labelled by its name
# Needs: a JDK 17 and Maven.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
TC2=${TC2:-$repo/conformance/TC2}
JOBS=${JOBS:-2}
REPEAT=${REPEAT:-5}
RUNS=${RUNS:-3}
CHUNK=${CHUNK:-4194304}

say() { printf '%s\n' "$*" >&2; }

command -v java >/dev/null || { say "bench/jobs: needs java (a JDK 17)"; exit 2; }
command -v mvn >/dev/null || { say "bench/jobs: needs mvn (Maven)"; exit 2; }
inputs=()
for d in ${INPUTS:-}; do
  [ -f "$d/snapshot.ini" ] || { say "bench/jobs: no snapshot at $d (INPUTS)"; exit 2; }
  inputs+=("$(cd "$d" && pwd)")
done
[ -n "${INPUTS:-}" ] || [ -f "$TC2/snapshot.ini" ] || { say "bench/jobs: no TC2 snapshot at $TC2 (set TC2=DIR)"; exit 2; }

if [ -n "${SCRATCH:-}" ]; then
  mkdir -p "$SCRATCH"
  work=$SCRATCH
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/armtrace-jobs.XXXXXX")
  [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
say "scratch directory: $work"

say "building armtrace (copy of the tree in the scratch directory)..."
rm -rf "$work/src-copy"
mkdir -p "$work/src-copy"
(cd "$repo" && tar --exclude=./target --exclude=./core/target --exclude=./spark/target --exclude=./.git -cf - .) | (cd "$work/src-copy" && tar -xf -)
(cd "$work/src-copy" && mvn -q -B -DskipTests -pl core package test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt) >"$work/build.log" 2>&1 ||
  { say "the armtrace build failed; see $work/build.log"; exit 1; }
cp="$work/src-copy/core/target/test-classes:$work/src-copy/core/target/classes:$(cat "$work/src-copy/core/target/bench-classpath.txt")"
jar="$work/src-copy/core/target/armtrace.jar"

if [ ${#inputs[@]} -eq 0 ]; then
  say "making the inputs..."
  [ -f "$work/in/ptm-tc2/trace_0.bin" ] || java -Xmx2g -cp "$cp" io.armtrace.bench.VsOpenCsd prepare "$work/in" "$TC2" >/dev/null
  inputs=("$work/in/ptm-tc2" "$work/in/etm3-tc2")
fi

load() { cut -d' ' -f1 /proc/loadavg; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# wall and CPU (user + system) seconds of one run of the command, its output thrown away
wall() { local t TIMEFORMAT='%R %U %S'; t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ); awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$t"; }
# Timed runs go through the copy's launcher, as users run armtrace: its JVM options and class-data archive.
launcher="$work/src-copy/armtrace"

# CPU seconds of one run by thread (Linux /proc): "main pieces compilers gc total". Each thread's last reading
# before it ends (sampled every 20 ms, so a thread that lives less than that may be missed): "main" is the
# calling thread (start-up, split scan, joining; in one piece the decoder), "pieces" the decoder threads or the
# listing's thread, "compilers" the JIT's, "gc" the VM thread (the serial collector runs there).
accounts() {
  local pid t st name rest tid
  declare -A cpu=() names=()
  "$launcher" "$@" >/dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for t in /proc/"$pid"/task/*; do
      st=$(cat "$t/stat" 2>/dev/null) || continue
      tid=${t##*/}; name=${st#*(}; name=${name%%)*}; rest=${st##*) }
      set -- $rest
      cpu[$tid]=$((${12} + ${13})); names[$tid]=$name
    done
    sleep 0.02
  done
  wait "$pid"
  for tid in "${!cpu[@]}"; do echo "${names[$tid]}|${cpu[$tid]}"; done | awk -F'|' -v hz="$(getconf CLK_TCK)" '
    $1 == "java" { m += $2 } $1 ~ /^armtrace-(chunk|list)/ { p += $2 } $1 ~ /CompilerThre/ { c += $2 } $1 == "VM Thread" { g += $2 }
    { t += $2 } END { printf "%.2f %.2f %.2f %.2f %.2f\n", m / hz, p / hz, c / hz, g / hz, t / hz }'
}
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

cli_rows=()
cpu_rows=()
phase_rows=()
for path in "${inputs[@]}"; do
  input=${path##*/}
  for fmt in text jsonl; do
    opts=(); [ "$fmt" = jsonl ] && opts=(--format jsonl --ranges)
    label="$input, $fmt$( [ "$fmt" = jsonl ] && echo ' --ranges' || true)"
    say "  $label: checksums..."
    s1=$(java -jar "$jar" decode "$path" "${opts[@]}" --jobs 1 | md5sum | cut -d' ' -f1)
    sn=$(java -jar "$jar" decode "$path" "${opts[@]}" --jobs "$JOBS" --chunk-size "$CHUNK" | md5sum | cut -d' ' -f1)
    [ "$s1" = "$sn" ] || { say "MISMATCH: $label: --jobs 1 and --jobs $JOBS differ"; exit 1; }
    sp=$(java -jar "$jar" decode "$path" "${opts[@]}" --jobs "$JOBS" | md5sum | cut -d' ' -f1)
    [ "$s1" = "$sp" ] || { say "MISMATCH: $label: --jobs 1 and --jobs $JOBS in one piece differ"; exit 1; }
    say "  $label: command wall times..."
    l1=$(load)
    r1=$(for i in $(seq "$REPEAT"); do wall "$launcher" decode "$path" "${opts[@]}" --jobs 1; done)
    ln=$(load)
    rn=$(for i in $(seq "$REPEAT"); do wall "$launcher" decode "$path" "${opts[@]}" --jobs "$JOBS" --chunk-size "$CHUNK"; done)
    lp=$(load)
    rp=$(for i in $(seq "$REPEAT"); do wall "$launcher" decode "$path" "${opts[@]}" --jobs "$JOBS"; done)
    t1=$(cut -d' ' -f1 <<<"$r1" | median); c1=$(cut -d' ' -f2 <<<"$r1" | median)
    tn=$(cut -d' ' -f1 <<<"$rn" | median); cn=$(cut -d' ' -f2 <<<"$rn" | median)
    tp=$(cut -d' ' -f1 <<<"$rp" | median); cp1=$(cut -d' ' -f2 <<<"$rp" | median)
    cli_rows+=("| $label | $t1 s / $c1 s (load $l1) | $tn s / $cn s (load $ln) | $(awk -v a="$t1" -v b="$tn" -v c="$cn" -v n="$JOBS" 'BEGIN { printf "%.2fx | %.2fx", a / b, n * a / c }') | $tp s / $cp1 s (load $lp) | $(awk -v a="$t1" -v b="$tp" -v c="$cp1" -v n="$JOBS" 'BEGIN { printf "%.2fx | %.2fx", a / b, n * a / c }') |")
    say "  $label: compiler and collector..."
    a1=$(accounts decode "$path" "${opts[@]}" --jobs 1)
    an=$(accounts decode "$path" "${opts[@]}" --jobs "$JOBS" --chunk-size "$CHUNK")
    ap=$(accounts decode "$path" "${opts[@]}" --jobs "$JOBS")
    cpu_rows+=("| $label | $(awk '{ printf "%s / %s / %s / %s / %s", $1, $2, $3, $4, $5 }' <<<"$a1") | $(awk '{ printf "%s / %s / %s / %s / %s", $1, $2, $3, $4, $5 }' <<<"$an") | $(awk '{ printf "%s / %s / %s / %s / %s", $1, $2, $3, $4, $5 }' <<<"$ap") |")
    say "  $label: phases..."
    lp=$(load)
    p=$(java -cp "$cp" io.armtrace.bench.JobsPhases "$path" "$fmt" "$RUNS" "$CHUNK" "$JOBS")
    phase_rows+=("$(awk -v d="$(field decode "$p")" -v one="$(field listing_1 "$p")" -v many="$(field listing_n "$p")" \
      -v scan="$(field scan "$p")" -v probe="$(field probe "$p")" -v join="$(field join "$p")" -v n="$JOBS" \
      -v label="$label" -v load="$lp" -v chunks="$(field chunks "$p")" -v seams="$(field seams "$p")" 'BEGIN {
        s = (scan + join) / one
        printf "| %s | %.2f s | %.2f s | %.3f s (%.1f%%) | %.3f s | %.3f s (%.1f%%) | %.1f%% | %.2fx (measured %.2fx) | %.1fx | %.1fx | %s/%s | %s |",
          label, d, one - d, scan, 100 * scan / one, probe, join, 100 * join / one, 100 * s,
          1 / (s + (1 - s) / n), one / many, 1 / (s + (1 - s) / 8), 1 / (s + (1 - s) / 16), seams, chunks, load
      }')")
  done
done

echo
echo "Whole command, wall time / CPU time (median of $REPEAT, output to /dev/null; pieces of $CHUNK bytes, or one"
echo "piece with the decoder beside its listing):"
echo
echo "| input, listing | --jobs 1 | --jobs $JOBS, pieces | speed-up | at most ($JOBS x wall 1 / CPU) | --jobs $JOBS, one piece | speed-up | at most |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${cli_rows[@]}"
echo
echo "CPU time by thread, seconds (one run each): calling thread / pieces' decoders or the listing's thread / JIT"
echo "compilers / GC / whole process:"
echo
echo "| input, listing | --jobs 1 | --jobs $JOBS, pieces | --jobs $JOBS, one piece |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${cpu_rows[@]}"
echo
echo "Phases (best of $RUNS in one JVM; serial: split scan and join, on the calling thread):"
echo
echo "| input, listing | decode | format | split scan (serial) | probes (parallel) | join (serial) | serial fraction | predicted at $JOBS | predicted at 8 | predicted at 16 | seams/pieces | load |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${phase_rows[@]}"
