#!/usr/bin/env bash
# Builds the static site, ready to upload, into DIR (default: dist/ in the repository),
# installing what it needs (as scripts/serve.sh and scripts/test.sh do). DIR is replaced.
#   scripts/build.sh [DIR]
set -euo pipefail
here="$(pwd)"
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  dir="$(cd "$here" && realpath -m -- "$1")"
else
  dir="$PWD/dist"
fi
source scripts/tools.sh
ensure_page_tools
cargo fetch --quiet
trunk build --release --offline --dist "$dir"
say "site written to $dir (upload all of it; see the README's Embedding section)"
