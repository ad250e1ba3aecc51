#!/usr/bin/env python3
"""Compares OpenCSD's decode of an M-profile (T32) ETMv4 trace with the execution record it was made from.

usage: compare_m.py [--q] [--timed THRESHOLD] OPENCSD_OUTPUT EXECUTION

OpenCSD's OCSD_GEN_TRC_ELEM_INSTR_RANGE elements are laid over the record's instruction steps ("I <address> T32
<size> <E|N>" lines), in order: a range of n instructions from S to E must be the record's next n steps, the
first at S, each following the one before it (address + size), the last ending at E. Together the ranges must
be every step of the record up to the last P0 element (the instructions after it are not in any trace).
OCSD_GEN_TRC_ELEM_EXCEPTION elements must be the record's exceptions ("X <number> <preferred return> <handler>"),
same number and preferred return address, in order; a tail-chained one (no instruction between a handler's
return and the next exception) is traced with the address 0xFFFFFFFE.

OpenCSD 1.3.3 does not know M-profile tail-chaining: for the Exception packet at 0xFFFFFFFE it walks from the
end of the handler's return instruction towards that address and gives a range and an ADDR_NACC that no
instruction ran. Those (a range and an ADDR_NACC at the packet index of such an exception) are counted and left
out. With --q (a trace with Q elements) OpenCSD's OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH elements, the Q elements whose
way it does not walk, stand for their number of the record's steps, the first at their address. With --timed
(armtrace's encoder with --cycle-accurate=on --cycle-threshold=THRESHOLD --timestamps=on, whose clock is one
cycle an instruction) each OCSD_GEN_TRC_ELEM_TIMESTAMP must be the number of the record's instructions OpenCSD
gave before it, each OCSD_GEN_TRC_ELEM_CYCLE_COUNT at least the threshold and at most 4095, and all cycle counts
together at most the instructions. Prints the
counts; exit 0 when all holds, 1 otherwise.
"""
import gzip
import re
import sys

RANGE = re.compile(r"^Idx:(\d+);.*OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] "
                   r"num_i\((\d+)\) last_sz\((\d+)\) \(ISA=(\w+)\) ([EN])\b")
NACC = re.compile(r"^Idx:(\d+);.*OCSD_GEN_TRC_ELEM_ADDR_NACC")
EXCEPTION = re.compile(r"^Idx:(\d+);.*OCSD_GEN_TRC_ELEM_EXCEPTION\(pref ret addr:0x([0-9a-fA-F]+)[^;]*; "
                       r"excep num \(0x([0-9a-fA-F]+)\)")
TIMESTAMP = re.compile(r"OCSD_GEN_TRC_ELEM_TIMESTAMP\( \[ TS=0x([0-9a-fA-F]+)\];\s*\[CC=(\d+)\]")
CYCLES = re.compile(r"OCSD_GEN_TRC_ELEM_CYCLE_COUNT\( \[CC=(\d+)\]")
NOPATH = re.compile(r"^Idx:(\d+);.*OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH\(first 0x([0-9a-fA-F]+):\[next 0x([0-9a-fA-F]+)\] "
                    r"num_i\((\d+)\)")
TAIL_CHAIN = 0xFFFFFFFE


def record(path):
    steps, exceptions = [], []
    open_returns = []
    last_was_step = False
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 5 and t[0] == "I":
                steps.append((int(t[1], 16), int(t[3])))
                last_was_step = True
            elif t and t[0] == "X":
                number, ret = int(t[1]), int(t[2], 16)
                if steps:
                    tail = last_was_step and open_returns and open_returns[-1] == ret
                    exceptions.append((number, TAIL_CHAIN if tail else ret))
                    if not tail:
                        open_returns.append(ret)
                else:
                    open_returns.append(ret)
                last_was_step = False
            elif t and t[0] == "R":
                if open_returns:
                    open_returns.pop()
                last_was_step = False
    return steps, exceptions


def main():
    args = sys.argv[1:]
    q_mode = args[0] == "--q"
    if q_mode:
        args = args[1:]
    threshold = None
    if args[0] == "--timed":
        threshold = int(args[1])
        args = args[2:]
    ocsd, rec = args[0], args[1]
    steps, want_exceptions = record(rec)
    lines = open(ocsd, errors="replace").read().splitlines()
    tail_idx = set()
    for line in lines:
        m = EXCEPTION.search(line)
        if m and int(m.group(2), 16) == TAIL_CHAIN:
            tail_idx.add(m.group(1))
    pos = 0
    problems = []
    ranges = skipped = counted = counts = 0
    timestamps = cycle_counts = cycle_total = 0
    exceptions = []
    for line in lines:
        m = RANGE.search(line)
        if m:
            if m.group(1) in tail_idx:
                skipped += 1
                continue
            start, end, n = int(m.group(2), 16), int(m.group(3), 16), int(m.group(4))
            ranges += 1
            a = start
            for i in range(n):
                if pos >= len(steps):
                    problems.append(f"range 0x{start:x}-0x{end:x} goes past the record's end")
                    break
                if steps[pos][0] != a:
                    problems.append(f"range 0x{start:x}-0x{end:x}: instruction {i} at 0x{a:x}, the record has "
                                    f"0x{steps[pos][0]:x} (step {pos})")
                    break
                a += steps[pos][1]
                pos += 1
            else:
                if a != end:
                    problems.append(f"range 0x{start:x}-0x{end:x} ends at 0x{a:x} in the record")
            if len(problems) > 5:
                break
            continue
        m = TIMESTAMP.search(line) if threshold is not None else None
        if m:
            timestamps += 1
            cycle_total += int(m.group(2))
            if int(m.group(1), 16) != pos:
                problems.append(f"timestamp {int(m.group(1), 16)} after {pos} of the record's instructions")
            continue
        m = CYCLES.search(line) if threshold is not None else None
        if m:
            n = int(m.group(1))
            cycle_counts += 1
            cycle_total += n
            if not threshold <= n <= 4095:
                problems.append(f"cycle count {n} outside {threshold}-4095")
            continue
        m = NOPATH.search(line) if q_mode else None
        if m:
            first, n = int(m.group(2), 16), int(m.group(4))
            if pos >= len(steps) or steps[pos][0] != first:
                problems.append(f"Q element count at 0x{first:x}: the record's next step is "
                                + (f"0x{steps[pos][0]:x}" if pos < len(steps) else "past its end"))
                break
            pos += n
            counted += n
            counts += 1
            continue
        m = NACC.search(line)
        if m:
            if m.group(1) in tail_idx:
                continue
            problems.append("OpenCSD found no code: " + line.strip())
            continue
        m = EXCEPTION.search(line)
        if m:
            exceptions.append((int(m.group(3), 16), int(m.group(2), 16)))
    # the steps after the last P0 element are not traced; they are few (a straight run to the program's end)
    if len(steps) - pos > 64:
        problems.append(f"{len(steps) - pos} of the record's {len(steps)} steps are not in OpenCSD's ranges")
    if exceptions != want_exceptions:
        problems.append(f"exceptions differ: OpenCSD {len(exceptions)}, record {len(want_exceptions)}; first "
                        + str(next(((i, a, b) for i, (a, b) in enumerate(zip(exceptions, want_exceptions)) if a != b),
                                   "length")))
    if threshold is not None:
        if timestamps == 0 or cycle_counts == 0:
            problems.append(f"{timestamps} timestamps and {cycle_counts} cycle counts")
        if cycle_total > len(steps):
            problems.append(f"the cycle counts add up to {cycle_total}, more than the {len(steps)} instructions")
    tails = sum(1 for e in want_exceptions if e[1] == TAIL_CHAIN)
    summary = (f"{pos} of {len(steps)} instructions in {ranges} ranges, {len(exceptions)} exceptions "
               f"({tails} tail-chained; {skipped} OpenCSD ranges walked towards 0xFFFFFFFE left out)"
               + (f"; {counted} of the instructions in {counts} Q elements OpenCSD gives as counts" if q_mode else "")
               + (f"; {timestamps} timestamps, each the instructions before it, and {cycle_counts} cycle counts "
                  f"({cycle_total} cycles)" if threshold is not None else ""))
    if problems:
        print(summary + ": " + "; ".join(problems[:5]))
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
