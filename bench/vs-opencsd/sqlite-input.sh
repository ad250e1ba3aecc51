#!/usr/bin/env bash
# Makes the large-footprint benchmark inputs: SQLite running a broad SQL workload, traced as PTM and ETMv3,
# with nothing repeated.
#
#   bench/vs-opencsd/sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH [LEVELS]
#
# With LEVELS (for example "O0 O1 O2 Os"), the program is SQLite built once per optimisation level and linked
# into one image (each build's global symbols renamed with the level as prefix), whose main runs the workload
# one statement at a time on every build in turn (workload_step in sqlite-workload.c, with tables a fifth the
# size): the builds' code is different code at different addresses, so the executed code spans the levels'
# footprints added up (over 1 MB), every part of the trace holds code of every build, and nothing is
# repeated. Those inputs are OUT_DIR/sqlite-mix-ISA-ptm/ and sqlite-mix-ISA-etm3/, both of the same
# instructions: MB is the PTM trace's size, the ETMv3 trace is about three times larger.
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
usage="usage: sqlite-input.sh OUT_DIR arm|thumb MB CLASSPATH [LEVELS]"
out=${1:?$usage}
isa=${2:?$usage}
mb=${3:?$usage}
cp=${4:?$usage}
levels=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/armtrace-bench}
say() { printf '%s\n' "$*" >&2; }
case "$isa" in arm|thumb) ;; *) say "sqlite-input.sh: the ISA is arm or thumb, not '$isa'"; exit 2 ;; esac
for level in $levels; do
  case "$level" in O0|O1|O2|O3|Os|Og) ;; *) say "sqlite-input.sh: '$level' is not an optimisation level (O0 O1 O2 O3 Os Og)"; exit 2 ;; esac
done

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
libsum=$(echo "$defs" | cat - "$src/sqlite3.c" | cksum | cut -d" " -f1)
if [ -z "$levels" ]; then
  name=sqlite-$isa
  lib=$cache/sqlite3-$isa-$libsum.o
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
  args=100000
  same=""
else
  name=sqlite-mix-$isa
  command -v arm-linux-gnueabihf-objcopy >/dev/null || { say "sqlite-input.sh: missing arm-linux-gnueabihf-objcopy (binutils-arm-linux-gnueabihf)"; exit 2; }
  parts=()
  for level in $levels; do
    # one build of SQLite and the workload per level, linked into one object whose globals are renamed LEVEL_name
    part=$cache/sqlite3-$isa-$level-$(cat "$here/sqlite-workload.c" | cksum | cut -d" " -f1)-$libsum.o
    if [ ! -f "$part" ]; then
      say "compiling SQLite for $isa at -$level (1 to 4 minutes)..."
      # shellcheck disable=SC2086
      arm-linux-gnueabihf-gcc -$level -m$isa -c $defs -o "$tmp/lib.o" "$src/sqlite3.c"
      arm-linux-gnueabihf-gcc -$level -m$isa -c -DWORKLOAD_NO_MAIN -I "$src" -o "$tmp/workload.o" "$here/sqlite-workload.c"
      arm-linux-gnueabihf-ld -r -o "$tmp/part.o" "$tmp/lib.o" "$tmp/workload.o"
      arm-linux-gnueabihf-nm -g --defined-only "$tmp/part.o" | awk -v p="${level}_" 'NF == 3 { print $3, p $3 }' > "$tmp/rename"
      arm-linux-gnueabihf-objcopy --redefine-syms="$tmp/rename" "$tmp/part.o" "$part.part"
      mv "$part.part" "$part"
    fi
    parts+=("$part")
  done
  {
    echo '/* made by sqlite-input.sh: the workload on each build of SQLite in turn, one statement at a time */'
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo 'struct workload;'
    for level in $levels; do
      echo "struct workload *${level}_workload_open(int);"
      echo "void ${level}_workload_step(struct workload *);"
      echo "unsigned long long ${level}_workload_checksum(void);"
    done
    echo 'int main(int argc, char **argv) {'
    echo '    long steps = argc > 1 ? atol(argv[1]) : 100;'
    n=0
    for level in $levels; do
      # each build starts at another round, so the builds work on different data
      echo "    struct workload *w$n = ${level}_workload_open($((n * 1000)));"
      n=$((n + 1))
    done
    echo '    for (long s = 0; s < steps; s++) {'
    n=0
    for level in $levels; do echo "        ${level}_workload_step(w$n);"; n=$((n + 1)); done
    echo '    }'
    printf '    printf("%%ld steps, checksum %%llx\\n", steps, 0ULL'
    for level in $levels; do printf ' ^ %s_workload_checksum()' "$level"; done
    echo ');'
    echo '    return 0;'
    echo '}'
  } > "$tmp/mix.c"
  key=$(cat "${parts[@]}" "$tmp/mix.c" | cksum | cut -d' ' -f1)
  build=$cache/build-mix-$isa-$key
  if [ ! -f "$build/sqlite.elf" ]; then
    mkdir -p "$build.part"
    cp "$tmp/mix.c" "$build.part/mix.c"
    arm-linux-gnueabihf-gcc -O2 -m$isa -static -o "$build.part/sqlite.elf" "$build.part/mix.c" "${parts[@]}" -lm
    rm -rf "$build" && mv "$build.part" "$build"
  fi
  args=100000000
  same=same-run
fi

# 3. the traces
made=$cache/inputs-$name-$key-${mb}MB${same:+-$same}
if [ ! -f "$made/$name-ptm/trace_0.bin" ] || [ ! -f "$made/$name-etm3/trace_0.bin" ]; then
  say "running $name under QEMU and encoding its execution to $mb MB of PTM and of ETMv3..."
  gcc -O2 -fPIC -shared -o "$tmp/libpctrace.so" "$repo/tools/groundtruth/pctrace.c"
  mkfifo -m 600 "$tmp/log"
  rm -rf "$made.part" && mkdir -p "$made.part"
  # a fixed working directory and program path: glibc's start-up reads the program's path, whose length
  # changes the instructions it runs
  (cd "$build" && exec env -i qemu-arm -cpu cortex-a15 -plugin "$tmp/libpctrace.so" -d plugin -D "$tmp/log" \
      ./sqlite.elf $args >/dev/null 2>&1) &
  qemu=$!
  java -Xmx3g -cp "$cp" io.armtrace.bench.VsOpenCsd encode-run "$made.part" "$build/sqlite.elf" Cortex-A15 \
      "$name" $((mb * 1000000)) 2000000 $same < "$tmp/log" 2> "$tmp/encode.err" ||
    { kill "$qemu" 2>/dev/null || true; say "sqlite-input.sh: encoding failed: $(tail -c 400 "$tmp/encode.err")"; exit 1; }
  kill "$qemu" 2>/dev/null || true   # once both traces are long enough the rest of the run is not needed
  wait "$qemu" 2>/dev/null || true
  rm -rf "$made" && mv "$made.part" "$made"
fi
for p in ptm etm3; do
  rm -rf "$out/$name-$p"
  mkdir -p "$out/$name-$p"
  ln -s "$made/$name-$p"/* "$out/$name-$p/"
  sed 's/^/  /' "$out/$name-$p/input.txt" >&2
done
