#!/usr/bin/env bash
# Builds the static site, ready to upload, into DIR (default: dist/ in the repository),
# installing what it needs (as scripts/serve.sh and scripts/test.sh do). DIR is replaced.
# DIR/package/ is the same widget as an npm-style package for bundler-based sites:
# `import 'ablation-playground'` registers the element (nothing is published),
# DIR/python/ablation_playground-VERSION-py3-none-any.whl the notebook widget, and DIR/docs/ the
# docs (an MkDocs Material site of docs/, whose pages embed the live widget).
#   scripts/build.sh [DIR]
set -euo pipefail
here="$(pwd)"
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  dir="$(cd "$here" && realpath -m -- "$1")"
else
  dir="$PWD/dist"
fi
source scripts/tools.sh
ensure_page_tools
ensure_mkdocs
cargo fetch --quiet
trunk build --release --offline --dist "$dir"

# The npm-style package: the element's scripts, its stylesheet, the bindings and the wasm in one
# flat folder, with an entry that names every file it loads at run time as
# `new URL('./…', import.meta.url)`: bundlers (Vite, webpack 5, Parcel) copy such files and
# rewrite the URLs, so a bundled page finds them; without a bundler they resolve as they are.
pkg="$dir/package"
mkdir -p "$pkg"
# every script of the widget (the page's own app.js aside), the element as element.js, and the
# bindings under the name the element's scripts import
cp www/*.js www/widget.css "$pkg/"
rm "$pkg/app.js"
mv "$pkg/ablation-playground.js" "$pkg/element.js"
cp "$dir/ablation-playground.js" "$dir/ablation-playground_bg.wasm" www/data/shakespeare.txt "$pkg/"
# the words' catalogues but English's (in the wasm), each fetched when a widget speaks it,
# without their translators' comments (a line that begins with #, which Fluent skips; as
# English's in the wasm): 1.1 KB less gzipped in the package and in anywidget.js
catalogues="$(cd www/i18n && ls *.ftl | grep -v '^en\.ftl$')"
for f in $catalogues; do grep -v '^#' "www/i18n/$f" >"$pkg/$f"; done
# the code's licences, and the text's beside the text
cp LICENSE-MIT LICENSE-APACHE "$pkg/"
cp www/data/README.md "$pkg/shakespeare.README.md"
# what the package adds for its users: the TypeScript declarations (params.d.ts generated from
# the table), the React component and the package's README (anywidget.js comes with the wheel)
cp npm/*.d.ts npm/react.js npm/jsx.js npm/README.md "$pkg/"
# The one version number: Cargo.toml's (the package's and the wheel's are written from it)
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
cat > "$pkg/package.json" <<JSON
{
  "name": "ablation-playground",
  "version": "$version",
  "description": "The <ablation-playground> element: a real, trainable stack with residual and LayerNorm switches, in WebAssembly.",
  "keywords": ["transformer", "residual", "layernorm", "web-component", "webassembly", "education", "anywidget"],
  "license": "MIT OR Apache-2.0",
  "type": "module",
  "main": "./index.js",
  "types": "./index.d.ts",
  "exports": {
    ".": { "types": "./index.d.ts", "default": "./index.js" },
    "./react": { "types": "./react.d.ts", "default": "./react.js" },
    "./jsx": { "types": "./jsx.d.ts", "default": "./jsx.js" },
    "./anywidget.js": "./anywidget.js",
    "./widget.css": "./widget.css",
    "./package.json": "./package.json"
  },
  "files": ["*.js", "*.d.ts", "*.wasm", "*.ftl", "widget.css", "shakespeare.txt", "shakespeare.README.md", "LICENSE-MIT", "LICENSE-APACHE"],
  "sideEffects": true,
  "peerDependencies": { "react": ">=19" },
  "peerDependenciesMeta": { "react": { "optional": true } }
}
JSON
# the stylesheet as a module's text: a bundler (webpack: Docusaurus) would put a `new URL` of a
# .css file through the host's own CSS rules, and serve the element an empty stylesheet
python3 -c 'import json, sys; print("// The widget'"'"'s stylesheet (widget.css) as text, adopted as a constructed sheet.\nexport default " + json.dumps(open(sys.argv[1]).read()) + ";")' www/widget.css > "$pkg/widget-css.js"
named="$(for f in $catalogues; do printf "    '%s': new URL('./%s', import.meta.url),\n" "$f" "$f"; done)"
cat > "$pkg/locations.js" <<JS
// Where the widget's run-time files are, in a form bundlers understand (see index.js).
import { configureAssets } from './assets.js';
import cssText from './widget-css.js';

configureAssets({
  bindings: new URL('./ablation-playground.js', import.meta.url),
  wasm: new URL('./ablation-playground_bg.wasm', import.meta.url),
  worker: new URL('./worker.js', import.meta.url),
  engine: new URL('./engine.js', import.meta.url),
  jobs: new URL('./jobs.js', import.meta.url),
  cssText,
  text: new URL('./shakespeare.txt', import.meta.url),
  catalogues: {
$named
  },
  // no playground page to link to: Copy link is not offered
  page: '',
});
JS
cat > "$pkg/index.js" <<'JS'
// `import 'ablation-playground'` registers <ablation-playground>. The locations come first, so
// that an element already in the page, upgraded when the element is defined, finds its files.
import './locations.js';
import './element.js';
JS
# The notebook widget: a wheel whose front end inlines all of the package (docs/embedding.md,
# "Notebooks"; the same module is the package's anywidget.js), with `ablate` compiled for WASI,
# which draws the static figure an exported notebook shows (python/ablation_playground/_figure.py)
cargo build --quiet --profile site --target wasm32-wasip1 --bin ablate
python3 scripts/wheel.py "$pkg" "$dir/python" target/wasm32-wasip1/site/ablate.wasm "$pkg/anywidget.js" >/dev/null
# the package as npm publishes it (npm pack applies package.json's files): what
# `npm install ablation-playground` would install, for the tests that install it (docs/publishing.md)
rm -f "$dir"/ablation-playground-*.tgz
(cd "$pkg" && npm pack --silent --pack-destination "$dir" >/dev/null)

# The docs: docs/ with the package beside it, loaded as a module on every page (mkdocs.yml), as an MkDocs author would. Strict:
# a broken link or anchor fails the build.
site_src="$(mktemp -d)"
trap 'rm -rf "$site_src"' EXIT
# (-L: docs/architecture.md and docs/benchmarks.md are links to ARCHITECTURE.md and BENCHMARKS.md)
cp -rL docs mkdocs.yml "$site_src/"
cp -r "$pkg" "$site_src/docs/ablation-playground"
rm "$site_src/docs/ablation-playground/README.md" # the package's README, not a page of the docs
NO_MKDOCS_2_WARNING=1 "$AP_MKDOCS" build --strict --quiet -f "$site_src/mkdocs.yml" -d "$dir/docs"
say "site written to $dir (upload all of it; the docs are at $dir/docs/index.html), the notebook widget to $dir/python/"
