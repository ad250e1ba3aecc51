#!/bin/sh
# Rebuilds the ground-truth corpus (core/src/test/resources/groundtruth/) from source: compiles the
# programs under programs/, runs each under QEMU with the instruction-logging plugin and the
# register log, and imports the logs into execution records (docs/execution-format.md).
#
# Installs nothing. Needs these Debian (bookworm) packages:
#   gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi qemu-system-arm qemu-user
#   gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross
#   gcc (for the plugin), gzip, a JDK 17 and Maven (the importer is the project's own code).
#   (qemu-system-arm provides qemu-system-aarch64 too.)
#
# Usage: tools/groundtruth/generate.sh [TARGET...]     (default: all targets)
#   Targets: m3 m0plus a9-arm a9-thumb arm926-arm arm926-thumb linux-arm linux-thumb
#            linux-a64 linux-a64-O0 a53-el1 m33 m55
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

# The importer: the project's classes (they need no other library).
(cd "$ROOT" && mvn -o -q -B -pl core compile)
CP="$ROOT/core/target/classes"

gcc -O2 -fPIC -shared -o "$WORK/libpctrace.so" "$HERE/pctrace.c"

# QEMU system-mode flags shared by every bare-metal target:
#  -icount shift=6,sleep=off  deterministic interrupt timing (see README.md)
#  -singlestep                one instruction per translation block, so that -d exec,cpu dumps the
#                             registers before every instruction (condition pass/fail, ISA)
QFLAGS="-icount shift=6,sleep=off -singlestep -nographic -monitor none -serial none \
 -semihosting-config enable=on,target=native -d plugin,int,exec,cpu,nochain"

# run NAME MACHINE PROFILE CORE ELF [IMPORT-OPTIONS...]
#   QEMU=qemu-system-aarch64 for AArch64; QEMU_CPU=... for a -cpu other than the machine's own
QEMU=qemu-system-arm QEMU_CPU=
run() {
    name=$1 machine=$2 profile=$3 core=$4 elf=$5
    shift 5
    log=$WORK/$name.log
    rm -f "$log"
    $QEMU -M "$machine" ${QEMU_CPU:+-cpu $QEMU_CPU} $QFLAGS -kernel "$elf" -plugin "$WORK/libpctrace.so" -D "$log" \
        > "$WORK/$name.stdout" 2>/dev/null
    java -cp "$CP" io.armtrace.execution.ImportQemuLog --profile "$profile" --core "$core" "$@" \
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

# run_user QEMU-USER CPU NAME: runs $WORK/NAME.elf in user mode into $WORK/NAME.log.
# Static glibc reads its own path at startup (/proc/self/exe, which qemu-user answers with the host
# path): the path's length and where its '/' fall change the work of memcpy and strrchr, so the
# program runs from a directory /tmp/gt/XXXX, the layout of the runs the fixtures come from.
run_user() {
    qemu=$1 cpu=$2 name=$3
    mkdir -p /tmp/gt
    rundir=$(mktemp -d /tmp/gt/XXXX)
    cp "$WORK/$name.elf" "$rundir/$name.elf"
    rm -f "$WORK/$name.log"
    env -i $qemu -cpu $cpu -singlestep -plugin "$WORK/libpctrace.so" -d plugin,int,exec,cpu,nochain \
        -D "$WORK/$name.log" "$rundir/$name.elf" > /dev/null || true   # exits with the program's checksum
    rm -rf "$rundir"
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
    run_user qemu-arm cortex-a15 "$name"
    java -cp "$CP" io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a15 \
        --image "$WORK/$name.elf" --cpu-log "$log" -o "$OUT/$name.exec.gz" "$log"
    gzip -9 -n -c "$WORK/$name.elf" > "$OUT/$name.elf.gz"
}

# Armv8-M mainline: Cortex-M33 on mps2-an505, in Secure state (the board resets into it; the program
# never leaves it). Same startup and workload as m3.
build_m33() {
    arm-none-eabi-gcc $CM -DROUNDS=6 -DSYST_RELOAD=4500 -mcpu=cortex-m33 -T "$P/cortex-m/an505.ld" \
        -o "$WORK/m33.elf" "$P/cortex-m/startup_m.c" "$P/common/work.c" -lgcc
    run m33 mps2-an505 M cortex-m33 "$WORK/m33.elf" --security secure
}
# Armv8.1-M: Cortex-M55 on mps3-an547, Secure state. GCC emits DLS/LE for counted loops;
# lob_m55.S adds WLS, DLSTP/LETP, LCTP and the branch-future instructions, run before each round.
build_m55() {
    # assembled on its own: linked straight from the .S, the ELF would name GCC's temporary object
    arm-none-eabi-gcc $CM -mcpu=cortex-m55 -Wa,--debug-prefix-map,"$ROOT"=. -c -o "$WORK/m55-lob.o" "$P/cortex-m/lob_m55.S"
    arm-none-eabi-gcc $CM -DROUNDS=6 -DSYST_RELOAD=4500 -mcpu=cortex-m55 -Wl,--wrap=work -T "$P/cortex-m/an547.ld" \
        -o "$WORK/m55.elf" "$P/cortex-m/startup_m.c" "$P/common/work.c" "$WORK/m55-lob.o" -lgcc
    run m55 mps3-an547 M cortex-m55 "$WORK/m55.elf" --security secure
}

# AArch64 bare metal: Cortex-A53 on virt, booted at EL1 (no EL2, EL3: Non-secure). The kernel part
# (start_a64.S, kernel_a64.c) runs at upper-half addresses, the user part (user_a64.c, the workload)
# at EL0 below 4 GiB; the timer interrupt and SVCs come from both levels.
build_a53() {
    name=a53-el1
    G="aarch64-linux-gnu-gcc -O2 -g $MAP -ffreestanding -nostdlib -fno-pie -mcpu=cortex-a53 -DROUNDS=4"
    $G -Wa,--debug-prefix-map,"$ROOT"=. -c -o "$WORK/$name-start.o" "$P/aarch64/start_a64.S"
    $G -mgeneral-regs-only -mcmodel=large -DTIMER_PERIOD=12000 -c -o "$WORK/$name-kernel.o" "$P/aarch64/kernel_a64.c"
    $G -c -o "$WORK/$name-user.o" "$P/aarch64/user_a64.c"
    $G -c -o "$WORK/$name-work.o" "$P/common/work.c"
    $G -no-pie -static -nostartfiles -Wl,--build-id=none -Wl,--no-warn-rwx-segments -T "$P/aarch64/virt.ld" \
        -o "$WORK/$name.elf" "$WORK/$name-start.o" "$WORK/$name-kernel.o" "$WORK/$name-user.o" "$WORK/$name-work.o" -lgcc
    QEMU=qemu-system-aarch64 QEMU_CPU=cortex-a53
    run "$name" virt AR cortex-a53 "$WORK/$name.elf" --el 1 --security non-secure
    QEMU=qemu-system-arm QEMU_CPU=
}

# AArch64 Linux user mode (qemu-aarch64, Cortex-A57): a static glibc program at EL0, -O2 or -O0.
build_linux_a64() {
    name=$1 opt=$2
    aarch64-linux-gnu-gcc $opt -g $MAP -static -o "$WORK/$name.elf" "$P/linux/prog.c" "$P/common/work.c"
    log=$WORK/$name.log
    run_user qemu-aarch64 cortex-a57 "$name"
    java -cp "$CP" io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 --el 0 --security non-secure \
        --image "$WORK/$name.elf" --cpu-log "$log" -o "$OUT/$name.exec.gz" "$log"
    gzip -9 -n -c "$WORK/$name.elf" > "$OUT/$name.elf.gz"
}

TARGETS=${*:-"m3 m0plus a9-arm a9-thumb arm926-arm arm926-thumb linux-arm linux-thumb linux-a64 linux-a64-O0 a53-el1 m33 m55"}
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
        linux-a64) build_linux_a64 linux-a64 -O2 ;;
        linux-a64-O0) build_linux_a64 linux-a64-O0 -O0 ;;
        a53-el1) build_a53 ;;
        m33) build_m33 ;;
        m55) build_m55 ;;
        *) echo "unknown target $t" >&2; exit 1 ;;
    esac
done
[ -n "${KEEP:-}" ] || rm -rf "$WORK"

# The characterisation table of tools/groundtruth/README.md
(cd "$ROOT" && mvn -o -q -B -pl core test-compile)
java -cp "$ROOT/core/target/classes:$ROOT/core/target/test-classes" io.armtrace.groundtruth.Characterise
