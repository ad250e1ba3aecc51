#!/usr/bin/env bash
# Cross-checks armtrace's ETMv3 encoder with an independent decoder: for each ground-truth fixture and
# a set of encoder options, `armtrace encode` writes a snapshot, OpenCSD's trc_pkt_lister decodes it,
# and its instruction ranges must hold exactly the instructions of the recorded execution, in order,
# with the same condition-failed flags (armtrace's own decode of the snapshot is the per-instruction
# listing that the ranges are matched against; it is itself checked against the execution first).
# Needs trc_pkt_lister (Debian: libopencsd-bin) and python3. Exit status 0 = all agree.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "etm3.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipping"
  exit 0
fi
work=target/opencsd-check/etm3
rm -rf "$work"
mkdir -p "$work"
fail=0
# option sets that OpenCSD's ETMv3 decoder supports (it does not decode data trace)
optsets=(
  ""
  "--cycle-accurate"
  "--alt-branch"
  "--alt-branch --cycle-accurate --context-id-size=4 --timestamps"
  "--context-id-size=1 --vmid=0x5a --timestamps=64"
  "--context-id-size=2 --exceptions=byte5 --exception-packets"
)
# the corpus's programs, and with ARMTRACE_EXTRA_GROUNDTRUTH=DIR also the NAME.exec.gz/NAME.elf.gz pairs
# there (programs not in the repository, made by tools/groundtruth)
fixtures=(core/src/test/resources/groundtruth/a9-arm core/src/test/resources/groundtruth/a9-thumb core/src/test/resources/groundtruth/m3)
if [ -n "${ARMTRACE_EXTRA_GROUNDTRUTH:-}" ]; then
  for f in "$ARMTRACE_EXTRA_GROUNDTRUTH"/*.exec.gz; do
    [ -f "${f%.exec.gz}.elf.gz" ] && fixtures+=("${f%.exec.gz}")
  done
fi
for path in "${fixtures[@]}"; do
  fx=$(basename "$path")
  gunzip -c "$path.exec.gz" > "$work/$fx.exec"
  gunzip -c "$path.elf.gz" > "$work/$fx.elf"
  core=Cortex-A9; head -n 1 "$work/$fx.exec" | grep -q 'profile=M' && core=Cortex-M3
  # OpenCSD 1.3.3 starts each P-header in the ISA of the last branch or I-sync packet, so it loses the
  # change of state of a BLX immediate that IHI 0014Q Table 7.15 leaves untraced; with ETMCR[8] (branch
  # output) the ETM traces direct branches too and both decoders see the state change in a packet.
  extra=""; [ "$core" != Cortex-M3 ] && extra="--branch-broadcast"
  i=0
  for opts in "${optsets[@]}"; do
    i=$((i + 1))
    dir="$work/$fx-$i"
    # shellcheck disable=SC2086
    ./armtrace encode --protocol etm3 --execution "$work/$fx.exec" --image "$work/$fx.elf" --core "$core" \
      --snapshot-out "$dir" $opts $extra 2>/dev/null
    ./armtrace decode "$dir" --format jsonl > "$dir/armtrace.jsonl"
    # the snapshot's dumps end with two zero bytes past the program (SnapshotWriter), so OpenCSD, which
    # fetches 4 bytes for every T32 instruction, reads a 16-bit instruction in the last halfword too
    # run inside the snapshot: trc_pkt_lister also appends to trc_pkt_lister.ppl in its working directory
    (cd "$dir" && trc_pkt_lister -ss_dir . -decode -no_time_print -logstdout > opencsd.txt 2>&1) || true
    if python3 tools/opencsd-check/compare_ranges.py "$dir/opencsd.txt" "$dir/armtrace.jsonl" "$work/$fx.exec" "$work/$fx.elf"; then
      echo "ok   $fx $opts $extra"
    else
      echo "FAIL $fx $opts $extra ($dir)"
      fail=1
    fi
  done
done
exit $fail
