#!/usr/bin/env bash
# Serves the playground at http://127.0.0.1:8080 (PORT=... to change), installing what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
ensure_page_tools
cargo fetch --quiet
exec trunk serve --release --offline --address 127.0.0.1 --port "${PORT:-8080}" "$@"
