#!/usr/bin/env bash
# Rebuilds the synthesized examples in examples/ from the ground-truth corpus (real programs run under
# QEMU, see tools/groundtruth): the trace a trace unit would have written for those runs, as snapshot
# directories with the program's ELF file as a memory dump (so decodes show function names).
set -euo pipefail
cd "$(dirname "$0")/../.."
gt=core/src/test/resources/groundtruth
make_example() { # name fixture protocol core options...
  local name=$1 fixture=$2 protocol=$3 core=$4; shift 4
  local dir=examples/$name
  # --snapshot-out replaces a non-empty directory whole (with --force): keep the README aside
  local readme; readme=$(mktemp)
  cp "$dir/README.txt" "$readme" 2>/dev/null || true
  gunzip -c "$gt/$fixture.elf.gz" > "/tmp/$fixture.elf"
  ./armtrace encode --protocol "$protocol" --execution "$gt/$fixture.exec.gz" --image "/tmp/$fixture.elf" \
      --core "$core" --snapshot-out "$dir" --force "$@"
  [ -s "$readme" ] && cp "$readme" "$dir/README.txt"
  rm -f "$readme"
  # replace the raw memory dumps by the ELF file: same bytes, plus symbols
  rm -f "$dir"/mem_*.bin
  cp "/tmp/$fixture.elf" "$dir/program.elf"
  printf '[device]\nname=cpu_0\nclass=core\ntype=%s\n\n[regs]\n\n[dump1]\n; an ELF file: its load segments and symbols\nfile=program.elf\naddress=0x00000000\n' \
      "$core" > "$dir/cpu_0.ini"
  rm -f "/tmp/$fixture.elf"
}
# (each example's README.txt says what it is; this script leaves it alone)
make_example etm2-arm926-thumb arm926-thumb etm2 ARM926EJ-S --etm-version 2 --port-width 8
make_example etm3-a9-thumb a9-thumb etm3 Cortex-A9 --cycle-accurate --timestamps
