// Where the widget's files are: by default beside these scripts, as in the built site. The npm
// package's entry (index.js) names them instead with `new URL('./…', import.meta.url)`, which
// bundlers copy and rewrite, so that a bundled page still finds its wasm, worker and styles.

const HERE = import.meta.url;

export const assets = {
  bindings: new URL('../ablation-playground.js', HERE).href,
  wasm: new URL('../ablation-playground_bg.wasm', HERE).href,
  worker: new URL('./worker.js', HERE).href,
  engine: new URL('./engine.js', HERE).href,
  css: new URL('./widget.css', HERE).href,
  /** The playground page a copied link points to (none in the npm package). */
  page: new URL('../index.html', HERE).href,
};

/** Replaces some of the locations (called before the element is first used). */
export function configureAssets(locations) {
  for (const [name, url] of Object.entries(locations)) {
    if (name in assets) assets[name] = String(url);
  }
}
