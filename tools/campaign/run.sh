#!/usr/bin/env bash
# Bad-input campaign: every command on mutated copies of the bundled examples and the TC2 conformance
# snapshot, plus 1 GiB inputs with a 64 MB heap. Prints a table of exit codes, stack traces, out-of-memory
# errors, hangs and silent successes; exits 1 if any of the last four happened.
# Usage: tools/campaign/run.sh [--quick] [--seed N] [--mutants N] [--big-bytes N] [--keep] [--jobs N]
#   --quick  for CI: 6 mutants and 256 MiB huge inputs (a few minutes; the default, 16 mutants and
#            1 GiB inputs, takes about 8 minutes on a busy 2-core machine)
# Needs python3 and the JDK; builds the jar with the launcher if needed. No network.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/armtrace" --version > /dev/null
args=()
for a in "$@"; do
  if [ "$a" = "--quick" ]; then args+=(--mutants 6 --big-bytes $((256 << 20)) --timeout 60 --safety-fraction 0.25); else args+=("$a"); fi
done
exec python3 "$root/tools/campaign/campaign.py" "${args[@]}"
