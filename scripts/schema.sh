#!/usr/bin/env bash
# Regenerates www/schema.js (the parameter table as the page's JavaScript reads it),
# _extensions/ablation-playground/params.lua (its names and flags, for the pandoc filter) and
# python/ablation_playground/_params.py (the notebook widget's traits) from
# src/config/table.rs. `cargo test --test schema` fails when it is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
WRITE_SCHEMA=1 cargo test --quiet --test schema >/dev/null
echo "wrote www/schema.js, _extensions/ablation-playground/params.lua and python/ablation_playground/_params.py"
