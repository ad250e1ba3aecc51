#!/usr/bin/env bash
# Independent check of the ETMv4 encoder on M-profile executions: armtrace encodes Armv8-M programs run under
# qemu-system-arm (QEMU's records) into snapshots whose core is a Cortex-M33, OpenCSD's trc_pkt_lister (Debian
# libopencsd-bin) decodes them, and its instruction ranges must be exactly the executed instructions of the
# record, in order, and its exceptions the record's, number and preferred return address (compare_m.py).
# Programs: the corpus's m33 fixture (core/src/test/resources/groundtruth: SysTick, PendSV tail-chained to
# SysTick's return, SVC); where gcc-arm-none-eabi, qemu-system-arm and gcc are installed, also the same
# workload built at other optimisation levels and run on mps2-an505 as tools/groundtruth/generate.sh runs m33.
# Each is encoded plain, with exact matches off at a 64-byte sync period, with the return stack, with one and
# with three P0 instructions a Q element, and with cycle counts (threshold 7) and timestamps.
# Not checked here: the Cortex-M55 (Armv8.1-M) fixture. OpenCSD 1.3.3 does not know the core name Cortex-M55,
# and as a Cortex-M33 its T32 decoder does not know the low-overhead loop branches (LE, WLS): its walk goes
# through an LE as if it did not branch. Etm4MEncoderRoundTripTest checks that fixture against QEMU's record,
# and Etm4ConformanceTest/Etm4FlowConformanceTest the decoder on a real Cortex-M55 capture against OpenCSD 1.8.0.
# Exit 0 = all exact, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "etm4-encode-m.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gt=core/src/test/resources/groundtruth
status=0
checked=0
./armtrace --version >/dev/null   # builds the jar when needed

progs=("$gt/m33")
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null && command -v gcc >/dev/null; then
  gcc -O2 -fPIC -shared -o "$work/libpctrace.so" tools/groundtruth/pctrace.c
  mkdir -p "$work/extra"
  P=tools/groundtruth/programs
  for opt in -O1 -O3 -Os; do
    name=m33$(echo "$opt" | tr 'A-Z' 'a-z' | tr -d '-')
    arm-none-eabi-gcc "$opt" -g -ffreestanding -nostdlib -mthumb -DROUNDS=6 -DSYST_RELOAD=4500 -mcpu=cortex-m33 \
        -T "$P/cortex-m/an505.ld" -o "$work/extra/$name.elf" "$P/cortex-m/startup_m.c" "$P/common/work.c" -lgcc
    QEMU_AUDIO_DRV=none qemu-system-arm -M mps2-an505 -icount shift=6,sleep=off -singlestep -nographic -monitor none \
        -serial none -semihosting-config enable=on,target=native -d plugin,int,exec,cpu,nochain \
        -kernel "$work/extra/$name.elf" -plugin "$work/libpctrace.so" -D "$work/$name.log" >/dev/null 2>&1 || true
    java -cp core/target/armtrace.jar io.armtrace.execution.ImportQemuLog --profile M --core cortex-m33 \
        --security secure --image "$work/extra/$name.elf" --cpu-log "$work/$name.log" -o "$work/extra/$name.exec.gz" \
        "$work/$name.log" >/dev/null
    gzip -n "$work/extra/$name.elf"
    rm -f "$work/$name.log"
    progs+=("$work/extra/$name")
  done
else
  echo "etm4-encode-m.sh: gcc-arm-none-eabi, qemu-system-arm or gcc missing: only the corpus's m33 is checked"
fi

for path in "${progs[@]}"; do
  prog=$(basename "$path")
  gunzip -c "$path.elf.gz" > "$work/$prog.elf"
  for opts in "" "--exact-match=off --sync-period=64" "--return-stack=on" "--q-elements=1" "--q-elements=3" \
      "--cycle-accurate=on --cycle-threshold=7 --timestamps=on"; do
    q=""
    case "$opts" in *q-elements*) q="--q" ;; *cycle-threshold=7*) q="--timed 7" ;; esac
    snap="$work/snap"
    rm -rf "$snap" "$work/ocsd.ppl"
    # shellcheck disable=SC2086
    ./armtrace encode --protocol etm4 --execution "$path.exec.gz" --image "$work/$prog.elf" --core Cortex-M33 \
        --snapshot-out "$snap" $opts >/dev/null 2>&1
    trc_pkt_lister -ss_dir "$snap" -decode -logfilename "$work/ocsd.ppl" >/dev/null 2>&1 || true
    checked=$((checked + 1))
    if grep -Eq "(DCD|PKTP)_[A-Z0-9_]* : 0x" "$work/ocsd.ppl"; then
      echo "etm4-encode-m.sh: $prog $opts: OpenCSD reports an error: $(grep -Em1 "(DCD|PKTP)_[A-Z0-9_]* : 0x" "$work/ocsd.ppl")"
      status=1
      continue
    fi
    if ! grep -q "Protocol printer ETMV4I" "$work/ocsd.ppl"; then
      echo "etm4-encode-m.sh: $prog $opts: OpenCSD did not set up its ETMv4 decoder"
      status=1
      continue
    fi
    # shellcheck disable=SC2086
    if result=$(python3 tools/opencsd-check/compare_m.py $q "$work/ocsd.ppl" "$path.exec.gz"); then
      echo "etm4-encode-m.sh: $prog $opts: exact: $result"
    else
      echo "etm4-encode-m.sh: $prog $opts: DIFFERENT: $result"
      status=1
    fi
  done
done
echo "etm4-encode-m.sh: $checked encodings checked"
exit $status
