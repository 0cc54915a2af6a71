#!/usr/bin/env bash
# The peers of BENCHMARKS.md: the playground's step (the `mlp` row at depth 96 of
# `cargo bench --bench step`) in numpy and TensorFlow.js, and in PyTorch with PEERS_TORCH=1
# (PyPI's Linux wheel is the CUDA build: 539 MB and its NVIDIA libraries). Installs them from the
# registries under target/peers/ (never a cache an earlier run filled), then runs each, one
# thread, beside the core's own figure.
#
#   bash benches/peers/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/target/peers"
mkdir -p "$out"
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install --quiet --no-cache-dir "numpy==2.3.5"
if [ "${PEERS_TORCH:-0}" = 1 ]; then "$out/venv/bin/pip" install --quiet --no-cache-dir torch; fi
cp "$here/package.json" "$out/"
(cd "$out" && npm install --silent --no-audit --no-fund --prefer-online >/dev/null)
cp "$here/peers.mjs" "$out/"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
"$out/venv/bin/python" "$here/peers.py"
node "$out/peers.mjs"
echo "the core (cargo bench --bench step, the row 'mlp depth 96'):"
cargo bench --quiet --bench step 2>/dev/null | grep -E "^mlp depth 96 " || true
