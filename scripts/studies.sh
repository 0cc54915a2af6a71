#!/usr/bin/env bash
# The studies behind docs/findings.md (studies/*.toml), run here or on a Dask cluster:
#
#   bash scripts/studies.sh run [NAME…] [--scheduler tcp://HOST:8786] [--workers N]
#   bash scripts/studies.sh tables | check | schema | cluster-check | scaling [NAME…]
#
# Builds ablate (release) first; installs Dask's distributed (scripts/tools.sh, ensure_dask)
# when a command needs a cluster. scripts/studies.py says what each command does.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
cargo build --release --quiet --bin ablate
python=python3
case " $* " in
  *" --scheduler"* | *" cluster-check "* | *" scaling "*) ensure_dask; python="$AP_DASK_PYTHON" ;;
esac
exec "$python" scripts/studies.py "$@"
