#!/usr/bin/env python3
"""Builds the A64 oracle tables for armtrace's classifier and disassembler from GNU objdump's output.

Like generate.py (same table format, see there), for AArch64: C programs (the ground-truth workload
and the programs in a64/ beside this script: auto-vectorised loops, arm_neon.h and arm_acle.h
intrinsics, atomics, system instructions; and rare_a64.S, the branch, exception and barrier forms
compilers seldom emit, assembled for Armv8.8-A) compiled by gcc-aarch64-linux-gnu at several optimisation
levels and architecture versions, statically linked with glibc (whose hand-written string and
memory routines are rich in Advanced SIMD, and hold SVE and MTE variants selected at run time) and
with all of glibc's libm, then disassembled by `aarch64-linux-gnu-objdump -d`.

Debian packages this script needs (it installs nothing itself):
    apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
The committed tables were made with binutils 2.40, GCC 12.2.0 and glibc 2.36 (Debian 12).

Usage:
    tools/isa-oracle/generate_a64.py --programs DIR [--out core/src/test/resources/isa]
where DIR is the ground-truth programs directory (tools/groundtruth/programs).

Differences from the A32/T32 tables:
  - isa column 'X' (A64); size is always 4; opcode is the instruction word as objdump prints it;
  - operands: objdump's operands with its comments ('// ...') and everything in angle brackets removed;
  - target: objdump's address operand of a PC-relative instruction (the last operand of b, bl, b.cond,
    bc.cond, cbz, cbnz, tbz, tbnz, adr, adrp, and of the literal forms of ldr, ldrsw, prfm), otherwise
    '-'. In raw binary input objdump writes these addresses with 0x, in an ELF file without;
  - one row per distinct instruction word: a word already in an earlier row (of this table or of an
    earlier table) is left out and counted as a duplicate. The first table keeps addresses contiguous
    where consecutive words are new, so the code walker sees real blocks;
  - a64-random: pseudo-random words (fixed seed) disassembled with `objdump -D -b binary -m aarch64`.
Rows objdump prints as data (.word, .inst with '// undefined') are left out and counted; in a64-random
the undefined words are kept as rows with mnemonic 'undefined' (the disassembler must say undefined too).
"""

import argparse
import gzip
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
A64 = os.path.join(HERE, "a64")

V82 = "-march=armv8.2-a+crypto+fp16+dotprod"
V85 = "-march=armv8.5-a+crypto+fp16+dotprod+rng"
# a64-sve and a64-sve2: the loops vectorised for the Scalable Vector Extension (Armv8.2 + SVE, Armv9-A
# with SVE2), as compilers emit it for Neoverse and Cortex-X cores
# name, compile flags, extra sources (ext.c needs the extensions), whole libm?
CONFIGS = [
    ("a64-O2", ["-O2"], [], True),
    ("a64-O0", ["-O0"], [], False),
    ("a64-O3", ["-O3", V82], ["ext.c"], False),
    ("a64-v85", ["-O2", V85, "-mbranch-protection=standard"], ["ext.c"], False),
    ("a64-sve", ["-O3", "-march=armv8.2-a+sve"], [], False),
    ("a64-sve2", ["-O3", "-march=armv9-a"], [], False),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{8}) \t([^\t]+?)\s*(?:\t(.*))?$")
SYMBOL = re.compile(r"\s*<[^>]*>")
COMMENT = re.compile(r"\s*//.*$")
DIRECT = re.compile(r"^(b|bl|b\.\w+|bc\.\w+|cbz|cbnz|tbz|tbnz|adr|adrp|ldr|ldrsw|prfm)$")
HEX = re.compile(r"^[0-9a-f]+$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw).stdout


def build(name, flags, extra, whole_libm, programs, work):
    srcs = [os.path.join(A64, "main.c"), os.path.join(programs, "common", "work.c"),
            os.path.join(A64, "simd_auto.c"), os.path.join(A64, "neon_intr.c")]
    srcs += [os.path.join(A64, e) for e in extra]
    rare = os.path.join(work, "rare_a64.o")
    # hand-written encodings compilers seldom emit (every branch form, ERET, HVC, barriers, WFx)
    run(["aarch64-linux-gnu-as", "-march=armv8.8-a", os.path.join(HERE, "rare_a64.S"), "-o", rare])
    srcs.append(rare)
    elf = os.path.join(work, f"{name}.elf")
    libs = ["-Wl,--whole-archive", "-lm", "-Wl,--no-whole-archive"] if whole_libm else ["-lm"]
    run(["aarch64-linux-gnu-gcc", "-static", *flags, *(["-DWITH_EXT"] if extra else []), "-o", elf, *srcs,
         *libs, "-latomic", "-Wl,--allow-multiple-definition"])
    return elf


def rows(objdump_cmd, counts, seen, keep_undefined=False):
    expected = -1
    for line in run(objdump_cmd).splitlines():
        m = LINE.match(line)
        if not m:
            continue
        addr, word, mnem, ops = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        if mnem.startswith("."):
            if keep_undefined and "undefined" in line:
                mnem, ops = "undefined", ""
                counts["undefined rows"] += 1
            else:
                counts["undefined" if "undefined" in line else "data"] += 1
                continue
        if word in seen:
            counts["duplicate"] += 1
            continue
        seen.add(word)
        ops = SYMBOL.sub("", COMMENT.sub("", ops)).strip()
        target = "-"
        if DIRECT.match(mnem):
            last = ops.split(",")[-1].strip()
            if last.startswith("0x"):
                last = last[2:]
            if HEX.match(last):
                target = last
        counts["rows"] += 1
        a = int(addr, 16)
        shown = "" if a == expected else addr
        expected = a + 4
        yield f"{shown}\tX\t4\t{word}\t{mnem}\t{ops}\t{target}"


def new_counts():
    return {"rows": 0, "data": 0, "undefined": 0, "duplicate": 0, "undefined rows": 0}


def write(out, name, about, counts, body):
    header = [f"# armtrace ISA oracle table {name}", "# profile A64", *about,
              f"# rows {counts['rows']} (of them objdump's undefined, mnemonic 'undefined': {counts['undefined rows']});"
              f" left out: data {counts['data']}, undefined {counts['undefined']}, words already in a row {counts['duplicate']}",
              "# address\tisa\tsize\topcode\tmnemonic\toperands\ttarget"]
    path = os.path.join(out, f"{name}.tsv.gz")
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(("\n".join(header + body) + "\n").encode())
    print(f"{name}: {counts} -> {path} ({os.path.getsize(path)} bytes)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", required=True, help="the ground-truth programs directory")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "core", "src", "test", "resources", "isa"))
    ap.add_argument("--keep", help="keep the ELF files in this directory")
    args = ap.parse_args()
    for tool in ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-objdump"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found: apt-get install gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu")
    versions = [run(["aarch64-linux-gnu-objdump", "--version"]).splitlines()[0],
                run(["aarch64-linux-gnu-gcc", "--version"]).splitlines()[0]]
    os.makedirs(args.out, exist_ok=True)
    work = args.keep or tempfile.mkdtemp(prefix="isa-oracle-a64-")
    os.makedirs(work, exist_ok=True)
    seen = set()
    for name, flags, extra, whole_libm in CONFIGS:
        elf = build(name, flags, extra, whole_libm, args.programs, work)
        counts = new_counts()
        body = list(rows(["aarch64-linux-gnu-objdump", "-d", "-w", elf], counts, seen))
        write(args.out, name, [f"# gcc flags {' '.join(flags)} -static; sources main.c work.c simd_auto.c neon_intr.c rare_a64.S"
                               f" {' '.join(extra)}; glibc{' with all of libm' if whole_libm else ''}",
                               f"# {versions[0]}", f"# {versions[1]}"], counts, body)
    rnd = random.Random(20261125)
    path = os.path.join(work, "a64-random.bin")
    with open(path, "wb") as f:
        f.write(b"".join(struct.pack("<I", rnd.getrandbits(32)) for _ in range(60000)))
    counts = new_counts()
    body = list(rows(["aarch64-linux-gnu-objdump", "-D", "-w", "-b", "binary", "-m", "aarch64", path], counts, set(),
                     keep_undefined=True))
    write(args.out, "a64-random", ["# 60,000 random words disassembled with objdump -D -b binary -m aarch64",
                                   f"# {versions[0]}"], counts, body)
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
