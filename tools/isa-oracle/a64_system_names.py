#!/usr/bin/env python3
"""Writes the A64 system register and SYS alias names that armtrace's A64 disassembler prints.

The names are the architecture's (Arm ARM DDI 0487, D19 and C5.2-C5.5), in the set that GNU binutils
2.40 knows: this script asks `aarch64-linux-gnu-objdump` for every MRS, MSR and SYS encoding and keeps
the named ones, so the disassembler names exactly the registers objdump names and prints the generic
form (s3_0_c15_c2_0, sys #0, C7, C5, #0, x0) for the others. Output:
core/src/main/resources/io/armtrace/isa/disasm/a64-system-names.txt

    r KEY NAME        MRS/MSR register, KEY = o0:op1:CRn:CRm:op2 (15 bits, hex; op0 = 2 + o0)
    w KEY NAME        MSR name where it differs from the MRS name
    s KEY MNEM OPND R SYS alias (dc, ic, at, tlbi, cfp, dvp, cpp), KEY = op1:CRn:CRm:op2 (14 bits);
                      R = 1 if it takes the register operand

Needs Debian's binutils-aarch64-linux-gnu.
"""
import os
import re
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "core", "src", "main", "resources", "io", "armtrace", "isa", "disasm",
                   "a64-system-names.txt")
LINE = re.compile(r"\s*[0-9a-f]+:\t([0-9a-f]{8}) \t(\S+)\s*(.*)")
GENERIC = re.compile(r"^s[0-9]_")


def objdump(words):
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(b"".join(struct.pack("<I", w) for w in words))
        f.flush()
        out = subprocess.run(["aarch64-linux-gnu-objdump", "-D", "-b", "binary", "-m", "aarch64", f.name],
                             check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            yield int(m.group(1), 16), m.group(2), m.group(3)


def main():
    keys = range(1 << 15)
    mrs, msr = {}, {}
    for w, mnem, ops in objdump([0xD5300000 | k << 5 for k in keys] + [0xD5100000 | k << 5 for k in keys]):
        k = (w >> 5) & 0x7FFF
        if mnem == "mrs":
            mrs[k] = ops.split(", ")[1]
        elif mnem == "msr":
            msr[k] = ops.split(", ")[0]
    lines = [f"# A64 system register and SYS alias names known to {subprocess.run(['aarch64-linux-gnu-objdump', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}",
             "# made by tools/isa-oracle/a64_system_names.py; format described there"]
    for k in sorted(mrs):
        if not GENERIC.match(mrs[k]):
            lines.append(f"r {k:04x} {mrs[k]}")
        if k in msr and msr[k] != mrs[k] and not GENERIC.match(msr[k]):
            lines.append(f"w {k:04x} {msr[k]}")
    sys_words = [0xD5080000 | k << 5 for k in range(1 << 14)]
    for w, mnem, ops in objdump(sys_words):
        if mnem != "sys":
            k = (w >> 5) & 0x3FFF
            parts = ops.split(", ")
            lines.append(f"s {k:04x} {mnem} {parts[0]} {1 if len(parts) > 1 else 0}")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} lines -> {OUT}")


if __name__ == "__main__":
    main()
