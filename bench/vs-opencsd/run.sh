#!/usr/bin/env bash
# armtrace against OpenCSD's library, both decoding the same trace into sinks that only count.
#
#   bench/vs-opencsd/run.sh            (one command from a clean clone; about 15-20 minutes with REPEAT=3, plus
#                                       30-60 minutes the first time to make the 50 MB SQLite inputs, which are
#                                       cached: SQLITE_MB=8 makes them in about 10 minutes; the sqlite-mix inputs
#                                       take about 25 more minutes the first time)
#
# Builds a copy of this tree and the C++ driver (opencsd_null.cpp, OpenCSD's decode tree C API)
# in a scratch directory, makes the inputs there, runs both tools on them and prints one table:
# MB/s and million instructions/s per tool and mode, the ratio, and the instruction counts of both
# (they must agree; the script fails if they do not). Nothing is written into the source tree.
#
# Environment:
#   TC2=DIR            the TC2 snapshot (default: conformance/TC2 in the repository)
#   ETM4=DIR           the ETMv4 captures (default: conformance/etm4): juno_r1_1 source 0x10 repeated to
#                      50 MB and bugfix-exact-match source 0x12 (gcc's cc1) as it is, full decode and the listings
#   INPUTS="A B ..."   measure only these inputs (default: all of etm3-tc2 ptm-tc2 ptm-a9thumb-rs
#                      sqlite-arm-ptm sqlite-arm-etm3 sqlite-thumb-ptm sqlite-thumb-etm3 sqlite-mix-arm-ptm
#                      sqlite-mix-arm-etm3 sqlite-mix-thumb-ptm sqlite-mix-thumb-etm3 etm4-juno etm4-cc1
#                      etm4-a64 mtb-fleet)
#   SQLITE_MB=N        size of each SQLite trace (default 50; bench/vs-opencsd/sqlite-input.sh, cached in CACHE)
#   MIX_MB=N           size of each sqlite-mix trace (default 8): SQLite built at each of MIX_LEVELS
#   MIX_LEVELS="..."   (default "O0 O1 O2 Os") and linked into one program, executed code over 1 MB
#   CACHE=DIR          where the SQLite inputs and their build are kept between runs (default
#                      ~/.cache/armtrace-bench)
#   SCRATCH=DIR        where to build and write inputs (default: a new temporary directory, removed
#                      at the end unless KEEP=1)
#   REPEAT=N           runs per measurement of each tool, at least, best taken (default 5; at most 3 for the
#                      listings, which OpenCSD has no counterpart of, unless MIN_S asks for more)
#   MIN_S=S            armtrace runs each measurement until its runs add up to S seconds of CPU time, if REPEAT
#                      runs do not (default 1; 0 turns it off), and OpenCSD then runs the same number N of
#                      times: both tools take the best of the same N. On a small input (etm4-cc1, under 1 MB,
#                      about 0.05 s a run) the first runs are mostly the JVM's JIT warm-up, so a best of 3 or 5
#                      measured the warm-up more than the decoder; the 50 MB inputs keep N = REPEAT
#   OPENCSD_REPEAT=N   OpenCSD runs per measurement (default: the N armtrace ran, the same best-of-N)
#   CLOCK=cpu|wall     time the decoding thread's CPU time (default: robust on a shared, loaded
#                      machine) or wall-clock time
#   PIPED=0            leave out the listings on two threads (the decoder on one, the listing on the other and
#                      the decoder's thread formatting batches when it would wait, as `armtrace decode` with
#                      --jobs 2 or more runs them; timed by the wall clock whatever CLOCK)
#   ETMV4=0            leave out the etm4-a64 rows (an encoder-made A64 trace, bench/vs-opencsd/etm4-input.sh)
#   BIG_MB=N           size of the bounded-memory check's trace (default 1024), decoded by
#                      `armtrace decode` with -Xmx256m; BIG_MB=0 skips it
# Needs: a JDK 17, Maven, g++ and OpenCSD's library and headers (Debian: libopencsd-dev); for the SQLite
# inputs gcc-arm-linux-gnueabihf, qemu-user and (the first time) npm; for etm4-a64 gcc-aarch64-linux-gnu.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
TC2=${TC2:-$repo/conformance/TC2}
ETM4=${ETM4:-$repo/conformance/etm4}
REPEAT=${REPEAT:-5}
OPENCSD_REPEAT=${OPENCSD_REPEAT:-}
MIN_S=${MIN_S:-1}
SQLITE_MB=${SQLITE_MB:-50}
MIX_MB=${MIX_MB:-8}
MIX_LEVELS=${MIX_LEVELS:-O0 O1 O2 Os}
sqlite_inputs="sqlite-arm-ptm sqlite-arm-etm3 sqlite-thumb-ptm sqlite-thumb-etm3"
mix_inputs="sqlite-mix-arm-ptm sqlite-mix-arm-etm3 sqlite-mix-thumb-ptm sqlite-mix-thumb-etm3"
INPUTS=${INPUTS:-etm3-tc2 ptm-tc2 ptm-a9thumb-rs $sqlite_inputs $mix_inputs etm4-juno etm4-cc1 etm4-a64 mtb-fleet}
wanted() { [[ " $INPUTS " == *" $1 "* ]]; }
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
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
# the version of the library the driver actually runs with, as the library reports it
ocsd_version=$("$work/opencsd_null" version | sed -n 's/.*version_str=\(.*\)/\1/p')
say "OpenCSD library: $ocsd_version"

# 2. inputs
say "making the inputs..."
if wanted etm3-tc2 || wanted ptm-tc2 || wanted ptm-a9thumb-rs || [ "$BIG_MB" -gt 0 ]; then
  java -Xmx2g -cp "$cp" io.armtrace.bench.VsOpenCsd prepare "$work/in" "$TC2"
fi
if wanted etm4-juno || wanted etm4-cc1; then
  java -Xmx2g -cp "$cp" io.armtrace.bench.VsOpenCsd prepare-etm4 "$work/in" "$ETM4"
fi
for isa in arm thumb; do
  if wanted "sqlite-$isa-ptm" || wanted "sqlite-$isa-etm3"; then
    CACHE=${CACHE:-} bash "$repo/bench/vs-opencsd/sqlite-input.sh" "$work/in" "$isa" "$SQLITE_MB" "$cp" ||
      { say "the SQLite inputs ($isa) could not be made (see above)"; exit 2; }
  fi
  if wanted "sqlite-mix-$isa-ptm" || wanted "sqlite-mix-$isa-etm3"; then
    CACHE=${CACHE:-} bash "$repo/bench/vs-opencsd/sqlite-input.sh" "$work/in" "$isa" "$MIX_MB" "$cp" "$MIX_LEVELS" ||
      { say "the sqlite-mix inputs ($isa) could not be made (see above)"; exit 2; }
  fi
done

# 3. measurements: key=value lines from both drivers
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
armtrace_run() { java -Xmx1g -cp "$cp" io.armtrace.bench.VsOpenCsd "$@"; }
# OpenCSD's runs for a measurement: OPENCSD_REPEAT if set, else as many as armtrace's (the runs= of its line)
ocsd_runs() { if [ -n "$OPENCSD_REPEAT" ]; then echo "$OPENCSD_REPEAT"; else field runs "$1"; fi; }
runs_used=()
opencsd_run() { # INPUT MODE REPEAT
  local dir=$work/in/$1 proto trace idr cr ccer id images
  read -r proto trace idr cr ccer id <"$dir/opencsd.args"
  images=$(sed -n 2p "$dir/opencsd.args")
  (cd "$dir" && "$work/opencsd_null" "$2" "$proto" "$trace" "$idr" "$cr" "$ccer" "$id" "$3" $images)
}
mb() { awk -v b="$1" 'BEGIN { r = b / 1e6; printf (r < 10 ? "%.2f" : "%.0f"), r }'; }   # size column: cc1 is 0.97
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { r = b / s / 1e6; printf (r < 100 ? "%.1f" : "%.0f"), r }'; }
mis() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", b / a }'; }

ipb() { awk -v n="$1" -v b="$2" 'BEGIN { printf "%.2f", n / b }'; }   # instructions per trace byte

rows=()
notes=()
failed=0
# the text listing and the JSONL listing (--ranges) of one input, each as a ratio to its decode-to-null time; then
# both again with the decoder and the listing on two threads, as `armtrace decode` runs them with two processors
# (its wall time: the decoder's thread CPU time leaves out the listing's), unless PIPED=0
listing_rows() { # INPUT DECODE_SECONDS INSN_PER_BYTE
  local input=$1 ta=$2 per=$3 mode name t bytes key modes=(text jsonl)
  [ "${PIPED:-1}" = 0 ] || modes+=(text-helped jsonl-helped)
  for mode in "${modes[@]}"; do
    case $mode in
      text) name="text listing"; key=$tkey ;;
      jsonl) name="JSONL listing"; key=$tkey ;;
      text-helped) name="text listing, 2 threads (wall)"; key=best_s ;;
      jsonl-helped) name="JSONL listing, 2 threads (wall)"; key=best_s ;;
    esac
    say "  $input $name: armtrace..."
    # gigabytes of text per run on the 50 MB inputs; on a small one (etm4-cc1) as many runs as MIN_S asks, as
    # for its decode, so that the ratio compares compiled code with compiled code
    t=$(armtrace_run measure "$work/in/$input" $mode "$(( REPEAT < 3 ? REPEAT : 3 ))" "$MIN_S")
    bytes=$(field bytes "$t")
    rows+=("| $input | $name | $(mb "$bytes") | - | $(mbs "$bytes" "$(field $key "$t")") | - | $(mis "$(field instructions "$t")" "$(field $key "$t")") | $(awk -v t="$(field $key "$t")" -v d="$ta" 'BEGIN { printf "%.1fx decode time", t / d }') | $per | - / $(field instructions "$t") |")
  done
}
# packets, full decode and text listing of one input; the instructions per trace byte (from the decode)
# stand beside every ratio of the input
measure_input() { # INPUT
  local input=$1 mode o a bytes key ca co ta to t per rowp rowd
  for mode in packets decode; do
    say "  $input $mode: armtrace..."
    a=$(armtrace_run measure "$work/in/$input" "$mode" "$REPEAT" "$MIN_S")
    say "  $input $mode: OpenCSD..."
    o=$(opencsd_run "$input" "$mode" "$(ocsd_runs "$a")")
    runs_used+=("$input $mode: $(field runs "$a") / $(ocsd_runs "$a")")
    bytes=$(field bytes "$a")
    if [ "$mode" = packets ]; then key=packets; else key=instructions; fi
    ca=$(field $key "$a"); co=$(field $key "$o")
    if [ "$ca" != "$co" ]; then
      # an ETMv3 trace made from a run: QEMU's instruction count is the truth. OpenCSD's ETMv3 decoder does not
      # follow the change to Thumb at a direct BLX (glibc's code is Thumb-2, its memset and IFUNC stubs A32), so
      # it loses instructions there (tools/groundtruth/README.md); that is noted, armtrace must equal the run.
      if [ "$mode" = decode ] && [[ $input == *-etm3 ]] && [ -f "$work/in/$input/input.txt" ] &&
         [ "$ca" = "$(sed -n 's/.*synchronisation: \([0-9]*\) instructions.*/\1/p' "$work/in/$input/input.txt")" ]; then
        notes+=("$input: OpenCSD decodes $((ca - co)) fewer instructions than the run executed (it does not follow the ISA change of a direct BLX in ETMv3); armtrace decodes all $ca")
      else
        say "MISMATCH: $input $mode: armtrace $key=$ca, OpenCSD $key=$co"; failed=1
      fi
    fi
    ta=$(field $tkey "$a"); to=$(field $tkey "$o")
    if [ "$mode" = packets ]; then
      rowp="| $input | packets | $(mb "$bytes") | $(mbs "$bytes" "$to") | $(mbs "$bytes" "$ta") | - | - | $(ratio "$ta" "$to") | @IPB@ | $co / $ca |"
    else
      per=$(ipb "$ca" "$bytes")
      rowd="| $input | decode | $(mb "$bytes") | $(mbs "$bytes" "$to") | $(mbs "$bytes" "$ta") | $(mis "$co" "$to") | $(mis "$ca" "$ta") | $(ratio "$ta" "$to") | $per | $co / $ca |"
    fi
  done
  rows+=("${rowp/@IPB@/$per}" "$rowd")
  listing_rows "$input" "$ta" "$per"
}
# full decode (the ETMv4 captures: armtrace's ETMv4 packet rows are on etm4-a64), and with `listings` the
# text and JSONL listings too
measure_decode() { # INPUT [listings]
  local input=$1 o a bytes ca co ta to
  say "  $input decode: armtrace..."
  a=$(armtrace_run measure "$work/in/$input" decode "$REPEAT" "$MIN_S")
  say "  $input decode: OpenCSD..."
  o=$(opencsd_run "$input" decode "$(ocsd_runs "$a")")
  runs_used+=("$input decode: $(field runs "$a") / $(ocsd_runs "$a")")
  bytes=$(field bytes "$a")
  ca=$(field instructions "$a"); co=$(field instructions "$o")
  [ "$ca" = "$co" ] || { say "MISMATCH: $input decode: armtrace instructions=$ca, OpenCSD instructions=$co"; failed=1; }
  ta=$(field $tkey "$a"); to=$(field $tkey "$o")
  rows+=("| $input | decode | $(mb "$bytes") | $(mbs "$bytes" "$to") | $(mbs "$bytes" "$ta") | $(mis "$co" "$to") | $(mis "$ca" "$ta") | $(ratio "$ta" "$to") | $(ipb "$ca" "$bytes") | $co / $ca |")
  [ "${2:-}" = listings ] && listing_rows "$input" "$ta" "$(ipb "$ca" "$bytes")"
  return 0
}
for input in etm3-tc2 ptm-tc2 ptm-a9thumb-rs $sqlite_inputs $mix_inputs; do
  wanted "$input" || continue
  measure_input "$input"
  if [ -f "$work/in/$input/input.txt" ]; then
    notes+=("$input: $(sed -n 's/.*: \([0-9]* instructions, [0-9]* bytes of distinct code executed ([0-9.]* MB)\).*/\1/p' "$work/in/$input/input.txt")")
  fi
done
for input in etm4-juno etm4-cc1; do
  wanted "$input" && measure_decode "$input" listings
done
# ETMv4: the encoder-made A64 trace of etm4-input.sh (needs gcc-aarch64-linux-gnu and qemu-user; ETMV4=0 skips it)
if wanted etm4-a64 && [ "${ETMV4:-1}" = 1 ] && command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
  say "  etm4-a64: making the input (about 3 minutes)..."
  ARMTRACE_JAR=$jar bash "$repo/bench/vs-opencsd/etm4-input.sh" "$work/in/etm4-a64" 50 >&2
  (cd "$work/in/etm4-a64" && {
    echo "etm4 trace_0.bin 0x28000ea1 0x1 0x4100f423 0x10"
    awk -F= '/^file=/ { f = $2 } /^address=/ { if (f !~ /elf$/) printf "%s@%s ", f, $2 }' cpu_0.ini; echo
  } > opencsd.args)
  say "  etm4-a64 packets: armtrace..."
  a=$(armtrace_run measure "$work/in/etm4-a64" packets "$REPEAT" "$MIN_S")
  say "  etm4-a64 packets: OpenCSD..."
  o=$(opencsd_run etm4-a64 packets "$(ocsd_runs "$a")")
  runs_used+=("etm4-a64 packets: $(field runs "$a") / $(ocsd_runs "$a")")
  bytes=$(field bytes "$a"); ca=$(field packets "$a"); co=$(field packets "$o")
  [ "$ca" = "$co" ] || { say "MISMATCH: etm4-a64 packets: armtrace $ca, OpenCSD $co"; failed=1; }
  per=$(sed -n 's/^instructions per trace byte: //p' "$work/in/etm4-a64/input.txt")
  rows+=("| etm4-a64 | packets | $(mb "$bytes") | $(mbs "$bytes" "$(field $tkey "$o")") | $(mbs "$bytes" "$(field $tkey "$a")") | - | - | $(ratio "$(field $tkey "$a")" "$(field $tkey "$o")") | $per | $co / $ca |")
  measure_decode etm4-a64 listings
  notes+=("etm4-a64: $(tr '\n' ';' < "$work/in/etm4-a64/input.txt")")
fi

if wanted mtb-fleet; then
  say "  MTB fleet: armtrace..."
  m=$(armtrace_run mtb 2000 "$REPEAT")
  rows+=("| mtb-fleet (2000 dumps) | decode | $(awk -v b="$(field bytes "$m")" 'BEGIN { printf "%.1f", b / 1e6 }') | - | $(mbs "$(field bytes "$m")" "$(field $tkey "$m")") | - | $(mis "$(field instructions "$m")" "$(field $tkey "$m")") | $(awk -v s="$(field $tkey "$m")" 'BEGIN { printf "%.0f dumps/s", 2000 / s }') | $(ipb "$(field instructions "$m")" "$(field bytes "$m")") | - / $(field instructions "$m") |")
fi

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
echo "Machine: ${cpu:-unknown CPU}, $(nproc) cores; load average (1, 5, 15 min) at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Java: $(java -version 2>&1 | head -1); OpenCSD library: ${ocsd_version:-unknown} (as the linked library reports it)"
echo "Single thread, trace in memory, $CLOCK time ($( [ "$CLOCK" = wall ] && echo wall-clock || echo "CPU time of the decoding thread")), best of N runs of each tool (armtrace's in one JVM): at least $REPEAT, and for armtrace until its runs add up to ${MIN_S} s of CPU time; OpenCSD $( [ -n "$OPENCSD_REPEAT" ] && echo "$OPENCSD_REPEAT runs" || echo "the same N")."
echo
echo "| input | mode | MB | OpenCSD MB/s | armtrace MB/s | OpenCSD M insn/s | armtrace M insn/s | armtrace speed-up | insn/byte | count OpenCSD / armtrace |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
if [ ${#notes[@]} -gt 0 ]; then
  echo
  echo "Inputs made from a run: instructions in the trace and the distinct code bytes they execute; counts that differ:"
  echo
  printf -- '- %s\n' "${notes[@]}"
fi
if [ ${#runs_used[@]} -gt 0 ]; then
  echo
  echo "Runs (N, armtrace / OpenCSD): $(printf '%s; ' "${runs_used[@]}")"
fi
[ -z "$big" ] || { echo; echo "$big"; }
exit $failed
