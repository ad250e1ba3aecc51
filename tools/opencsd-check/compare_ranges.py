#!/usr/bin/env python3
"""Matches OpenCSD's instruction ranges against a per-instruction JSONL listing and an execution record.

usage: compare_ranges.py OPENCSD_OUTPUT ARMTRACE_JSONL EXECUTION [ELF]

1. The JSONL instructions must be the execution's steps (address and executed flag), in order, except
   that a CBZ/CBNZ that does not branch is listed as not executed: it is traced as failing its condition
   (IHI 0014Q 4.5.5; PFT's N atom). The program's ELF (4th argument) tells CBZ/CBNZ apart (T32
   1011 o0i1 ..., ARM DDI 0406C A8.8.29).
2. Walking OpenCSD's OCSD_GEN_TRC_ELEM_INSTR_RANGE elements in order, each range [start, end) with
   num_i(n) must consume exactly the next n listed instructions, all inside [start, end), and its E/N
   must be the last one's executed flag; together the ranges must cover the whole listing.
"""
import json
import re
import struct
import sys

RANGE = re.compile(r"OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] num_i\((\d+)\).*?\) ([EN])\b")


def execution_steps(path):
    steps = []
    with open(path) as f:
        for line in f:
            t = line.split()
            # instruction lines of the execution record: "I <address hex> <isa> <size> <E|N>"
            if len(t) == 5 and t[0] == "I":
                steps.append((int(t[1], 16), t[4] == "E", t[2] == "T32" and t[3] == "2"))
    return steps


def load_segments(path):
    """(address, bytes) of a 32-bit little-endian ELF file's PT_LOAD segments."""
    data = open(path, "rb").read()
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    segs = []
    for i in range(phnum):
        ptype, off, vaddr, _, filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if ptype == 1 and filesz:
            segs.append((vaddr, data[off:off + filesz]))
    return segs


def halfword(segs, addr):
    for base, b in segs:
        if base <= addr and addr + 2 <= base + len(b):
            return b[addr - base] | b[addr - base + 1] << 8
    return None


def as_traced(steps, segs):
    """The steps with the executed flag the trace gives: see 1. above."""
    out = []
    for i, (a, e, t16) in enumerate(steps):
        hw = halfword(segs, a) if e and t16 else None
        cbz = hw is not None and hw & 0xF500 == 0xB100
        falls_through = i + 1 < len(steps) and steps[i + 1][0] == a + 2
        out.append((a, False if cbz and falls_through else e))
    return out


def main():
    ocsd, jsonl, execution = sys.argv[1:4]
    listed = []
    with open(jsonl) as f:
        for line in f:
            if not line.strip():
                continue
            o = json.loads(line)
            if o.get("type") == "insn":
                listed.append((int(o["addr"], 16), bool(o["executed"])))
    segs = load_segments(sys.argv[4]) if len(sys.argv) > 4 else []
    steps = as_traced(execution_steps(execution), segs)
    if steps and steps != listed:
        n = next((i for i, (a, b) in enumerate(zip(steps, listed)) if a != b), min(len(steps), len(listed)))
        print(f"  armtrace listing differs from the execution at instruction {n} ({len(listed)} vs {len(steps)})")
        return 1
    k = 0
    ranges = 0
    with open(ocsd, errors="replace") as f:
        for line in f:
            m = RANGE.search(line)
            if not m:
                continue
            ranges += 1
            start, end, n, en = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3)), m.group(4)
            part = listed[k:k + n]
            if len(part) != n or any(not (start <= a < end) for a, _ in part) or part[-1][1] != (en == "E"):
                print(f"  OpenCSD range {ranges} 0x{start:x}-0x{end:x} n={n} {en} does not match instructions {k}..{k + n - 1}: "
                      + ", ".join(f"0x{a:x}{'' if e else '(N)'}" for a, e in listed[k:k + n + 1]))
                return 1
            k += n
    if k != len(listed):
        print(f"  OpenCSD gave {k} instructions in {ranges} ranges, armtrace {len(listed)}")
        return 1
    print(f"  {k} instructions in {ranges} OpenCSD ranges match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
