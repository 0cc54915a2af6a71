#!/usr/bin/env bash
# The packages as a maintainer would publish them (docs/publishing.md), checked without
# publishing anything: the npm tarball scripts/build.sh packed holds what a project needs
# (exports, types, README, both licences, the wasm) and `npm publish --dry-run` is clean but for
# the login it cannot have; the wheel passes `twine check --strict` (what PyPI checks of its
# metadata), installs into a fresh virtual environment from PyPI's dependencies alone, imports,
# and draws its static figure there; and the three carry one version number, Cargo.toml's.
# Run by scripts/test.sh after the build, with the hosts' virtualenv (ensure_hosts: twine).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { printf 'FAIL - packages: %s\n' "$*"; exit 1; }
ok() { printf 'ok - packages: %s\n' "$*"; }

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
tarball="dist/ablation-playground-$version.tgz"
wheel="dist/python/ablation_playground-$version-py3-none-any.whl"
[ -f "$tarball" ] || fail "no $tarball (the npm package at Cargo.toml's version $version): $(ls dist/*.tgz 2>/dev/null)"
[ -f "$wheel" ] || fail "no $wheel (the wheel at Cargo.toml's version $version): $(ls dist/python 2>/dev/null)"

# the tarball's files and its package.json
listing="$(tar -tzf "$tarball")"
for f in package.json index.js index.d.ts params.d.ts jsx.d.ts react.js react.d.ts anywidget.js README.md LICENSE-MIT LICENSE-APACHE ablation-playground_bg.wasm worker.js shakespeare.txt es.ftl zh.ftl; do
  grep -qx "package/$f" <<<"$listing" || fail "the tarball lacks $f; it has: $(tr '\n' ' ' <<<"$listing")"
done
node --input-type=module - "$tarball" "$version" <<'JS' || fail "the tarball's package.json"
import { execFileSync } from 'node:child_process';
const [tarball, version] = process.argv.slice(2);
const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
const want = { name: 'ablation-playground', version, types: './index.d.ts', license: 'MIT OR Apache-2.0', type: 'module' };
for (const [k, v] of Object.entries(want)) if (pkg[k] !== v) throw new Error(`package.json ${k}: ${JSON.stringify(pkg[k])}, not ${JSON.stringify(v)}`);
for (const entry of ['.', './react']) if (!pkg.exports?.[entry]?.types || !pkg.exports?.[entry]?.default) throw new Error(`exports["${entry}"] lacks types or default: ${JSON.stringify(pkg.exports)}`);
if (!pkg.exports['./jsx']?.types || !pkg.exports['./anywidget.js']) throw new Error(`exports lacks ./jsx or ./anywidget.js: ${JSON.stringify(pkg.exports)}`);
JS
ok "the tarball has exports, types, README, both licences and the wasm, at version $version"

# npm publish --dry-run, from what the tarball holds: no warning but the login's
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
tar -xzf "$tarball" -C "$unpacked"
said="$(cd "$unpacked/package" && npm publish --dry-run --no-update-notifier 2>&1)" || fail "npm publish --dry-run: $said"
warnings="$(grep -i 'npm warn' <<<"$said" | grep -v 'requires you to be logged in' || true)"
[ -z "$warnings" ] || fail "npm publish --dry-run warns: $warnings"
grep -q "+ ablation-playground@$version" <<<"$said" || fail "npm publish --dry-run did not publish ablation-playground@$version: $said"
ok "npm publish --dry-run is clean (it would publish ablation-playground@$version)"

# twine check --strict: the metadata and the long description PyPI renders
"$AP_HOSTS_VENV/bin/twine" check --strict "$wheel" >"$unpacked/twine.txt" 2>&1 || fail "twine check --strict: $(cat "$unpacked/twine.txt")"
ok "twine check --strict passes"

# a fresh virtual environment: the wheel and its dependencies from PyPI, nothing else
python3 -m venv "$unpacked/venv"
"$unpacked/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" || fail "pip install of the wheel into a fresh virtualenv"
"$unpacked/venv/bin/python" - "$version" <<'PY' || fail "the wheel in a fresh virtualenv"
import sys
import ablation_playground
from ablation_playground import Playground

assert ablation_playground.__version__ == sys.argv[1], f"__version__ {ablation_playground.__version__}, Cargo.toml {sys.argv[1]}"
w = Playground(depth=4, residual=False)
data, _ = w._repr_mimebundle_()
assert "application/vnd.jupyter.widget-view+json" in data, sorted(data)
assert data["text/plain"].startswith("4 layers · Residual OFF · LayerNorm ON (pre)"), data["text/plain"]
assert data["text/html"].count("<svg") >= 3, data["text/html"][:300]
PY
ok "the wheel installs into a fresh virtualenv (version $version) and draws its static figure there"
