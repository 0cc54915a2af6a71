// <ablation-playground>: the playground as one tag for lesson pages.
//
//   <script type="module" src=".../www/ablation-playground.js"></script>
//   <ablation-playground depth="12" residual="off" norm="off"></ablation-playground>
//
// Attributes mirror the URL parameters and stay in sync with the controls; the element fires
// `input` while dragging, `change` on commit and `playground-update` (detail: depth, residual,
// norm, step, loss, act_std, diverged_at, and the comparisons: pins, compare, sweep,
// knockout); `.value` holds the current state, readouts and comparisons.

import { assets, loadBindings } from './assets.js';
import { PANELS, optionsFrom } from './template.js';
import { mount, showError } from './playground.js';
import { ATTRIBUTES, COMPARISONS, PRESET, STATE_NAMES as STATE } from './schema.js';
import { PLAYGROUNDS, listenForSteps } from './steps.js';

/** What a playground-update event's detail carries: the switches, the readouts, the pins and
 *  each comparison's field of `.value`. */
const UPDATE_FIELDS = ['depth', 'residual', 'norm', 'step', 'loss', 'act_std', 'diverged_at', 'pins', ...COMPARISONS.map((c) => c.field)];

/** Once a page: each chart is drawn once at idle time, one a task, on a canvas thrown away
 *  (`View.warmUp`), so that V8 has compiled the drawing before a reader scrolls to a widget
 *  (its first drawing otherwise held the page 80–130 ms while scrolling). */
let warming = false;
function warmPanels(bindings) {
  if (warming || typeof bindings.View?.warmUp !== 'function') return;
  warming = true;
  const later = (f) => (globalThis.requestIdleCallback ? requestIdleCallback(f, { timeout: 3000 }) : setTimeout(f, 100));
  const names = PANELS.filter((name) => name !== 'writes');
  const next = () => {
    const name = names.shift();
    if (!name) return;
    try {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 120;
      bindings.View.warmUp(name, canvas);
    } catch {
      // nothing to warm there: the widget draws it as ever
    }
    later(next);
  };
  later(next);
}

/** The stylesheet as a constructed sheet, where a bundle gives its text (the npm package's
 *  locations.js: a bundler would otherwise treat widget.css as the host's own CSS), made once
 *  a page and adopted by every element's shadow root. */
let sheet = null;
function constructedSheet() {
  if (!assets.cssText || typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in Document.prototype)) return null;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(assets.cssText);
  }
  return sheet;
}

/** The language of the element's surroundings: its nearest ancestor's lang, across the shadow
 *  roots a host may put it in (marimo, MyST), else the page's. */
function hostLanguage(element) {
  for (let node = element.parentNode; node; node = node.parentNode ?? node.host) {
    if (node.nodeType === 1 && node.hasAttribute('lang')) return node.getAttribute('lang');
  }
  return document.documentElement.lang ?? '';
}

/** Every element without a lang of its own follows its host's: one observer a page, of every
 *  lang attribute, that tells each such element when one changes. */
const followingHost = new Map();
let hostWatcher = null;
/** `element` follows its host's language by `changed()` (null: no longer). */
function followHostLanguage(element, changed) {
  if (changed) followingHost.set(element, changed);
  else followingHost.delete(element);
  if (!hostWatcher && followingHost.size && typeof MutationObserver === 'function') {
    hostWatcher = new MutationObserver(() => {
      for (const [e, changed] of followingHost) if (!e.hasAttribute('lang')) changed();
    });
    hostWatcher.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
}

// (HTMLElement is missing where a server renders the host's pages, Node for Docusaurus or
// Next.js: importing the package there defines nothing and throws nothing)
class AblationPlayground extends (globalThis.HTMLElement ?? class {}) {
  static observedAttributes = [...STATE, ...ATTRIBUTES.filter((a) => a.element).map((a) => a.name)];

  #controller = null;
  #mounting = false;
  /** Resolves with the controller once the widget has started (null if it could not). */
  #started = null;
  #reflecting = false;
  /** The attribute being removed: its default value is not written back. */
  #removing = null;

  connectedCallback() {
    PLAYGROUNDS.add(this);
    // already running (moved within the page) or loading
    if (this.#controller || this.#mounting) return;
    this.#mounting = true;
    // Everything lives in a shadow root: the host page's CSS does not reach in (but for
    // inherited properties such as the font and the --ap-* theme), and the widget's CSS does
    // not reach out. Light-DOM children (fallback figures) are simply no longer rendered.
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const constructed = constructedSheet();
    const styles = [];
    if (constructed) shadow.adoptedStyleSheets = [constructed];
    else if (assets.cssText) {
      // (no constructed sheets: Safari before 16.4) the text, as a style element
      const style = document.createElement('style');
      style.textContent = assets.cssText;
      styles.push(style);
    } else {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = assets.css;
      styles.push(link);
    }
    const root = document.createElement('div');
    root.setAttribute('data-ap-root', '');
    root.className = 'ap';
    // on a slide of a Reveal.js deck (a fixed 960 × 700 under a heading) the charts are drawn
    // wider than tall, so that the widget fits the slide
    if (this.closest('.reveal .slides')) root.dataset.layout = 'slide';
    // paints the system Canvas colour in the host's colour scheme: what shows where the host
    // paints nothing (theme.js)
    const probe = document.createElement('span');
    probe.className = 'ap-canvas-probe';
    shadow.replaceChildren(...styles, probe, root);
    this.#started = loadBindings()
      .then((b) => {
        this.#mounting = false;
        warmPanels(b);
        if (!this.isConnected) return null; // removed while loading
        this.#controller = mount(root, b, {
          state: STATE.filter((n) => this.hasAttribute(n)).map((n) => [n, this.getAttribute(n)]),
          ...optionsFrom((name) => this.getAttribute(name)),
          linkBase: assets.page,
          hostLang: () => hostLanguage(this),
          followHost: { host: this, probe },
          onParam: (name, value) => {
            if (name === this.#removing) return;
            this.#reflecting = true;
            this.setAttribute(name, value);
            this.#reflecting = false;
          },
          onEvent: (type, value) => {
            if (type === 'playground-update') {
              const detail = Object.fromEntries(UPDATE_FIELDS.map((k) => [k, value[k]]));
              this.dispatchEvent(new CustomEvent(type, { bubbles: true, detail }));
            } else {
              this.dispatchEvent(new Event(type, { bubbles: true }));
            }
          },
        });
        followHostLanguage(this, () => this.#controller?.setOption('lang', null));
        return this.#controller;
      })
      .catch((e) => {
        this.#mounting = false;
        showError(root, e?.message ?? String(e));
        return null;
      });
  }

  disconnectedCallback() {
    // Moved within the page (removed and inserted in one task), it runs on as it was; removed,
    // it stops its training and lets go of its worker.
    queueMicrotask(() => {
      if (this.isConnected) return;
      PLAYGROUNDS.delete(this);
      followHostLanguage(this, null);
      this.#controller?.destroy();
      this.#controller = null;
      // a load still under way decides for itself, when it ends, whether to start
      if (!this.#mounting) this.#started = null;
    });
  }

  attributeChangedCallback(name, _old, value) {
    if (this.#reflecting || !this.#controller) return;
    // A removed attribute means its default: a parameter's default value, every control, the
    // default panels (a removed preset leaves what it set, a removed autoplay the run as it is).
    if (STATE.includes(name)) {
      if (value !== null) this.#controller.set(name, value, { lenient: true });
      else if (name !== PRESET) {
        this.#removing = name;
        this.#controller.unset(name);
        this.#removing = null;
      }
    } else this.#controller.setOption(name, value);
  }

  /** The current state and readouts, or null before the widget has started. */
  get value() {
    return this.#controller?.value ?? null;
  }

  // Training runs in a worker: each returns a promise that resolves once its effect is drawn
  // (and `.value` shows it).
  play() {
    return this.#command('play');
  }
  pause() {
    return this.#command('pause');
  }
  step() {
    return this.#command('step');
  }
  reset() {
    return this.#command('reset');
  }
  // The comparisons (docs/using.md, "Comparing"): pin the live run, remove a pin, and one
  // method per comparison of the Rust list (schema.js): compare() trains all four combinations,
  // sweep() the depths, depthWidth() the shapes of one budget, knockout() knocks out each layer
  // of the trained stack.
  // `pin` is both: read, the method that pins the live run (`el.pin()`); set, the attribute
  // (React 19 sets a custom element's props that name a property as properties, so `pin="…"` in
  // JSX arrives here).
  #pin = () => this.#command('pin');
  get pin() {
    return this.#pin;
  }
  set pin(pins) {
    if (pins == null) this.removeAttribute('pin');
    else this.setAttribute('pin', String(pins));
  }
  unpin(index) {
    return this.#command('unpin', index);
  }
  /** Fits a tuned lens to the trained stack (a sequence task's), drawn beside the logit lens. */
  tunedLens() {
    return this.#command('tunedLens');
  }
  // What a reader brings and takes away (docs/embedding.md, "A reader's text, a prompt, files"):
  /** Trains the text task on `text` (a string, or UTF-8 bytes). */
  trainOn(text) {
    return this.#command('trainOn', text);
  }
  /** Resolves with what the stack writes after `text` (`chars` characters, 200 by default). */
  prompt(text, chars) {
    return this.#command('prompt', text, chars);
  }
  /** Resolves with the run as a file: 'weights' (safetensors bytes) or 'report' (JSON text). */
  exportRun(what) {
    return this.#command('exportRun', what);
  }
  /** Starts the run again from a weights file's bytes (a safetensors file the playground wrote). */
  loadWeights(bytes) {
    return this.#command('loadWeights', bytes);
  }
  static {
    for (const { method } of COMPARISONS) {
      Object.defineProperty(this.prototype, method, {
        value() {
          return this.#command(method);
        },
        writable: true,
        configurable: true,
      });
    }
  }

  /** A command's promise. Called while the widget is still loading, the command waits for it;
   *  on an element never connected it does nothing. */
  #command(name, ...args) {
    if (this.#controller) return this.#controller[name](...args);
    return Promise.resolve(this.#started).then((c) => c?.[name](...args));
  }
}

// A page that loads the element twice (the site's script and the npm package) keeps the first.
if (globalThis.customElements && !customElements.get('ablation-playground')) {
  customElements.define('ablation-playground', AblationPlayground);
  // the lesson's buttons that drive a playground, with no script of the lesson's own (steps.js)
  listenForSteps();
}
