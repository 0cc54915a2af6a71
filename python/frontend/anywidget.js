// The notebook widget's front end, for anywidget: `render({ model, el })` puts an
// <ablation-playground> element into `el` and keeps its attributes and the model's traits in
// step, both ways. Self-contained: BUNDLE, written above this by scripts/wheel.py, holds the
// widget's modules as text, the wasm, the stylesheet and the text task's text, and they load
// from blob: URLs, because anywidget imports this module from one (its import.meta.url is a
// blob:, so nothing can be found beside it; MyST's {anywidget} directive copies the module
// alone into its site, as the npm package's anywidget.js). No maths here either.
//
// Hosts offer less than anywidget's whole model: MyST's holds only the keys its directive's
// body gives (the others are undefined: the element's defaults) and throws from save_changes,
// off and send (there is no kernel to hear them).

/** The widget's methods without an answer, by their Python names, and the element's name of
 *  each: the commands, then every comparison of the core's table (schema.js). */
function methodsOf(comparisons) {
  const commands = ['play', 'pause', 'step', 'reset', 'pin'].map((name) => [name, name]);
  return new Map([...commands, ...comparisons.map((c) => [c.python, c.method])]);
}
/** Traits beside the parameters, their attributes, and the value the element has without
 *  them: the preset, the pins, and the element's own attributes that are traits (schema.js). */
function extrasOf(attributes) {
  const own = attributes.filter((a) => a.python).map((a) => [a.python, a.name, a.kind === 'flag' ? a.default : null]);
  return [['preset', 'preset', null], ['pinned', 'pin', null], ...own];
}

function blob(parts, type) {
  return URL.createObjectURL(new Blob(parts, { type }));
}

function bytes(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The bytes of a file scripts/wheel.py gzipped, then wrote in base64, inflated by the browser
 *  (DecompressionStream: every browser with WebAssembly SIMD has it), as a Blob. */
function inflated(base64, type) {
  const stream = new Blob([bytes(base64)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).blob().then((b) => new Blob([b], { type }));
}

let loading = null;
/** The widget's modules from blob: URLs, each module's relative imports pointed at the others'
 *  (once per evaluation of this module; the element is defined once per page). */
function load() {
  loading ??= (async () => {
    const urls = {};
    const visit = (name) => {
      if (urls[name]) return urls[name];
      const source = BUNDLE.modules[name].replace(/((?:from|import)\s*\(?\s*)(['"])\.\/([\w.-]+\.js)\2/g,
        (_, before, quote, dependency) => `${before}${quote}${visit(dependency)}${quote}`);
      return (urls[name] = blob([source], 'text/javascript'));
    };
    const catalogues = Object.entries(BUNDLE.catalogues ?? {});
    const [assets, wasm, text, words] = await Promise.all([
      import(visit('assets.js')),
      inflated(BUNDLE.wasm, 'application/wasm'),
      inflated(BUNDLE.text, 'text/plain'),
      Promise.all(catalogues.map(([, packed]) => inflated(packed, 'text/plain'))),
    ]);
    assets.configureAssets({
      bindings: visit('ablation-playground.js'),
      wasm: URL.createObjectURL(wasm),
      worker: visit('worker.js'),
      engine: visit('engine.js'),
      jobs: visit('jobs.js'),
      css: blob([BUNDLE.css], 'text/css'),
      text: URL.createObjectURL(text),
      catalogues: Object.fromEntries(catalogues.map(([file], i) => [file, URL.createObjectURL(words[i])])),
    });
    const schema = await import(visit('schema.js'));
    await import(visit('element.js'));
    return schema;
  })();
  return loading;
}

/** A trait's value as the attribute's text, and back. */
function toText(p, value) {
  if (p?.switch) return value ? 'on' : 'off';
  if (p == null && typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}
function fromText(p, text) {
  if (p.switch) return text === 'on';
  // a seed is text both ways: a number above 2**53 would become another seed
  if (p.kind === 'seed') return String(text);
  if (p.kind === 'int' || p.kind === 'float') return Number(text);
  return text;
}

async function render({ model, el }) {
  const { PARAMS: params, COMPARISONS, ATTRIBUTES } = await load();
  const methods = methodsOf(COMPARISONS);
  const extras = extrasOf(ATTRIBUTES);
  const byName = Object.fromEntries(params.map((p) => [p.name, p]));
  const element = document.createElement('ablation-playground');
  // the traits that differ from their defaults, and those the constructor was given, become
  // attributes: they adjust a preset as attributes do (`Playground(preset="break-and-heal",
  // norm="pre")` is the preset with the norm on, though "pre" is the default)
  const given = new Set(model.get('given') ?? []);
  for (const p of params) {
    const value = model.get(p.name);
    if (value === undefined) continue;
    if (given.has(p.name) || toText(p, value) !== toText(p, fromText(p, p.default))) element.setAttribute(p.name, toText(p, value));
  }
  for (const [name, attribute, absent] of extras) {
    const value = model.get(name);
    if (value === '' || value == null || value === absent) continue;
    element.setAttribute(attribute, toText(null, value));
  }
  // an id, for the lesson steps that name it (data-ablation-playground="…")
  const name = () => (model.get('element_id') ? (element.id = model.get('element_id')) : element.removeAttribute('id'));
  name();
  /** Sends the changes to the kernel, where there is one. */
  const save = () => {
    try {
      model.save_changes();
    } catch {
      // no kernel (MyST): the change stays in the page
    }
  };

  // the widget → the kernel: attributes the widget rewrites (a control moved, a preset applied,
  // a pin made or removed)
  const observer = new MutationObserver((records) => {
    let changed = false;
    for (const name of new Set(records.map((r) => r.attributeName))) {
      if (name === 'pin') {
        const pins = element.getAttribute('pin') ?? '';
        if (pins !== model.get('pinned')) {
          model.set('pinned', pins);
          changed = true;
        }
        continue;
      }
      const p = byName[name];
      if (!p) continue;
      const text = element.getAttribute(name);
      const value = fromText(p, text ?? p.default);
      if (value !== model.get(name)) {
        model.set(name, value);
        changed = true;
      }
    }
    if (changed) save();
  });
  observer.observe(element, { attributes: true, attributeFilter: [...params.map((p) => p.name), 'pin'] });
  const sendValue = () => {
    model.set('value', element.value ?? {});
    save();
  };
  element.addEventListener('playground-update', sendValue);
  element.addEventListener('change', sendValue);

  // the kernel → the widget: a trait set from a cell restarts it in that state
  const handlers = [];
  const on = (event, handler) => {
    model.on(event, handler);
    handlers.push([event, handler]);
  };
  for (const p of params) {
    on(`change:${p.name}`, () => {
      const text = toText(p, model.get(p.name));
      if (element.getAttribute(p.name) !== text) element.setAttribute(p.name, text);
    });
  }
  for (const [name, attribute] of extras) {
    on(`change:${name}`, () => {
      const value = model.get(name);
      if (value === '' || value == null) element.removeAttribute(attribute);
      else element.setAttribute(attribute, toText(null, value));
    });
  }
  on('msg:custom', async (message, buffers) => {
    if (methods.has(message?.method)) return element[methods.get(message.method)]();
    // the requests that answer the kernel: a prompt's continuation, the weights, a load
    const answer = (content, out = []) => model.send({ request: message.request, ...content }, undefined, out);
    try {
      if (message?.method === 'prompt') answer({ continuation: await element.prompt(message.text, message.chars) });
      else if (message?.method === 'export') {
        const data = await element.exportRun(message.what);
        answer({}, [data instanceof Uint8Array ? data.buffer : new TextEncoder().encode(data).buffer]);
      } else if (message?.method === 'load_weights') {
        const view = buffers?.[0];
        await element.loadWeights(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
        answer({});
      }
    } catch (e) {
      answer({ error: String(e?.message ?? e) });
    }
  });
  // a reader's text, as text or by URL
  const giveText = () => model.get('text') && element.trainOn(model.get('text'));
  on('change:text', giveText);
  on('change:element_id', name);

  el.append(element);
  giveText();
  // the kernel hears that a front end shows the live view, once it has drawn a frame: it
  // empties the static figure's output (what an exported notebook shows where no front end
  // runs the widget; a view that fails to start leaves it)
  const shown = () => {
    element.removeEventListener('playground-update', shown);
    try {
      model.send({ event: 'shown' });
    } catch {
      // no kernel to tell (MyST)
    }
  };
  element.addEventListener('playground-update', shown);
  // re-running the cell or closing the notebook removes the view: the element stops its worker
  return () => {
    observer.disconnect();
    for (const [event, handler] of handlers) {
      try {
        model.off(event, handler);
      } catch {
        // (MyST's model cannot take a handler off: the element it would reach is gone)
      }
    }
    element.remove();
  };
}

export default { render };
