#!/usr/bin/env bash
# The shipped sizes, against budgets written here and nowhere else: size is
# deterministic, so unlike time it can be tested. A change that grows a file past its budget
# fails the test command; make room elsewhere, or raise the budget in the same commit with the
# reason and the sizes, before and after, in BENCHMARKS.md.
#
#   bash tests/size/check.sh [DIST]     (after scripts/build.sh; DIST = dist/ by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
dist="${1:-dist}"

# the page's wasm, gzip -9 (what a reader downloads): 545 577 B after issue 55's words as Fluent
# messages (+82 946 B over 462 631: Project Fluent's library about 49 KB, English's catalogue
# 13 KB with every word the widget shows, the words' own code about 17 KB, most of it the
# ~300 places that say a message with its arguments; the other languages' catalogues are not in
# it, each fetched when a widget speaks it; BENCHMARKS.md has its history)
WASM_GZIP_BUDGET=528500
# the npm package's tarball (npm pack): 1 709 695 B (the wasm and the text gzipped inside
# anywidget.js; Fluent and the catalogues; the live worker's probe during helped steps, the
# helpers' buffers given back and their relay through the page, +5.7 KB; the loops' turns
# timed, +2.8 KB; BENCHMARKS.md)
TARBALL_BUDGET=1710500
# the self-contained notebook and MyST module, unpacked (what a MyST page's reader loads):
# 1 339 266 B (Fluent, and the catalogues gzipped as the wasm and the text are; engine.js,
# worker.js and driver.js are in it as text: +9.3 KB for the probe during helped steps, the
# buffers given back and the relay through the page; 1 343 154 B with the loops' turns timed,
# +3.9 KB)
ANYWIDGET_BUDGET=1344000

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
