#!/usr/bin/env bash
# Independent check of the ETMv4/ETE encoder: armtrace encodes AArch64 executions (QEMU's records) into
# snapshots, OpenCSD's trc_pkt_lister (Debian libopencsd-bin) decodes them, and its instruction ranges must
# be exactly the executed instructions of the record, in order, every one (compare_a64.py).
# Programs: the corpus's AArch64 fixtures (core/src/test/resources/groundtruth: linux-a64, linux-a64-O0,
# a53-el1); where gcc-aarch64-linux-gnu, qemu-user and gcc are installed, also the ground-truth workload
# (tools/groundtruth/programs/linux/prog.c) built at other optimisation levels and run under qemu-aarch64;
# with ARMTRACE_EXTRA_GROUNDTRUTH=DIR, also the NAME.exec.gz / NAME.elf.gz pairs there (A64 ones with the
# AArch64 programs, A32/T32 ones, user-mode records at EL0, with the AArch32 ones); ARMTRACE_EXTRA_ONLY=1 checks
# those alone (no corpus programs, no gcc builds; tools/opencsd-check/clang.sh uses it).
# Each program is encoded as ETMv4 and as ETE, plain, with the return stack, with exact matches off
# and a short sync period, and with Q elements (one and three P0 instructions per Q element: OpenCSD's
# ranges and its I_RANGE_NOPATH counts together must be the record's instructions, compare_a64.py --q), and
# with cycle counts, timestamps, context ID and VMID (which must not change the instructions, and which
# OpenCSD must read without an error), and with branch broadcast, everywhere and in one address range.
# AArch32 programs (A32 and T32): the corpus's linux-arm and linux-thumb (qemu-arm user mode, EL0) and a9-arm
# and a9-thumb (bare metal with IRQs and SVCs, encoded at EL1), and where gcc-arm-linux-gnueabihf is installed
# the workload built for ARM and Thumb at other optimisation levels and for Armv8-A AArch32, run under
# qemu-arm -cpu max; each as ETMv4 with the same options, as ETE where Armv9-A allows AArch32 (EL0: the user
# mode ones), and as a Cortex-R52 unit (--unit=r52, core Cortex-R52) plain and with branch broadcast; their
# instructions, of 2 and 4 bytes, are compared by compare_a32.py.
# Exit 0 = all exact, 1 = a difference, 77 = trc_pkt_lister is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "etm4-encode.sh: trc_pkt_lister not installed (apt-get install libopencsd-bin); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gt=core/src/test/resources/groundtruth
status=0
checked=0

progs=("$gt/linux-a64" "$gt/linux-a64-O0" "$gt/a53-el1")
a32progs=("$gt/linux-arm" "$gt/linux-thumb" "$gt/a9-arm" "$gt/a9-thumb")
extra_only=${ARMTRACE_EXTRA_ONLY:-0}
if [ "$extra_only" = 1 ]; then
  [ -n "${ARMTRACE_EXTRA_GROUNDTRUTH:-}" ] || { echo "etm4-encode.sh: ARMTRACE_EXTRA_ONLY=1 needs ARMTRACE_EXTRA_GROUNDTRUTH"; exit 1; }
  progs=(); a32progs=()
fi

# more programs: the workload at other optimisation levels, run in user mode (records made as
# tools/groundtruth/generate.sh makes the linux-a64 ones, with the plugin log alone: B.cond is judged by
# where execution went next, and the A64 code by the ELF's mapping symbols)
if [ "$extra_only" = 1 ]; then
  :
elif command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null && command -v gcc >/dev/null; then
  ./armtrace --version >/dev/null   # builds the jar when needed
  gcc -O2 -fPIC -shared -o "$work/libpctrace.so" tools/groundtruth/pctrace.c
  mkdir -p "$work/extra"
  for opt in "-O1" "-O3" "-Os" "-O2 -mcpu=cortex-a76" "-O3 -funroll-loops -mcpu=neoverse-n1"; do
    name=linux-a64$(echo "$opt" | tr -d ' =' | tr 'A-Z' 'a-z' | sed 's/-/_/g')
    # shellcheck disable=SC2086
    aarch64-linux-gnu-gcc $opt -g -static -o "$work/extra/$name.elf" tools/groundtruth/programs/linux/prog.c \
        tools/groundtruth/programs/common/work.c
    env -i qemu-aarch64 -cpu max -singlestep -plugin "$work/libpctrace.so" -d plugin -D "$work/$name.log" \
        "$work/extra/$name.elf" >/dev/null || true   # exits with the program's checksum
    java -cp core/target/armtrace.jar io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 --el 0 \
        --security non-secure --image "$work/extra/$name.elf" -o "$work/extra/$name.exec.gz" "$work/$name.log" >/dev/null
    gzip -n "$work/extra/$name.elf"
    rm -f "$work/$name.log"
    progs+=("$work/extra/$name")
  done
else
  echo "etm4-encode.sh: gcc-aarch64-linux-gnu, qemu-user or gcc missing: only the corpus's programs are checked"
fi
if [ "$extra_only" = 1 ]; then
  :
elif command -v arm-linux-gnueabihf-gcc >/dev/null && command -v qemu-arm >/dev/null && command -v gcc >/dev/null; then
  ./armtrace --version >/dev/null
  [ -f "$work/libpctrace.so" ] || gcc -O2 -fPIC -shared -o "$work/libpctrace.so" tools/groundtruth/pctrace.c
  mkdir -p "$work/extra"
  for opt in "-O1 -marm" "-O3 -mthumb" "-Os -mthumb" "-O2 -marm -march=armv8-a+simd" "-O3 -mthumb -march=armv8-a+simd"; do
    name=linux-a32$(echo "$opt" | tr -d ' =' | tr 'A-Z' 'a-z' | sed 's/-/_/g')
    other=-mthumb; case "$opt" in *-mthumb*) other=-marm ;; esac
    # shellcheck disable=SC2086
    arm-linux-gnueabihf-gcc -O2 -g -c $other -o "$work/extra/$name-other.o" tools/groundtruth/programs/common/other_isa.c
    # shellcheck disable=SC2086
    arm-linux-gnueabihf-gcc $opt -g -static -DHAVE_OTHER_ISA -o "$work/extra/$name.elf" tools/groundtruth/programs/linux/prog.c \
        tools/groundtruth/programs/common/work.c "$work/extra/$name-other.o"
    # the register log tells the importer which conditional instructions passed
    env -i qemu-arm -cpu max -singlestep -plugin "$work/libpctrace.so" -d plugin,int,exec,cpu,nochain -D "$work/$name.log" \
        "$work/extra/$name.elf" >/dev/null || true
    java -cp core/target/armtrace.jar io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 \
        --image "$work/extra/$name.elf" --cpu-log "$work/$name.log" -o "$work/extra/$name.exec.gz" "$work/$name.log" >/dev/null
    gzip -n "$work/extra/$name.elf"
    rm -f "$work/$name.log"
    a32progs+=("$work/extra/$name")
  done
else
  echo "etm4-encode.sh: gcc-arm-linux-gnueabihf, qemu-user or gcc missing: only the corpus's AArch32 programs are checked"
fi

if [ -n "${ARMTRACE_EXTRA_GROUNDTRUTH:-}" ]; then
  for f in "$ARMTRACE_EXTRA_GROUNDTRUTH"/*.exec.gz; do
    if [ ! -f "${f%.exec.gz}.elf.gz" ]; then
      echo "etm4-encode.sh: $f has no ${f%.exec.gz}.elf.gz beside it"
      status=1
      continue
    fi
    # the first step's ISA (gunzip stops with SIGPIPE when awk has it, hence the || true under pipefail)
    isa=$(gunzip -c "$f" 2>/dev/null | awk '/^I /{print $3; exit}') || true
    if [ "$isa" = A64 ]; then
      progs+=("${f%.exec.gz}")
    else
      a32progs+=("${f%.exec.gz}")
    fi
  done
fi

# check PATH PROG PROTOCOL CORE COMPARE OPTIONS...: encode, decode with OpenCSD, compare with the record
check() {
  local path=$1 prog=$2 protocol=$3 core=$4 compare=$5
  shift 5
  local opts="$*"
  local snap="$work/snap"
  rm -rf "$snap" "$work/ocsd.ppl"
  # shellcheck disable=SC2086
  if ! ./armtrace encode --protocol "$protocol" --execution "$path.exec.gz" --image "$work/$prog.elf" \
      --core "$core" --snapshot-out "$snap" $opts >"$work/encode.txt" 2>&1; then
    echo "etm4-encode.sh: $prog $protocol $opts: armtrace refused: $(cat "$work/encode.txt")"
    status=1
    return
  fi
  trc_pkt_lister -ss_dir "$snap" -decode -logfilename "$work/ocsd.ppl" >/dev/null 2>&1 || true
  local want=ETMV4I; [ "$protocol" = ete ] && want=ETE
  checked=$((checked + 1))
  # an error of OpenCSD's packet processor or decoder (not of its memory map set-up)
  if grep -Eq "(DCD|PKTP)_[A-Z0-9_]* : 0x" "$work/ocsd.ppl"; then
    echo "etm4-encode.sh: $prog $protocol $opts: OpenCSD reports an error: $(grep -Em1 "(DCD|PKTP)_[A-Z0-9_]* : 0x" "$work/ocsd.ppl")"
    status=1
    return
  fi
  if ! grep -q "Protocol printer $want" "$work/ocsd.ppl"; then
    echo "etm4-encode.sh: $prog $protocol $opts: OpenCSD did not set up its $want decoder"
    status=1
    return
  fi
  local q=; case "$opts" in *--q-elements*) q=--q ;; esac
  local result
  # shellcheck disable=SC2086
  if result=$(python3 "tools/opencsd-check/$compare" $q "$work/ocsd.ppl" "$path.exec.gz"); then
    echo "etm4-encode.sh: $prog $protocol $core $opts: exact: $result"
  else
    echo "etm4-encode.sh: $prog $protocol $core $opts: DIFFERENT: $result"
    status=1
  fi
}

options=("" "--return-stack=on" "--exact-match=off --sync-period=64" "--q-elements=1" "--q-elements=3"
    "--cycle-accurate=on --cycle-threshold=7 --timestamps=on --context-id=0x1234abcd --vmid=0x5a"
    "--cycle-accurate=on --timestamps=on --context-id=7 --q-elements=2"
    "--branch-broadcast=on" "--branch-broadcast=on --branch-broadcast-range=0x400000-0x40ffff")

# pac_branches ELF: true if the file holds an Armv8.3 pointer-authentication branch (BRAA, BLRAA, RETAA, ERETAA
# and their B/Z forms: bits 31:25 1101011, 20:16 11111, 15:12 0000, 11 set) in any word at a 4-byte offset
pac_branches() {
  python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
n = len(d) // 4
sys.exit(0 if any((w & 0xfe1ff800) == 0xd61f0800 for w in struct.unpack("<%dI" % n, d[:4 * n])) else 1)' "$1"
}

for path in "${progs[@]}"; do
  prog=$(basename "$path")
  gunzip -c "$path.elf.gz" > "$work/$prog.elf"
  # OpenCSD takes the architecture from the snapshot's core name and decodes the pointer-authentication branches
  # as branches from Armv8.3 on only (on an Armv8.0 core such as the Cortex-A57 they are UNDEFINED, and it
  # reads a RETAA as an instruction that falls through): such programs (clang's -mbranch-protection=standard
  # -march=armv8.5-a returns with RETAA) are encoded for the core name ARMv8.5-A, which OpenCSD 1.3.3 reads
  # as an architecture (it does not know the Armv9 cores' names)
  core=Cortex-A57
  pac_branches "$work/$prog.elf" && core=ARMv8.5-A
  for protocol in etm4 ete; do
    for opts in "${options[@]}"; do
      check "$path" "$prog" "$protocol" $core compare_a64.py $opts
    done
  done
done

for path in "${a32progs[@]}"; do
  prog=$(basename "$path")
  gunzip -c "$path.elf.gz" > "$work/$prog.elf"
  # the bare-metal programs run in System mode (EL1); the user-mode ones at EL0, which ETE can trace in AArch32
  el=0; protocols="etm4 ete"
  case "$prog" in a9-*) el=1; protocols=etm4 ;; esac
  for protocol in $protocols; do
    for opts in "${options[@]}"; do
      check "$path" "$prog" "$protocol" Cortex-A57 compare_a32.py --el $el ${opts/0x400000-0x40ffff/0x10000-0x60010fff}
    done
  done
  for opts in "" "--branch-broadcast=on" "--return-stack=on --exact-match=off --sync-period=64"; do
    check "$path" "$prog" etm4 Cortex-R52 compare_a32.py --el $el --unit=r52 $opts
  done
done
echo "etm4-encode.sh: $checked encodings checked"
exit $status
