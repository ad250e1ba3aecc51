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
# The same for the recordings with exact ground truth that the tests write (EncodedRecording: the ETMv4/ETE/PTM
# encoder's trace of QEMU-run programs as perf records it, formatted and raw AUX data, one and two CPUs, kernel
# addresses, lost data, a per-thread recording), written here from the compiled test classes with their binaries in a symbol directory;
# PerfGroundTruthTest checks that armtrace's decode of them is QEMU's execution, so here OpenCSD's is too.
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
if [ ! -f core/target/test-classes/io/armtrace/source/perf/EncodedRecording.class ] || [ ! -f core/target/armtrace.jar ]; then
  echo "perfdata.sh: the test classes are not compiled (mvn -pl core test-compile package -DskipTests first)"; exit 1
fi
mkdir -p "$work/encoded"
java -cp core/target/armtrace.jar:core/target/test-classes io.armtrace.source.perf.EncodedRecording "$work/encoded" || {
  echo "perfdata.sh: writing the encoded recordings FAILED"; exit 1; }
for rec in conformance/perfdata/*.data "$work"/encoded/*.data; do
  name=$(basename "$rec" .data)
  symdir=conformance/perfdata
  case "$rec" in "$work"/encoded/*) name="encoded-$name"; symdir="$work/encoded/symbols";; esac
  snap="$work/$name"
  ./armtrace convert "$rec" --symdir "$symdir" --snapshot-out "$snap" > "$work/$name.out" 2>&1
  rc=$?
  if [ $rc = 2 ] && grep -q 'holds no AUX trace data' "$work/$name.out"; then
    # perf_with_missing_aux_data: every AUX record's data was lost; the refusal says so
    echo "perfdata.sh: $name: no AUX data in the file, no snapshot (armtrace says so)"; continue
  elif [ $rc != 0 ]; then
    echo "perfdata.sh: $name: armtrace convert FAILED"; cat "$work/$name.out"; status=1; continue
  fi
  while read -r cpu id; do
    (cd "$work" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$cpu" -pkt_mon -logfilename "$work/$name-$cpu.ppl" > /dev/null 2>&1)
    # the packets of an unformatted buffer (TRBE) carry no trace ID: trc_pkt_lister lists them as ID 0
    pid=${id#0x}
    grep -A2 "^name=ETB_$cpu\$" "$snap/trace.ini" | grep -q '^format=source_data' && pid=0
    theirs=$(grep 'Idx:' "$work/$name-$cpu.ppl" | grep -ic "ID:$pid;" )
    theirs_sync=$(grep 'Idx:' "$work/$name-$cpu.ppl" | grep -i "ID:$pid;" | grep -c 'I_NOT_SYNC')
    ours=$(./armtrace packets "$snap" --source "$id" | grep -vc 'NOT_SYNC')
    if [ "$((theirs - theirs_sync))" = "$ours" ] && [ "$ours" -gt 0 ]; then
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): $ours packets, OpenCSD and armtrace alike"
    else
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): OpenCSD lists $((theirs - theirs_sync)) packets, armtrace $ours"; status=1
    fi
  done < <(sed -n 's/^CPU \([0-9]*\): trace ID \(0x[0-9a-f]*\),.*/\1 \2/p' "$work/$name.out")
  ranges=0
  ./armtrace decode "$rec" --symdir "$symdir" > "$work/$name.dec" 2> /dev/null || {
    echo "perfdata.sh: $name: armtrace decode of the recording FAILED"; status=1; continue; }
  while read -r cpu id; do
    (cd "$work" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_$cpu" -decode -logfilename "$work/$name-$cpu.dcd" > /dev/null 2>&1)
    # OpenCSD: "exec range=0xSTART:[0xEND] num_i(N)"; armtrace: "[0xID] PID TID CPU TIME range 0xSTART-0xEND     N insn"
    grep -i "ID:${id#0x};" "$work/$name-$cpu.dcd" | sed -n 's/.*exec range=\(0x[0-9a-f]*\):\[\(0x[0-9a-f]*\)\] num_i(\([0-9]*\)).*/\1 \2 \3/p' > "$work/$name-$cpu.theirs"
    # (a recording with one CPU lists its ranges without the [ID] prefix; the thread and time columns are
    # skipped; addresses compared without leading zeros)
    prefix="\[$id\] "
    grep -q "^\[0x" "$work/$name.dec" || prefix=""
    grep -E "^${prefix}(.* )?range 0x" "$work/$name.dec" | sed -n 's/.*range \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) *\([0-9]*\) insn.*/\1 \2 \3/p' \
      | sed 's/0x0*\([0-9a-f]\)/0x\1/g' > "$work/$name-$cpu.ours"
    sed -i 's/0x0*\([0-9a-f]\)/0x\1/g' "$work/$name-$cpu.theirs"
    # every dump of an encoded recording is code its trace runs through: OpenCSD must load them all
    # (perf_kernel's module has a dump OpenCSD 1.3.3 does not load; its ranges still agree: reported, not failed)
    if grep -q 'Failed to create memory accessor' "$work/$name-$cpu.dcd"; then
      echo "perfdata.sh: $name CPU $cpu: OpenCSD did not load a memory dump of the snapshot:" \
        "$(grep -o 'Failed to create memory accessor for file [^ ]*' "$work/$name-$cpu.dcd" | head -1 | sed 's/.*\///; s/\.bin.*/.bin/')"
      case "$name" in encoded-*) status=1;; esac
    fi
    n=$(wc -l < "$work/$name-$cpu.ours")
    ranges=$((ranges + n))
    hunks=$(diff "$work/$name-$cpu.theirs" "$work/$name-$cpu.ours" | grep '^[0-9]')
    if cmp -s "$work/$name-$cpu.theirs" "$work/$name-$cpu.ours"; then
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): $n instruction ranges, OpenCSD's decode of the snapshot and armtrace's of the recording alike"
    elif [ "$name" = encoded-partial ] && [[ "$hunks" =~ ^[0-9]+,[0-9]+d[0-9]+$ ]]; then
      # the partial AUX record's data starts inside the trace (its first third lost): armtrace, as perf, resets
      # there and waits for the next A-sync; a snapshot's buffer has no breaks, so OpenCSD reads on across the
      # cut. Its ranges are armtrace's plus one stretch at that point (PerfGroundTruthTest shows armtrace's exact).
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): $n instruction ranges alike, OpenCSD's with" \
        "$(( $(wc -l < "$work/$name-$cpu.theirs") - n )) more where it decodes across the partial record's cut"
    else
      echo "perfdata.sh: $name CPU $cpu (trace ID $id): instruction ranges differ (OpenCSD $(wc -l < "$work/$name-$cpu.theirs"), armtrace $n):"
      diff "$work/$name-$cpu.theirs" "$work/$name-$cpu.ours" | head -10; status=1
    fi
  done < <(sed -n 's/^CPU \([0-9]*\): trace ID \(0x[0-9a-f]*\),.*/\1 \2/p' "$work/$name.out")
  # a per-thread recording (perf record --per-thread): one buffer per thread, holding the trace of each CPU
  # the thread ran on under that CPU's trace ID; OpenCSD decodes the thread's buffer with the cores of its
  # process's code, armtrace lists the thread's lines per trace ID with the thread in the tid column
  while read -r tid list; do
    (cd "$work" && trc_pkt_lister -ss_dir "$snap" -src_name "ETB_t$tid" -decode -logfilename "$work/$name-t$tid.dcd" > /dev/null 2>&1)
    for id in $(echo "$list" | grep -o 'trace ID 0x[0-9a-f]*' | sed 's/trace ID //'); do
      grep -i "ID:${id#0x};" "$work/$name-t$tid.dcd" | sed -n 's/.*exec range=\(0x[0-9a-f]*\):\[\(0x[0-9a-f]*\)\] num_i(\([0-9]*\)).*/\1 \2 \3/p' \
        | sed 's/0x0*\([0-9a-f]\)/0x\1/g' > "$work/$name-t$tid-$id.theirs"
      pref=1; grep -q "^\[0x" "$work/$name.dec" || pref=0
      awk -v id="[$id]" -v tid="$tid" -v pref="$pref" '((pref && $1 == id && $3 == tid) || (!pref && $2 == tid)) && / range 0x/' "$work/$name.dec" \
        | sed -n 's/.*range \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) *\([0-9]*\) insn.*/\1 \2 \3/p' \
        | sed 's/0x0*\([0-9a-f]\)/0x\1/g' > "$work/$name-t$tid-$id.ours"
      if grep -q 'Failed to create memory accessor' "$work/$name-t$tid.dcd"; then
        echo "perfdata.sh: $name thread $tid: OpenCSD did not load a memory dump of the snapshot"; status=1
      fi
      n=$(wc -l < "$work/$name-t$tid-$id.ours")
      ranges=$((ranges + n))
      if [ "$n" -gt 0 ] && cmp -s "$work/$name-t$tid-$id.theirs" "$work/$name-t$tid-$id.ours"; then
        echo "perfdata.sh: $name thread $tid (trace ID $id): $n instruction ranges, OpenCSD's decode of the snapshot and armtrace's of the recording alike"
      else
        echo "perfdata.sh: $name thread $tid (trace ID $id): instruction ranges differ (OpenCSD $(wc -l < "$work/$name-t$tid-$id.theirs"), armtrace $n):"
        diff "$work/$name-t$tid-$id.theirs" "$work/$name-t$tid-$id.ours" | head -10; status=1
      fi
    done
  done < <(sed -n 's/^thread \([0-9]*\): [0-9]* bytes of trace (\(.*\))$/\1 \2/p' "$work/$name.out")
  if [ "$ranges" = 0 ]; then
    echo "perfdata.sh: $name: no instruction ranges decoded at all (its binaries should be in $symdir)"; status=1
  fi
done
exit $status
