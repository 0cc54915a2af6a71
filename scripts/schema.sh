#!/usr/bin/env bash
# Regenerates www/schema.js (the parameter table as the page's JavaScript reads it),
# _extensions/ablation-playground/params.lua (its names and flags, for the pandoc filter) and
# python/ablation_playground/_params.py (the notebook widget's traits), npm/params.d.ts (the npm package's TypeScript types) and docs/reference.md (the
# docs' reference page: every parameter's names, range, default and help, the presets, ablate's flags) from
# crates/config/src/table.rs. `cargo test --test schema` fails when it is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
WRITE_SCHEMA=1 cargo test --quiet --test schema >/dev/null
echo "wrote www/schema.js, _extensions/ablation-playground/params.lua, python/ablation_playground/_params.py, npm/params.d.ts and docs/reference.md"
