#!/usr/bin/env python3
"""Bad-input campaign: mutated snapshots, huge inputs, and files that are not plain files, through every command.

Each bundled example (examples/*), the TC2 conformance snapshot (conformance/TC2) and two software
trace snapshots (an ITM, an STM: conformance/swtrace) is copied and one of its files mutated: the trace buffer, an .ini file (its keys, numbers, paths and
register values), the ELF file or a memory dump. The mutations are bit flips, truncation, byte
insertion and deletion, splices, random garbage and, for .ini files, edits of numbers, paths and keys.
Every command then runs on the mutant with a timeout. Huge inputs (a random trace, a formatted buffer,
a raw memory dump, an SWO capture, 1 GiB each by default) run with a 64 MB heap. The data-safety cases of safety.py put
named pipes, devices, directories and symbolic links where inputs and outputs belong, fill outputs and the
temporary directory, close pipes early, and give numbers and counts that are not numbers or do not fit.

A run is classified by its exit code (0, 1, 2, 141, other) and counted as a problem when it printed a stack
trace (no --debug is given), ran out of memory, hung (timed out, or went on for more than 10 s after its
reader left), or succeeded silently: exit 0 while its output went nowhere (written to /dev/full), a file it
must write is missing or empty, or the case expects a refusal. The safety cases also count files changed
that must not change (clobbered), secrets repeated in messages (leaked), exit codes the case does not allow,
left-over temporary files, and directories whose mode is not what the umask gives.
Prints a summary table and exits 1 if any problem occurred. See tools/campaign/run.sh.
"""
import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

STACK = re.compile(r"^\s+at [\w.$/<>]+\(.*\)\s*$", re.M)


def copy_snapshot(src, dst):
    """Copies a snapshot's files (not its subdirectories, nor README/LICENSE), writable whatever the source's modes."""
    os.makedirs(dst)
    for f in sorted(os.listdir(src)):
        p = os.path.join(src, f)
        if os.path.isfile(p) and not f.startswith(("README", "LICENSE")):
            shutil.copyfile(p, os.path.join(dst, f))


def mutate_bytes(rng, data, other):
    """One random mutation of a binary file; `other` is a second file's bytes for splices."""
    kind = rng.choice(["bitflip", "truncate", "insert", "delete", "splice", "garbage", "repeat"])
    b = bytearray(data)
    if kind == "bitflip" and b:
        for _ in range(rng.choice([1, 2, 8, 64])):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        b = b[:rng.randrange(len(b) + 1)]
    elif kind == "insert":
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.randbytes(rng.choice([1, 3, 16, 1000]))
    elif kind == "delete" and b:
        i = rng.randrange(len(b))
        del b[i:i + rng.choice([1, 5, 100, 4096])]
    elif kind == "splice" and other:
        i = rng.randrange(len(b) + 1)
        j = rng.randrange(len(other))
        b[i:i + rng.randrange(4096)] = other[j:j + rng.randrange(1, 4096)]
    elif kind == "repeat" and b:
        i = rng.randrange(len(b))
        b[i:i] = b[i:i + rng.randrange(1, 512)] * rng.randrange(2, 50)
    else:
        kind = "garbage"
        b = bytearray(rng.randbytes(max(1, len(b) if rng.random() < 0.5 else rng.randrange(1, 70000))))
    return bytes(b), kind


NUMBERS = ["0", "-1", "0xFFFFFFFF", "0xFFFFFFFFFFFFFFFF", "0x1FFFFFFFFFFFFFFFF", "99999999999999999999", "0x",
           "zz", "", "4294967296", "-0x80000000", "1e9", "0x7FFFFFFF", "08", "0x100000000", "9" * 300]
PATHS = ["", "missing.bin", "/", ".", "..", "../../../../etc/passwd", "/dev/null", "/proc/self/status",
         "a" * 5000, "dir/../snapshot.ini", "snapshot.ini", "trace.ini", "\u00e9t\u00e9.bin", "  spaced  "]


def mutate_ini(rng, text):
    """One edit of an .ini file: a number, a path, a key, a section, or a byte-level mutation."""
    lines = text.split("\n")
    kind = rng.choice(["number", "path", "drop-line", "dup-line", "key", "section", "bytes"])
    kv = [i for i, l in enumerate(lines) if "=" in l and not l.lstrip().startswith((";", "#"))]
    if kind == "number":
        cands = [i for i in kv if re.search(r"=\s*(0x[0-9a-fA-F]+|\d+)\s*$", lines[i])] or kv
        if cands:
            i = rng.choice(cands)
            k = lines[i].split("=", 1)[0]
            lines[i] = k + "=" + (rng.choice(NUMBERS) if rng.random() < 0.6 else hex(rng.getrandbits(32)))
            return "\n".join(lines), "ini-number"
    if kind == "path":
        cands = [i for i in kv if re.search(r"(file|metadata|device\d*|buffers|name)\s*=", lines[i], re.I)] or kv
        if cands:
            i = rng.choice(cands)
            k = lines[i].split("=", 1)[0]
            lines[i] = k + "=" + rng.choice(PATHS)
            return "\n".join(lines), "ini-path"
    if kind == "drop-line" and kv:
        del lines[rng.choice(kv)]
        return "\n".join(lines), "ini-drop-key"
    if kind == "dup-line" and lines:
        i = rng.randrange(len(lines))
        lines[i:i] = [lines[i]] * rng.choice([2, 1000, 50000])
        return "\n".join(lines), "ini-duplicate"
    if kind == "key" and kv:
        i = rng.choice(kv)
        k, v = lines[i].split("=", 1)
        lines[i] = rng.choice(["", "=", "[", k.upper() + "X", k * 50]) + "=" + v
        return "\n".join(lines), "ini-key"
    if kind == "section":
        secs = [i for i, l in enumerate(lines) if l.startswith("[")]
        if secs:
            i = rng.choice(secs)
            lines[i] = rng.choice(["[", "[]", "[regs", "[" + "x" * 300 + "]", "", lines[i] + "garbage"])
            return "\n".join(lines), "ini-section"
    data, k = mutate_bytes(rng, text.encode("latin-1"), b"")
    return data.decode("latin-1"), "ini-" + k


class Campaign:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.jar = os.path.join(self.root, "core", "target", "armtrace.jar")
        self.work = tempfile.mkdtemp(prefix="armtrace-campaign-")
        self.results = []  # (group, command, category, detail)
        self.keep = args.keep
        self.stack = STACK

    def java(self, heap, extra=()):
        # short runs start faster with the C1 compiler only; the huge inputs need C2
        fast_start = ["-XX:TieredStopAtLevel=1"] if heap != self.args.big_heap else []
        return ["java", "-Xss8m", "-Xmx" + heap, "-XX:+UseSerialGC"] + fast_start + list(extra) + ["-jar", self.jar]

    def run(self, group, name, argv, heap, timeout, must_write=None, stdout_path=os.devnull, label="", must_fail=False):
        """Runs one command; returns the classification."""
        t0 = time.time()
        try:
            with open(stdout_path, "wb") as out:
                p = subprocess.run(self.java(heap) + argv, stdout=out, stderr=subprocess.PIPE, timeout=timeout)
            rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            rc, err = "timeout", (e.stderr or b"").decode("utf-8", "replace")
        problems = []
        if rc == "timeout":
            problems.append("hang")
        if "OutOfMemoryError" in err or "armtrace: out of memory" in err:
            problems.append("oom")
        if STACK.search(err):
            problems.append("stack-trace")
        if rc == 0 and (stdout_path == "/dev/full" or must_fail):
            problems.append("silent-success")
        if rc == 0 and must_write and (not os.path.exists(must_write) or os.path.getsize(must_write) == 0):
            problems.append("silent-success")
        if isinstance(rc, int) and rc not in (0, 1, 2):
            problems.append("crash-exit-%d" % rc)
        exitc = "timeout" if rc == "timeout" else ("exit %d" % rc if rc in (0, 1, 2) else "exit other")
        detail = "%s %s [%s] %.1fs: %s" % (group, name, label, time.time() - t0,
                                           " ".join(a if len(a) < 80 else a[:77] + "..." for a in argv))
        first = next((l for l in err.splitlines() if l.strip()), "")
        self.results.append((group, name, exitc, problems, detail, first[:300]))
        return problems

    # ---- mutants -------------------------------------------------------------------------------
    def snapshots(self):
        ex = os.path.join(self.root, "examples")
        dirs = [os.path.join(ex, d) for d in sorted(os.listdir(ex)) if os.path.isfile(os.path.join(ex, d, "snapshot.ini"))]
        tc2 = os.path.normpath(os.path.join(self.root, "conformance", "TC2"))
        if os.path.isfile(os.path.join(tc2, "snapshot.ini")):
            dirs.append(tc2)
        for sw in ("itm_only_csformat", "stm_only-juno"):  # software trace: ITM in CoreSight frames, an STM
            d = os.path.normpath(os.path.join(self.root, "conformance", "swtrace", sw))
            if os.path.isfile(os.path.join(d, "snapshot.ini")):
                dirs.append(d)
        return dirs

    def commands(self, snap, out):
        s = snap
        cmds = [
            ("decode", ["decode", s, "--jobs", "1"], None, "/dev/null"),
            ("decode-jsonl", ["decode", s, "--format", "jsonl"], None, "/dev/null"),
            ("decode-last", ["decode", s, "--last", "10", "--jobs", "1"], None, "/dev/null"),
            ("packets", ["packets", s], None, "/dev/null"),
            ("info", ["info", s], None, "/dev/null"),
            ("stats", ["stats", s], None, "/dev/null"),
            ("profile", ["profile", s], None, "/dev/null"),
            ("coverage", ["coverage", s, "--lcov", os.path.join(out, "cov.info")], None, "/dev/null"),
            ("callgraph", ["callgraph", s, "-o", os.path.join(out, "callgrind.out")], os.path.join(out, "callgrind.out"),
             "/dev/null"),
            ("report", ["report", s, "-o", os.path.join(out, "report.html")], os.path.join(out, "report.html"), "/dev/null"),
            ("autofdo", ["autofdo", s, "-o", os.path.join(out, "profile.afdo")], os.path.join(out, "profile.afdo"), "/dev/null"),
            ("timeline", ["timeline", s, "-o", os.path.join(out, "timeline.json")], os.path.join(out, "timeline.json"),
             "/dev/null"),
        ]
        if os.path.exists(os.path.join(s, "cstrace.bin")):
            cmds.append(("deformat", ["deformat", os.path.join(s, "cstrace.bin"), "--source", "0x10", "-o",
                                      os.path.join(out, "raw.bin")], None, "/dev/null"))
        return cmds

    def mutant(self, base, index):
        d = os.path.join(self.work, "m%04d" % index)
        snap = os.path.join(d, "snap")
        copy_snapshot(base, snap)
        files = sorted(f for f in os.listdir(snap) if os.path.isfile(os.path.join(snap, f)))
        target = self.rng.choice(files)
        path = os.path.join(snap, target)
        if target.endswith(".ini"):
            with open(path, encoding="latin-1") as f:
                text, kind = mutate_ini(self.rng, f.read())
            with open(path, "w", encoding="latin-1") as f:
                f.write(text)
        else:
            other = open(os.path.join(snap, self.rng.choice(files)), "rb").read()
            data, kind = mutate_bytes(self.rng, open(path, "rb").read(), other)
            open(path, "wb").write(data)
        return d, snap, "%s: %s %s" % (os.path.basename(base), target, kind)

    def run_mutants(self):
        jobs = []
        bases = self.snapshots()
        for i in range(self.args.mutants):
            jobs.append(self.mutant(bases[i % len(bases)], i))
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            futures = []
            for d, snap, label in jobs:
                for name, argv, must, stdout in self.commands(snap, d):
                    futures.append(pool.submit(self.run, "mutant", name, argv, "256m", self.args.timeout, must, stdout, label))
            # writes that fail must not exit 0, on the unmutated inputs
            for base in bases:
                d = tempfile.mkdtemp(dir=self.work)
                for name, argv, must, stdout in self.commands(base, d):
                    futures.append(pool.submit(self.write_error, name, argv, base, d))
            for f in futures:
                f.result()

    def write_error(self, name, argv, base, d):
        """The command writing to /dev/full must not exit 0, unless it has nothing to write: it runs first
        to a regular file, and a command whose output is empty there loses nothing on a full device."""
        to_file = "-o" in argv or "--lcov" in argv
        probe = os.path.join(d, name + ".probe")
        try:
            if to_file:
                probe_argv = [(probe if (i > 0 and argv[i - 1] in ("-o", "--lcov")) else a) for i, a in enumerate(argv)]
                with open(os.devnull, "wb") as out:
                    subprocess.run(self.java("256m") + probe_argv, stdout=out, stderr=subprocess.DEVNULL,
                                   timeout=self.args.timeout)
            else:
                with open(probe, "wb") as out:
                    subprocess.run(self.java("256m") + argv, stdout=out, stderr=subprocess.DEVNULL,
                                   timeout=self.args.timeout)
            has_output = os.path.exists(probe) and os.path.getsize(probe) > 0
        except subprocess.TimeoutExpired:
            has_output = True
        if to_file:
            full = [("/dev/full" if (i > 0 and argv[i - 1] in ("-o", "--lcov")) else a) for i, a in enumerate(argv)]
            return self.run("write-error", name, full, "256m", self.args.timeout, None, "/dev/null",
                            os.path.basename(base) + " -o /dev/full", has_output)
        if not has_output:
            return self.run("write-error", name, argv, "256m", self.args.timeout, None, os.devnull,
                            os.path.basename(base) + " (no output to lose)")
        return self.run("write-error", name, argv, "256m", self.args.timeout, None, "/dev/full",
                        os.path.basename(base) + " > /dev/full")

    # ---- links, devices, pipes, directories (tools/campaign/safety.py) ---------------------------
    def run_safety(self):
        import safety
        s = safety.Safety(self)
        cases = s.cases()
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            for f in [pool.submit(s.run, c) for c in cases]:
                f.result()

    # ---- huge inputs ---------------------------------------------------------------------------
    def run_big(self):
        size = self.args.big_bytes
        heap = self.args.big_heap
        timeout = self.args.big_timeout
        d = os.path.join(self.work, "big")
        os.makedirs(d)
        rand = os.path.join(d, "random.bin")
        with open(rand, "wb") as f:
            chunk = random.Random(self.args.seed).randbytes(1 << 20)
            for i in range(size >> 20):
                f.write(chunk[i % 7:] + chunk[:i % 7])  # not one repeating period: shifts per MiB
        ex = os.path.join(self.root, "examples")
        etm3 = os.path.join(ex, "etm3-a9-thumb")
        regs = ["--reg", "ETMCR=0x10001800", "--reg", "ETMIDR=0x410cf250", "--reg", "ETMCCER=0x004008f2"]
        runs = [
            ("random-etm2-last", ["decode", "--protocol", "etm2", "--trace", rand, "--image",
                                  os.path.join(ex, "etm2-arm926-thumb", "program.elf"), "--reg", "ETMCR=0x00001010",
                                  "--reg", "ETMIDR=0x41000110", "--last", "10"], None),
            ("random-etm3-last", ["decode", "--protocol", "etm3", "--trace", rand, "--image",
                                  os.path.join(etm3, "program.elf")] + regs + ["--last", "10"], None),
            ("random-ptm-stats", ["stats", "--protocol", "ptm", "--trace", rand, "--image",
                                  os.path.join(etm3, "program.elf"), "--reg", "ETMCR=0x20000400", "--reg",
                                  "ETMIDR=0x411CF312", "--reg", "ETMCCER=0x34C01AC2"], None),
            ("random-mtb-last", ["decode", "--protocol", "mtb", "--trace", rand, "--image",
                                 os.path.join(ex, "mtb-m0plus", "program.elf"), "--reg", "POSITION=0x20000000",
                                 "--reg", "MASTER=0x8000001f", "--reg", "BASE=0x20000000", "--last", "10"], None),
        ]
        # software trace: random bytes as ITM and STM, and a valid SWO capture (the ITM encoder's output for a
        # run of events, repeated) through the console and the decoder
        runs += [("random-itm-last", ["decode", "--protocol", "itm", "--trace", rand, "--last", "10"], None),
                 ("random-stm-last", ["decode", "--protocol", "stm", "--trace", rand, "--last", "10"], None)]
        events = os.path.join(d, "events.txt")
        with open(events, "w") as f:
            for i in range(4000):
                f.write('port %d "line %d\\n"\npc 0x%x\nexception %d exit\nlts %d\ntimestamp %d\n'
                        % (i % 3, i, 0x08000000 + 4 * i, 16 + i % 40, 1 + i % 6, 1000 * i))
        stretch = os.path.join(d, "stretch.swo")
        subprocess.run(self.java("256m") + ["encode", "--protocol", "itm", "--events", events, "-o", stretch],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        swo = os.path.join(d, "capture.swo")
        unit = open(stretch, "rb").read()
        with open(swo, "wb") as f:
            for _ in range(size // len(unit) + 1):
                f.write(unit)
        runs += [("swo-itm-console", ["itm", "--trace", swo, "--port", "0,1,2", "-o", os.path.join(d, "console.txt")],
                  os.path.join(d, "console.txt")),
                 ("swo-itm-last", ["decode", "--protocol", "itm", "--trace", swo, "--last", "10"], None)]
        tc2 = os.path.normpath(os.path.join(self.root, "conformance", "TC2"))
        if os.path.isdir(tc2):
            snap = os.path.join(d, "tc2")
            copy_snapshot(tc2, snap)
            buf = open(os.path.join(tc2, "cstrace.bin"), "rb").read()
            with open(os.path.join(snap, "cstrace.bin"), "wb") as f:
                for _ in range(size // len(buf)):
                    f.write(buf)
            runs += [("formatted-deformat", ["deformat", os.path.join(snap, "cstrace.bin"), "--source", "0x10", "-o",
                                             os.path.join(d, "raw.bin")], os.path.join(d, "raw.bin")),
                     ("formatted-info", ["info", snap], None),
                     ("formatted-decode-last", ["decode", snap, "--source", "0x13", "--last", "10"], None)]
            dump = os.path.join(d, "tc2dump")
            copy_snapshot(tc2, dump)
            for f in os.listdir(dump):
                p = os.path.join(dump, f)
                if f.endswith(".ini"):
                    text = open(p, encoding="latin-1").read()
                    open(p, "w", encoding="latin-1").write(re.sub(r"(?m)^length=.*$", "", text))
            with open(os.path.join(dump, "kernel_dump.bin"), "r+b") as f:
                f.truncate(size)  # sparse: the kernel, then zeros
            runs += [("raw-image-info", ["info", dump], None),
                     ("raw-image-decode", ["decode", dump, "--source", "0x10", "--last", "10"], None)]
        bigimg = os.path.join(d, "image.bin")
        with open(bigimg, "wb") as f:
            f.write(open(os.path.join(ex, "ptm-a15", "mem_Cortex-A15_0_1_RO_CODE.bin"), "rb").read())
            f.truncate(size)
        runs.append(("raw-image-option", ["decode", "--protocol", "ptm", "--trace", os.path.join(ex, "ptm-a15", "PTM_0_2.bin"),
                                          "--image", bigimg + "@0x80000000", "--reg", "ETMCR=0x20000400",
                                          "--reg", "ETMIDR=0x411CF312", "--reg", "ETMCCER=0x34C01AC2", "--last", "10"], None))
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            for f in [pool.submit(self.run, "huge", n, a, heap, timeout, m, os.devnull, "%d bytes, -Xmx%s" % (size, heap))
                      for n, a, m in runs]:
                f.result()

    def report(self):
        cats = ["exit 0", "exit 1", "exit 2", "exit 141", "exit other", "timeout"]
        probs = ["stack-trace", "oom", "hang", "silent-success", "clobbered", "leaked", "wrong-exit", "leftover", "mode"]
        short = {"silent-success": "silent", "stack-trace": "stack", "clobbered": "clobber", "wrong-exit": "badexit",
                 "leftover": "leftovr"}
        rows = collections.OrderedDict()
        for group, name, exitc, problems, _, _ in self.results:
            # the safety cases are many: one row per group and command, not per case
            key = (group, name.split(" ")[0] if group not in ("mutant", "write-error", "huge") else name)
            r = rows.setdefault(key, collections.Counter())
            r["runs"] += 1
            r[exitc] += 1
            for p in problems:
                r[p if p in probs else "stack-trace"] += 1
        head = ["group", "command", "runs"] + cats + probs
        print("%-12s %-22s" % tuple(head[:2]) + "".join("%8s" % short.get(h, h.replace("exit ", "ex"))[:8]
                                                      for h in head[2:]))
        total = collections.Counter()
        for (group, name), r in sorted(rows.items()):
            total.update(r)
            print("%-12s %-22s" % (group, name[:22]) + "".join("%8d" % r[h] for h in head[2:]))
        print("%-12s %-22s" % ("all", "") + "".join("%8d" % total[h] for h in head[2:]))
        huge = [x for x in self.results if x[0] == "huge"]
        if huge:
            print("\nhuge inputs:")
            for group, name, exitc, problems, detail, first in huge:
                print("  %-24s %-8s %s" % (name, exitc, detail.split("] ", 1)[-1].split(":", 1)[0]))
        pipes = [x for x in self.results if x[0] == "pipe"]
        if pipes:
            print("\nreader gone after one line (time from start to exit):")
            for group, name, exitc, problems, detail, first in pipes:
                seconds = detail.split(": ", 1)[0].rsplit(" ", 1)[-1]
                print("  %-34s %-8s %s" % (name, exitc, seconds))
        bad = [x for x in self.results if x[3]]
        print("\n%d cases: %d stack traces, %d hangs, %d silent successes, %d clobbered files, %d out of memory, "
              "%d leaks, %d wrong exit codes, %d left-over temporary files, %d wrong modes" % (
                  len(self.results), total["stack-trace"], total["hang"], total["silent-success"], total["clobbered"],
                  total["oom"], total["leaked"], total["wrong-exit"], total["leftover"], total["mode"]))
        if bad:
            print("\nproblems (%d runs):" % len(bad))
            for group, name, exitc, problems, detail, first in bad[:80]:
                print("  %s %s\n      %s" % (",".join(problems), detail, first))
        return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutants", type=int, default=16, help="mutated snapshots (each runs every command)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run on a mutant")
    ap.add_argument("--big-bytes", type=int, default=1 << 30, help="size of each huge input (0: none)")
    ap.add_argument("--big-heap", default="64m")
    ap.add_argument("--big-timeout", type=float, default=600)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--safety-fraction", type=float, default=1.0,
                    help="share of the many snapshot-input and -o cases of safety.py to run (seeded sample)")
    ap.add_argument("--no-safety", action="store_true",
                    help="leave out the links, devices, pipes and output directories of safety.py")
    args = ap.parse_args()
    c = Campaign(args)
    try:
        t0 = time.time()
        c.run_mutants()
        if not args.no_safety:
            c.run_safety()
        if args.big_bytes > 0:
            c.run_big()
        rc = c.report()
        print("\nseed %d, %d runs in %.0f s" % (args.seed, len(c.results), time.time() - t0))
        return rc
    finally:
        if args.keep:
            print("work directory: " + c.work)
        else:
            shutil.rmtree(c.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
