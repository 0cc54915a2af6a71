#!/usr/bin/env bash
# Regenerates the static SVG figures under www/figures/ (the lesson's <noscript> and print
# fallbacks) from www/figures/list.txt, through `ablate --svg`. Deterministic: the same
# commit always gives the same files (tests/figures.rs checks they are up to date).
# `scripts/figures.sh --picture` also builds the page and screenshots its first screen in
# Chromium, at depth 24 after a run of 1000 steps has finished, as docs/images/playground.png
# (the README's picture; a screenshot differs by a few pixels between machines, so no test
# compares it).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--picture" ]; then
  bash scripts/build.sh >/dev/null
  source scripts/tools.sh
  ensure_chromium
  ensure_e2e_deps
  node tests/e2e/shot.mjs docs/images/playground.png 'depth=24&steps=1000' 6 1200 light screen >/dev/null
  echo "wrote docs/images/playground.png"
fi
cargo build --release --quiet --bin ablate
grep -v '^#' www/figures/list.txt | while read -r name flags; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  target/release/ablate --steps 500 --seed 1 $flags --svg "www/figures/$name" > /dev/null
  # (--svg also writes the status line; the figures are the charts, which tests/figures.rs checks)
  rm -f "www/figures/$name/status.txt"
done
echo "figures written to www/figures/"
