#!/usr/bin/env python3
"""Builds the oracle tables for armtrace's instruction classifier and disassembler from GNU objdump's output.

The tables are an independent reference: real code (C programs, newlib's libc and libm, libgcc, and
the rare_*.S files next to this script) is compiled and linked by the GNU Arm toolchain and
disassembled by `arm-none-eabi-objdump -d`; each instruction becomes one row with what objdump says
about it. The Java test (InstructionOracleTest) checks the classifier against every row.

Debian packages this script needs (it installs nothing itself):
    apt-get install -y --no-install-recommends \
        binutils-arm-none-eabi gcc-arm-none-eabi libnewlib-arm-none-eabi
The committed tables were made with binutils 2.40, GCC 12.2.1 and newlib 3.3.0 (Debian 12).

Usage:
    tools/isa-oracle/generate.py --programs DIR [--out core/src/test/resources/isa]
where DIR holds C programs in subdirectories linux/, cortex-a/, cortex-m/ (the QEMU ground-truth
programs of the project's test kit); any *.c found there is compiled for every configuration that it
builds for, the rest are skipped.

Table format (gzip-compressed UTF-8 text, one file per configuration, <name>.tsv.gz):
    lines starting with '#' are comments (configuration, tool versions, counts);
    every other line is one instruction, tab-separated:
        address  isa  size  opcode  mnemonic  operands  target
    address  hex, no 0x; empty when it is the previous row's address plus its size;
    isa      'A' (A32) or 'T' (T32), as objdump shows it: an A32 instruction is one 8-digit group, a
             T32 one is one (16-bit) or two (32-bit) 4-digit groups. objdump decides from the ELF's
             mapping symbols ($a, $t, $d);
    size     2 or 4;
    opcode   hex; A32 word, T32 halfword, or first halfword followed by second (as Insn.opcode);
    mnemonic objdump's mnemonic, as printed (with condition and .w/.n);
    operands objdump's operands with its comments ('@ ...') and everything in angle brackets
             removed (symbol annotations '<sym+off>', '<undefined>', '<illegal reg ...>');
             InstructionOracleTest reads the pc as destination, in a register list, and '^' from
             them, DisassemblerOracleTest compares the disassembler's operands with them;
    target   for b/bl/blx/cbz/cbnz with an address operand: that address (hex), objdump's own
             computation of the direct branch target; otherwise '-'.
Rows that objdump prints as data (.word/.short/.byte, mapping symbol $d) or as undefined are not
instructions and are left out; so are rows objdump marks UNPREDICTABLE (only the encoding-space
tables below have any). The header counts them.

Besides the compiled code there are encoding-space tables, disassembled from raw bytes with
`objdump -D -b binary -m armv7` (with -M force-thumb for T32):
    t16-all     every 16-bit T32 halfword 0x0000-0xE7FF, in order (so IT instructions set up IT
                blocks for the halfwords after them, as they would in memory);
    a32-random  pseudo-random A32 words (fixed seed);
    t32-random  pseudo-random 32-bit T32 instructions (first halfword 0xE800-0xFFFF, fixed seed).
objdump decodes the union of all architecture versions whatever -m says; in t32-random the
ARMv8.1-M low-overhead-branch instructions (bf, bfx, bfl, bflx, bfcsel, le, letp, wls, wlstp, dls,
dlstp, lctp), which reuse ARMv7 encodings that are BLX with H = 1 (UNDEFINED) or B/BL, are left out
and counted, because the classifier implements ARMv7 and ARMv8-M mainline for A/R code.
Those instructions have their own table, v81m-lob (LOB_CONFIGS): rare_v81m.S assembled for the Cortex-M55
and linked alone, with them kept (V81mOracleTest checks the M-profile classifier and disassembler on it).
"""

import argparse
import gzip
import os
import random
import re
import struct
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name, classifier profile, compile flags, link flags (they select the libc/libm/libgcc multilib),
# program files or subdirectories, rare-encoding sources.
# Debian's newlib has no A32 multilib for ARMv7-A (-marm -mcpu=cortex-a9 links the Thumb v7-A
# libraries, which a9-thumb already covers), so a9-arm links the A32 ARMv5TE libraries instead.
CONFIGS = [
    ("a9-arm", "AR", ["-marm", "-mcpu=cortex-a9", "-mfloat-abi=softfp", "-mfpu=vfpv3-d16"],
     ["-marm", "-march=armv5te+fp", "-mfloat-abi=softfp"],
     ["linux", "cortex-a", "cortex-m/work.c"], ["rare_a32_v7.S", "rare_t32_v7.S"]),
    ("a9-thumb", "AR", ["-mthumb", "-mcpu=cortex-a9"], ["-mthumb", "-mcpu=cortex-a9"],
     ["linux", "cortex-a/main_a.c", "cortex-m/work.c"], ["rare_t32_v7.S", "rare_a32_v7.S"]),
    ("m3", "M", ["-mthumb", "-mcpu=cortex-m3"], ["-mthumb", "-mcpu=cortex-m3"],
     ["linux", "cortex-m"], ["rare_m.S"]),
    ("m0plus", "M", ["-mthumb", "-mcpu=cortex-m0plus"], ["-mthumb", "-mcpu=cortex-m0plus"],
     ["linux", "cortex-m"], ["rare_v6m.S"]),
    ("arm926", "AR", ["-marm", "-mcpu=arm926ej-s"], ["-marm", "-mcpu=arm926ej-s"],
     ["linux", "cortex-a/rdimon_main.c", "cortex-m/work.c"], ["rare_v5.S"]),
]

# name, classifier profile, compile flags, rare-encoding sources: tables of assembly files alone (no C code, no
# libraries), whose Armv8.1-M low-overhead-branch rows are kept.
LOB_CONFIGS = [
    ("v81m-lob", "M", ["-mthumb", "-mcpu=cortex-m55"], ["rare_v81m.S"]),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t([^\t]+?)\s*(?:\t(.*))?$")
SYMBOL = re.compile(r"\s*<[^>]*>")
COMMENT = re.compile(r"\s*@.*$")  # '@' starts a comment in Arm assembler syntax
DIRECT = re.compile(r"^(b|bl|blx|cbz|cbnz)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.w|\.n)?$")
HEX = re.compile(r"^[0-9a-f]+$")
PC = re.compile(r"\bpc\b")
LOW_OVERHEAD_BRANCH = re.compile(r"^(bf|bfx|bfl|bflx|bfcsel|le|letp|wls|wlstp|dls|dlstp|lctp)(\.\w+)?$")

# name, classifier profile, objdump machine, T32?, bytes
def blobs():
    rnd = random.Random(20261122)
    a32 = b"".join(struct.pack("<I", rnd.getrandbits(32)) for _ in range(12000))
    t32 = b"".join(struct.pack("<HH", rnd.randrange(0xE800, 0x10000), rnd.getrandbits(16)) for _ in range(12000))
    t16 = b"".join(struct.pack("<H", h) for h in range(0xE800))
    return [("t16-all", "AR", "armv7", True, t16),
            ("a32-random", "AR", "armv7", False, a32),
            ("t32-random", "AR", "armv7", True, t32)]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw).stdout


def sources(programs, parts):
    out = []
    for p in parts:
        path = os.path.join(programs, p)
        if os.path.isdir(path):
            out += sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith((".c", ".S")))
        elif os.path.exists(path):
            out.append(path)
    return out


def build(name, flags, link_flags, programs, parts, rare, work):
    objs = []
    for src in sources(programs, parts) + [os.path.join(HERE, r) for r in rare]:
        obj = os.path.join(work, f"{name}-{os.path.basename(src)}.o")
        # -O2 for branchy optimized code; a source that does not build for this core is skipped
        r = subprocess.run(["arm-none-eabi-gcc", *flags, "-O2", "-ffreestanding", "-c", src, "-o", obj],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            objs.append(obj)
        else:
            print(f"{name}: skipped {os.path.basename(src)}: {r.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    elf = os.path.join(work, f"{name}.elf")
    # All of libc, libm and libgcc for this multilib, linked so that objdump sees resolved branch
    # targets; undefined symbols (system calls) resolve to 0.
    run(["arm-none-eabi-gcc", *link_flags, "-nostdlib", "-nostartfiles", "-o", elf, *objs,
         "-Wl,--whole-archive", "-lc", "-lm", "-lgcc", "-Wl,--no-whole-archive",
         "-Wl,--unresolved-symbols=ignore-all", "-Wl,--allow-multiple-definition", "-Wl,-e,0",
         "-Wl,--noinhibit-exec"])
    return elf


def rows(objdump_cmd, counts, keep_lob=False):
    expected = -1
    for line in run(objdump_cmd).splitlines():
        m = LINE.match(line)
        if not m:
            continue
        addr, raw, mnem, ops = m.group(1), m.group(2).split(), m.group(3), m.group(4) or ""
        if "unpredictable" in line.lower():
            counts["unpredictable"] += 1
            continue
        if LOW_OVERHEAD_BRANCH.match(mnem) and not keep_lob:
            counts["v8.1-M"] += 1
            continue
        if mnem.startswith("."):
            counts["data"] += 1
            continue
        if mnem.startswith("<") or "undefined" in mnem.lower():
            counts["undefined"] += 1
            continue
        if len(raw) == 1 and len(raw[0]) == 8:
            isa, size, opcode = "A", 4, raw[0]
        elif len(raw) == 1 and len(raw[0]) == 4:
            isa, size, opcode = "T", 2, raw[0]
        elif len(raw) == 2 and len(raw[0]) == 4 and len(raw[1]) == 4:
            isa, size, opcode = "T", 4, raw[0] + raw[1]
        else:
            counts["other"] += 1
            continue
        ops = SYMBOL.sub("", COMMENT.sub("", ops)).strip()
        target = "-"
        if DIRECT.match(mnem) or (keep_lob and re.match(r"^(le|letp|wls|wlstp(\.\d+)?)$", mnem)):
            last = SYMBOL.sub("", COMMENT.sub("", m.group(4) or "")).split(",")[-1].strip()
            if last.startswith("0x"):
                last = last[2:]
            if HEX.match(last):
                target = last
        counts["rows"] += 1
        a = int(addr, 16)
        shown = "" if a == expected else addr
        expected = a + size
        yield f"{shown}\t{isa}\t{size}\t{opcode}\t{mnem}\t{ops}\t{target}"


def new_counts():
    return {"rows": 0, "data": 0, "undefined": 0, "unpredictable": 0, "v8.1-M": 0, "other": 0}


def write(out, name, profile, about, counts, body):
    header = [f"# armtrace ISA oracle table {name}", f"# profile {profile}", *about,
              f"# rows {counts['rows']}; left out: data {counts['data']}, undefined {counts['undefined']},"
              f" unpredictable {counts['unpredictable']}, v8.1-M branches {counts['v8.1-M']},"
              f" unrecognised {counts['other']}",
              "# address\tisa\tsize\topcode\tmnemonic\toperands\ttarget"]
    path = os.path.join(out, f"{name}.tsv.gz")
    with open(path, "wb") as raw:
        # mtime 0 and no file name: the same input gives the same bytes
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(("\n".join(header + body) + "\n").encode())
    print(f"{name}: {counts} -> {path} ({os.path.getsize(path)} bytes)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--programs", required=True, help="directory with linux/, cortex-a/, cortex-m/ C programs")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "core", "src", "test", "resources", "isa"))
    ap.add_argument("--keep", help="keep the ELF files in this directory")
    args = ap.parse_args()
    for tool in ("arm-none-eabi-gcc", "arm-none-eabi-objdump"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found: apt-get install binutils-arm-none-eabi gcc-arm-none-eabi libnewlib-arm-none-eabi")
    versions = [run(["arm-none-eabi-objdump", "--version"]).splitlines()[0],
                run(["arm-none-eabi-gcc", "--version"]).splitlines()[0]]
    os.makedirs(args.out, exist_ok=True)
    work = args.keep or tempfile.mkdtemp(prefix="isa-oracle-")
    os.makedirs(work, exist_ok=True)
    for name, profile, flags, link_flags, parts, rare in CONFIGS:
        elf = build(name, flags, link_flags, args.programs, parts, rare, work)
        counts = new_counts()
        body = list(rows(["arm-none-eabi-objdump", "-d", "-w", elf], counts))
        multilib = run(["arm-none-eabi-gcc", *link_flags, "-print-multi-directory"]).strip()
        write(args.out, name, profile, [f"# gcc flags {' '.join(flags)} -O2; libc/libm/libgcc multilib {multilib}"
                                        f" (linked with {' '.join(link_flags)})", f"# {versions[0]}",
                                        f"# {versions[1]}"], counts, body)
    for name, profile, flags, rare in LOB_CONFIGS:
        objs = []
        for r in rare:
            obj = os.path.join(work, f"{name}-{r}.o")
            run(["arm-none-eabi-gcc", *flags, "-c", os.path.join(HERE, r), "-o", obj])
            objs.append(obj)
        elf = os.path.join(work, f"{name}.elf")
        run(["arm-none-eabi-gcc", *flags, "-nostdlib", "-nostartfiles", "-Wl,-e,0", "-o", elf, *objs])
        counts = new_counts()
        body = list(rows(["arm-none-eabi-objdump", "-d", "-w", elf], counts, keep_lob=True))
        write(args.out, name, profile, [f"# {' '.join(rare)} alone, assembled with gcc {' '.join(flags)}; no libraries",
                                        "# Armv8.1-M low-overhead-branch rows kept; the target column is also the"
                                        " address operand of le, letp, wls and wlstp",
                                        f"# {versions[0]}", f"# {versions[1]}"], counts, body)
    for name, profile, machine, thumb, data in blobs():
        path = os.path.join(work, name + ".bin")
        with open(path, "wb") as f:
            f.write(data)
        counts = new_counts()
        cmd = ["arm-none-eabi-objdump", "-D", "-w", "-b", "binary", "-m", machine] + (["-M", "force-thumb"] if thumb else [])
        body = list(rows(cmd + [path], counts))
        write(args.out, name, profile, [f"# raw bytes disassembled with objdump -D -b binary -m {machine}"
                                        + (" -M force-thumb" if thumb else ""), f"# {versions[0]}"], counts, body)
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
