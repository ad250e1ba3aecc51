#!/usr/bin/env bash
# Viewer load check: the timeline (`armtrace timeline`) of every bundled example, imported by speedscope (the
# npm package, which reads the Trace Event Format) in headless Chromium. Fails when speedscope reports an
# import error, warns that a slice ends out of order or stays open, or shows no frames.
# speedscope and playwright-core are installed from npm into target/timeline-check (versions pinned below).
# Options: --screenshot FILE  also saves a picture of the etm3-a9-thumb timeline (the README's docs/timeline.png).
# Exit 0 = every timeline loaded, 1 = one did not, 77 = npm, node or Chromium is not available.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tools/timeline-check"
shot=""
if [ "${1:-}" = "--screenshot" ]; then
  shot=$(realpath -m "$2")
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
if ! command -v npm > /dev/null 2>&1 || ! command -v node > /dev/null 2>&1; then
  echo "timeline-check: npm/node not installed; skipped"
  exit 77
fi
if [ -z "$chromium" ]; then
  echo "timeline-check: Chromium not installed (apt-get install chromium); skipped"
  exit 77
fi
cache="$root/target/timeline-check"
mkdir -p "$cache"
if [ ! -f "$cache/node_modules/speedscope/dist/release/index.html" ] || [ ! -d "$cache/node_modules/playwright-core" ]; then
  (cd "$cache" && [ -f package.json ] || echo '{"name":"timeline-check","private":true}' > "$cache/package.json")
  if ! (cd "$cache" && npm install --no-audit --no-fund --silent speedscope@1.25.0 playwright-core@1.57.0 > npm.log 2>&1); then
    echo "timeline-check: npm could not install speedscope and playwright-core (no registry?); skipped"
    tail -5 "$cache/npm.log"
    exit 77
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=()
for ex in "$root"/examples/*/; do
  [ -f "$ex/snapshot.ini" ] || continue
  name=$(basename "$ex")
  if ! (cd "$root" && ./armtrace timeline "examples/$name" -o "$work/$name.json" 2> "$work/$name.err"); then
    echo "timeline-check: $name: armtrace timeline FAILED"; cat "$work/$name.err"; exit 1
  fi
  files+=("$work/$name.json")
done
NODE_PATH="$cache/node_modules" CHROMIUM="$chromium" SPEEDSCOPE="$cache/node_modules/speedscope/dist/release/index.html" \
  SCREENSHOT="$shot" node "$here/load.js" "${files[@]}"
