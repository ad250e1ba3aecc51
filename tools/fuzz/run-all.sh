#!/usr/bin/env bash
# Fuzzes every Jazzer fuzz test (@FuzzTest in core/src/test/java) for a bounded time, one JVM per test
# (jazzer-junit fuzzes only one fuzz test per run; the others are skipped), in a copy of the project so
# that the corpus Jazzer grows and the crash inputs it writes stay out of the source tree.
#
# Usage: tools/fuzz/run-all.sh [--seconds N] [--only REGEX]
#   --seconds N   fuzz each test for N seconds (default 20)
#   --only REGEX  only the tests whose Class#method matches REGEX
# Findings (crash inputs and logs) are copied to target/fuzz-findings/ (or $FUZZ_FINDINGS); to keep one
# as a regression input, move it into the test's core/src/test/resources/.../<Class>Inputs/<method>/ and fix it.
# Exits 1 if any test found a problem.
set -uo pipefail
seconds=20
only=.
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--only REGEX]" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
findings=${FUZZ_FINDINGS:-$root/target/fuzz-findings}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work="$tmp/project"
mkdir -p "$work" "$findings"
tar -C "$root" --exclude=./target --exclude=./core/target --exclude=./spark/target --exclude=./.git --exclude=./.cifuzz-corpus -cf - . | tar -C "$work" -xf -
# every fuzz test runs for the same bounded time
find "$work/core/src/test/java" -name '*FuzzTest.java' -exec sed -i -E "s/maxDuration = \"[^\"]*\"/maxDuration = \"${seconds}s\"/" {} +
cd "$work"
if ! mvn -B -q -pl core test-compile > "$tmp/compile.log" 2>&1; then
  cat "$tmp/compile.log"; echo "fuzz: the project does not compile" >&2; exit 1
fi
targets=$(grep -rn -A1 '@FuzzTest' core/src/test/java | grep -oE 'core/src/test/java/[^ ]+\.java-[0-9]+- +void [a-zA-Z0-9_]+' \
  | sed -E 's#core/src/test/java/(.*)\.java-[0-9]+- +void (.*)#\1\#\2#; s#/#.#g' | grep -E "$only")
failed=0
printf '%-62s %8s %s\n' "fuzz test" "seconds" "result"
for t in $targets; do
  class=${t%%#*}; method=${t##*#}
  log="$tmp/${class##*.}-$method.log"
  start=$(date +%s)
  touch "$tmp/marker"
  JAZZER_FUZZ=1 timeout $((seconds * 2 + 150)) mvn -B -pl core surefire:test -Dtest="$class#$method" \
    -Dsurefire.failIfNoSpecifiedTests=false > "$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+')
  if [ $rc -eq 0 ] && ! grep -q 'Tests run:.*Failures: [1-9]\|Tests run:.*Errors: [1-9]' "$log"; then
    printf '%-62s %8s ok (%s runs)\n' "$class#$method" "$took" "${runs:-?}"
  else
    failed=1
    if [ $rc -eq 124 ]; then
      printf '%-62s %8s FINDING (a hang: killed, Jazzer saved no input)\n' "$class#$method" "$took"
    else
      printf '%-62s %8s FINDING (exit %s)\n' "$class#$method" "$took" "$rc"
    fi
    dest="$findings/${class##*.}-$method"
    mkdir -p "$dest"
    cp "$log" "$dest/"
    # Jazzer writes crash inputs into the test's resources directory and the project root
    find "$work/core/src/test/resources" "$work" -maxdepth 8 -newer "$tmp/marker" -type f \
      \( -name 'crash-*' -o -name 'timeout-*' -o -name 'slow-unit-*' -o -name 'oom-*' \) -exec cp {} "$dest/" \; 2>/dev/null
    grep -a -m 20 -E 'Exception|Error|FAIL|== Java' "$log" | sed 's/^/    /'
  fi
done
if [ $failed -ne 0 ]; then
  echo "fuzz: findings were copied to $findings" >&2
fi
exit $failed
