#!/usr/bin/env python3
"""Compares OpenCSD's decode of an A64 trace with the execution record it was made from.

usage: compare_a64.py [--q] OPENCSD_OUTPUT EXECUTION

OpenCSD's OCSD_GEN_TRC_ELEM_INSTR_RANGE elements (A64: 4-byte instructions) are expanded into instruction
addresses, in order; they must be the execution's instruction steps ("I <address> A64 4 <E|N>" lines), in
order, every one of them. A range that ends in N must end at a step the record marks N (B.cond that failed)
or at a branch that fell through to the next instruction (CBZ/CBNZ/TBZ/TBNZ not taken, which the record
marks E); a step the record marks N must end a range with N. With --q (a trace of Q elements, which carry
no atoms) OpenCSD's OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH elements count too: their first address must be the
record's next step, and their instruction count stands for that many steps of the record; the E/N checks are
left out. Exit 0 when all holds, 1 otherwise.
"""
import gzip
import re
import sys

RANGE = re.compile(r"OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] "
                   r"num_i\((\d+)\) last_sz\((\d+)\) \(ISA=(\w+)\) ([EN])\b")


def steps(path):
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            t = line.split()
            if len(t) == 5 and t[0] == "I":
                out.append((int(t[1], 16), t[4] == "E"))
    return out


NOPATH = re.compile(r"OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH\(first 0x([0-9a-fA-F]+):\[next 0x([0-9a-fA-F]+)\] num_i\((\d+)\)")


def main():
    args = sys.argv[1:]
    q_mode = args[0] == "--q"
    if q_mode:
        args = args[1:]
    ocsd, record = args[0], args[1]
    counted = 0
    truth = steps(record)
    decoded = []  # (address, last of a range with N)
    problems = []
    with open(ocsd, errors="replace") as f:
        for line in f:
            m = RANGE.search(line)
            if not m and q_mode:
                m = NOPATH.search(line)
                if m:
                    n = int(m.group(3))
                    counted += n
                    for i in range(n):
                        decoded.append((int(m.group(1), 16) if i == 0 else None, False))
                continue
            if not m:
                continue
            start, end, n, isa, en = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3)), m.group(5), m.group(6)
            if isa != "A64" or end - start != 4 * n:
                problems.append("range %x-%x: %d instructions of %s" % (start, end, n, isa))
                continue
            for i in range(n):
                decoded.append((start + 4 * i, i == n - 1 and en == "N"))
    same = 0
    for (a, n_atom), (b, executed) in zip(decoded, truth):
        if a is not None and a != b:
            break
        same += 1
    if same < len(decoded):
        problems.append("instruction %d: OpenCSD 0x%x, the execution 0x%x" % (same, decoded[same][0], truth[same][0])
                        if same < len(truth) else "OpenCSD decodes %d instructions past the execution's end"
                        % (len(decoded) - same))
    for i in range(0 if q_mode else min(same, len(truth))):
        a, n_atom = decoded[i]
        executed = truth[i][1]
        falls_through = i + 1 < len(truth) and truth[i + 1][0] == a + 4
        if (not executed and not n_atom) or (n_atom and executed and not falls_through):
            problems.append("instruction %d at 0x%x: OpenCSD says %s, the execution %s" %
                            (i, a, "N" if n_atom else "E", "E" if executed else "N"))
            break
    tail = len(truth) - same
    print("%d of %d executed instructions decoded in order%s%s" %
          (same, len(truth), " (%d of them in Q elements OpenCSD gives as counts)" % counted if q_mode else "",
           "" if tail == 0 else "; the last %d are not traced" % tail))
    if tail:
        problems.append("%d instructions at the end are missing" % tail)
    for p in problems[:5]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
