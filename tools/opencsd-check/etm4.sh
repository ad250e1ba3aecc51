#!/usr/bin/env bash
# Independent check of the ETMv4/ETE packet reader: OpenCSD's trc_pkt_lister (Debian libopencsd-bin) lists
# the packets of the hand-built snapshots of etm4_cases.py (every packet kind the real captures lack) and of
# every conformance/etm4 snapshot, and armtrace's reader must give the same packets at the same indexes with
# the same bytes and fields (Etm4OpenCsdListingsTest run on these fresh listings).
#   --record   also copy the hand-built snapshots and their listings into the test resources, where
#              Etm4OpenCsdListingsTest reads them in every mvn verify.
# Exit 0 = all equal, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
record=0
[ "${1:-}" = "--record" ] && record=1
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "etm4.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tools/opencsd-check/etm4_cases.py "$work" > "$work/cases.txt"

# trc_pkt_lister's listing of SNAPSHOT into OUT.ppl; the snapshot's path in the header reads SNAPSHOTS/NAME
list() {
  local snapshot=$1 name=$2 opts=$3
  # shellcheck disable=SC2086
  trc_pkt_lister -ss_dir "$snapshot" $opts -pkt_mon -logfilename "$work/$name.ppl" >/dev/null 2>&1 || true
  if ! grep -q 'Idx:' "$work/$name.ppl"; then
    echo "etm4.sh: trc_pkt_lister $(trc_pkt_lister -help 2>&1 | sed -n 's/.*Library Version : //p' | head -1) cannot read $name: $(grep -o 'Unrecognized[^.]*\|Failed to create[^.]*' "$work/$name.ppl" | head -1); left out"
    rm -f "$work/$name.ppl"
    return
  fi
  sed -i "s#$snapshot#SNAPSHOTS/$name#g; s#$work/##g" "$work/$name.ppl"
}
while read -r c; do
  list "$work/$c" "$c" ""
done < "$work/cases.txt"
for s in conformance/etm4/*/; do
  [ -f "$s/snapshot.ini" ] || continue
  n=$(basename "$s")
  opts=""
  # a DS-5 DSTREAM capture: 504 bytes of trace in every 512-byte block
  grep -q 'format=dstream_coresight' "$s/trace.ini" && opts="-dstream_format"
  list "${s%/}" "$n" "$opts"
done
echo "etm4.sh: $(ls "$work"/*.ppl | wc -l) listings by trc_pkt_lister"

if [ $record = 1 ]; then
  dest=core/src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3
  rm -rf "$dest"
  mkdir -p "$dest"
  while read -r c; do
    cp -r "$work/$c" "$dest/$c"
    [ -f "$work/$c.ppl" ] && cp "$work/$c.ppl" "$dest/$c.ppl"
  done < "$work/cases.txt"
  echo "etm4.sh: recorded $(wc -l < "$work/cases.txt") hand-built snapshots and their listings in $dest"
fi

if mvn -B -q -pl core test -Dtest=Etm4OpenCsdListingsTest -Darmtrace.etm4.listings="$work" \
     -Dsurefire.failIfNoSpecifiedTests=false > "$work/mvn.log" 2>&1; then
  echo "etm4.sh: every packet agrees with trc_pkt_lister"
  exit 0
fi
grep -E 'Expecting|at Idx|differ|expected|but was' "$work/mvn.log" | head -30
exit 1
