#!/usr/bin/env bash
# Independent check of `armtrace convert`: every test recording (conformance/perfdata) is converted to an
# OpenCSD snapshot, and OpenCSD's trc_pkt_lister (Debian libopencsd-bin) lists the packets of each CPU's
# trace buffer; armtrace's packet listing of the same snapshot must have exactly as many packets of that
# trace ID. (trc_pkt_lister writes one I_NOT_SYNC line per 8 bytes before the first synchronisation, armtrace
# one NOT_SYNC line for the whole stretch: those lines are left out of both counts.) That the snapshot holds
# the recording's packets is ConvertCommandTest's business.
# Then the decode: the instruction ranges trc_pkt_lister -decode gives for each CPU of the snapshot (start,
# end, instruction count) must be, range by range, those `armtrace decode RECORDING` gives for that trace ID,
# reading the recording itself (its AUX buffers, its mapped binaries found in the same --symdir).
# Exit 0 = all equal, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "perfdata.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for rec in conformance/perfdata/*.data; do
  name=$(basename "$rec" .data)
  snap="$work/$name"
  ./armtrace convert "$rec" --symdir conformance/perfdata --snapshot-out "$snap" > "$work/$name.out" 2>&1
  rc=$?
  if [ $rc = 2 ] && grep -q 'holds no AUX trace data' "$work/$name.out"; then
    # perf_with_missing_aux_data: every AUX record's data was lost; the refusal says so
    echo "perfdata.sh: $name: no AUX data in the file, no snapshot (armtrace says so)"; continue
  elif [ $rc != 0 ]; then
    echo "perfdata.sh: $name: armtrace convert FAILED"; cat "$work/$name.out"; status=1; continue
  fi
  while read -r cpu id; do
    (cd "$work" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$cpu" -pkt_mon -logfilename "$work/$name-$cpu.ppl" > /dev/null 2>&1)
    theirs=$(grep 'Idx:' "$work/$name-$cpu.ppl" | grep -ic "ID:${id#0x};" )
    theirs_sync=$(grep 'Idx:' "$work/$name-$cpu.ppl" | grep -i "ID:${id#0x};" | grep -c 'I_NOT_SYNC')
    ours=$(./armtrace packets "$snap" --source "$id" | grep -vc 'NOT_SYNC')
    if [ "$((theirs - theirs_sync))" = "$ours" ] && [ "$ours" -gt 0 ]; then
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): $ours packets, OpenCSD and armtrace alike"
    else
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): OpenCSD lists $((theirs - theirs_sync)) packets, armtrace $ours"; status=1
    fi
  done < <(sed -n 's/^CPU \([0-9]*\): trace ID \(0x[0-9a-f]*\),.*/\1 \2/p' "$work/$name.out")
  ranges=0
  ./armtrace decode "$rec" --symdir conformance/perfdata > "$work/$name.dec" 2> /dev/null || {
    echo "perfdata.sh: $name: armtrace decode of the recording FAILED"; status=1; continue; }
  while read -r cpu id; do
    (cd "$work" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$cpu" -decode -logfilename "$work/$name-$cpu.dcd" > /dev/null 2>&1)
    # OpenCSD: "exec range=0xSTART:[0xEND] num_i(N)"; armtrace: "[0xID] range 0xSTART-0xEND     N insn"
    grep -i "ID:${id#0x};" "$work/$name-$cpu.dcd" | sed -n 's/.*exec range=\(0x[0-9a-f]*\):\[\(0x[0-9a-f]*\)\] num_i(\([0-9]*\)).*/\1 \2 \3/p' > "$work/$name-$cpu.theirs"
    grep "^\[$id\] range " "$work/$name.dec" | sed -n 's/.* range \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) *\([0-9]*\) insn.*/\1 \2 \3/p' > "$work/$name-$cpu.ours"
    n=$(wc -l < "$work/$name-$cpu.ours")
    ranges=$((ranges + n))
    if cmp -s "$work/$name-$cpu.theirs" "$work/$name-$cpu.ours"; then
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): $n instruction ranges, OpenCSD's decode of the snapshot and armtrace's of the recording alike"
    else
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): instruction ranges differ (OpenCSD $(wc -l < "$work/$name-$cpu.theirs"), armtrace $n):"
      diff "$work/$name-$cpu.theirs" "$work/$name-$cpu.ours" | head -10; status=1
    fi
  done < <(sed -n 's/^CPU \([0-9]*\): trace ID \(0x[0-9a-f]*\),.*/\1 \2/p' "$work/$name.out")
  if [ "$ranges" = 0 ]; then
    echo "perfdata.sh: $name: no instruction ranges decoded at all (its binaries should be in conformance/perfdata)"; status=1
  fi
done
exit $status
