#!/usr/bin/env bash
# The Chromium suite run N times in a row with the machine's other cores kept busy (one `yes`
# per core but one), as a shared CI machine can be: how flakes are found before CI finds them.
# Every FAIL and FLAKY line of every run is kept, and a summary per test name at the end.
#
#   bash tests/e2e/stress.sh [N]     (N = 5 by default; after scripts/test.sh has built dist/)
#   E2E_FILTER=regex bash tests/e2e/stress.sh 10     (one test, ten times)
#
# Writes each run's output to tests/e2e/artifacts/stress-K.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/tools.sh
ensure_e2e_deps
ensure_hosts
ensure_docusaurus
ensure_marimo
ensure_myst
runs="${1:-5}"
mkdir -p tests/e2e/artifacts
rm -f tests/e2e/artifacts/stress-*.log
busy=()
for _ in $(seq 2 "$(nproc)"); do
  yes >/dev/null &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
say "the e2e suite $runs times with ${#busy[@]} other core(s) busy"
for k in $(seq 1 "$runs"); do
  start=$SECONDS
  node tests/e2e/run.mjs >"tests/e2e/artifacts/stress-$k.log" 2>&1
  echo "run $k: $(tail -1 "tests/e2e/artifacts/stress-$k.log") ($((SECONDS - start)) s)"
  grep -E '^(FAIL|FLAKY) - ' "tests/e2e/artifacts/stress-$k.log" | cut -c1-400
done
echo "tests that failed or flaked, by name, over $runs runs:"
# (a name may hold a colon: a FLAKY line's name ends where its fixed words begin, a FAIL line's
# is cut at 100 characters)
cat tests/e2e/artifacts/stress-*.log | grep -E '^(FAIL|FLAKY) - ' |
  sed -E -e 's/^(FLAKY - .*): passed on its second try.*/\1/' -e 's/^(FAIL - .{0,100}).*/\1/' | sort | uniq -c | sort -rn
