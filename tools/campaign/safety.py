"""Data-safety cases of the bad-input campaign: files that are not plain files, where armtrace reads and writes.

Inputs: a file of a snapshot (snapshot.ini, trace.ini, device files, trace buffers, dumps, ELF files) or of the
command line (--trace, --image, deformat's buffer, merge inputs, encode's execution) replaced by a named pipe
with no writer, a link to /dev/zero or /dev/null, a directory, a dangling link, a link loop, a link to a file
outside the snapshot (a copy of the right file, or someone's secrets), with and without --confine.
Outputs: -o (and --lcov) naming a link to a file, a dangling link, a chain of links, a link loop, /dev/null, a
link to the standard output descriptor, a named pipe with a reader, a directory, a hard or symbolic link to one
of the command's inputs, a name of 249 characters; encode --snapshot-out naming a missing, empty, non-empty,
snapshot-holding, linked, input-holding directory, a file or a pipe, with and without --force, and a replacement
that fails half way (file size limit). Pipes whose reader goes away after one line, --help and --version into
a full output, a full temporary directory while decoding in parallel or in pieces, numbers in other scripts'
digits, negative registers and merge counts that overflow.

Each case says which exit codes are right and which files must not change. A run is a problem when it hangs,
prints a stack trace, runs out of memory, exits 0 where it must fail or without writing what it must
(silent success), exits with a code the case does not allow, changes a file it must leave alone (clobbered:
content, kind, or a link replaced by a file), repeats a secret file's text (leaked), leaves a temporary file
behind, or makes a directory with another mode than the umask gives.
"""
import dataclasses
import gzip
import hashlib
import os
import random
import resource
import shutil
import stat
import subprocess
import threading
import time


@dataclasses.dataclass
class Case:
    group: str
    name: str
    argv: list
    expect: tuple                      # exit codes that are right
    watch: list = dataclasses.field(default_factory=list)  # paths that must not change
    must_write: str = None             # a file that must exist, non-empty, after an exit 0
    secret: str = None                 # text that must not appear in the output or the messages
    stdout: str = "devnull"            # devnull, full, head (a pipe closed after one line), or a path
    jvm: list = dataclasses.field(default_factory=list)
    fsize: int = None                  # RLIMIT_FSIZE in bytes (a full disk for files)
    err_has: str = None                # text the messages must contain
    check: object = None               # callable() -> list of problem names, after the run
    before: object = None              # callable() run just before the command (e.g. a pipe's reader)
    after: object = None               # callable() run after the command and its checks (cleanup)
    work: str = None                   # directory to search for left-over temporary files


def state(path):
    """What a path is now: kind, link target, content digest; a directory's entries one level down."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("missing",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            return ("file", hashlib.sha256(f.read()).hexdigest(), stat.S_IMODE(st.st_mode))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", stat.S_IMODE(st.st_mode),
                tuple((n, state(os.path.join(path, n))) for n in sorted(os.listdir(path))))
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo",)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return ("device", st.st_rdev)
    return ("other", stat.S_IFMT(st.st_mode))


def leftovers(directory):
    """Hidden temporary files or directories armtrace names .NAME.RANDOM.part/.new/.old, anywhere below."""
    found = []
    for root, dirs, files in os.walk(directory):
        for n in dirs + files:
            if n.startswith(".") and n.endswith((".part", ".new", ".old")):
                found.append(os.path.join(root, n))
    return found


def umask_mode():
    old = os.umask(0)
    os.umask(old)
    return 0o777 & ~old


class Safety:
    def __init__(self, campaign):
        self.c = campaign
        self.root = campaign.root
        self.work = os.path.join(campaign.work, "safety")
        os.makedirs(self.work)
        self.n = 0
        self.ex = os.path.join(self.root, "examples")
        self.tc2 = os.path.join(self.root, "conformance", "TC2")
        self.secret = "root:x:0:0:%016x:/root:/bin/bash" % random.Random(campaign.args.seed).getrandbits(64)
        self.secret_file = os.path.join(self.work, "passwd")
        with open(self.secret_file, "w") as f:
            f.write(self.secret + "\nsecond:x:1:1::/:/bin/false\n")
        gt = os.path.join(self.root, "core", "src", "test", "resources", "groundtruth")
        self.exec = os.path.join(gt, "m0plus.exec.gz")
        self.elf = os.path.join(self.work, "m0plus.elf")
        with gzip.open(os.path.join(gt, "m0plus.elf.gz")) as f, open(self.elf, "wb") as out:
            out.write(f.read())

    # ---- building blocks -----------------------------------------------------------------------
    def case_dir(self):
        self.n += 1
        d = os.path.join(self.work, "c%04d" % self.n)
        os.makedirs(d)
        return d

    def copy(self, src, d, name="snap"):
        dst = os.path.join(d, name)
        os.makedirs(dst)
        for f in sorted(os.listdir(src)):
            p = os.path.join(src, f)
            if os.path.isfile(p) and not f.startswith(("README", "LICENSE")):
                shutil.copyfile(p, os.path.join(dst, f))
        return dst

    def make(self, path, kind, original=None):
        """Puts a thing of `kind` at `path` (which does not exist)."""
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev-zero":
            os.symlink("/dev/zero", path)
        elif kind == "dev-null":
            os.symlink("/dev/null", path)
        elif kind == "dir":
            os.makedirs(path)
        elif kind == "dangling-link":
            os.symlink("no-such-file", path)
        elif kind == "link-loop":
            os.symlink(os.path.basename(path) + ".loop", path)
            os.symlink(os.path.basename(path), path + ".loop")
        elif kind == "link-secret":
            os.symlink(self.secret_file, path)
        elif kind == "link-outside":
            outside = os.path.join(os.path.dirname(os.path.dirname(path)), "outside-" + os.path.basename(path))
            shutil.copyfile(original, outside)
            os.symlink(outside, path)
        elif kind == "link-inside":
            inside = path + ".real"
            shutil.copyfile(original, inside)
            os.symlink(os.path.basename(inside), path)
        else:
            raise ValueError(kind)

    # ---- the cases -----------------------------------------------------------------------------
    def cases(self):
        """Every case; the many snapshot-input and -o cases sampled (seeded) down to --safety-fraction of them."""
        rng = random.Random(self.c.args.seed)
        frac = self.c.args.safety_fraction
        out = []
        out += [c for c in self.snapshot_inputs() if frac >= 1 or rng.random() < frac]
        out += self.command_line_inputs()
        out += [c for c in self.outputs() if frac >= 1 or rng.random() < frac]
        out += self.snapshot_out()
        out += self.pipes_and_full()
        out += self.numbers_and_counts()
        return out

    def snapshot_inputs(self):
        """A file of a snapshot replaced by something that is not that file."""
        out = []
        files = [(os.path.join(self.ex, "mtb-m0plus"),
                  ["snapshot.ini", "trace.ini", "mtb_0.ini", "cpu_0.ini", "mtb_sram.bin", "program.elf",
                   "flash_0x00000000.bin"]),
                 (os.path.join(self.ex, "ptm-a15"), ["trace.ini", "device1.ini", "PTM_0_2.bin",
                                                      "mem_Cortex-A15_0_1_RO_CODE.bin"])]
        kinds = ["fifo", "dev-zero", "dev-null", "dir", "dangling-link", "link-loop", "link-secret", "link-outside",
                 "link-inside"]
        for base, names in files:
            for name in names:
                for kind in kinds:
                    d = self.case_dir()
                    snap = self.copy(base, d)
                    original = os.path.join(snap, name)
                    kept = os.path.join(d, "original-" + name)
                    shutil.move(original, kept)
                    self.make(original, kind, kept)
                    for cmd in (["info", snap], ["decode", snap, "--jobs", "1"], ["decode", snap, "--confine"]):
                        confine = "--confine" in cmd
                        if kind == "link-inside" or (kind == "link-outside" and not confine):
                            expect = (0,)
                        elif kind == "link-secret" and not confine and name.endswith((".bin", ".elf")):
                            # someone's text read as trace or raw memory (a dump named .elf that is no ELF file is
                            # raw memory): gaps, not a mistake
                            expect = (0, 2)
                        else:
                            expect = (2,)
                        group = {"fifo": "fifo-in", "dev-zero": "device-in", "dev-null": "device-in",
                                 "dir": "dir-in"}.get(kind, "link-in")
                        out.append(Case(group, "%s %s %s" % (cmd[0] + (" --confine" if confine else ""), name, kind),
                                        cmd, expect, watch=[snap, self.secret_file], secret=self.secret, work=d))
        return out

    def command_line_inputs(self):
        out = []
        mtb = os.path.join(self.ex, "mtb-m0plus")
        regs = ["--reg", "POSITION=0x200039d4", "--reg", "MASTER=0x80000008", "--reg", "BASE=0x20002000"]
        for kind in ["fifo", "dev-zero", "dev-null", "dir", "dangling-link", "link-loop", "link-secret"]:
            d = self.case_dir()
            x = os.path.join(d, "input")
            self.make(x, kind)
            folded = os.path.join(d, "ok.folded")
            with open(folded, "w") as f:
                f.write("main;work 3\n")
            o = os.path.join(d, "out")
            group = {"fifo": "fifo-in", "dev-zero": "device-in", "dev-null": "device-in", "dir": "dir-in"}.get(kind, "link-in")
            argvs = [
                ("--trace", ["decode", "--protocol", "mtb", "--trace", x, "--image", os.path.join(mtb, "program.elf")] + regs),
                ("--image", ["decode", "--protocol", "mtb", "--trace", os.path.join(mtb, "mtb_sram.bin"), "--image", x] + regs),
                ("--image@", ["decode", "--protocol", "mtb", "--trace", os.path.join(mtb, "mtb_sram.bin"), "--image",
                              x + "@0x0"] + regs),
                ("deformat", ["deformat", x, "--source", "0x10", "-o", o]),
                ("merge", ["merge", "--folded", folded, x, "-o", o]),
                ("encode", ["encode", "--protocol", "mtb", "--execution", x, "--image", self.elf, "-o", o]),
                ("snapshot", ["info", x]),
            ]
            for what, argv in argvs:
                expect = (2,)
                if kind == "link-secret" and what in ("--trace", "deformat", "--image@"):
                    expect = (0, 2)  # a text file read as trace or raw memory is not a mistake of the command line
                out.append(Case(group, "%s %s" % (what, kind), argv, expect, watch=[x, self.secret_file, folded],
                                secret=self.secret, work=d))
        return out

    def outputs(self):
        """-o and --lcov naming links, devices, pipes, directories, inputs and long names."""
        out = []
        mtb_src = os.path.join(self.ex, "mtb-m0plus")
        for kind in ["link-to-file", "dangling-link", "link-chain", "link-loop", "dev-null", "fd-link", "fifo-reader",
                     "directory", "hardlink-input", "symlink-input", "long-name", "existing-file"]:
            for cmd in ["decode", "packets", "info", "profile", "coverage", "callgraph", "report", "deformat", "encode",
                        "merge"]:
                d = self.case_dir()
                snap = self.copy(mtb_src, d)
                tc2buf = os.path.join(d, "cstrace.bin")
                shutil.copyfile(os.path.join(self.tc2, "cstrace.bin"), tc2buf)
                folded = os.path.join(d, "in.folded")
                with open(folded, "w") as f:
                    f.write("main;work 3\nmain 1\n")
                elf = os.path.join(d, "prog.elf")
                shutil.copyfile(self.elf, elf)
                inputs = {"decode": os.path.join(snap, "mtb_sram.bin"), "packets": os.path.join(snap, "mtb_sram.bin"),
                          "info": os.path.join(snap, "trace.ini"), "profile": os.path.join(snap, "program.elf"),
                          "coverage": os.path.join(snap, "program.elf"), "callgraph": os.path.join(snap, "mtb_0.ini"),
                          "report": os.path.join(snap, "snapshot.ini"), "deformat": tc2buf, "encode": elf,
                          "merge": folded}
                t = os.path.join(d, "out")
                real = os.path.join(d, "real")
                watch = [snap, tc2buf, folded, elf]
                checks = []
                expect = (0,)
                must = None
                stdout = "devnull"
                before = after = None
                if kind == "link-to-file":
                    with open(real, "w") as f:
                        f.write("old")
                    os.symlink("real", t)
                    must = real
                    checks.append(lambda t=t: [] if os.readlink(t) == "real" else ["clobbered"])
                    if cmd == "deformat":  # an existing file is replaced only with --force, through a link too
                        expect = (2,)
                        must = None
                        watch.append(real)
                elif kind == "dangling-link":
                    os.symlink("real", t)
                    must = real
                    checks.append(lambda t=t: [] if os.path.islink(t) else ["clobbered"])
                elif kind == "link-chain":
                    os.makedirs(os.path.join(d, "sub"))
                    os.symlink("sub/step", t)
                    os.symlink("../real", os.path.join(d, "sub", "step"))
                    must = real
                    watch.append(os.path.join(d, "sub"))
                    checks.append(lambda t=t: [] if os.readlink(t) == "sub/step" else ["clobbered"])
                elif kind == "link-loop":
                    os.symlink("out2", t)
                    os.symlink("out", os.path.join(d, "out2"))
                    expect = (2,)
                    watch += [t, os.path.join(d, "out2")]
                elif kind == "dev-null":
                    t = "/dev/null"
                    watch.append(t)
                elif kind == "fd-link":
                    os.symlink("/proc/self/fd/1", t)
                    stdout = os.path.join(d, "stdout.txt")
                    must = stdout
                    watch.append(t)
                elif kind == "fifo-reader":
                    os.mkfifo(t)
                    got = []
                    before, after = self.reader(t, got)
                    checks.append(lambda got=got: [] if got and got[0] > 0 else ["silent-success"])
                    watch.append(t)
                elif kind == "directory":
                    os.makedirs(t)
                    with open(os.path.join(t, "keep"), "w") as f:
                        f.write("mine")
                    expect = (2,)
                    watch.append(t)
                elif kind == "hardlink-input":
                    os.link(inputs[cmd], t)
                    expect = (2,)
                elif kind == "symlink-input":
                    os.symlink(inputs[cmd], t)
                    expect = (2,)
                    watch.append(t)
                elif kind == "long-name":
                    t = os.path.join(d, "a" * 249)
                    must = t
                elif kind == "existing-file":
                    with open(t, "w") as f:
                        f.write("old")
                    if cmd == "deformat":
                        expect = (2,)  # deformat replaces a file only with --force
                        watch.append(t)
                    else:
                        must = t
                        checks.append(lambda t=t: [] if open(t, "rb").read() != b"old" else ["silent-success"])
                argv = {
                    "decode": ["decode", snap, "-o", t],
                    "packets": ["packets", snap, "-o", t],
                    "info": ["info", snap, "-o", t],
                    "profile": ["profile", snap, "--folded", "-o", t],
                    "coverage": ["coverage", snap, "--lcov", t],
                    "callgraph": ["callgraph", snap, "-o", t],
                    "report": ["report", snap, "-o", t],
                    "deformat": ["deformat", tc2buf, "--source", "0x10", "-o", t],
                    "encode": ["encode", "--protocol", "mtb", "--execution", self.exec, "--image", elf, "-o", t],
                    "merge": ["merge", "--folded", folded, "-o", t],
                }[cmd]
                group = {"dev-null": "device-out", "fifo-reader": "fifo-out", "directory": "dir-out",
                         "long-name": "name-out", "existing-file": "file-out"}.get(kind, "link-out")
                out.append(Case(group, "%s -o %s" % (cmd, kind), argv, expect, watch=watch, must_write=must,
                                stdout=stdout, check=self.all_of(checks), before=before, after=after, work=d))
        return out

    def reader(self, fifo, got):
        """A reader for a named pipe: started before the command, counts the bytes; released if the command never opens it."""
        th = []

        def read():
            with open(fifo, "rb") as f:
                got.append(len(f.read()))

        def start():
            t = threading.Thread(target=read, daemon=True)
            t.start()
            th.append(t)

        def stop():
            try:  # a reader still waiting for a writer: open and close the pipe once
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            for t in th:
                t.join(10)
        return start, stop

    @staticmethod
    def all_of(checks):
        if not checks:
            return None
        return lambda: [p for c in checks for p in c()]

    def snapshot_out(self):
        out = []
        mode = umask_mode()
        base = ["encode", "--protocol", "mtb", "--execution", self.exec, "--image"]
        for kind in ["missing", "empty", "non-empty", "snapshot", "snapshot-force", "non-empty-force", "subdir-force",
                     "input-force", "link-force", "dangling-link", "file", "fifo", "dev-null", "force-fails"]:
            d = self.case_dir()
            elf = os.path.join(d, "prog.elf")
            shutil.copyfile(self.elf, elf)
            t = os.path.join(d, "snap")
            force = kind.endswith("-force") or kind == "force-fails"
            expect = (2,)
            watch = [elf]
            checks = []
            fsize = None
            err_has = None
            image = elf
            if kind in ("missing", "empty"):
                if kind == "empty":
                    os.makedirs(t)
                expect = (0,)
                checks.append(lambda t=t: [] if stat.S_IMODE(os.stat(t).st_mode) == mode else ["mode"])
            elif kind in ("non-empty", "non-empty-force"):
                os.makedirs(t)
                for n, text in (("trace_0.bin", "my trace"), ("trace.ini", "my notes")):
                    with open(os.path.join(t, n), "w") as f:
                        f.write(text)
                if force:
                    expect = (0,)
                    checks.append(lambda t=t: [] if open(os.path.join(t, "trace.ini")).read() != "my notes" else ["clobbered"])
                else:
                    watch.append(t)
            elif kind in ("snapshot", "snapshot-force", "link-force", "force-fails"):
                self.encode_into(t)
                with open(os.path.join(t, "stale.bin"), "w") as f:
                    f.write("older run")
                if kind == "snapshot":
                    watch.append(t)
                elif kind == "snapshot-force":
                    expect = (0,)
                    checks.append(lambda t=t: [] if not os.path.exists(os.path.join(t, "stale.bin")) else ["clobbered"])
                elif kind == "link-force":
                    link = os.path.join(d, "link")
                    os.symlink("snap", link)
                    t = link
                    expect = (0,)
                    checks.append(lambda link=link: [] if os.path.islink(link) else ["clobbered"])
                else:  # the new snapshot cannot be written whole: the old one must stay as it was
                    fsize = 1024
                    expect = (1,)
                    watch.append(t)
            elif kind == "subdir-force":
                os.makedirs(os.path.join(t, "projects"))
                with open(os.path.join(t, "notes.txt"), "w") as f:
                    f.write("mine")
                watch.append(t)
            elif kind == "input-force":
                os.makedirs(t)
                image = os.path.join(t, "prog.elf")
                shutil.copyfile(self.elf, image)
                watch.append(t)
            elif kind == "dangling-link":
                os.symlink("made", t)
                expect = (0,)
                checks.append(lambda t=t, d=d: [] if os.path.islink(t) and os.path.isfile(os.path.join(d, "made", "snapshot.ini"))
                              else ["clobbered"])
            elif kind == "file":
                with open(t, "w") as f:
                    f.write("a file")
                watch.append(t)
            elif kind == "fifo":
                os.mkfifo(t)
                watch.append(t)
            elif kind == "dev-null":
                t = "/dev/null"
                watch.append(t)
            argv = base + [image, "--snapshot-out", t] + (["--force"] if force else [])
            must = os.path.join(t, "snapshot.ini") if expect == (0,) else None
            out.append(Case("dir-out", "--snapshot-out %s" % kind, argv, expect, watch=watch, must_write=must,
                            check=self.all_of(checks), fsize=fsize, err_has=err_has, work=d))
        return out

    def encode_into(self, d):
        subprocess.run(self.c.java("256m") + ["encode", "--protocol", "mtb", "--execution", self.exec, "--image", self.elf,
                                              "--snapshot-out", d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, timeout=120)

    def big_tc2(self, copies):
        d = os.path.join(self.work, "tc2x%d" % copies)
        if not os.path.isdir(d):
            self.copy(self.tc2, self.work, "tc2x%d" % copies)
            with open(os.path.join(self.tc2, "cstrace.bin"), "rb") as f:
                buf = f.read()
            with open(os.path.join(d, "cstrace.bin"), "wb") as f:
                for _ in range(copies):
                    f.write(buf)
        return d

    def pipes_and_full(self):
        out = []
        tc2 = self.tc2
        big = self.big_tc2(max(64, min(2048, self.c.args.big_bytes // (32 << 10) // 4)))
        for name, argv in [("decode --insn", ["decode", tc2, "--jobs", "1", "--insn"]),
                           ("decode --jobs 2", ["decode", tc2, "--jobs", "2", "--insn"]),
                           ("decode jsonl", ["decode", tc2, "--format", "jsonl"]),
                           ("decode pieces", ["decode", tc2, "--source", "0x13", "--jobs", "2", "--chunk-size", "4K", "--insn"]),
                           ("packets", ["packets", tc2]),
                           ("decode big", ["decode", big, "--insn"]),
                           ("decode big jsonl", ["decode", big, "--format", "jsonl", "--jobs", "1"]),
                           ("packets big", ["packets", big]),
                           ("stats big", ["stats", big])]:
            expect = (0, 141) if name.startswith("stats") else (141,)  # stats prints a short table at the end
            out.append(Case("pipe", "%s | head -1" % name, argv, expect, stdout="head"))
        for argv in (["--help"], ["--version"], ["decode", "--help"], ["help", "encode"], ["man"],
                     ["completion", "bash"], ["encode", "--protocol", "etm3", "--list-options"]):
            out.append(Case("full", " ".join(argv) + " > /dev/full", argv, (1,), stdout="full"))
        for name, argv in [("decode --jobs 2", ["decode", tc2, "--jobs", "2", "--insn"]),
                           ("decode pieces", ["decode", self.big_tc2(800), "--source", "0x13", "--jobs", "2",
                                              "--chunk-size", "256K", "--insn"])]:
            d = self.case_dir()
            # at -Xmx64m the pieces waiting to be written keep at most 4 MiB of formatted output in memory together,
            # then spill to the temporary directory. A piece being written keeps nothing, so a piece spills only where
            # it passes 4 MiB while the one before it is still being decoded. Pieces of 64K with a listing per
            # instruction (about 7 MB each) had to be more than half done before the piece before them ended, and
            # the two threads' pieces, staggered by about half a piece, now and then never were: the decode rightly
            # succeeded and the case failed. Pieces of 256K (about 28 MB each, 14 of them) pass 4 MiB a seventh of
            # the way through, so with two threads some piece spills however the pieces are staggered.
            out.append(Case("full", "temporary directory full: " + name, argv, (1,),
                            jvm=["-Xmx64m", "-Djava.io.tmpdir=" + d],
                            fsize=64 << 10, err_has="temporary directory " + d, work=d,
                            check=lambda d=d: ["leftover"] if os.listdir(d) else []))
        return out

    def numbers_and_counts(self):
        out = []
        mtb = os.path.join(self.ex, "mtb-m0plus")
        ptm = os.path.join(self.ex, "ptm-a15")
        trace = os.path.join(ptm, "PTM_0_2.bin")
        code = os.path.join(ptm, "mem_Cortex-A15_0_1_RO_CODE.bin")
        raw = ["decode", "--protocol", "ptm", "--trace", trace]
        for name, argv in [
                ("image @full-width", raw + ["--image", code + "@0x\uff18\uff10\uff10\uff10"]),
                ("image @negative", raw + ["--image", code + "@-0x8000"]),
                ("--reg ETMCR=-1", raw + ["--reg", "ETMCR=-1"]),
                ("--reg ETMCR full-width", raw + ["--reg", "ETMCR=0x\uff11\uff10\uff10\uff10"]),
                ("--reg POSITION=-1", ["decode", "--protocol", "mtb", "--trace", os.path.join(mtb, "mtb_sram.bin"),
                                       "--reg", "POSITION=-1", "--reg", "MASTER=0x80000008"]),
                ("--jobs full-width", ["decode", ptm, "--jobs", "\uff12"]),
                ("--last Arabic-Indic", ["decode", ptm, "--last", "\u0665"]),
                ("--source full-width", ["decode", ptm, "--source", "\uff10x13"]),
                ("--from full-width", ["decode", ptm, "--from", "0x\uff18\uff10"]),
                ("--chunk-size full-width", ["decode", ptm, "--chunk-size", "\uff18M"]),
                ("encode option full-width", ["encode", "--protocol", "etm3", "--execution", self.exec, "--image", self.elf,
                                              "--stats", "--async-period=\uff11\uff12"])]:
            out.append(Case("numbers", name, argv, (2,)))
        for kind in ["regs -1", "regs full-width", "dump address -1"]:
            d = self.case_dir()
            snap = self.copy(mtb, d)
            p = os.path.join(snap, "mtb_0.ini" if kind.startswith("regs") else "cpu_0.ini")
            text = open(p).read()
            if kind == "regs -1":
                text = text.replace("POSITION=0x200039d4", "POSITION=-1")
            elif kind == "regs full-width":
                text = text.replace("POSITION=0x200039d4", "POSITION=0x\uff12\uff10\uff10\uff10")
            else:
                text = text.replace("address=0x00000000", "address=-1", 1)
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
            out.append(Case("numbers", "snapshot " + kind, ["decode", snap], (2,), watch=[snap], work=d))
        big = str((1 << 63) - 1)
        for name, files, kind in [
                ("lcov overflow", ["SF:x.c\nDA:3,%s\nend_of_record\n" % big] * 2, "--lcov"),
                ("lcov FNDA overflow", ["SF:x.c\nFNDA:%s,main\nend_of_record\n" % big] * 2, "--lcov"),
                ("lcov BRDA overflow", ["SF:x.c\nBRDA:1,0,0,%s\nend_of_record\n" % big] * 2, "--lcov"),
                ("lcov negative", ["SF:x.c\nDA:3,-1\nend_of_record\n"], "--lcov"),
                ("lcov full-width", ["SF:x.c\nDA:3,\uff11\nend_of_record\n"], "--lcov"),
                ("folded overflow", ["main;work %s\n" % big] * 2, "--folded"),
                ("folded negative", ["main -4\n"], "--folded"),
                ("folded too large", ["main 99999999999999999999\n"], "--folded")]:
            d = self.case_dir()
            paths = []
            for i, text in enumerate(files):
                p = os.path.join(d, "in%d" % i)
                with open(p, "w", encoding="utf-8") as f:
                    f.write(text)
                paths.append(p)
            o = os.path.join(d, "sum")
            out.append(Case("counts", "merge " + name, ["merge", kind] + paths + ["-o", o], (2,), watch=paths + [o], work=d))
        return out

    # ---- running -------------------------------------------------------------------------------
    def run(self, case):
        before = {p: state(p) for p in case.watch}
        if case.before:
            case.before()
        t0 = time.time()
        argv = self.c.java("256m", case.jvm + (["-XX:-UsePerfData"] if case.fsize else [])) + case.argv
        limit = None
        if case.fsize is not None:
            def limit():
                resource.setrlimit(resource.RLIMIT_FSIZE, (case.fsize, case.fsize))
        out_text = b""
        kept_going = False
        try:
            if case.stdout == "head":
                p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)
                err_chunks = []
                drain = threading.Thread(target=lambda: err_chunks.append(p.stderr.read()), daemon=True)
                drain.start()
                out_text = p.stdout.readline()
                p.stdout.close()  # the reader goes away, as head -1 does
                left = time.time()
                try:
                    p.wait(timeout=self.c.args.timeout)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                    raise subprocess.TimeoutExpired(argv, self.c.args.timeout)
                drain.join(10)
                rc, err = p.returncode, b"".join(err_chunks).decode("utf-8", "replace")
                kept_going = time.time() - left > 10
            else:
                target = {"devnull": os.devnull, "full": "/dev/full"}.get(case.stdout, case.stdout)
                with open(target, "wb") as o:
                    r = subprocess.run(argv, stdout=o, stderr=subprocess.PIPE, timeout=self.c.args.timeout,
                                       preexec_fn=limit)
                rc, err = r.returncode, r.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            rc, err = "timeout", (e.stderr or b"").decode("utf-8", "replace") if isinstance(e.stderr, bytes) else ""
        finally:
            if case.after:
                case.after()
        problems = []
        if rc == "timeout" or kept_going:
            problems.append("hang")
        if "OutOfMemoryError" in err or "armtrace: out of memory" in err:
            problems.append("oom")
        if self.c.stack.search(err):
            problems.append("stack-trace")
        if rc == 0 and 0 not in case.expect:
            problems.append("silent-success")
        elif rc != "timeout" and rc not in case.expect:
            problems.append("wrong-exit")
        if rc == 0 and case.must_write and (not os.path.isfile(case.must_write) or os.path.getsize(case.must_write) == 0):
            problems.append("silent-success")
        if rc == 141 and ("standard output" in err or "Exception" in err):
            problems.append("wrong-exit")  # a reader that went away is not worth a message
        if case.err_has and case.err_has not in err:
            problems.append("wrong-exit")
        for p, s in before.items():
            if state(p) != s:
                problems.append("clobbered")
        if case.secret and (case.secret in err or case.secret.split(":")[0] + ":x:" in err):
            problems.append("leaked")
        if case.check and rc != "timeout":
            try:
                problems += case.check()
            except OSError:
                problems.append("clobbered")  # what had to be there is not
            except Exception as e:  # the campaign's own mistake: shown, not hidden
                problems.append("check-failed:" + type(e).__name__)
        if case.work and leftovers(case.work):
            problems.append("leftover")
        exitc = "timeout" if rc == "timeout" else ("exit %d" % rc if rc in (0, 1, 2, 141) else "exit other")
        detail = "%s %s %.1fs: %s" % (case.group, case.name, time.time() - t0,
                                      " ".join(a if len(a) < 80 else a[:77] + "..." for a in case.argv))
        first = next((l for l in err.splitlines() if l.strip()), "")
        self.c.results.append((case.group, case.name, exitc, sorted(set(problems)), detail, first[:300]))
