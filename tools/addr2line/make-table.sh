#!/bin/sh
# Writes the reference table that checks armtrace's source lines (image.LineTable, view.Annotator):
# for every instruction address objdump lists in the corpus ELF files, the file and line binutils'
# addr2line gives. Needs the Debian packages binutils-arm-none-eabi and binutils-aarch64-linux-gnu (for the
# AArch64 files, a64-*, whose tables come from aarch64-linux-gnu-objdump and -addr2line). Run from this directory; writes
# ../../core/src/test/resources/dwarf/addr2line/NAME.addr2line.txt.gz, lines "ADDRESS FILE:LINE" (hex address;
# ??:0 where no line program covers it (addr2line: "??:?" or "OBJECT.o:?"); addr2line's "(discriminator N)" notes dropped).
set -eu
out=../../core/src/test/resources/dwarf/addr2line
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table() { # name elf
    tools=arm-none-eabi
    # AArch64 files by their e_machine (183, EM_AARCH64): the a64-* tables and the AArch64 ground truth
    case "$(od -An -tu2 -j18 -N2 "$2" | tr -d ' ')" in 183) tools=aarch64-linux-gnu ;; esac
    $tools-objdump -d "$2" | sed -nE 's/^ *([0-9a-f]+):\t.*/\1/p' | sort -u > "$tmp/addrs"
    $tools-addr2line -e "$2" < "$tmp/addrs" | sed -E 's/ \(discriminator [0-9]+\)$//; s/^.*:\?$/??:0/' > "$tmp/lines"
    # statically linked C libraries have no line programs: of their addresses every 64th is kept (all of them
    # in the clang-built files, whose ??:0 rows are line 0 of their own line programs)
    every=64; case "$1" in clang-*) every=1 ;; esac
    paste -d ' ' "$tmp/addrs" "$tmp/lines" | awk -v every=$every '!/\?\?:0$/ || (n++ % every) == 0' \
        | gzip -9n > "$out/$1.addr2line.txt.gz"
}
# (core/src/test/resources/dwarf/corpus-*.elf.gz are copies of ground-truth programs: not repeated)
for f in ../../core/src/test/resources/groundtruth/*.elf.gz; do
    name=$(basename "$f" .elf.gz)
    gzip -dc "$f" > "$tmp/$name.elf"
    table "$name" "$tmp/$name.elf"
done
for f in ../../core/src/test/resources/dwarf/*.elf; do
    # a relocatable object: addr2line cannot tell its sections apart; 64-bit DWARF 5: binutils 2.40's
    # addr2line finds no line in it at all (objdump --dwarf=decodedline reads it: LineTableTest)
    case "$f" in *-object-*|*-dwarf5-64*) continue ;; esac
    table "$(basename "$f" .elf)" "$f"
done
for d in ../../examples/*/; do
    if [ -f "$d/program.elf" ]; then
        table "example-$(basename "$d")" "$d/program.elf"
    fi
done
