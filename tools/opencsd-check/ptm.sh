#!/usr/bin/env bash
# Independent check of the PTM encoder: OpenCSD's trc_pkt_lister (Debian libopencsd-bin) decodes the
# snapshots armtrace encodes from the ground-truth executions, and must find the same instruction
# ranges as armtrace's own decoder. Also times trc_pkt_lister on a large PTM stream when asked
# (PTM_BENCH=1). Exit 0 = all equal, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "ptm.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gt=core/src/test/resources/groundtruth
status=0

# Reads "start end" hex pairs and merges touching ranges, so that both decoders' ways of splitting a
# run of code compare equal.
merge() {
  python3 -c '
import sys
cur = None
for line in sys.stdin:
    s, e = (int(x, 16) for x in line.split())
    if cur and cur[1] == s:
        cur[1] = e
    else:
        if cur:
            print("%x %x" % tuple(cur))
        cur = [s, e]
if cur:
    print("%x %x" % tuple(cur))
'
}

# the corpus's A/R programs, and with ARMTRACE_EXTRA_GROUNDTRUTH=DIR also the A/R-profile NAME.exec.gz /
# NAME.elf.gz pairs there (programs not in the repository, made by tools/groundtruth)
progs=("$gt/a9-arm" "$gt/a9-thumb" "$gt/linux-arm" "$gt/linux-thumb")
if [ -n "${ARMTRACE_EXTRA_GROUNDTRUTH:-}" ]; then
  for f in "$ARMTRACE_EXTRA_GROUNDTRUTH"/*.exec.gz; do
    [ -f "${f%.exec.gz}.elf.gz" ] && ! gunzip -c "$f" | head -n 1 | grep -q 'profile=M' && progs+=("${f%.exec.gz}")
  done
fi
for path in "${progs[@]}"; do
  prog=$(basename "$path")
  case $prog in a9-*) core=Cortex-A9 ;; *) core=Cortex-A15 ;; esac
  gunzip -c "$path.elf.gz" > "$work/$prog.elf"
  for opts in "--return-stack=off" "--return-stack=on" "--return-stack=on --cycle-accurate=on --timestamps=on" \
              "--return-stack=on --branch-broadcast=on --context-id-size=4 --context-id=0x1234"; do
    snap="$work/snap"
    rm -rf "$snap"
    # shellcheck disable=SC2086
    ./armtrace encode --protocol ptm --execution "$path.exec.gz" --image "$work/$prog.elf" \
        --core "$core" --snapshot-out "$snap" $opts >/dev/null 2>&1
    # no padding here: the snapshot's dumps already end two bytes past the program (SnapshotWriter) for
    # OpenCSD, which reads 4 bytes for every instruction
    rm -f "$work/ocsd.ppl"
    trc_pkt_lister -ss_dir "$snap" -decode -no_time_print -logfilename "$work/ocsd.ppl" >/dev/null 2>&1 || true
    sed -n 's/.*OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x\([0-9a-f]*\):\[0x\([0-9a-f]*\)\].*/\1 \2/p' "$work/ocsd.ppl" \
        | merge > "$work/ocsd.ranges"
    ./armtrace decode "$snap" --format jsonl --ranges \
        | sed -n 's/.*"type":"range".*"start":"0x\([0-9a-f]*\)","end":"0x\([0-9a-f]*\)".*/\1 \2/p' \
        | merge > "$work/armtrace.ranges"
    n=$(wc -l < "$work/armtrace.ranges")
    if [ "$n" -gt 100 ] && cmp -s "$work/ocsd.ranges" "$work/armtrace.ranges"; then
      echo "ptm.sh: $prog $opts: OpenCSD and armtrace agree on $n merged ranges"
    else
      echo "ptm.sh: $prog $opts: DIFFERENT ($(wc -l < "$work/ocsd.ranges") OpenCSD ranges, $n armtrace ranges)"
      diff "$work/ocsd.ranges" "$work/armtrace.ranges" | head -10 || true
      status=1
    fi
  done
done

# PTM_BENCH=1: time trc_pkt_lister on the benchmark inputs that PtmDecodeBenchmark's setup wrote
# (bench/run PtmDecodeBenchmark first). CPU time (user+sys) is what to compare on a shared machine.
if [ "${PTM_BENCH:-0}" = 1 ]; then
  for d in target/bench-data/ptm-*; do
    [ -d "$d" ] || continue
    size=$(stat -c %s "$d/trace_0.bin")
    for mode in "" "-decode_only"; do
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      cpu=$( { /usr/bin/env time -f "%U %S" trc_pkt_lister -ss_dir "$d" $mode -logfilename /dev/null >/dev/null 2>/dev/null; } 2>&1 | tail -1)
      end=$(date +%s.%N)
      python3 -c "import sys; u,s=map(float,sys.argv[1].split()); w=float(sys.argv[3])-float(sys.argv[2]); n=int(sys.argv[4]); print('ptm.sh: trc_pkt_lister %s %s: %.1f s CPU (%.2f MB/s), %.1f s wall' % (sys.argv[5], sys.argv[6] or 'packets', u+s, n/1e6/(u+s), w))" \
        "$cpu" "$start" "$end" "$size" "$d" "$mode"
    done
  done
fi
exit $status
