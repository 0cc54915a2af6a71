#!/usr/bin/env bash
# Regenerates the static SVG figures under www/figures/ (the lesson's <noscript> and print
# fallbacks) from www/figures/list.txt, through `ablate --svg`. Deterministic: the same
# commit always gives the same files (tests/figures.rs checks they are up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin ablate
grep -v '^#' www/figures/list.txt | while read -r name flags; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  target/release/ablate --steps 500 --seed 1 $flags --svg "www/figures/$name" > /dev/null
done
echo "figures written to www/figures/"
