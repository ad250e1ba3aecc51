#!/usr/bin/env bash
# Makes the ETMv4 benchmark input: an encoder-made A64 trace of about 50 MB, as a snapshot directory.
#
#   bench/vs-opencsd/etm4-input.sh OUT_DIR [MB]
#
# 1. writes a large-footprint C program (1,500 functions of different sizes, reached through a table
#    of function pointers in a pseudo-random order, with switches, loops and calls among themselves),
# 2. builds it static with gcc-aarch64-linux-gnu -O2 and runs it under qemu-aarch64 with the
#    ground-truth logging plugin (tools/groundtruth/pctrace.c), about 2 million instructions,
# 3. imports the log as an execution record and encodes it with `armtrace encode --protocol etm4`
#    (no return stack, exact matches on, the default sync period),
# 4. repeats the trace bytes until they reach MB megabytes (default 50): every copy starts with its
#    own A-sync and Trace Info, so the stream is valid ETMv4 and decodes as the run repeated.
# Writes OUT_DIR (snapshot: trace_0.bin, registers, memory) and OUT_DIR/input.txt (the facts: code
# footprint, instructions of one run, bytes of one run, instructions per trace byte).
# Needs gcc-aarch64-linux-gnu, qemu-user, gcc, a JDK 17 and Maven (Debian packages; nothing is fetched).
set -euo pipefail
out=${1:?usage: etm4-input.sh OUT_DIR [MB]}
mb=${2:-50}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tool in aarch64-linux-gnu-gcc qemu-aarch64 gcc java; do
  command -v $tool >/dev/null || { echo "etm4-input.sh: $tool is missing" >&2; exit 2; }
done
# the jar: ARMTRACE_JAR (run.sh passes the one it built in its scratch directory), else the clone's, built when needed
if [ -n "${ARMTRACE_JAR:-}" ]; then
  jar=$ARMTRACE_JAR
else
  "$repo/armtrace" --version >/dev/null
  jar=$repo/core/target/armtrace.jar
fi

python3 - "$work/big.c" <<'PY'
import random, sys
r = random.Random(2026)
n = 1500
f = open(sys.argv[1], "w")
f.write("#include <stdio.h>\ntypedef unsigned (*fn)(unsigned);\nextern fn table[%d];\n" % n)
for i in range(n):
    f.write("__attribute__((noinline)) unsigned f%d(unsigned x) {\n  unsigned y = x * %du + %du;\n" % (i, r.randrange(3, 999, 2), r.randrange(1000)))
    for k in range(r.randrange(1, 6)):
        f.write("  switch ((y >> %d) & 3) { case 0: y += %du; break; case 1: y ^= y >> %d; break; "
                "case 2: y = y * %du + 1; break; default: y -= %du; }\n" % (r.randrange(8), r.randrange(999), r.randrange(1, 9), r.randrange(3, 99, 2), r.randrange(99)))
    if r.random() < 0.5:
        f.write("  for (unsigned k = 0; k < (y & 7); k++) y += k * %du;\n" % r.randrange(1, 50))
    if i > 0 and r.random() < 0.4:
        f.write("  if (y & 1) y += f%d(y >> 3);\n" % r.randrange(max(0, i - 50), i))
    f.write("  return y;\n}\n")
f.write("fn table[%d] = {%s};\n" % (n, ", ".join("f%d" % i for i in range(n))))
f.write("int main(void) {\n  unsigned s = 1;\n  for (unsigned i = 0; i < 24000; i++) {\n"
        "    s = s * 1103515245u + 12345u;\n    s += table[(s >> 8) %% %d](s);\n  }\n  printf(\"%%u\\n\", s);\n  return 0;\n}\n" % n)
PY
aarch64-linux-gnu-gcc -O2 -g -static -o "$work/big.elf" "$work/big.c"
gcc -O2 -fPIC -shared -o "$work/libpctrace.so" "$repo/tools/groundtruth/pctrace.c"
env -i qemu-aarch64 -cpu cortex-a57 -singlestep -plugin "$work/libpctrace.so" -d plugin -D "$work/big.log" "$work/big.elf" >/dev/null
java -Xmx2g -cp "$jar" io.armtrace.execution.ImportQemuLog --profile AR --core cortex-a57 --el 0 \
    --security non-secure --image "$work/big.elf" -o "$work/big.exec.gz" "$work/big.log" >/dev/null
rm -f "$work/big.log"
rm -rf "$out"
mkdir -p "$(dirname "$out")"
java -Xmx2g -jar "$jar" encode --protocol etm4 --execution "$work/big.exec.gz" \
    --image "$work/big.elf" --core Cortex-A57 --snapshot-out "$out" --stats > "$work/stats.txt"
one=$(stat -c %s "$out/trace_0.bin")
insns=$(gunzip -c "$work/big.exec.gz" | grep -c '^I ')
footprint=$(gunzip -c "$work/big.exec.gz" | awk '$1 == "I" { if (!($2 in s)) { s[$2] = 1; b += $4 } } END { print b }')
copies=$(( (mb * 1000000 + one - 1) / one ))
cp "$out/trace_0.bin" "$work/one.bin"
for _ in $(seq 2 "$copies"); do cat "$work/one.bin"; done >> "$out/trace_0.bin"
total=$(stat -c %s "$out/trace_0.bin")
{
  echo "program: 1500 generated functions, gcc-aarch64-linux-gnu -O2, qemu-aarch64 -cpu cortex-a57"
  echo "one run: $insns instructions, $footprint bytes of distinct code executed, $one bytes of ETMv4 trace"
  echo "input: $copies copies, $total bytes, $((insns * copies)) instructions"
  awk -v i="$insns" -v b="$one" 'BEGIN { printf "instructions per trace byte: %.2f\n", i / b }'
} | tee "$out/input.txt"
