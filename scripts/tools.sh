# Sourced by serve.sh and test.sh: the one place where tool versions are pinned.
# Each ensure_* function is quiet and quick when the tool is already there.

WASM_BINDGEN_VERSION=0.2.130 # must equal the `wasm-bindgen` version in Cargo.lock
TRUNK_VERSION=0.21.14        # 0.22 needs a newer rustc than this machine has
BINARYEN_VERSION=132.0.0     # npm binaryen; Debian's binaryen 108 breaks the page at load
TOOLS_DIR="${ABLATION_TOOLS_DIR:-$HOME/.cache/ablation-playground}"

export PATH="$HOME/.cargo/bin:$TOOLS_DIR/binaryen/node_modules/.bin:$PATH"

say() { printf '==> %s\n' "$*" >&2; }

# wasm32-unknown-unknown: the page's core; wasm32-wasip1: ablate, which the notebook widget runs
# in the kernel for the static figure of an exported notebook
ensure_wasm_target() {
  for target in wasm32-unknown-unknown wasm32-wasip1; do
    if ! rustup target list --installed | grep -qx "$target"; then
      say "adding the $target target"
      rustup target add "$target"
    fi
  done
}

ensure_wasm_bindgen() {
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
    # Not --locked: its lockfile pins a webpki-roots version the registry lacks.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores)"
    cargo install trunk --version "$TRUNK_VERSION" --locked --force
  fi
}

ensure_wasm_opt() {
  if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
    say "installing wasm-opt from npm binaryen@$BINARYEN_VERSION"
    mkdir -p "$TOOLS_DIR/binaryen"
    npm install --silent --no-audit --no-fund --prefix "$TOOLS_DIR/binaryen" "binaryen@$BINARYEN_VERSION"
  fi
}

ensure_chromium() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Debian's chromium and chromium-driver"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
}

# The other engines of the browser tests (tests/e2e/smoke-tests.mjs): Firefox ESR, and
# WebKitGTK's WebDriver, which starts its MiniBrowser under Xvfb.
ensure_engines() {
  if ! command -v firefox-esr >/dev/null || ! command -v WebKitWebDriver >/dev/null || ! command -v Xvfb >/dev/null; then
    say "installing Debian's firefox-esr, webkit2gtk-driver and xvfb (the browser tests' other engines)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb >/dev/null
  fi
}

ensure_e2e_deps() {
  if [ ! -d tests/e2e/node_modules/playwright-core ] || [ ! -d tests/e2e/node_modules/vite ] || [ ! -d tests/e2e/node_modules/axe-core ] || [ ! -d tests/e2e/node_modules/reveal.js ] || [ ! -d tests/e2e/node_modules/puppeteer-core ] || [ ! -d tests/e2e/node_modules/typescript ] || [ ! -d tests/e2e/node_modules/react-dom ]; then
    say "installing playwright-core (with Vite, to bundle the npm package, axe-core, to audit accessibility, Reveal.js, a real host, puppeteer-core, to drive Firefox, and TypeScript and React, to check the declarations and the React component) for the browser tests"
    (cd tests/e2e && npm ci --silent --no-audit --no-fund)
  fi
}

MKDOCS_MATERIAL_VERSION=9.8.1 # the real hosts of the browser tests (tests/e2e/static-sites-tests.mjs,
JUPYTERLAB_VERSION=4.6.6      # notebook-tests.mjs)
ANYWIDGET_VERSION=0.11.0
NUMPY_VERSION=2.4.6          # the weights file read as a reader would (python/tests/test_weights_file.py)
SAFETENSORS_VERSION=0.8.0
WASMTIME_VERSION=50.0.1      # runs ablate (WASI) in the kernel: an exported notebook's static figure
TWINE_VERSION=7.0.0          # the wheel's metadata, checked as PyPI checks it
HOSTS_DIR="$TOOLS_DIR/hosts"

# The hosts lessons are written in, for the browser tests: Debian's pandoc, and MkDocs
# Material, JupyterLab and anywidget in a virtualenv of their own (Reveal.js comes with the e2e
# npm packages).
# MkDocs Material, which also builds the docs site (scripts/build.sh).
ensure_mkdocs() {
  if [ "$("$HOSTS_DIR/venv/bin/pip" show mkdocs-material 2>/dev/null | sed -n 's/^Version: //p')" != "$MKDOCS_MATERIAL_VERSION" ]; then
    say "installing mkdocs-material $MKDOCS_MATERIAL_VERSION into $HOSTS_DIR/venv"
    python3 -m venv "$HOSTS_DIR/venv"
    "$HOSTS_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "mkdocs-material==$MKDOCS_MATERIAL_VERSION"
  fi
  export AP_MKDOCS="$HOSTS_DIR/venv/bin/mkdocs"
}

ensure_hosts() {
  if ! command -v pandoc >/dev/null; then
    say "installing Debian's pandoc (for the filter's test)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pandoc >/dev/null
  fi
  ensure_mkdocs
  if [ "$("$HOSTS_DIR/venv/bin/pip" show jupyterlab anywidget 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')" != "$JUPYTERLAB_VERSION $ANYWIDGET_VERSION " ]; then
    say "installing jupyterlab $JUPYTERLAB_VERSION and anywidget $ANYWIDGET_VERSION into $HOSTS_DIR/venv (about a minute)"
    "$HOSTS_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "jupyterlab==$JUPYTERLAB_VERSION" "anywidget==$ANYWIDGET_VERSION"
  fi
  if [ "$("$HOSTS_DIR/venv/bin/pip" show numpy safetensors 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')" != "$NUMPY_VERSION $SAFETENSORS_VERSION " ]; then
    say "installing numpy $NUMPY_VERSION and safetensors $SAFETENSORS_VERSION into $HOSTS_DIR/venv"
    "$HOSTS_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" "safetensors==$SAFETENSORS_VERSION"
  fi
  if [ "$("$HOSTS_DIR/venv/bin/pip" show wasmtime twine 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')" != "$WASMTIME_VERSION $TWINE_VERSION " ]; then
    say "installing wasmtime $WASMTIME_VERSION and twine $TWINE_VERSION into $HOSTS_DIR/venv"
    "$HOSTS_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "wasmtime==$WASMTIME_VERSION" "twine==$TWINE_VERSION"
  fi
  export AP_MKDOCS="$HOSTS_DIR/venv/bin/mkdocs" AP_PANDOC="$(command -v pandoc)" AP_HOSTS_VENV="$HOSTS_DIR/venv"
}

# Dask's distributed scheduler, which runs the studies on a cluster (scripts/studies.py
# --scheduler ADDRESS) and starts the local two-worker cluster its test runs against, in a
# virtualenv of its own (its tornado and msgpack pins stay apart from JupyterLab's).
DASK_VERSION=2026.8.0
DASK_DIR="$TOOLS_DIR/dask"
ensure_dask() {
  if [ "$("$DASK_DIR/venv/bin/pip" show distributed 2>/dev/null | sed -n 's/^Version: //p')" != "$DASK_VERSION" ]; then
    say "installing dask distributed $DASK_VERSION into $DASK_DIR/venv"
    python3 -m venv "$DASK_DIR/venv"
    "$DASK_DIR/venv/bin/pip" install --quiet --disable-pip-version-check "distributed==$DASK_VERSION"
  fi
  export AP_DASK_PYTHON="$DASK_DIR/venv/bin/python"
}

# The hosts that are projects of their own (tests/hosts/*/): a Docusaurus 3 site and mystmd
# from npm, marimo in a virtualenv of its own; each ensure.sh defines ensure_<host>.
for host_script in "$(dirname "${BASH_SOURCE[0]}")"/../tests/hosts/*/ensure.sh; do
  # shellcheck source=/dev/null
  source "$host_script"
done
unset host_script

ensure_page_tools() {
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_wasm_opt
  ensure_trunk
}
