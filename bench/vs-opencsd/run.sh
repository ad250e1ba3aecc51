#!/usr/bin/env bash
# armtrace against OpenCSD's library, both decoding the same trace into sinks that only count.
#
#   bench/vs-opencsd/run.sh            (one command from a clean clone; about 5-10 minutes)
#
# Builds a copy of this tree and the C++ driver (opencsd_null.cpp, OpenCSD's decode tree C API)
# in a scratch directory, makes the inputs there, runs both tools on them and prints one table:
# MB/s and million instructions/s per tool and mode, the ratio, and the instruction counts of both
# (they must agree; the script fails if they do not). Nothing is written into the source tree.
#
# Environment:
#   TC2=DIR            the TC2 snapshot (default: conformance/TC2 in the repository)
#   ETM4=DIR           the ETMv4 captures (default: conformance/etm4): juno_r1_1 source 0x10 repeated to
#                      50 MB and bugfix-exact-match source 0x12 (gcc's cc1) as it is, full decode only
#   SCRATCH=DIR        where to build and write inputs (default: a new temporary directory, removed
#                      at the end unless KEEP=1)
#   REPEAT=N           armtrace runs per measurement, best taken (default 5; the first warms the JIT;
#                      at most 3 for the text listing)
#   OPENCSD_REPEAT=N   OpenCSD runs per measurement (default 2; 1 for the slow a9-thumb full decode)
#   CLOCK=cpu|wall     time the decoding thread's CPU time (default: robust on a shared, loaded
#                      machine) or wall-clock time
#   ETMV4=0            leave out the ETMv4 row (an encoder-made A64 trace, bench/vs-opencsd/etm4-input.sh)
#   BIG_MB=N           size of the bounded-memory check's trace (default 1024), decoded by
#                      `armtrace decode` with -Xmx256m; BIG_MB=0 skips it
# Needs: a JDK 17, Maven, g++ and OpenCSD's library and headers (Debian: libopencsd-dev).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
TC2=${TC2:-$repo/conformance/TC2}
ETM4=${ETM4:-$repo/conformance/etm4}
REPEAT=${REPEAT:-5}
OPENCSD_REPEAT=${OPENCSD_REPEAT:-2}
BIG_MB=${BIG_MB:-1024}
CLOCK=${CLOCK:-cpu}
if [ "$CLOCK" = wall ]; then tkey=best_s; else tkey=best_cpu_s; fi

say() { printf '%s\n' "$*" >&2; }

missing=()
command -v java >/dev/null || missing+=("java (a JDK 17)")
command -v mvn >/dev/null || missing+=("mvn (Maven)")
if ! command -v g++ >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    say "installing g++ with apt-get..."
    apt-get install -y -q g++ >/dev/null || true
  fi
  command -v g++ >/dev/null || missing+=("g++ (Debian: apt-get install g++)")
fi
if [ ! -f /usr/include/opencsd/c_api/opencsd_c_api.h ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    say "installing OpenCSD's library with apt-get..."
    apt-get install -y -q libopencsd-dev >/dev/null || true
  fi
  [ -f /usr/include/opencsd/c_api/opencsd_c_api.h ] ||
    missing+=("OpenCSD headers and library (Debian: apt-get install libopencsd-dev; else build OpenCSD and set CPATH and LIBRARY_PATH)")
fi
[ -f "$TC2/snapshot.ini" ] || missing+=("the TC2 snapshot at $TC2 (set TC2=DIR; OpenCSD ships it as decoder/tests/snapshots/TC2)")
if [ ${#missing[@]} -gt 0 ]; then
  say "bench/vs-opencsd: missing:"
  for m in "${missing[@]}"; do say "  - $m"; done
  exit 2
fi

if [ -n "${SCRATCH:-}" ]; then
  mkdir -p "$SCRATCH"
  work=$SCRATCH
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/armtrace-vs-opencsd.XXXXXX")
  [ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
say "scratch directory: $work"

# 1. build: a copy of the tree (no target/), so the clone stays untouched
say "building armtrace (copy of the tree in the scratch directory)..."
rm -rf "$work/src-copy"
mkdir -p "$work/src-copy"
(cd "$repo" && tar --exclude=./target --exclude=./core/target --exclude=./spark/target --exclude=./.git -cf - .) | (cd "$work/src-copy" && tar -xf -)
(cd "$work/src-copy" && mvn -q -B -DskipTests -pl core package test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt) >"$work/build.log" 2>&1 ||
  { say "the armtrace build failed; see $work/build.log"; exit 1; }
cp="$work/src-copy/core/target/test-classes:$work/src-copy/core/target/classes:$(cat "$work/src-copy/core/target/bench-classpath.txt")"
jar="$work/src-copy/core/target/armtrace.jar"
say "building the OpenCSD driver..."
g++ -O2 -std=c++17 -o "$work/opencsd_null" "$repo/bench/vs-opencsd/opencsd_null.cpp" -lopencsd_c_api -lopencsd

# 2. inputs
say "making the inputs..."
java -Xmx2g -cp "$cp" io.armtrace.bench.VsOpenCsd prepare "$work/in" "$TC2"
java -Xmx2g -cp "$cp" io.armtrace.bench.VsOpenCsd prepare-etm4 "$work/in" "$ETM4"

# 3. measurements: key=value lines from both drivers
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
armtrace_run() { java -Xmx1g -cp "$cp" io.armtrace.bench.VsOpenCsd "$@"; }
opencsd_run() { # INPUT MODE REPEAT
  local dir=$work/in/$1 proto trace idr cr ccer id images
  read -r proto trace idr cr ccer id <"$dir/opencsd.args"
  images=$(sed -n 2p "$dir/opencsd.args")
  (cd "$dir" && "$work/opencsd_null" "$2" "$proto" "$trace" "$idr" "$cr" "$ccer" "$id" "$3" $images)
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { r = b / s / 1e6; printf (r < 100 ? "%.1f" : "%.0f"), r }'; }
mis() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", b / a }'; }

rows=()
failed=0
for input in etm3-tc2 ptm-tc2 ptm-a9thumb-rs; do
  for mode in packets decode; do
    n=$OPENCSD_REPEAT
    if [ "$input" = ptm-a9thumb-rs ] && [ "$mode" = decode ]; then n=1; fi
    say "  $input $mode: OpenCSD..."
    o=$(opencsd_run "$input" "$mode" "$n")
    say "  $input $mode: armtrace..."
    a=$(armtrace_run measure "$work/in/$input" "$mode" "$REPEAT")
    bytes=$(field bytes "$a")
    if [ "$mode" = packets ]; then key=packets; else key=instructions; fi
    ca=$(field $key "$a"); co=$(field $key "$o")
    [ "$ca" = "$co" ] || { say "MISMATCH: $input $mode: armtrace $key=$ca, OpenCSD $key=$co"; failed=1; }
    ta=$(field $tkey "$a"); to=$(field $tkey "$o")
    rows+=("| $input | $mode | $((bytes / 1000000)) | $(mbs "$bytes" "$to") | $(mbs "$bytes" "$ta") | $( [ $mode = decode ] && mis "$co" "$to" || echo -) | $( [ $mode = decode ] && mis "$ca" "$ta" || echo -) | $(ratio "$ta" "$to") | $co / $ca |")
  done
  say "  $input text listing: armtrace..."
  t=$(armtrace_run measure "$work/in/$input" text "$(( REPEAT < 3 ? REPEAT : 3 ))") # gigabytes of text per run
  bytes=$(field bytes "$t")
  rows+=("| $input | text listing | $((bytes / 1000000)) | - | $(mbs "$bytes" "$(field $tkey "$t")") | - | $(mis "$(field instructions "$t")" "$(field $tkey "$t")") | $(awk -v t="$(field $tkey "$t")" -v d="$(field $tkey "$a")" 'BEGIN { printf "%.1fx decode time", t / d }') | - / $(field instructions "$t") |")
  say "  $input JSONL listing (--ranges): armtrace..."
  t=$(armtrace_run measure "$work/in/$input" jsonl "$(( REPEAT < 3 ? REPEAT : 3 ))")
  rows+=("| $input | JSONL listing | $((bytes / 1000000)) | - | $(mbs "$bytes" "$(field $tkey "$t")") | - | $(mis "$(field instructions "$t")" "$(field $tkey "$t")") | $(awk -v t="$(field $tkey "$t")" -v d="$(field $tkey "$a")" 'BEGIN { printf "%.1fx decode time", t / d }') | - / $(field instructions "$t") |")
done
for input in etm4-juno etm4-cc1; do
  say "  $input decode: OpenCSD..."
  o=$(opencsd_run "$input" decode "$OPENCSD_REPEAT")
  say "  $input decode: armtrace..."
  a=$(armtrace_run measure "$work/in/$input" decode "$REPEAT")
  bytes=$(field bytes "$a")
  ca=$(field instructions "$a"); co=$(field instructions "$o")
  [ "$ca" = "$co" ] || { say "MISMATCH: $input decode: armtrace instructions=$ca, OpenCSD instructions=$co"; failed=1; }
  ta=$(field $tkey "$a"); to=$(field $tkey "$o")
  rows+=("| $input ($(awk -v n="$ca" -v b="$bytes" 'BEGIN { printf "%.2f", n / b }') insn/byte) | decode | $((bytes / 1000000)) | $(mbs "$bytes" "$to") | $(mbs "$bytes" "$ta") | $(mis "$co" "$to") | $(mis "$ca" "$ta") | $(ratio "$ta" "$to") | $co / $ca |")
done
# ETMv4: the encoder-made A64 trace of etm4-input.sh (needs gcc-aarch64-linux-gnu and qemu-user; ETMV4=0 skips
# it). The row compares packets and gives OpenCSD's full decode; armtrace's full ETMv4 decode is measured on the
# etm4-juno and etm4-cc1 rows above.
if [ "${ETMV4:-1}" = 1 ] && command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
  say "  etm4-a64: making the input (about 3 minutes)..."
  bash "$repo/bench/vs-opencsd/etm4-input.sh" "$work/in/etm4-a64" 50 >&2
  (cd "$work/in/etm4-a64" && {
    echo "etm4 trace_0.bin 0x28000ea1 0x1 0x4100f423 0x10"
    awk -F= '/^file=/ { f = $2 } /^address=/ { if (f !~ /elf$/) printf "%s@%s ", f, $2 }' cpu_0.ini; echo
  } > opencsd.args)
  for mode in packets decode; do
    say "  etm4-a64 $mode: OpenCSD..."
    o=$(opencsd_run etm4-a64 "$mode" 1)
    if [ "$mode" = packets ]; then
      say "  etm4-a64 packets: armtrace..."
      a=$(armtrace_run measure "$work/in/etm4-a64" packets "$REPEAT")
      bytes=$(field bytes "$a"); ca=$(field packets "$a"); co=$(field packets "$o")
      [ "$ca" = "$co" ] || { say "MISMATCH: etm4-a64 packets: armtrace $ca, OpenCSD $co"; failed=1; }
      rows+=("| etm4-a64 | packets | $((bytes / 1000000)) | $(mbs "$bytes" "$(field $tkey "$o")") | $(mbs "$bytes" "$(field $tkey "$a")") | - | - | $(ratio "$(field $tkey "$a")" "$(field $tkey "$o")") | $co / $ca |")
    else
      bytes=$(field bytes "$o")
      rows+=("| etm4-a64 | decode | $((bytes / 1000000)) | $(mbs "$bytes" "$(field $tkey "$o")") | - | $(mis "$(field instructions "$o")" "$(field $tkey "$o")") | - | - | $(field instructions "$o") / - |")
    fi
  done
  say "  etm4-a64: $(tr '\n' ';' < "$work/in/etm4-a64/input.txt")"
fi

say "  MTB fleet: armtrace..."
m=$(armtrace_run mtb 2000 "$REPEAT")
rows+=("| mtb-fleet (2000 dumps) | decode | $(awk -v b="$(field bytes "$m")" 'BEGIN { printf "%.1f", b / 1e6 }') | - | $(mbs "$(field bytes "$m")" "$(field $tkey "$m")") | - | $(mis "$(field instructions "$m")" "$(field $tkey "$m")") | $(awk -v s="$(field $tkey "$m")" 'BEGIN { printf "%.0f dumps/s", 2000 / s }') | - / $(field instructions "$m") |")

big=""
if [ "$BIG_MB" -gt 0 ]; then
  say "  bounded memory: a ${BIG_MB} MB trace through \`armtrace decode\` with -Xmx256m..."
  java -cp "$cp" io.armtrace.bench.VsOpenCsd repeat "$work/in/etm3-tc2" "$work/big" $((BIG_MB << 20))
  rm -rf "$work/in"
  start=$(date +%s.%N)
  if java -Xmx256m -jar "$jar" decode "$work/big" >/dev/null 2>"$work/big.err"; then
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    big="\`armtrace decode\` (text) of a $(( $(stat -c %s "$work/big/trace_0.bin") >> 20 )) MiB ETMv3 trace (TC2 0x10 repeated) with -Xmx256m: exit 0, ${secs} s"
  else
    big="\`armtrace decode\` of the ${BIG_MB} MB trace with -Xmx256m FAILED: $(head -c 300 "$work/big.err")"
    failed=1
  fi
  rm -rf "$work/big"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo
echo "Machine: ${cpu:-unknown CPU}, $(nproc) cores; load: $(uptime | sed 's/.*load average/load average/')"
echo "Java: $(java -version 2>&1 | head -1); OpenCSD: $(dpkg-query -W -f '${Version}' libopencsd-dev 2>/dev/null || echo 'version unknown')"
echo "Single thread, trace in memory, $CLOCK time ($( [ "$CLOCK" = wall ] && echo wall-clock || echo "CPU time of the decoding thread")), best of $REPEAT armtrace runs (same JVM) and $OPENCSD_REPEAT OpenCSD runs (1 for ptm-a9thumb-rs decode)."
echo
echo "| input | mode | MB | OpenCSD MB/s | armtrace MB/s | OpenCSD M insn/s | armtrace M insn/s | armtrace speed-up | count OpenCSD / armtrace |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
[ -z "$big" ] || { echo; echo "$big"; }
exit $failed
