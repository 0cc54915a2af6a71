#!/usr/bin/env bash
# The install path as a fresh machine meets it: every install function of scripts/tools.sh that
# takes from npm or PyPI, and the installs the tests themselves make (the package's tarball with
# React, as tests/e2e/react-tests.mjs installs it), run against empty caches: a new HOME, npm
# cache, pip cache and tools directory, and a copy of the hosts' folders without node_modules.
# So a step that works only where an earlier install filled a cache (`npm install --offline
# react@19.3.1` fails so, with ENOTCACHED, on a new machine) fails here first.
#
#   bash tests/fresh/check.sh            (after scripts/build.sh: the tarball is installed)
#   bash tests/fresh/check.sh --cargo    (also trunk and wasm-bindgen from crates.io into an
#                                         empty CARGO_HOME: about 13 minutes more on 2 cores)
#
# Debian's packages (chromium, firefox-esr, pandoc…) come from apt, which keeps no cache a
# test could lean on; the Rust toolchain is the machine's (rustup's, as on a new machine).
# Prints one line per step and "fresh: N steps installed from nothing" last; exits 1 on the
# first step that fails, with its output.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cargo_too=false
[ "${1:-}" = "--cargo" ] && cargo_too=true

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
copy="$tmp/repo"
mkdir -p "$copy/tests" "$copy/dist"
cp -r "$root/scripts" "$copy/"
# the hosts and the e2e packages as a clone has them: lock files, no node_modules
(cd "$root" && git ls-files -z tests/hosts tests/e2e) | (cd "$root" && xargs -0 cp --parents -t "$copy")
# the tarball the tests install (scripts/build.sh packed it)
cp "$root"/dist/ablation-playground-*.tgz "$copy/dist/"

# the machine's own programs, found before HOME changes: Python, Node.js, the Rust toolchain
py_dir="$(dirname "$(python3 -c 'import sys; print(sys.executable)')")"
node_dir="$(dirname "$(command -v node)")"
toolchain_dir="$(dirname "$(rustup which cargo)")"
export RUSTUP_HOME="${RUSTUP_HOME:-$(rustup show home)}"
# a new machine's caches and tools: none (the PATH without what earlier installs put on it)
export HOME="$tmp/home" npm_config_cache="$tmp/npm-cache" PIP_CACHE_DIR="$tmp/pip-cache"
export XDG_CACHE_HOME="$tmp/home/.cache" ABLATION_TOOLS_DIR="$tmp/tools" CARGO_HOME="$tmp/cargo"
export PATH="$py_dir:$node_dir:$toolchain_dir:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
mkdir -p "$HOME" "$CARGO_HOME"

# shellcheck source=/dev/null
source "$copy/scripts/tools.sh"
export PATH="$CARGO_HOME/bin:$PATH"
for tool in wasm-opt trunk wasm-bindgen mkdocs marimo myst; do
  if command -v "$tool" >/dev/null; then
    echo "FAIL - fresh: $tool is on the PATH before any install: $(command -v "$tool")"
    exit 1
  fi
done

steps=0
step() {
  local name="$1"
  shift
  local log="$tmp/step.log"
  local start=$SECONDS
  if ! ("$@") >"$log" 2>&1; then
    echo "FAIL - fresh: $name"
    sed 's/^/    /' "$log" | tail -40
    exit 1
  fi
  steps=$((steps + 1))
  echo "ok - fresh: $name ($((SECONDS - start)) s)"
}

step "wasm-opt from npm (binaryen)" ensure_wasm_opt
if $cargo_too; then
  step "wasm-bindgen-cli from crates.io" ensure_wasm_bindgen
  step "trunk from crates.io" ensure_trunk
fi
e2e_deps() { cd "$copy" && ensure_e2e_deps; }
step "the e2e packages (npm ci: playwright-core, Vite, React, TypeScript…)" e2e_deps
step "MkDocs Material, JupyterLab, anywidget, numpy, safetensors, wasmtime, twine (PyPI)" ensure_hosts
step "Docusaurus (npm ci)" ensure_docusaurus
step "marimo (PyPI)" ensure_marimo
step "dask distributed (PyPI), the studies' cluster engine" ensure_dask
step "mystmd and the MyST theme's renderer (npm ci)" ensure_myst
# the installs the tests make as they run: the tarball into a fresh project, with React
install_as_the_tests_do() {
  mkdir -p "$tmp/app"
  node --input-type=module -e "
    const { installPackage } = await import('$copy/tests/e2e/lib.mjs');
    await installPackage('$tmp/app', ['react@19.3.1', 'react-dom@19.3.1']);
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile('$tmp/app/package.json', 'utf8'));
    if (!pkg.dependencies['ablation-playground'] || !pkg.dependencies.react) throw new Error('installed: ' + JSON.stringify(pkg.dependencies));
  "
}
step "the tarball with react@19.3.1 into a new project (the React test's install)" install_as_the_tests_do
echo "fresh: $steps steps installed from nothing (HOME, npm and pip caches empty)"
