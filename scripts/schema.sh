#!/usr/bin/env bash
# Regenerates www/schema.js (the parameter table as the page's JavaScript reads it) and
# _extensions/ablation-playground/params.lua (its names and flags, for the pandoc filter) from
# src/config/table.rs. `cargo test --test schema` fails when it is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
WRITE_SCHEMA=1 cargo test --quiet --test schema >/dev/null
echo "wrote www/schema.js and _extensions/ablation-playground/params.lua"
