#!/usr/bin/env bash
# Reproduces the tables of docs/studies.md: trace size of the ground-truth corpus under each protocol
# option. Needs only the JDK and Maven (./armtrace builds itself). Prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/../.."
gt=core/src/test/resources/groundtruth
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bytes() { # protocol exec elf options... -> trace bytes
  local p=$1 exec=$2 elf=$3; shift 3
  ./armtrace encode --protocol "$p" --execution "$exec" --image "$elf" -o "$work/t.bin" "$@" >/dev/null 2>&1
  stat -c %s "$work/t.bin"
}
insns() { zcat "$1" | grep -c '^I '; }

for f in arm926-arm arm926-thumb a9-arm a9-thumb m3 m0plus; do gunzip -c "$gt/$f.elf.gz" > "$work/$f.elf"; done

echo "## PFT return stack: trace bytes by return stack depth"
echo
echo "| program | instructions | no return stack | depth 4 | depth 8 | depth 15 | saved at depth 15 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in a9-arm a9-thumb; do
  n=$(insns "$gt/$f.exec.gz")
  off=$(bytes ptm "$gt/$f.exec.gz" "$work/$f.elf" --return-stack=off)
  d4=$(bytes ptm "$gt/$f.exec.gz" "$work/$f.elf" --return-stack=on --return-stack-depth=4)
  d8=$(bytes ptm "$gt/$f.exec.gz" "$work/$f.elf" --return-stack=on --return-stack-depth=8)
  d15=$(bytes ptm "$gt/$f.exec.gz" "$work/$f.elf" --return-stack=on --return-stack-depth=15)
  printf '| %s | %d | %d | %d | %d | %d | %.1f%% |\n' "$f" "$n" "$off" "$d4" "$d8" "$d15" "$(echo "100*($off-$d15)/$off" | bc -l)"
done
echo
echo "## MTB: instructions per KiB of trace buffer"
echo
echo "| program | instructions | MTB bytes for the whole run | instructions per KiB |"
echo "|---|---:|---:|---:|"
for f in m0plus m3; do
  n=$(insns "$gt/$f.exec.gz")
  # a buffer large enough never to wrap: every packet of the run is kept
  b=$(./armtrace encode --protocol mtb --execution "$gt/$f.exec.gz" --image "$work/$f.elf" --buffer-size=4194304 --stats 2>/dev/null \
      | sed -n 's/.*packets: \([0-9]*\).*/\1/p')
  ./armtrace encode --protocol mtb --execution "$gt/$f.exec.gz" --image "$work/$f.elf" --buffer-size=4194304 -o "$work/m.bin" >/dev/null 2>&1
  used=$(python3 -c "import sys;d=open('$work/m.bin','rb').read();import struct;w=struct.unpack('<%dI'%(len(d)//4),d);n=len(w);
while n>=2 and w[n-1]==0 and w[n-2]==0: n-=2
print(n*4)")
  printf '| %s | %d | %d | %.0f |\n' "$f" "$n" "$used" "$(echo "$n*1024/$used" | bc -l)"
done
echo
echo "## ETMv3: bytes per instruction by branch encoding and cycle accuracy"
echo
echo "| program | instructions | original | alternative | original, cycle-accurate | alternative, cycle-accurate |"
echo "|---|---:|---:|---:|---:|---:|"
for f in a9-arm a9-thumb m3; do
  n=$(insns "$gt/$f.exec.gz")
  extra=()   # the execution record says which profile ran it (m3: ARMv7-M)
  o=$(bytes etm3 "$gt/$f.exec.gz" "$work/$f.elf" "${extra[@]}")
  a=$(bytes etm3 "$gt/$f.exec.gz" "$work/$f.elf" --alt-branch "${extra[@]}")
  oc=$(bytes etm3 "$gt/$f.exec.gz" "$work/$f.elf" --cycle-accurate "${extra[@]}")
  ac=$(bytes etm3 "$gt/$f.exec.gz" "$work/$f.elf" --alt-branch --cycle-accurate "${extra[@]}")
  printf '| %s | %d | %.3f | %.3f | %.3f | %.3f |\n' "$f" "$n" "$(echo "$o/$n" | bc -l)" "$(echo "$a/$n" | bc -l)" \
    "$(echo "$oc/$n" | bc -l)" "$(echo "$ac/$n" | bc -l)"
done
