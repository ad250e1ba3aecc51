#!/usr/bin/env python3
"""Builds the ELF oracle: whole programs linked with newlib, and GNU objdump's disassembly of each.

Three C programs (elfs/*.c; the first runs the ground-truth workload of tools/groundtruth/programs/common/
work.c) are compiled for seven targets at five optimisation levels and linked with newlib's libc and libm
and libgcc (--specs=nosys.specs), 105 ELF files in all. `arm-none-eabi-objdump -d` of each is the
reference: DisassemblerElfOracleTest disassembles every instruction of every file with the file's own
symbol table and compares the whole text, `<symbol+offset>` of branch targets included, with objdump's.

Debian packages (this script installs nothing):
    apt-get install -y --no-install-recommends binutils-arm-none-eabi gcc-arm-none-eabi libnewlib-arm-none-eabi
The committed files were made with binutils 2.40, GCC 12.2.1 and newlib 3.3.0 (Debian 12).

Usage: tools/isa-oracle/elfs.py [--all] [--out DIR]
Without --all it writes the files the repository keeps (core/src/test/resources/isa/elfs, a few MB:
one ELF file of each target, the programs and levels mixed, COMMITTED below); with --all every one of
the 105 files to DIR, for `mvn -pl core test -Dtest=DisassemblerElfOracleTest -Darmtrace.elfOracle=DIR`.
Writes OUT/NAME.elf.gz (the ELF files without debug information; symbols kept) and
OUT/objdump.tsv.gz: '#' lines are comments, every other line is
    elf  address(hex)  text  name
with text objdump's mnemonic and operands separated by one space, its comments ('@ ...', '; ...')
removed and runs of white space collapsed, `<...>` kept, and name what `objdump -d --prefix-addresses`
prints before the instruction: the symbol+offset objdump names the address itself after (the annotate
column of a listing). Data rows (.word, .short, .byte) are left out.
Output is deterministic (gzip without names or time stamps).
"""

import argparse
import gzip
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
WORK_C = os.path.join(ROOT, "tools", "groundtruth", "programs", "common", "work.c")

# name, compile and link flags (they select newlib's multilib), disassembler profile (AR or M)
TARGETS = [
    ("arm926-arm", ["-marm", "-mcpu=arm926ej-s"], "AR"),
    ("arm926-thumb", ["-mthumb", "-mcpu=arm926ej-s"], "AR"),
    ("a9-arm-vfp", ["-marm", "-mcpu=cortex-a9", "-mfpu=vfpv3-d16", "-mfloat-abi=softfp"], "AR"),
    ("a9-thumb-neon", ["-mthumb", "-mcpu=cortex-a9", "-mfpu=neon", "-mfloat-abi=hard"], "AR"),
    ("m3", ["-mthumb", "-mcpu=cortex-m3"], "M"),
    ("m4f", ["-mthumb", "-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"], "M"),
    ("m0plus", ["-mthumb", "-mcpu=cortex-m0plus"], "M"),
]
LEVELS = ["-O0", "-O1", "-O2", "-O3", "-Os"]
PROGRAMS = [
    ("workload", [os.path.join(HERE, "elfs", "main_newlib.c"), WORK_C]),
    ("numeric", [os.path.join(HERE, "elfs", "numeric.c")]),
    ("text", [os.path.join(HERE, "elfs", "text.c")]),
]
# the files kept in the repository: every target, every program and every level at least once
COMMITTED = ["workload-arm926-arm-o0", "numeric-arm926-thumb-os", "text-a9-arm-vfp-o2", "numeric-a9-thumb-neon-o3",
             "workload-a9-thumb-neon-o2", "workload-m3-o1", "numeric-m4f-o2", "text-m0plus-os", "workload-m0plus-o3"]
PREFIXED = re.compile(r"^([0-9a-f]+) <([^>]*)> ")
LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t([^\t]+?)\s*(?:\t(.*))?$")
COMMENT = re.compile(r"\s*[@;].*$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw).stdout


def gz_write(path, data):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "core", "src", "test", "resources", "isa", "elfs"))
    ap.add_argument("--all", action="store_true", help="every ELF file, not only those the repository keeps")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    versions = [run([t, "--version"]).splitlines()[0] for t in ("arm-none-eabi-gcc", "arm-none-eabi-objdump")]
    rows = [f"# objdump -d of the ELF files of tools/isa-oracle/elfs.py ({'; '.join(versions)})",
            "# elf\taddress\ttext"]
    profiles = []
    total = 0
    with tempfile.TemporaryDirectory() as work:
        for prog, sources in PROGRAMS:
            for target, flags, profile in TARGETS:
                for level in LEVELS:
                    name = f"{prog}-{target}{level.lower()}"
                    if not args.all and name not in COMMITTED:
                        continue
                    elf = os.path.join(work, name + ".elf")
                    # relative source names and no debug information: nothing of the build machine in the file
                    run(["arm-none-eabi-gcc", level, "-g0", *flags, "--specs=nosys.specs", "-Wno-unused-result",
                         "-o", elf, *[os.path.relpath(s, ROOT) for s in sources], "-lm"], cwd=ROOT)
                    run(["arm-none-eabi-objcopy", "--strip-debug", "--remove-section=.comment", elf])
                    with open(elf, "rb") as f:
                        gz_write(os.path.join(args.out, name + ".elf.gz"), f.read())
                    profiles.append(f"# profile\t{name}\t{profile}")
                    names = {}
                    for line in run(["arm-none-eabi-objdump", "-d", "--prefix-addresses", elf]).splitlines():
                        m = PREFIXED.match(line)
                        if m:
                            names[int(m.group(1), 16)] = m.group(2)
                    n = 0
                    for line in run(["arm-none-eabi-objdump", "-d", elf]).splitlines():
                        m = LINE.match(line)
                        if not m or m.group(3).startswith("."):
                            continue
                        text = " ".join((m.group(3) + " " + COMMENT.sub("", m.group(4) or "")).split())
                        rows.append(f"{name}\t{m.group(1)}\t{text}\t{names[int(m.group(1), 16)]}")
                        n += 1
                    total += n
                    print(f"{name}: {n} instructions")
    rows[2:2] = profiles
    gz_write(os.path.join(args.out, "objdump.tsv.gz"), ("\n".join(rows) + "\n").encode())
    print(f"{len(profiles)} ELF files, {total} instructions -> {args.out}")


if __name__ == "__main__":
    main()
