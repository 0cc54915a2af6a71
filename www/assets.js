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
  /** The stylesheet's text, where a bundle gives it (the npm package): adopted as a constructed
   *  sheet instead of loading `css`. */
  cssText: '',
  /** The text task's text, fetched by a worker only when that task is chosen. */
  text: near('./data/shakespeare.txt'),
  /** The folder of the words' catalogues (`es.ftl`…), each fetched when a widget speaks it. */
  i18n: near('./i18n/'),
  /** The catalogues by file name, where a bundle names each (the npm package): else in `i18n`. */
  catalogues: {},
  /** The playground page a copied link points to (none in the npm package or a notebook). */
  page: near('../index.html'),
};

let compiled = null;
/** The wasm, compiled once per page, for the page's bindings and every worker's: a compiled
 *  module posted to a worker shares its code, so the workers do not each compile it and each
 *  optimise its hot functions again (in WebKit that was 2 s of a JIT thread's time for All
 *  four's four workers). A server that sends the wasm without its MIME type is read whole. */
export function wasmModule() {
  compiled ??= (async () => {
    try {
      return await WebAssembly.compileStreaming(fetch(assets.wasm));
    } catch {
      const response = await fetch(assets.wasm);
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${assets.wasm}`);
      return WebAssembly.compile(await response.arrayBuffer());
    }
  })();
  compiled.catch(() => {
    compiled = null; // not kept: a later worker tries again, or boots from the URL
  });
  return compiled;
}

/** The page's bindings were initialised from the wasm by another script (the playground page's
 *  Trunk loader): `module`, the module they compiled, is the one the workers boot from. */
export function useCompiled(module) {
  compiled ??= Promise.resolve(module);
}

let bindings = null;
/** The wasm bindings, initialised (once per page: on the playground page this is the module
 *  Trunk's loader is already initialising, and wasm-bindgen shares that initialisation).
 *  Never the page's `window.wasmBindings`: a host built with Trunk keeps its own app there. */
export function loadBindings() {
  bindings ??= (async () => {
    // (a URL known at run time: bundlers are told to leave the import to the browser)
    const mod = await import(/* webpackIgnore: true */ /* @vite-ignore */ assets.bindings);
    await mod.default({ module_or_path: await wasmModule().catch(() => assets.wasm) });
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

/** Where catalogue `file` (`es.ftl`) is. */
export function catalogueUrl(file) {
  return String(assets.catalogues[file] ?? new URL(file, assets.i18n || location.href).href);
}

/** Replaces some of the locations (called before the element is first used). */
export function configureAssets(locations) {
  for (const [name, url] of Object.entries(locations)) {
    if (name === 'catalogues') assets.catalogues = Object.fromEntries(Object.entries(url ?? {}).map(([f, u]) => [f, String(u)]));
    else if (name in assets) assets[name] = String(url);
  }
}
