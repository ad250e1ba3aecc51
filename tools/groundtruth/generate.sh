#!/bin/sh
# Rebuilds the ground-truth corpus (core/src/test/resources/groundtruth/) from source: compiles the
# programs under programs/, runs each under QEMU with the instruction-logging plugin and the
# register log, and imports the logs into execution records (docs/execution-format.md).
#
# Installs nothing. Needs these Debian (bookworm) packages:
#   gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi qemu-system-arm qemu-user
#   gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
#   gcc (for the plugin), gzip, a JDK 17 and Maven (the importer is the project's own code).
#
# Usage: tools/groundtruth/generate.sh [TARGET...]     (default: all targets)
#   Targets: m3 m0plus a9-arm a9-thumb arm926-arm arm926-thumb linux-arm linux-thumb
#   KEEP=DIR keeps the raw QEMU logs in DIR.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# Compile from the project root with relative paths, and map the root to "." in the debug
# information, so that no directory of the build machine ends up in the fixtures.
cd "$ROOT"
P=tools/groundtruth/programs
MAP="-ffile-prefix-map=$ROOT=."
OUT=$ROOT/core/src/test/resources/groundtruth
WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK" "$OUT"
export QEMU_AUDIO_DRV=none

# The importer: the project's classes plus the ELF reader it uses.
(cd "$ROOT" && mvn -o -q -B -pl core compile)
JELF=$(find "${HOME}/.m2/repository/net/fornwall/jelf" -name 'jelf-*.jar' | head -1)
CP="$ROOT/core/target/classes:$JELF"

gcc -O2 -fPIC -shared -o "$WORK/libpctrace.so" "$HERE/pctrace.c"

# QEMU system-mode flags shared by every bare-metal target:
#  -icount shift=6,sleep=off  deterministic interrupt timing (see README.md)
#  -singlestep                one instruction per translation block, so that -d exec,cpu dumps the
#                             registers before every instruction (condition pass/fail, ISA)
QFLAGS="-icount shift=6,sleep=off -singlestep -nographic -monitor none -serial none \
 -semihosting-config enable=on,target=native -d plugin,int,exec,cpu,nochain"

# run NAME MACHINE PROFILE CORE ELF
run() {
    name=$1 machine=$2 profile=$3 core=$4 elf=$5
    log=$WORK/$name.log
    rm -f "$log"
    qemu-system-arm -M "$machine" $QFLAGS -kernel "$elf" -plugin "$WORK/libpctrace.so" -D "$log" \
        > "$WORK/$name.stdout" 2>/dev/null
    java -cp "$CP" io.armtrace.execution.ImportQemuLog --profile "$profile" --core "$core" \
        --image "$elf" --cpu-log "$log" -o "$OUT/$name.exec.gz" "$log"
    gzip -9 -n -c "$elf" > "$OUT/$name.elf.gz"
}

CM="-O2 -g $MAP -ffreestanding -nostdlib -mthumb"
build_m3() {
    arm-none-eabi-gcc $CM -DROUNDS=6 -DSYST_RELOAD=4500 -mcpu=cortex-m3 -T "$P/cortex-m/mps2.ld" -o "$WORK/m3.elf" \
        "$P/cortex-m/startup_m.c" "$P/common/work.c" -lgcc
    run m3 mps2-an385 M cortex-m3 "$WORK/m3.elf"
}
build_m0plus() {
    # microbit is a Cortex-M0; the program is built for the M0+ (same ARMv6-M instruction set)
    arm-none-eabi-gcc $CM -DSYST_CSR_INIT=3 -DSYST_RELOAD=2000 -mcpu=cortex-m0plus -T "$P/cortex-m/microbit.ld" \
        -o "$WORK/m0plus.elf" "$P/cortex-m/startup_m.c" "$P/common/work.c" -lgcc
    run m0plus microbit M cortex-m0plus "$WORK/m0plus.elf"
}

# build_a NAME ISA MACHINE CORE GCC-CPU DEFINES LDSCRIPT: A-profile, C code in ISA (arm|thumb),
# other_isa.c in the other one, start_a.S always ARM.
build_a() {
    name=$1 isa=$2 machine=$3 core=$4 cpu=$5 defs=$6 ld=$7
    other=thumb; [ "$isa" = thumb ] && other=arm
    CA="-O2 -g $MAP -ffreestanding -nostdlib -mcpu=$cpu $defs -DHAVE_OTHER_ISA"
    arm-none-eabi-gcc $CA -Wa,--debug-prefix-map,"$ROOT"=. -c -marm -o "$WORK/$name-start.o" "$P/cortex-a/start_a.S"
    arm-none-eabi-gcc $CA -c -m$other -o "$WORK/$name-other.o" "$P/common/other_isa.c"
    arm-none-eabi-gcc $CA -m$isa -Wl,--use-blx -T "$ld" -o "$WORK/$name.elf" "$WORK/$name-start.o" \
        "$P/cortex-a/main_a.c" "$P/common/work.c" "$WORK/$name-other.o" -lgcc
    run "$name" "$machine" AR "$core" "$WORK/$name.elf"
}
build_a9() {
    build_a "a9-$1" "$1" vexpress-a9 cortex-a9 cortex-a9 "-DVEXPRESS -DROUNDS=4 -DTIMER_LOAD=26000" "$P/cortex-a/a9.ld"
}
build_arm926() {
    build_a "arm926-$1" "$1" versatilepb arm926ej-s arm926ej-s "-DROUNDS=4 -DTIMER_LOAD=1000" "$P/arm926/versatile.ld"
}

# Linux user mode (qemu-arm, Cortex-A15): a static glibc program, ARM or Thumb. The kernel's side of
# a system call is not in such a log: the svc is a step followed by the next instruction.
build_linux() {
    name=linux-$1
    other=thumb; [ "$1" = thumb ] && other=arm
    arm-linux-gnueabihf-gcc -O2 -g $MAP -c -m$other -o "$WORK/$name-other.o" "$P/common/other_isa.c"
    arm-linux-gnueabihf-gcc -O2 -g $MAP -static -m$1 -DHAVE_OTHER_ISA -o "$WORK/$name.elf" "$P/linux/prog.c" \
        "$P/common/work.c" "$WORK/$name-other.o"
    log=$WORK/$name.log
    rm -f "$log"
    env -i qemu-arm -cpu cortex-a15 -singlestep -plugin "$WORK/libpctrace.so" -d plugin,int,exec,cpu,nochain \
        -D "$log" "$WORK/$name.elf" > /dev/null || true   # exits with the program's checksum
    java -cp "$CP" io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a15 \
        --image "$WORK/$name.elf" --cpu-log "$log" -o "$OUT/$name.exec.gz" "$log"
    gzip -9 -n -c "$WORK/$name.elf" > "$OUT/$name.elf.gz"
}

TARGETS=${*:-"m3 m0plus a9-arm a9-thumb arm926-arm arm926-thumb linux-arm linux-thumb"}
for t in $TARGETS; do
    case $t in
        m3) build_m3 ;;
        m0plus) build_m0plus ;;
        a9-arm) build_a9 arm ;;
        a9-thumb) build_a9 thumb ;;
        arm926-arm) build_arm926 arm ;;
        arm926-thumb) build_arm926 thumb ;;
        linux-arm) build_linux arm ;;
        linux-thumb) build_linux thumb ;;
        *) echo "unknown target $t" >&2; exit 1 ;;
    esac
done
[ -n "${KEEP:-}" ] || rm -rf "$WORK"

# The characterisation table of tools/groundtruth/README.md
(cd "$ROOT" && mvn -o -q -B -pl core test-compile)
java -cp "$ROOT/core/target/classes:$ROOT/core/target/test-classes:$JELF" io.armtrace.groundtruth.Characterise
