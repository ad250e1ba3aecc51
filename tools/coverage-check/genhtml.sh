#!/usr/bin/env bash
# Independent check of the LCOV tracefiles: `armtrace coverage EXAMPLE --lcov` of every bundled example,
# read by genhtml (Debian package lcov) with no flags at all, from another working directory than the
# one armtrace ran in. genhtml stops at the first source file it cannot read, so this fails if a
# tracefile names a file that is not there or a path that only works from one directory.
# An example whose image has no DWARF line tables (ptm-a15: raw memory dumps) has no source file to
# name: armtrace must say so, and genhtml has nothing to read.
# Exit 0 = every tracefile was read, 1 = genhtml refused one, 77 = genhtml is not installed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v genhtml >/dev/null 2>&1; then
  echo "genhtml.sh: genhtml not installed (apt-get install lcov); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for ex in "$root"/examples/*/; do
  [ -f "$ex/snapshot.ini" ] || continue
  name=$(basename "$ex")
  (cd "$root" && ./armtrace coverage "examples/$name" --lcov "$work/$name.info" > /dev/null 2> "$work/$name.err")
  if ! grep -q '^SF:' "$work/$name.info"; then
    if grep -q 'no DWARF line tables' "$work/$name.err"; then
      echo "genhtml.sh: $name: no line tables, no source file (armtrace says so)"
    else
      echo "genhtml.sh: $name: an empty tracefile without a reason"; status=1
    fi
    continue
  fi
  if (cd "$work" && genhtml "$name.info" -o "html-$name" > "$name.log" 2>&1); then
    echo "genhtml.sh: $name: genhtml read $(grep -c '^SF:' "$work/$name.info") source files; $(grep -m1 'lines' "$work/$name.log" | sed 's/^ *//')"
  else
    echo "genhtml.sh: $name: genhtml FAILED"; cat "$work/$name.log"; status=1
  fi
done
exit $status
