// Where the widget's files are: by default beside these scripts, as in the built site. The npm
// package's entry (index.js) names them instead with `new URL('./…', import.meta.url)`, which
// bundlers copy and rewrite, so that a bundled page still finds its wasm, worker and styles.

const HERE = import.meta.url;

/** `path` beside these scripts; '' where they have no folder (imported from a blob: URL, as the
 *  notebook widget's are: its module names every file with configureAssets). */
function near(path) {
  try {
    return new URL(path, HERE).href;
  } catch {
    return '';
  }
}

export const assets = {
  bindings: near('../ablation-playground.js'),
  wasm: near('../ablation-playground_bg.wasm'),
  worker: near('./worker.js'),
  engine: near('./engine.js'),
  jobs: near('./jobs.js'),
  css: near('./widget.css'),
  /** The text task's text, fetched by a worker only when that task is chosen. */
  text: near('./data/shakespeare.txt'),
  /** The playground page a copied link points to (none in the npm package or a notebook). */
  page: near('../index.html'),
};

let bindings = null;
/** The wasm bindings, initialised (once per page: on the playground page this is the module
 *  Trunk's loader is already initialising, and wasm-bindgen shares that initialisation).
 *  Never the page's `window.wasmBindings`: a host built with Trunk keeps its own app there. */
export function loadBindings() {
  bindings ??= (async () => {
    const mod = await import(assets.bindings);
    await mod.default({ module_or_path: assets.wasm });
    return mod;
  })();
  return bindings;
}

let policy;
/** The widget's Trusted Types policy, `ablation-playground`, or null: a host whose CSP requires
 *  Trusted Types (`require-trusted-types-for 'script'`) lists that name in `trusted-types`. It
 *  passes on what it is given: the widget's own template and the URLs of its own worker. */
export function trusted() {
  if (policy === undefined) {
    policy = null;
    try {
      policy = globalThis.trustedTypes?.createPolicy('ablation-playground', { createHTML: (s) => s, createScriptURL: (s) => s }) ?? null;
    } catch {
      // the host's CSP does not allow the name: plain strings, as in a browser without it
    }
  }
  return policy;
}

/** Replaces some of the locations (called before the element is first used). */
export function configureAssets(locations) {
  for (const [name, url] of Object.entries(locations)) {
    if (name in assets) assets[name] = String(url);
  }
}
