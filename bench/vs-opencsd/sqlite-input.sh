#!/usr/bin/env bash
# Makes the large-footprint benchmark inputs: SQLite running a broad SQL workload, traced as PTM and ETMv3,
# with nothing repeated.
#
#   bench/vs-opencsd/sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH
#
# 1. takes SQLite's amalgamation (sqlite3.c, sqlite3.h) from the cache, or fetches it with `npm pack sqlite3`
#    (the npm package ships the amalgamation's tarball under deps/) into a scratch directory,
# 2. builds it with the workload (sqlite-workload.c beside this script) for A32 (-marm) or Thumb-2 (-mthumb),
#    static, with gcc-arm-linux-gnueabihf -O2 (glibc's own code is Thumb-2 either way),
# 3. runs it under qemu-arm -cpu cortex-a15 with the ground-truth logging plugin (tools/groundtruth/pctrace.c);
#    the log streams through a pipe into `VsOpenCsd encode-run`, which imports it as it comes, cuts it into
#    pieces of 2 million instructions and encodes each as PTM and as ETMv3 (the encoders' default options,
#    as `armtrace encode` uses them), until each trace reaches MB megabytes; then QEMU is stopped.
# Writes OUT_DIR/sqlite-ISA-ptm/ and OUT_DIR/sqlite-ISA-etm3/ (snapshots with opencsd.args for the C++
# driver, and input.txt: instructions, distinct code bytes executed, instructions per trace byte).
# Inputs are cached in CACHE (default ~/.cache/armtrace-bench) by ISA, size and the workload's checksum:
# making them takes about 1 minute per 20 million instructions (QEMU with the plugin), once.
#
# A condition-failed instruction that is not a branch is recorded as executed (the plugin log alone cannot
# tell; see tools/groundtruth/README.md): the trace is what an ETM would write for such an execution, and both
# decoders read the same bytes.
# Needs gcc-arm-linux-gnueabihf (with libc6-dev-armhf-cross), qemu-user, gcc, a JDK 17; npm the first time.
set -euo pipefail
out=${1:?usage: sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH}
isa=${2:?usage: sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH}
mb=${3:?usage: sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH}
cp=${4:?usage: sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/armtrace-bench}
say() { printf '%s\n' "$*" >&2; }
case "$isa" in arm|thumb) ;; *) say "sqlite-input.sh: the ISA is arm or thumb, not '$isa'"; exit 2 ;; esac

missing=()
for tool in arm-linux-gnueabihf-gcc qemu-arm gcc java; do
  command -v $tool >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "sqlite-input.sh: missing ${missing[*]} (Debian: apt-get install gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user gcc)"
  exit 2
fi
mkdir -p "$cache"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/armtrace-sqlite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 1. the amalgamation
src=$cache/sqlite
if [ ! -f "$src/sqlite3.c" ] || [ ! -f "$src/sqlite3.h" ]; then
  if ! command -v npm >/dev/null; then
    say "sqlite-input.sh: needs SQLite's amalgamation: install npm (Debian: apt-get install npm), or put sqlite3.c and sqlite3.h in $src"
    exit 2
  fi
  say "fetching SQLite's amalgamation (npm pack sqlite3@6.0.1)..."
  (cd "$tmp" && npm pack --silent sqlite3@6.0.1 >/dev/null 2>"$tmp/npm.err") ||
    { say "sqlite-input.sh: npm pack sqlite3 failed ($(head -c 200 "$tmp/npm.err")); put sqlite3.c and sqlite3.h in $src instead"; exit 2; }
  tar -xzf "$tmp"/sqlite3-*.tgz -C "$tmp" package/deps
  tar -xzf "$tmp"/package/deps/sqlite-autoconf-*.tar.gz -C "$tmp"
  mkdir -p "$src"
  cp "$tmp"/sqlite-autoconf-*/sqlite3.c "$tmp"/sqlite-autoconf-*/sqlite3.h "$src/"
fi

# 2. the program
defs="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE
  -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_STAT4 -DSQLITE_DEFAULT_MEMSTATUS=0"
lib=$cache/sqlite3-$isa-$(echo "$defs" | cat - "$src/sqlite3.c" | cksum | cut -d" " -f1).o
if [ ! -f "$lib" ]; then
  say "compiling SQLite for $isa (about 2 minutes)..."
  # shellcheck disable=SC2086
  arm-linux-gnueabihf-gcc -O2 -m$isa -g -c $defs -o "$lib.part" "$src/sqlite3.c"
  mv "$lib.part" "$lib"
fi
key=$(cat "$lib" "$here/sqlite-workload.c" | cksum | cut -d' ' -f1)
build=$cache/build-$isa-$key
if [ ! -f "$build/sqlite.elf" ]; then
  mkdir -p "$build.part"
  arm-linux-gnueabihf-gcc -O2 -m$isa -g -static -I "$src" -o "$build.part/sqlite.elf" "$here/sqlite-workload.c" "$lib" -lm
  rm -rf "$build" && mv "$build.part" "$build"
fi

# 3. the traces
made=$cache/inputs-$isa-$key-${mb}MB
if [ ! -f "$made/sqlite-$isa-ptm/trace_0.bin" ] || [ ! -f "$made/sqlite-$isa-etm3/trace_0.bin" ]; then
  say "running SQLite ($isa) under QEMU and encoding its execution to $mb MB of PTM and of ETMv3..."
  gcc -O2 -fPIC -shared -o "$tmp/libpctrace.so" "$repo/tools/groundtruth/pctrace.c"
  mkfifo -m 600 "$tmp/log"
  rm -rf "$made.part" && mkdir -p "$made.part"
  # a fixed working directory and program path: glibc's start-up reads the program's path, whose length
  # changes the instructions it runs
  (cd "$build" && exec env -i qemu-arm -cpu cortex-a15 -plugin "$tmp/libpctrace.so" -d plugin -D "$tmp/log" \
      ./sqlite.elf 100000 >/dev/null 2>&1) &
  qemu=$!
  java -Xmx3g -cp "$cp" io.armtrace.bench.VsOpenCsd encode-run "$made.part" "$build/sqlite.elf" Cortex-A15 \
      "sqlite-$isa" $((mb * 1000000)) 2000000 < "$tmp/log" 2> "$tmp/encode.err" ||
    { kill "$qemu" 2>/dev/null || true; say "sqlite-input.sh: encoding failed: $(tail -c 400 "$tmp/encode.err")"; exit 1; }
  kill "$qemu" 2>/dev/null || true   # once both traces are long enough the rest of the run is not needed
  wait "$qemu" 2>/dev/null || true
  rm -rf "$made" && mv "$made.part" "$made"
fi
for p in ptm etm3; do
  rm -rf "$out/sqlite-$isa-$p"
  mkdir -p "$out/sqlite-$isa-$p"
  ln -s "$made/sqlite-$isa-$p"/* "$out/sqlite-$isa-$p/"
  sed 's/^/  /' "$out/sqlite-$isa-$p/input.txt" >&2
done
