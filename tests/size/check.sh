#!/usr/bin/env bash
# The shipped sizes, against budgets written here and nowhere else: size is
# deterministic, so unlike time it can be tested. A change that grows a file past its budget
# fails the test command: make room first. A budget is lowered as the work goes (with the sizes,
# before and after, in BENCHMARKS.md), never raised to let a change in.
#
#   bash tests/size/check.sh [DIST]     (after scripts/build.sh; DIST = dist/ by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
dist="${1:-dist}"

# the page's wasm, gzip -9 (what a reader downloads): 421 378 B, under the wall, with the
# floors as crates, every floor but the model's maths built for size (the core compiles its hot
# passes for f32 itself, so the step, the split step and every job run at full speed), English's
# catalogue without its comments, the settings' tables as statics, one copy each, wasm-opt run
# to convergence, the rate's cosine schedule, every chart's axes one type, neither of Unicode's case tables linked, and the
# codec's lists copied as bytes, and the text's vocabulary chosen without the standard sort (545 577 B
# before; BENCHMARKS.md, "Issue 69"). The wall is
# 426 000 B, its size at 62ab068 before the words, the tuner and the shards: this budget stays
# under it and is lowered as the work goes, never raised (BENCHMARKS-LOG.md has how it grew).
WASM_GZIP_BUDGET=421400
# the npm package's tarball (npm pack): 1 460 155 B, and the self-contained notebook and MyST
# module, unpacked (what a MyST page's reader loads), 1 181 483 B: each carries the page's wasm
# (gzipped inside anywidget.js), so each fell with it, and the catalogues without their
# translators' comments (1 709 695 and 1 343 154 B before issue 69)
TARBALL_BUDGET=1460200
ANYWIDGET_BUDGET=1181500

failed=0
check() {
  local what="$1" size="$2" budget="$3"
  if [ "$size" -le "$budget" ]; then
    echo "ok - size: $what is $size B, within its budget of $budget B ($((budget - size)) B to spare)"
  else
    echo "FAIL - size: $what is $size B, $((size - budget)) B over its budget of $budget B (tests/size/check.sh)"
    failed=1
  fi
}
wasm="$dist/ablation-playground_bg.wasm"
[ -f "$wasm" ] || { echo "FAIL - size: no $wasm (run scripts/build.sh first)"; exit 1; }
check "the page's wasm, gzip -9" "$(gzip -9 -n -c "$wasm" | wc -c)" "$WASM_GZIP_BUDGET"
tarballs=("$dist"/ablation-playground-*.tgz)
[ -f "${tarballs[0]}" ] || { echo "FAIL - size: no $dist/ablation-playground-*.tgz (run scripts/build.sh first)"; exit 1; }
check "the npm tarball" "$(wc -c <"${tarballs[0]}")" "$TARBALL_BUDGET"
module="$dist/package/anywidget.js"
[ -f "$module" ] || { echo "FAIL - size: no $module (run scripts/build.sh first)"; exit 1; }
check "the self-contained anywidget.js" "$(wc -c <"$module")" "$ANYWIDGET_BUDGET"
exit "$failed"
