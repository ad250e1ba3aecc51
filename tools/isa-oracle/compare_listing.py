#!/usr/bin/env python3
"""Compares `armtrace decode --insn` of a program's trace with GNU objdump's text for the same ELF file.

usage: compare_listing.py ELF LISTING OBJDUMP [ADDR2LINE]

Every instruction line of LISTING (`  0x<address>  <A32|T32|A64> <opcode>  <text>  [(condition failed)]  <name>`)
is compared with what OBJDUMP (aarch64-linux-gnu-objdump or arm-linux-gnueabihf-objdump) prints for that
address of ELF: the disassembly as `objdump -d` prints it (its comments after `//`, `@` and `;` removed, branch
targets with their `<symbol+offset>` kept) and the name of the address as `objdump -d --prefix-addresses`
gives it. With ADDR2LINE (a listing made with --annotate), also the source line of every address as addr2line
gives it ("FILE:?", line 0, and "??:?" or "??:0" are no line; its discriminator notes are left out; paths
compared normalised). Prints the
instructions compared and each kind of difference with examples; exit 0 when there is none and at least one
instruction was compared, 1 otherwise.
"""
import collections
import os
import re
import subprocess
import sys

LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t([^\t]+?)\s*(?:\t(.*))?$")
COMMENT = re.compile(r"\s*(//|[@;]).*$")
PREFIXED = re.compile(r"^([0-9a-f]{8,16}) <([^>]+)> ")
INSN = re.compile(r"^  0x([0-9a-f]{8,16})  (A32|T32|A64) \S+(?: \S{4})?\s+(.*?)"
                  r"(?:\s{2,}(?:\(condition failed\)\s+)?<([^>]*)>)?(?:\s+(\S+:\d+))?\s*$")


def objdump(tool, elf, *opts):
    return subprocess.run([tool, "-d", *opts, elf], check=True, stdout=subprocess.PIPE, text=True).stdout


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    elf, listing, tool = sys.argv[1:4]
    addr2line = sys.argv[4] if len(sys.argv) == 5 else None
    text = {}
    for line in objdump(tool, elf).splitlines():
        m = LINE.match(line)
        if m and not m.group(3).startswith("."):
            text[int(m.group(1), 16)] = " ".join((m.group(3) + " " + COMMENT.sub("", m.group(4) or "")).split())
    names = {}
    for line in objdump(tool, elf, "--prefix-addresses").splitlines():
        m = PREFIXED.match(line)
        if m:
            names[int(m.group(1), 16)] = m.group(2)
    lines = {}
    executed = 0
    seen = set()
    isas = collections.Counter()
    kinds = collections.Counter()
    examples = collections.defaultdict(list)
    with open(listing) as f:
        for line in f:
            m = INSN.match(line)
            if not m:
                continue
            executed += 1
            address = int(m.group(1), 16)
            if address in seen:
                continue
            seen.add(address)
            isas[m.group(2)] += 1
            ours = " ".join(m.group(3).split())
            theirs = text.get(address)
            if ours != theirs:
                kind = "text: %s %s / %s" % (m.group(2), (theirs or "(none)").split()[0], ours.split()[0])
                kinds[kind] += 1
                examples[kind].append("%x: objdump '%s', armtrace '%s'" % (address, theirs, ours))
            if names.get(address) != m.group(4):
                kinds["name"] += 1
                examples["name"].append("%x: objdump <%s>, armtrace <%s>" % (address, names.get(address), m.group(4)))
            lines[address] = m.group(5)
    if addr2line:
        addresses = sorted(lines)
        answers = subprocess.run([addr2line, "-e", elf] + ["%x" % a for a in addresses], check=True,
                                 stdout=subprocess.PIPE, text=True).stdout.splitlines()
        for address, answer in zip(addresses, answers):
            answer = re.sub(r" \(discriminator \d+\)$", "", answer)
            theirs = None if answer.endswith(":?") or answer.startswith("??:") else answer
            ours = lines[address]
            # paths compared normalised, as AnnotatorTest does (addr2line joins "." and "./x" into "././x")
            if (theirs and os.path.normpath(theirs)) != (ours and os.path.normpath(ours)):
                kinds["line"] += 1
                examples["line"].append("%x: addr2line %s, armtrace %s" % (address, theirs, lines[address]))
    print("%d instructions executed, %d addresses (%s), %d differences" % (
        executed, len(seen), ", ".join("%s %d" % kv for kv in sorted(isas.items())), sum(kinds.values())))
    for kind, n in kinds.most_common():
        print("  %d %s" % (n, kind))
        for e in examples[kind][:3]:
            print("      " + e)
    return 0 if seen and not kinds else 1


if __name__ == "__main__":
    sys.exit(main())
