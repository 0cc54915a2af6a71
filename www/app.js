// The playground page: one widget whose state lives in the URL, which can be embedded in an
// iframe (`?embed=1`) and driven by postMessage from origins the embedder allows (`?allow=`).

import { assets, loadBindings, useCompiled } from './assets.js';
import { COMMANDS } from './controller.js';
import { mount, showError, isOff } from './playground.js';
import { ATTRIBUTES, PRESET, STATE_NAMES } from './schema.js';
import { optionsFrom } from './template.js';

/** URL parameters about presentation, not about the model: the element's own attributes. */
const PRESENTATION = ATTRIBUTES.map((a) => a.name);
const MESSAGE = 'ablation-playground:';
const URL_DELAY_MS = 250;
let urlTimer = 0;

function start(root, bindings) {
  const url = new URL(location.href);
  const q = url.searchParams;
  const state = [...q.entries()].filter(([k]) => !PRESENTATION.includes(k));
  const allowed = (q.get('allow') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const embedded = window.parent !== window;
  if (q.get('embed') != null && !isOff(q.get('embed'))) document.body.classList.add('ap-embed');
  const toParent = (message) => {
    if (embedded) window.parent.postMessage(message, '*');
  };

  const controller = mount(root, bindings, {
    state,
    ...optionsFrom((name) => q.get(name)),
    linkBase: url.origin + url.pathname,
    hostLang: () => document.documentElement.lang,
    // the page's own heading and introduction speak the widget's language too
    alsoWorded: [...document.querySelectorAll('.ap-header')],
    onParam() {
      // Keep the address bar reproducing the current run (presentation parameters stay).
      // Trailing and at most every 250 ms: replaceState with a new URL can take tens of ms in
      // Chromium, and a fast slider drag fires dozens of input events a second.
      clearTimeout(urlTimer);
      urlTimer = setTimeout(() => {
        // every parameter and the pins, as the core writes them (pins keep their : , @ ;
        // readable), then the presentation parameters; a preset in the address is spent
        const kept = [...new URLSearchParams(location.search)].filter(([k]) => PRESENTATION.includes(k));
        const extra = kept.length ? `&${new URLSearchParams(kept)}` : '';
        history.replaceState(null, '', `${location.pathname}?${controller.playground.query()}${extra}${location.hash}`);
      }, URL_DELAY_MS);
    },
    onEvent(type, value) {
      toParent({ type: `${MESSAGE}${type === 'playground-update' ? 'update' : type}`, ...value });
    },
  });
  window.ablationPlayground = controller;

  // Inbound commands, only from origins the embedder listed in ?allow=.
  addEventListener('message', (e) => {
    if (!allowed.includes(e.origin)) {
      console.warn(`ablation-playground: ignored a message from ${e.origin} (not in ?allow=)`);
      return;
    }
    const m = e.data;
    if (m === null || typeof m !== 'object' || typeof m.type !== 'string' || !m.type.startsWith(MESSAGE)) {
      console.warn('ablation-playground: ignored a malformed message', m);
      return;
    }
    const command = m.type.slice(MESSAGE.length);
    if (command === 'set') {
      // a preset first, wherever it stands: the other fields adjust it
      const fields = Object.entries(m).sort(([a], [b]) => (b === PRESET) - (a === PRESET));
      for (const [name, value] of fields) {
        if (name === 'type') continue;
        if (!['string', 'number', 'boolean'].includes(typeof value) || String(value).length > 100) {
          console.warn(`ablation-playground: ignored ${name.slice(0, 40)}: not a short string or number`);
          continue;
        }
        // a parameter of the table (an unknown name goes there too, and gets a notice), or a
        // presentation option
        if (STATE_NAMES.includes(name) || !controller.setOption(name, String(value))) controller.set(name, String(value), { lenient: true });
      }
    } else if (command === 'unpin') {
      controller.unpin(Number.isInteger(m.index) ? m.index : 0);
    } else if (COMMANDS.includes(command)) {
      controller[command]();
    } else {
      console.warn(`ablation-playground: ignored unknown command ${command.slice(0, 40)}`);
    }
  });

  // Let the host size the iframe to the content: the body's extent, which (unlike the
  // document's scrollHeight, never less than the iframe) also says when the content shrinks.
  if (embedded) {
    new ResizeObserver(() =>
      toParent({ type: `${MESSAGE}height`, height: Math.ceil(document.body.getBoundingClientRect().bottom + scrollY) }),
    ).observe(document.body);
  }
}

/** On this page Trunk's loader (index.html, before this script) is already initialising the
 *  bindings: joined, not started again, and the module it compiled kept for the workers, so that
 *  a reader's browser fetches and compiles the wasm once. */
async function pageBindings() {
  const mod = await import(assets.bindings);
  await mod.default({ module_or_path: assets.wasm });
  useCompiled(mod.compiledModule());
  return loadBindings();
}

const root = document.querySelector('[data-ap-root]');
if (root) {
  pageBindings()
    .then((bindings) => start(root, bindings))
    .catch((e) => showError(root, e?.message ?? String(e)));
}
