#!/bin/sh
# Builds the ELF files that test the DWARF line-table reader, and their reference line tables as
# binutils decodes them (readelf --debug-dump=decodedline). Needs the Debian packages
# gcc-arm-none-eabi, binutils-arm-none-eabi, gcc-arm-linux-gnueabihf and binutils (readelf).
# Run from this directory; writes to ../../core/src/test/resources/dwarf/.
set -eu
out=../../core/src/test/resources/dwarf
mkdir -p "$out"
build() { # name compiler flags...
    name=$1; cc=$2; shift 2
    "$cc" "$@" -fdebug-prefix-map="$(pwd)"=. -o "$out/$name.elf" lines.c
    arm-none-eabi-objcopy --remove-section=.comment "$out/$name.elf"
    readelf --debug-dump=decodedline -W "$out/$name.elf" > "$out/$name.decodedline.txt"
}
BARE="-nostdlib -ffreestanding -Wl,-e,main -Wl,--build-id=none"
for v in 2 3 4 5; do
    build eabi-arm-dwarf$v arm-none-eabi-gcc -O1 -g -gdwarf-$v -marm -mcpu=arm926ej-s $BARE
    build eabi-thumb-dwarf$v arm-none-eabi-gcc -O2 -g -gdwarf-$v -mthumb -mcpu=cortex-m3 $BARE
done
# unused code dropped by the linker: its sequence at address 0 overlaps the program at 0x40
build eabi-m3-gc-dwarf5 arm-none-eabi-gcc -O1 -g -gdwarf-5 -mthumb -mcpu=cortex-m3 -ffunction-sections \
    -Wl,--gc-sections -Wl,-Ttext=0x40 $BARE
for v in 4 5; do
    build linux-arm-dwarf$v arm-linux-gnueabihf-gcc -O1 -g -gdwarf-$v -marm -nostdlib -Wl,-e,main -Wl,--build-id=none
    build linux-thumb-dwarf$v arm-linux-gnueabihf-gcc -O2 -g -gdwarf-$v -mthumb -nostdlib -Wl,-e,main -Wl,--build-id=none
done
# An absolute compilation directory (DW_AT_comp_dir /src/fw): DWARF 2-4 line programs name the file
# relative to it, DWARF 5 ones through their directory 0. addr2line's answer for every instruction is the
# reference of LineTable.compilationPath (NAME.addr2line.txt: "ADDRESS FILE:LINE").
for v in 2 4 5; do
    name=eabi-thumb-compdir-dwarf$v
    arm-none-eabi-gcc -O2 -g -gdwarf-$v -mthumb -mcpu=cortex-m3 $BARE -fdebug-prefix-map="$(pwd)"=/src/fw \
        -o "$out/$name.elf" lines.c
    arm-none-eabi-objcopy --remove-section=.comment "$out/$name.elf"
    arm-none-eabi-objdump -d "$out/$name.elf" | sed -nE 's/^ *([0-9a-f]+):\t.*/\1/p' > "$out/$name.addrs"
    arm-none-eabi-addr2line -e "$out/$name.elf" < "$out/$name.addrs" | sed -E 's/ \(discriminator [0-9]+\)$//' \
        | paste -d ' ' "$out/$name.addrs" - > "$out/$name.addr2line.txt"
    rm -f "$out/$name.addrs"
done
# Programs of the ground-truth corpus (several compilation units, C and assembler, DWARF 5; the
# Linux ones with a static glibc), copied here once so that their references stay valid when the
# corpus is rebuilt. Give the corpus directory as the first argument to refresh the copies.
if [ $# -ge 1 ]; then
    for name in a9-thumb arm926-arm m3 linux-thumb; do
        cp "$1/$name.elf.gz" "$out/corpus-$name.elf.gz"
    done
fi
for f in "$out"/corpus-*.elf.gz; do
    name=$(basename "$f" .elf.gz)
    gzip -dc "$f" > "/tmp/$name.elf"
    # (the directories of the build machine are cut from the CU lines)
    readelf --debug-dump=decodedline -W "/tmp/$name.elf" | sed -E 's#^(CU: )/[^:]*/#\1#' \
        | gzip -9n > "$out/$name.decodedline.txt.gz"
    rm -f "/tmp/$name.elf"
done
# AArch64 (aarch64-linux-gnu-gcc, binutils-aarch64-linux-gnu): ELF64, DWARF 2-5, -O0/-O2, 64-bit DWARF
# (-gdwarf64), code above 4 GiB at a kernel address, a relocatable object (ET_REL: its .debug_line is
# relocated against .text, which the tests place at an address) and a build ID note. Reference tables from
# aarch64-linux-gnu-objdump --dwarf=decodedline (same format as readelf's).
build64() { # name flags...
    name=$1; shift
    aarch64-linux-gnu-gcc "$@" -fdebug-prefix-map="$(pwd)"=. -o "$out/$name.elf" lines.c
    aarch64-linux-gnu-objcopy --remove-section=.comment "$out/$name.elf"
    aarch64-linux-gnu-objdump --dwarf=decodedline "$out/$name.elf" > "$out/$name.decodedline.txt"
}
BARE64="-nostdlib -ffreestanding -Wl,-e,main -Wl,-z,max-page-size=4096"
build64 a64-O0-dwarf4 -O0 -g -gdwarf-4 $BARE64 -Wl,--build-id=none
build64 a64-O2-dwarf4 -O2 -g -gdwarf-4 $BARE64 -Wl,--build-id=none
build64 a64-O0-dwarf5 -O0 -g -gdwarf-5 $BARE64 -Wl,--build-id=none
build64 a64-O2-dwarf5 -O2 -g $BARE64 -Wl,--build-id=sha1
build64 a64-O2-dwarf3 -O2 -g -gdwarf-3 $BARE64 -Wl,--build-id=none
build64 a64-O2-dwarf2 -O2 -g -gdwarf-2 $BARE64 -Wl,--build-id=none
build64 a64-O2-dwarf5-64 -O2 -g -gdwarf-5 -gdwarf64 $BARE64 -Wl,--build-id=none
build64 a64-O1-dwarf4-64 -O1 -g -gdwarf-4 -gdwarf64 $BARE64 -Wl,--build-id=none
build64 a64-kernel-dwarf5 -O2 -g -gdwarf-5 $BARE64 -Wl,-Ttext=0xffffffc008010000 -Wl,--build-id=md5
build64 a64-object-dwarf5 -O2 -g -gdwarf-5 -c
for f in "$out"/a64-*.elf; do
    aarch64-linux-gnu-readelf -n "$f" | sed -n 's/^ *Build ID: //p' > "${f%.elf}.buildid.txt"
    aarch64-linux-gnu-nm -n "$f" > "${f%.elf}.nm.txt"
done
# clang (Debian clang 14, DWARF 5): its line programs give compiler-made instructions line 0 ("no source
# line", DWARF 5 6.2.5.1), which addr2line prints as FILE:? and the tables as ??:0.
buildclang() { # name target flags...
    name=$1; target=$2; shift 2
    clang --target="$target" "$@" -fdebug-prefix-map="$(pwd)"=. -o "$out/$name.elf" lines.c
    llvm-objcopy --remove-section=.comment "$out/$name.elf" 2>/dev/null || \
        aarch64-linux-gnu-objcopy --remove-section=.comment "$out/$name.elf"
}
# (their reference is addr2line's table, tools/addr2line/make-table.sh, which AnnotatorTest compares with)
buildclang clang-a64-O2-dwarf5 aarch64-linux-gnu -O2 -g $BARE64 -Wl,--build-id=none
buildclang clang-thumb-O2-dwarf5 arm-linux-gnueabihf -O2 -g -mthumb -nostdlib -ffreestanding -Wl,-e,main -Wl,--build-id=none
