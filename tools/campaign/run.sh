#!/usr/bin/env bash
# Bad-input campaign: every command on mutated copies of the bundled examples and the TC2 conformance
# snapshot, plus 1 GiB inputs with a 64 MB heap, plus the data-safety cases of safety.py (named pipes,
# devices, directories and symbolic links as inputs and outputs, --snapshot-out directories, readers that go
# away, full outputs and temporary directories, numbers and merge counts). Prints a table of exit codes,
# stack traces, out-of-memory errors, hangs, silent successes, clobbered files, leaks, wrong exit codes,
# left-over temporary files and wrong modes; exits 1 if any of them happened.
# Usage: tools/campaign/run.sh [--quick] [--seed N] [--mutants N] [--big-bytes N] [--keep] [--jobs N]
#                              [--safety-fraction F] [--no-safety]
#   --quick  for CI: 6 mutants, 256 MiB huge inputs and a quarter of the many snapshot-input and -o safety
#            cases (a few minutes; the default, 16 mutants, 1 GiB inputs and all 520 safety cases, takes
#            about 15 minutes on a busy 2-core machine)
# Needs python3 and the JDK; builds the jar with the launcher if needed. No network.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/armtrace" --version > /dev/null
args=()
for a in "$@"; do
  if [ "$a" = "--quick" ]; then args+=(--mutants 6 --big-bytes $((256 << 20)) --timeout 60 --safety-fraction 0.25); else args+=("$a"); fi
done
exec python3 "$root/tools/campaign/campaign.py" "${args[@]}"
