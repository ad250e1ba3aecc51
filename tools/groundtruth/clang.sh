#!/usr/bin/env bash
# The ground-truth workload built by clang, through the whole chain. Not run by .ci/run: the clang install
# and the 330 OpenCSD encodings take several minutes, more than the CI budget of the optional checks; run it by
# hand after changes to the encoders, the decoders or the disassembler.
#
# Builds tools/groundtruth/programs/linux/prog.c and common/work.c with clang (static, against the gcc cross
# toolchains' glibc, which stays gcc-built): --target=aarch64-linux-gnu at -O0, -O2, -O3, -Oz and -O2
# -mbranch-protection=standard -march=armv8.5-a (PACIASP/RETAA, BTI), --target=arm-linux-gnueabihf for A32
# and Thumb-2 at -O2 and -Oz (with common/other_isa.c built for the other instruction set); runs each under
# qemu-user with tools/groundtruth/pctrace.c and makes NAME.exec.gz / NAME.elf.gz records with
# io.armtrace.execution.ImportQemuLog, as tools/groundtruth/generate.sh makes the linux-* ones. Then:
#   - tools/opencsd-check/etm4-encode.sh on them alone (ARMTRACE_EXTRA_ONLY=1): ETMv4 and ETE, OpenCSD's
#     trc_pkt_lister must decode exactly the executed instructions;
#   - tools/opencsd-check/ptm.sh and etm3.sh on the A32/T32 ones (with the corpus's own programs, which those
#     scripts always check);
#   - armtrace's own decode of an ETMv4 encoding of each must give the record's instructions in order, and
#     its `decode --insn --annotate` text must be objdump's for every executed instruction, and its source
#     line addr2line's (tools/isa-oracle/compare_listing.py: disassembly, branch-target symbols, the address's
#     name, file and line).
# Needs (Debian bookworm): clang lld gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf
# libc6-dev-armhf-cross binutils-aarch64-linux-gnu binutils-arm-linux-gnueabihf qemu-user libopencsd-bin
# gcc python3, a JDK 17 and Maven. Exit 0 = everything agrees, 1 = a difference, 77 = a tool is missing.
# KEEP=DIR keeps the records in DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
for tool in clang aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc aarch64-linux-gnu-objdump arm-linux-gnueabihf-objdump \
    qemu-aarch64 qemu-arm trc_pkt_lister gcc python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "clang.sh: $tool is not installed; nothing checked"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${KEEP:-$work/records}
mkdir -p "$out"
./armtrace --version >/dev/null   # builds the jar when needed
gcc -O2 -fPIC -shared -o "$work/libpctrace.so" tools/groundtruth/pctrace.c
P=tools/groundtruth/programs
MAP="-ffile-prefix-map=$root=."

# build NAME a64|a32 CLANG_OPTIONS...
build() {
  local name=$1 kind=$2
  shift 2
  if [ "$kind" = a64 ]; then
    clang --target=aarch64-linux-gnu "$@" -g $MAP -static -o "$work/$name.elf" $P/linux/prog.c $P/common/work.c
    env -i qemu-aarch64 -cpu max -singlestep -plugin "$work/libpctrace.so" -d plugin,int,exec,cpu,nochain \
        -D "$work/$name.log" "$work/$name.elf" >/dev/null || true   # exits with the program's checksum
    java -cp core/target/armtrace.jar io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 --el 0 \
        --security non-secure --image "$work/$name.elf" --cpu-log "$work/$name.log" -o "$out/$name.exec.gz" \
        "$work/$name.log" >/dev/null
  else
    local other=-mthumb
    case "$*" in *-mthumb*) other=-marm ;; esac
    clang --target=arm-linux-gnueabihf -O2 -g $MAP -c $other -o "$work/$name-other.o" $P/common/other_isa.c
    clang --target=arm-linux-gnueabihf "$@" -g $MAP -static -DHAVE_OTHER_ISA -o "$work/$name.elf" \
        $P/linux/prog.c $P/common/work.c "$work/$name-other.o"
    env -i qemu-arm -cpu max -singlestep -plugin "$work/libpctrace.so" -d plugin,int,exec,cpu,nochain \
        -D "$work/$name.log" "$work/$name.elf" >/dev/null || true
    java -cp core/target/armtrace.jar io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 \
        --image "$work/$name.elf" --cpu-log "$work/$name.log" -o "$out/$name.exec.gz" "$work/$name.log" >/dev/null
  fi
  gzip -n -c "$work/$name.elf" > "$out/$name.elf.gz"
  rm -f "$work/$name.log"
}
build clang-a64-O0 a64 -O0
build clang-a64-O2 a64 -O2
build clang-a64-O3 a64 -O3
build clang-a64-Oz a64 -Oz
build clang-a64-O2-pac a64 -O2 -mbranch-protection=standard -march=armv8.5-a
build clang-arm-O2 a32 -O2 -marm
build clang-arm-Oz a32 -Oz -marm
build clang-thumb-O2 a32 -O2 -mthumb
build clang-thumb-Oz a32 -Oz -mthumb
echo "clang.sh: $(clang --version | head -n 1): 9 programs built and run"

status=0
ARMTRACE_EXTRA_GROUNDTRUTH="$out" ARMTRACE_EXTRA_ONLY=1 tools/opencsd-check/etm4-encode.sh || status=1
mkdir -p "$work/a32"
for f in "$out"/clang-arm-* "$out"/clang-thumb-*; do ln -s "$f" "$work/a32/"; done
ARMTRACE_EXTRA_GROUNDTRUTH="$work/a32" tools/opencsd-check/ptm.sh || status=1
ARMTRACE_EXTRA_GROUNDTRUTH="$work/a32" tools/opencsd-check/etm3.sh || status=1

# armtrace's own round trip, its disassembly and source lines, against the record, objdump and addr2line
for f in "$out"/*.exec.gz; do
  name=$(basename "$f" .exec.gz)
  gunzip -c "$out/$name.elf.gz" > "$work/$name.elf"
  el=; tools=arm-linux-gnueabihf
  case $name in *a64*) tools=aarch64-linux-gnu ;; *) el="--el 0" ;; esac
  rm -rf "$work/snap"
  # shellcheck disable=SC2086
  ./armtrace encode --protocol etm4 --execution "$f" --image "$work/$name.elf" --core Cortex-A57 $el \
      --snapshot-out "$work/snap" >/dev/null
  ./armtrace decode "$work/snap" --insn --annotate > "$work/$name.insn"
  if ! cmp -s <(gunzip -c "$f" | awk '$1 == "I" {print $2}') \
      <(awk '/^  0x[0-9a-f]+  (A32|T32|A64) / {print substr($1, 3)}' "$work/$name.insn"); then
    echo "clang.sh: $name: armtrace's decode of its ETMv4 trace is not the record's instructions"
    status=1
  fi
  if result=$(python3 tools/isa-oracle/compare_listing.py "$work/$name.elf" "$work/$name.insn" "$tools-objdump" \
      "$tools-addr2line"); then
    echo "clang.sh: $name: listing as objdump and addr2line give it: $result"
  else
    echo "clang.sh: $name: listing DIFFERS from objdump or addr2line: $result"
    status=1
  fi
done
exit $status
