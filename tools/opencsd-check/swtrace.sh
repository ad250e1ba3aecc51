#!/usr/bin/env bash
# Independent check of the ITM and STM decoders against OpenCSD's trc_pkt_lister (Debian libopencsd-bin).
#
# The outputs stored in tools/opencsd-check/swtrace/ are what trc_pkt_lister printed for the software-trace
# captures of conformance/ (and for the STM encoder's output); the test StmOpenCsdTest (run by mvn verify)
# compares armtrace's packets and elements with them. This script makes them again and fails when they
# differ from the stored ones, so that the stored references are known to be OpenCSD's own output.
#   --update  writes the references instead of comparing.
#
# Debian's OpenCSD (1.3.3 in bookworm, 1.5.5 in trixie) has an STM decoder but no ITM decoder (ITM came
# with a later OpenCSD release); for ITM it is the frame deformatter that is checked: the ITM source's
# bytes that OpenCSD takes out of the CoreSight formatted buffer and a TPIU capture of it (full-frame and
# half-word syncs). Exit 0 = all equal, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "swtrace.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
update=0
[ "${1:-}" = "--update" ] && update=1
ref=tools/opencsd-check/swtrace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# Runs trc_pkt_lister in DIR (relative paths only, so that no path of this machine enters the output) and
# stores or compares its output as NAME (gzip-compressed when NAME ends in .gz).
lister() {
  local name=$1 dir=$2
  shift 2
  (cd "$dir" && trc_pkt_lister "$@" -logstdout) > "$work/out" 2>&1 || true
  local stored="$ref/$name"
  if [ "$update" = 1 ]; then
    if [[ $name == *.gz ]]; then gzip -9n -c "$work/out" > "$stored"; else cp "$work/out" "$stored"; fi
    echo "swtrace.sh: wrote $stored"
    return
  fi
  local expected="$work/expected"
  if [[ $name == *.gz ]]; then gunzip -c "$stored" > "$expected"; else cp "$stored" "$expected"; fi
  if cmp -s "$expected" "$work/out"; then
    echo "swtrace.sh: $name: trc_pkt_lister gives the stored output ($(grep -c SWTRACE "$work/out" || true) software trace elements)"
  else
    echo "swtrace.sh: $name: trc_pkt_lister's output DIFFERS from the stored reference"
    diff "$expected" "$work/out" | head -10 || true
    status=1
  fi
}

# STM: the four captures of conformance/swtrace and Juno r1's STM (the second buffer of juno_r1_1).
lister stm_only.ppl.gz conformance -ss_dir swtrace/stm_only -decode
lister stm_only-2.ppl conformance -ss_dir swtrace/stm_only-2 -decode
lister stm_only-juno.ppl conformance -ss_dir swtrace/stm_only-juno -decode
lister stm-issue-27.ppl conformance -ss_dir swtrace/stm-issue-27 -decode
lister juno_r1_1-stm.ppl conformance -ss_dir etm4/juno_r1_1 -src_name ETB_1 -decode

# STM encoder: the events of stm-events.txt encoded by armtrace, decoded by OpenCSD.
./armtrace encode --protocol stm --events "$ref/stm-events.txt" --snapshot-out "$work/stm-encoded" --force >/dev/null 2>&1
lister stm-encoded.ppl "$work" -ss_dir stm-encoded -decode

# TC2's ITM source, trace ID 0x20: the bytes of each trace ID that OpenCSD's deformatter takes out of the
# TC2 buffer (a count per ID; the ITM's ID has none: its source is silent in this capture).
(cd conformance && trc_pkt_lister -ss_dir TC2 -o_raw_unpacked -logstdout) 2>&1 \
  | awk '/^Frame Data;/ && /ID_DATA\[0x/ { id = $0; sub(/.*ID_DATA\[/, "", id); sub(/\].*/, "", id);
           data = $0; sub(/.*\]; /, "", data); n[id] += split(data, b, " ") }
         END { for (id in n) print id, n[id] }' | sort > "$work/tc2-ids"
if [ "$update" = 1 ]; then
  cp "$work/tc2-ids" "$ref/TC2.bytes-per-id.txt"
  echo "swtrace.sh: wrote $ref/TC2.bytes-per-id.txt"
elif cmp -s "$ref/TC2.bytes-per-id.txt" "$work/tc2-ids"; then
  echo "swtrace.sh: TC2.bytes-per-id.txt: trc_pkt_lister gives the stored counts (no bytes of trace ID 0x20)"
else
  echo "swtrace.sh: TC2.bytes-per-id.txt: trc_pkt_lister's counts DIFFER from the stored ones"
  diff "$ref/TC2.bytes-per-id.txt" "$work/tc2-ids" || true
  status=1
fi

# ITM in CoreSight frames: OpenCSD 1.3.3 sets up no decoder for an ITM device, so the copy given to it calls
# the source an STM with the same trace ID (0x14); only the deformatter's output (-o_raw_unpacked) is used.
mk_itm_snapshot() {
  local dir=$1 buffer=$2
  mkdir -p "$dir"
  cp "$buffer" "$dir/itm.bin"
  printf '[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=device_0.ini\n\n[trace]\nmetadata=trace.ini\n' > "$dir/snapshot.ini"
  printf '[device]\nname=ITM_0\nclass=trace_source\ntype=STM\n\n[regs]\nSTMTCSR(0x3A0)=0x00700000\n' > "$dir/device_0.ini"
  printf '[trace_buffers]\nbuffers=buffer1\n\n[buffer1]\nname=ETB_1\nfile=itm.bin\nformat=coresight\n\n[source_buffers]\nITM_0=ETB_1\n\n[core_trace_sources]\n' > "$dir/trace.ini"
}
mk_itm_snapshot "$work/itm-cs" conformance/swtrace/itm_only_csformat/itm_testdata_ID_0x14.bin
lister itm_only_csformat.raw.ppl "$work" -ss_dir itm-cs -o_raw_unpacked
# The same frames as a TPIU port capture: a full-frame sync before the first frame and after every fourth,
# half-word syncs between frames and inside some (core/src/test/resources/swtrace/itm-tpiu.bin).
mk_itm_snapshot "$work/itm-tpiu" core/src/test/resources/swtrace/itm-tpiu.bin
lister itm-tpiu.raw.ppl "$work" -ss_dir itm-tpiu -tpiu_hsync -o_raw_unpacked
exit $status
