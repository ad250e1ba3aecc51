#!/usr/bin/env python3
"""Builds the listing oracle: GNU objdump's disassembly of the bundled examples' program.elf files.

`armtrace decode examples/NAME --insn` prints each executed instruction with its disassembly; the
test ListingOracleTest compares every such line with what `arm-none-eabi-objdump -d` prints for the
same address of the same ELF (symbols included, e.g. `bl 600100a0 <timer_start>`), using only this
committed table.

Usage: tools/isa-oracle/listing.py [--out core/src/test/resources/isa/examples-objdump.tsv.gz]
Needs the Debian package binutils-arm-none-eabi.

Table format (gzip, UTF-8, deterministic): '#' lines are comments; other lines are
    example  address(hex)  text
where text is objdump's mnemonic and operands separated by one space, with its comments
('@ ...', '; ...') removed and runs of white space collapsed.
"""

import argparse
import gzip
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EXAMPLES = ["etm2-arm926-thumb", "etm3-a9-thumb", "mtb-m0plus"]
LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t([^\t]+?)\s*(?:\t(.*))?$")
COMMENT = re.compile(r"\s*[@;].*$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "core", "src", "test", "resources", "isa", "examples-objdump.tsv.gz"))
    args = ap.parse_args()
    version = subprocess.run(["arm-none-eabi-objdump", "--version"], check=True, stdout=subprocess.PIPE,
                             text=True).stdout.splitlines()[0]
    body = [f"# objdump -d of examples/*/program.elf ({version})", "# example\taddress\ttext"]
    for ex in EXAMPLES:
        elf = os.path.join(ROOT, "examples", ex, "program.elf")
        out = subprocess.run(["arm-none-eabi-objdump", "-d", elf], check=True, stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            m = LINE.match(line)
            if not m or m.group(3).startswith("."):
                continue
            text = " ".join((m.group(3) + " " + COMMENT.sub("", m.group(4) or "")).split())
            body.append(f"{ex}\t{m.group(1)}\t{text}")
    with open(args.out, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(("\n".join(body) + "\n").encode())
    print(f"{len(body) - 2} rows -> {args.out}")


if __name__ == "__main__":
    main()
