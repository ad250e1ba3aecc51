#!/usr/bin/env bash
# Independent check of `armtrace autofdo`: AutoFDO's own create_llvm_prof (Debian package autofdo) reads
# the text profile of every bundled example that has an ELF program and must write an LLVM sample profile
# that names functions of that program.
#
# create_llvm_prof 0.19 (Debian's) reads DWARF up to version 4, and the examples' programs carry DWARF 5:
# with them it writes an empty profile whatever its input. So the programs are built again from
# tools/groundtruth/programs with the same flags but -gdwarf-4, and the check makes sure the twin's
# loadable bytes equal the example's, byte for byte (only the debug sections differ); create_llvm_prof
# reads armtrace's profile, whose addresses come from the example, against the twin.
#
# The test recordings (conformance/perfdata): perf_kernel.data's ETMv4 trace ran in the kernel module
# rq_stats.ko (given with --symdir), so its profile must name that module with ranges, and create_llvm_prof
# must read it against the module (the module has no line table, so the LLVM profile it writes is empty);
# perf_with_missing_aux_data.data holds no AUX data at all and must be refused in one sentence (exit 2).
# Two recordings the tests write (EncodedRecording, from the compiled test classes, when they are there): a
# simpleperf-shaped one with its binary in simpleperf's binary_cache layout, and a per-thread one whose two
# processes run two programs at one address (one profile per program, chosen with --binary): create_llvm_prof
# must read each profile against its program (the corpus programs carry DWARF 5, so what it writes is empty).
#
# Exit 0 = every profile was read and named functions, 1 = a failure, 77 = create_llvm_prof or the
# arm-none-eabi toolchain is not installed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in create_llvm_prof arm-none-eabi-gcc arm-none-eabi-objcopy; do
  if ! command -v "$tool" > /dev/null 2>&1; then
    echo "autofdo-check: $tool not installed (apt-get install autofdo gcc-arm-none-eabi); skipped"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1
P=tools/groundtruth/programs
MAP="-ffile-prefix-map=$root=."

# The DWARF 4 twin of an example's program: the build of tools/groundtruth/generate.sh with -gdwarf-4.
twin() {
  case "$1" in
    mtb-m0plus)
      arm-none-eabi-gcc -O2 -gdwarf-4 $MAP -ffreestanding -nostdlib -mthumb -DSYST_CSR_INIT=3 -DSYST_RELOAD=2000 \
        -mcpu=cortex-m0plus -T $P/cortex-m/microbit.ld -o "$2" $P/cortex-m/startup_m.c $P/common/work.c -lgcc ;;
    etm3-a9-thumb) twin_a "$2" thumb cortex-a9 "-DVEXPRESS -DROUNDS=4 -DTIMER_LOAD=26000" $P/cortex-a/a9.ld ;;
    etm2-arm926-thumb) twin_a "$2" thumb arm926ej-s "-DROUNDS=4 -DTIMER_LOAD=1000" $P/arm926/versatile.ld ;;
    *) return 1 ;;
  esac
}
twin_a() {
  out=$1 isa=$2 cpu=$3 defs=$4 ld=$5
  other=thumb; [ "$isa" = thumb ] && other=arm
  CA="-O2 -gdwarf-4 $MAP -ffreestanding -nostdlib -mcpu=$cpu $defs -DHAVE_OTHER_ISA"
  arm-none-eabi-gcc $CA -Wa,--debug-prefix-map,"$root"=. -c -marm -o "$out-start.o" $P/cortex-a/start_a.S &&
  arm-none-eabi-gcc $CA -c -m$other -o "$out-other.o" $P/common/other_isa.c &&
  arm-none-eabi-gcc $CA -m$isa -Wl,--use-blx -T "$ld" -o "$out" "$out-start.o" $P/cortex-a/main_a.c $P/common/work.c \
    "$out-other.o" -lgcc
}

status=0
for ex in examples/*/; do
  [ -f "$ex/snapshot.ini" ] || continue
  name=$(basename "$ex")
  if [ ! -f "$ex/program.elf" ]; then
    echo "autofdo-check: $name: raw memory dumps, no ELF program for create_llvm_prof to read; not checked"
    continue
  fi
  if ! ./armtrace autofdo "$ex" -o "$work/$name.afdo" 2> "$work/$name.err"; then
    echo "autofdo-check: $name: armtrace autofdo FAILED"; cat "$work/$name.err"; status=1; continue
  fi
  if ! twin "$name" "$work/$name.elf" > "$work/$name.build" 2>&1; then
    echo "autofdo-check: $name: no DWARF 4 build of its program"; cat "$work/$name.build"; status=1; continue
  fi
  arm-none-eabi-objcopy -O binary "$ex/program.elf" "$work/$name.code" &&
    arm-none-eabi-objcopy -O binary "$work/$name.elf" "$work/$name.twin-code"
  if ! cmp -s "$work/$name.code" "$work/$name.twin-code"; then
    echo "autofdo-check: $name: the DWARF 4 build's code differs from the example's; not comparable"; status=1; continue
  fi
  if ! create_llvm_prof --profiler text --profile "$work/$name.afdo" --binary "$work/$name.elf" \
      --out "$work/$name.prof" --format text > "$work/$name.log" 2>&1; then
    echo "autofdo-check: $name: create_llvm_prof FAILED"; cat "$work/$name.log"; status=1; continue
  fi
  # a function's line in LLVM's text sample profile: NAME:TOTAL:HEAD
  functions=$(grep -acE '^[A-Za-z_][A-Za-z0-9_.]*:[0-9]+:[0-9]+$' "$work/$name.prof")
  if [ "$functions" -eq 0 ]; then
    echo "autofdo-check: $name: create_llvm_prof wrote no function"; cat "$work/$name.log"; status=1; continue
  fi
  echo "autofdo-check: $name: create_llvm_prof read $(head -1 "$work/$name.afdo") ranges and wrote $functions functions" \
    "($(grep -aE '^[A-Za-z_][A-Za-z0-9_.]*:[0-9]+:[0-9]+$' "$work/$name.prof" | sort -t: -k2,2nr | head -3 | cut -d: -f1 | paste -sd, -) hottest)"
done
rec=conformance/perfdata/perf_kernel.data
if ! ./armtrace autofdo "$rec" --symdir conformance/perfdata -o "$work/rec.afdo" > /dev/null 2> "$work/rec.err"; then
  echo "autofdo-check: perf_kernel.data: armtrace autofdo FAILED"; cat "$work/rec.err"; status=1
elif ! grep -q '^// .*rq_stats.ko$' "$work/rec.afdo" || [ "$(head -1 "$work/rec.afdo")" -lt 1 ]; then
  echo "autofdo-check: perf_kernel.data: the profile names no range of rq_stats.ko"; cat "$work/rec.afdo"; status=1
elif ! create_llvm_prof --profiler text --profile "$work/rec.afdo" --binary conformance/perfdata/rq_stats.ko \
    --out "$work/rec.prof" --format text > "$work/rec.log" 2>&1; then
  echo "autofdo-check: perf_kernel.data: create_llvm_prof FAILED"; cat "$work/rec.log"; status=1
else
  echo "autofdo-check: perf_kernel.data: create_llvm_prof read $(head -1 "$work/rec.afdo") ranges of rq_stats.ko" \
    "(the module has no line table, so its LLVM profile is empty)"
fi
rec=conformance/perfdata/perf_with_missing_aux_data.data
./armtrace autofdo "$rec" -o "$work/rec2.afdo" > /dev/null 2> "$work/rec2.err"
rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l < "$work/rec2.err")" = 1 ]; then
  echo "autofdo-check: perf_with_missing_aux_data.data: refused in one sentence (no AUX data in the file)"
else
  echo "autofdo-check: perf_with_missing_aux_data.data: expected the one-sentence refusal, got exit $rc:"; cat "$work/rec2.err"; status=1
fi
if [ -f core/target/test-classes/io/armtrace/source/perf/EncodedRecording.class ] && [ -f core/target/armtrace.jar ]; then
  mkdir -p "$work/encoded"
  java -cp core/target/armtrace.jar:core/target/test-classes io.armtrace.source.perf.EncodedRecording "$work/encoded"
  sym="$work/encoded/symbols"
  while read -r name rec symdir binary elf; do
    if ! ./armtrace autofdo "$work/encoded/$rec" --symdir "$symdir" --binary "$binary" -o "$work/$name.afdo" > /dev/null 2> "$work/$name.err"; then
      echo "autofdo-check: $name: armtrace autofdo FAILED"; cat "$work/$name.err"; status=1
    elif [ "$(head -1 "$work/$name.afdo")" -lt 1 ]; then
      echo "autofdo-check: $name: the profile has no range"; status=1
    elif ! create_llvm_prof --profiler text --profile "$work/$name.afdo" --binary "$elf" --out "$work/$name.prof" --format text \
        > "$work/$name.log" 2>&1; then
      echo "autofdo-check: $name: create_llvm_prof FAILED"; cat "$work/$name.log"; status=1
    else
      echo "autofdo-check: $name: create_llvm_prof read $(head -1 "$work/$name.afdo") ranges of $(basename "$elf")"
    fi
  done <<EOF2
encoded-simpleperf simpleperf.data $sym/binary_cache linux-a64\$ $sym/binary_cache/data/local/tmp/linux-a64
encoded-thread-O2 thread.data $sym build-id/ $sym/binary_cache/data/local/tmp/linux-a64
encoded-thread-O0 thread.data $sym linux-a64-O0\$ $sym/linux-a64-O0
EOF2
else
  echo "autofdo-check: the test classes are not compiled (mvn -pl core test-compile package -DskipTests): encoded recordings not checked"
fi
exit $status
