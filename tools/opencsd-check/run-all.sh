#!/usr/bin/env bash
# Runs every independent OpenCSD check in this folder (etm3.sh, ptm.sh, ...). Each script exits 0 when
# OpenCSD's trc_pkt_lister agrees, 1 on a difference, 77 when trc_pkt_lister is not installed.
# Installs Debian's libopencsd-bin first when it can (root, apt reachable); otherwise skips quietly.
set -uo pipefail
cd "$(dirname "$0")"
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing libopencsd-bin for the OpenCSD cross-checks..."
    (apt-get update -qq && apt-get install -y -qq --no-install-recommends libopencsd-bin) >/dev/null 2>&1 || true
  fi
fi
if ! command -v trc_pkt_lister >/dev/null 2>&1; then
  echo "OpenCSD cross-checks skipped: trc_pkt_lister is not available"
  exit 0
fi
status=0
for check in ./*.sh; do
  [ "$check" = "./run-all.sh" ] && continue
  echo "== $check"
  bash "$check"
  rc=$?
  case $rc in
    0) echo "$check: agrees with OpenCSD" ;;
    77) echo "$check: skipped" ;;
    *) echo "$check: FAILED ($rc)"; status=1 ;;
  esac
done
exit $status
