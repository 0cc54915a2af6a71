#!/usr/bin/env bash
# Runs every check: formatting, clippy (native and wasm32), native tests, wasm tests in
# headless Chromium, the example lesson's numbers, the studies' numbers (here and on a local
# Dask cluster), the release page build with the docs site
# (MkDocs, strict), the npm package's TypeScript declarations, the end-to-end browser tests (with
# the real hosts: MkDocs Material, Reveal.js, pandoc, JupyterLab and nbconvert, Docusaurus,
# marimo, MyST, a React app, and the docs' own pages), the notebook widget's Python tests and the
# packages' publishing checks, and the install path against empty caches (tests/fresh/check.sh).
# Installs what it needs on a fresh machine; quick and quiet when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh

ensure_page_tools
ensure_chromium
cargo fetch --quiet

say "cargo fmt --check"
cargo fmt --all -- --check

say "clippy, native and wasm32"
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --all-targets --target wasm32-unknown-unknown -- -D warnings

say "native tests"
cargo test --release

say "wasm tests (the core in wasm must reproduce the native run bit for bit)"
cargo build --release --quiet --bin ablate
ABLATE_REFERENCE="$(target/release/ablate $(cat tests/reference-run.args))" \
ABLATE_TASK_REFERENCE="$(target/release/ablate $(cat tests/reference-task.args))" \
ABLATE_SEEDS_REFERENCE="$(target/release/ablate $(cat tests/reference-seeds.args))" \
ABLATE_ENCODER_DECODER_REFERENCE="$(target/release/ablate $(cat tests/reference-encoder-decoder.args))" \
ABLATE_UNMASKED_REFERENCE="$(target/release/ablate $(cat tests/reference-unmasked.args))" \
  cargo test --release --target wasm32-unknown-unknown

say "the example lesson's numbers, recomputed (the author's check)"
python3 scripts/check_lesson.py www/lesson.html
python3 scripts/check_lesson.py docs/findings.md
say "every result number in the lesson, the README and the findings has a source: a run, a kept study's cell, or the list of those not yet traced (scripts/check_numbers.py)"
python3 scripts/check_numbers.py

say "the studies behind docs/findings.md: their files' schema, a sample of each one's kept numbers recomputed, and the same jobs on a local Dask cluster of two workers, bit for bit (scripts/studies.py)"
python3 -m unittest discover -s tests/studies
python3 scripts/studies.py schema
python3 scripts/studies.py check
ensure_dask
"$AP_DASK_PYTHON" scripts/studies.py cluster-check

say "release page build with the docs (the authors' build command)"
bash scripts/build.sh

say "the shipped sizes against their budgets (tests/size/check.sh)"
bash tests/size/check.sh

if [ -f tests/e2e/package.json ]; then
  say "end-to-end tests in Chromium"
  ensure_e2e_deps
  say "the widget's state and update without a browser (node --test tests/unit)"
  node --test tests/unit/
  say "the npm package's TypeScript declarations (tsc --strict on samples; misspellings refused)"
  node tests/types/check.mjs
  ensure_hosts
  ensure_docusaurus
  ensure_marimo
  ensure_myst
  say "the notebook widget's Python tests (on the wheel just built)"
  "$AP_HOSTS_VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps dist/python/ablation_playground-*-py3-none-any.whl
  "$AP_HOSTS_VENV/bin/python" -m unittest discover -s python/tests
  say "the packages as a maintainer would publish them (npm publish --dry-run, twine check, a fresh virtualenv)"
  bash tests/packages/check.sh
  say "the install path from nothing: every npm and PyPI install against empty caches (tests/fresh/check.sh)"
  bash tests/fresh/check.sh
  node tests/e2e/run.mjs
  say "the smoke suite in Firefox ESR and WebKitGTK"
  ensure_engines
  node tests/e2e/smoke-tests.mjs
  say "a short soak in every engine (the full one: node tests/e2e/soak.mjs --loads 100, BENCHMARKS.md)"
  node tests/e2e/soak.mjs --loads 3 --seconds 6
fi
say "all checks passed"
