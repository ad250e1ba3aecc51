#!/usr/bin/env python3
"""Compares OpenCSD's decode of an AArch32 (A32/T32) trace with the execution record it was made from.

usage: compare_a32.py [--q] OPENCSD_OUTPUT EXECUTION

The record's instruction steps ("I <address> <A32|T32> <size> <E|N>") are walked in order against OpenCSD's
OCSD_GEN_TRC_ELEM_INSTR_RANGE elements: a range [start, end) of num_i(n) instructions of ISA A32 or T32 must be
exactly the record's next n steps: the first at start, each at the address after the one before it (2 or 4
bytes on, as the record's sizes say), all of that ISA, the last ending at end. A range that ends in N must end
at a step the record marks N (a branch or other write of the PC that failed its condition) or at a CBZ/CBNZ
that fell through to the next instruction. With --q OpenCSD's OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH elements count
too: their first address must be the record's next step, and they stand for num_i steps of the record. Every
step of the record must be decoded. Exit 0 when all holds, 1 otherwise.
"""
import gzip
import re
import sys

RANGE = re.compile(r"OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] "
                   r"num_i\((\d+)\) last_sz\((\d+)\) \(ISA=(\w+)\) ([EN])\b")
NOPATH = re.compile(r"OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH\(first 0x([0-9a-fA-F]+):\[next 0x([0-9a-fA-F]+)\] num_i\((\d+)\)")
ISA = {"A32": "A32", "T32": "T32"}


def steps(path):
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            t = line.split()
            if len(t) == 5 and t[0] == "I":
                out.append((int(t[1], 16), t[2], int(t[3]), t[4] == "E"))
    return out


def main():
    args = sys.argv[1:]
    q_mode = args[0] == "--q"
    if q_mode:
        args = args[1:]
    truth = steps(args[1])
    pos = 0
    counted = 0
    ranges = 0
    problems = []
    with open(args[0], errors="replace") as f:
        for line in f:
            if problems:
                break
            m = RANGE.search(line)
            if m:
                start, end, n, isa, en = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3)), m.group(5), m.group(6)
                ranges += 1
                if isa not in ISA:
                    problems.append("range 0x%x-0x%x: ISA %s" % (start, end, isa))
                    break
                a = start
                for i in range(n):
                    if pos + i >= len(truth):
                        problems.append("range 0x%x-0x%x goes past the record's end" % (start, end))
                        break
                    addr, sisa, size, executed = truth[pos + i]
                    if addr != a or sisa != isa:
                        problems.append("step %d: OpenCSD 0x%x %s, the record 0x%x %s" % (pos + i, a, isa, addr, sisa))
                        break
                    a += size
                if problems:
                    break
                if a != end:
                    problems.append("range 0x%x-0x%x: the record's %d steps end at 0x%x" % (start, end, n, a))
                    break
                last = truth[pos + n - 1]
                if en == "N":
                    falls_through = pos + n < len(truth) and truth[pos + n][0] == last[0] + last[2]
                    if last[3] and not falls_through:
                        problems.append("step %d at 0x%x: OpenCSD says N, the record E and a branch" % (pos + n - 1, last[0]))
                        break
                pos += n
                continue
            if q_mode:
                m = NOPATH.search(line)
                if m:
                    n = int(m.group(3))
                    if pos >= len(truth) or truth[pos][0] != int(m.group(1), 16):
                        problems.append("Q element at 0x%s: the record's next step is %s" %
                                        (m.group(1), "0x%x" % truth[pos][0] if pos < len(truth) else "past its end"))
                        break
                    counted += n
                    pos += n
    print("%d of %d executed instructions decoded in order in %d ranges%s" %
          (min(pos, len(truth)), len(truth), ranges,
           " (%d of them in Q elements OpenCSD gives as counts)" % counted if q_mode else ""))
    if not problems and pos != len(truth):
        problems.append("%d instructions at the end are missing" % (len(truth) - pos) if pos < len(truth)
                        else "OpenCSD decodes past the record's end")
    for p in problems[:5]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
