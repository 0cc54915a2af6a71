// One playground widget: its markup and its controls. The reader's settings live in a wasm
// `Settings` handle on this thread; training runs in a Web Worker (driver.js) that sends
// frames; a wasm `View` draws each frame and gives its words. Used by the page (app.js) and by
// the <ablation-playground> element. No maths here: every number and sentence comes from Rust.

import { trusted } from './assets.js';
import { pinListWriter, tableWriter } from './comparisons.js';
import { startDriver } from './driver.js';

const UPDATE_EVERY_MS = 250; // playground-update events for the host: often enough, not a flood

/** Every control and panel, by the names used in `controls=` and `panels=`. */
const CONTROLS = ['depth', 'residual', 'norm', 'placement', 'play', 'more', 'copy', 'compare'];
const PANELS = ['histogram', 'loss', 'depth', 'compare', 'sweep', 'knockout'];
/** The comparison panels: shown once started, or whenever `panels=` names them. */
const LAB_PANELS = ['compare', 'sweep', 'knockout'];

/** Whether a presentation flag (`autoplay`, `embed`) says no: off, false, 0 or no, any case. */
export const isOff = (v) => v != null && ['off', 'false', '0', 'no'].includes(String(v).trim().toLowerCase());

export const TEMPLATE = `
  <div class="ap-notice" data-el="notice" role="note" aria-live="polite" part="notice"></div>
  <form class="ap-controls" data-el="controls" part="controls">
    <div class="ap-depth" data-control="depth">
      <label>Depth <input type="range" data-el="depth" name="depth" min="1" max="96" step="1" value="12"></label>
      <output data-el="depth-value" aria-hidden="true">12</output>
    </div>
    <label class="ap-switch" data-control="residual">
      <input type="checkbox" role="switch" data-el="residual" checked> Residual
    </label>
    <label class="ap-switch" data-control="norm">
      <input type="checkbox" role="switch" data-el="layernorm" checked> LayerNorm
    </label>
    <fieldset class="ap-placement" data-el="placement" data-control="placement">
      <legend>Placement</legend>
      <label><input type="radio" value="pre" checked> pre</label>
      <label><input type="radio" value="post"> post</label>
    </fieldset>
    <div class="ap-buttons" data-control="play">
      <button type="button" data-el="play">Pause</button>
      <button type="button" data-el="step">Step</button>
      <button type="button" data-el="reset">Reset</button>
    </div>
    <div class="ap-buttons" data-control="copy">
      <button type="button" data-el="copy">Copy link</button>
      <input type="text" readonly data-el="link" aria-label="Link to this state" hidden>
    </div>
    <div class="ap-compare" data-control="compare">
      <div class="ap-buttons">
        <button type="button" data-el="pin">Pin</button>
        <button type="button" data-el="run-compare">All four</button>
        <button type="button" data-el="run-sweep">Depth sweep</button>
        <button type="button" data-el="run-knockout">Knock out layers</button>
      </div>
      <ul class="ap-pins" data-el="pins" aria-label="Pinned runs" hidden></ul>
    </div>
    <details class="ap-more" data-control="more">
      <summary>More</summary>
      <div class="ap-more-grid">
        <label>Preset <select data-el="preset"><option value="custom" disabled>custom</option></select></label>
        <label>Final norm <select data-param="final_norm">
          <option value="on">on (pre-norm)</option><option value="off">off</option>
        </select></label>
        <label>Sublayer <select data-param="sublayer">
          <option value="mlp">relu(xW)</option><option value="ffn">FFN (GELU)</option>
          <option value="attention">attention</option><option value="block">attention + FFN blocks</option>
        </select></label>
        <label>Norm kind <select data-param="norm_kind">
          <option value="layernorm">LayerNorm</option><option value="rmsnorm">RMSNorm</option>
        </select></label>
        <label>Optimiser <select data-param="optimizer">
          <option value="adam">Adam</option><option value="sgd">SGD</option>
        </select></label>
        <label>Learning rate <input type="number" data-param="lr" min="0.000001" max="10" step="any"></label>
        <label>Warmup steps <input type="number" data-param="warmup" min="0" max="100000" step="1"></label>
        <label>Init gain <input type="number" data-param="gain" min="0.01" max="10" step="any"></label>
        <label>Width <input type="number" data-param="width" min="8" max="128" step="4"></label>
        <label>Tokens <input type="number" data-param="tokens" min="1" max="256" step="1"></label>
        <label>Seed <input type="number" data-param="seed" min="0" step="1"></label>
        <label>Steps <input type="number" data-param="steps" min="0" max="1000000" step="1"></label>
      </div>
    </details>
  </form>
  <p class="ap-status" role="status" data-el="status" part="status">Loading…</p>
  <p class="ap-caption" data-el="caption" part="caption"></p>
  <div class="ap-error" role="alert" data-el="error" part="error" hidden></div>
  <div class="ap-palette" data-el="palette" aria-hidden="true">
    <i class="ap-c-bg"></i><i class="ap-c-fg"></i><i class="ap-c-grid"></i><i class="ap-c-accent"></i><i class="ap-c-alert"></i>
  </div>
  <div class="ap-panels" data-el="panels" part="panels">
    <figure class="ap-panel" data-panel="histogram" part="panel histogram">
      <canvas data-el="histogram" role="img" aria-label="Histogram of the final activations"></canvas>
      <figcaption data-el="histogram-summary"></figcaption>
      <div class="ap-panel-buttons">
        <button type="button" data-el="rescale">Fit axis to data</button>
        <button type="button" data-el="reset-scale">Axis −4…4</button>
      </div>
    </figure>
    <figure class="ap-panel" data-panel="loss" part="panel loss">
      <canvas data-el="loss" role="img" aria-label="Training loss"></canvas>
      <figcaption data-el="loss-summary"></figcaption>
    </figure>
    <figure class="ap-panel" data-panel="depth" part="panel depth">
      <canvas data-el="depthplot" role="img" aria-label="Gradient norm and activation std per layer"></canvas>
      <figcaption data-el="depth-summary"></figcaption>
    </figure>
    <figure class="ap-panel ap-wide" data-panel="compare" part="panel compare" hidden>
      <canvas data-el="compare" role="img" aria-label="All four combinations"></canvas>
      <figcaption data-el="compare-summary"></figcaption>
      <table class="ap-table" data-el="compare-table"></table>
      <div class="ap-panel-buttons"><button type="button" data-el="again-compare">Train all four</button></div>
    </figure>
    <figure class="ap-panel ap-wide" data-panel="sweep" part="panel sweep" hidden>
      <canvas data-el="sweep" role="img" aria-label="Depth sweep"></canvas>
      <figcaption data-el="sweep-summary"></figcaption>
      <div class="ap-panel-buttons"><button type="button" data-el="again-sweep">Sweep depths</button></div>
    </figure>
    <figure class="ap-panel" data-panel="knockout" part="panel knockout" hidden>
      <canvas data-el="knockout" role="img" aria-label="Layer knockout"></canvas>
      <figcaption data-el="knockout-summary"></figcaption>
      <div class="ap-panel-buttons"><button type="button" data-el="again-knockout">Knock out each layer</button></div>
    </figure>
  </div>`;

let radioGroups = 0;

/** Shows a readable message in place of a dead widget. */
export function showError(root, message) {
  let box = root.querySelector('[data-el="error"]');
  if (!box) {
    // not mounted yet (the wasm did not load): the box alone
    box = Object.assign(document.createElement('div'), { className: 'ap-error' });
    box.setAttribute('role', 'alert');
    box.setAttribute('part', 'error');
    box.dataset.el = 'error';
    root.prepend(box);
  }
  box.textContent = `The playground stopped: ${String(message).replace(/\.+$/, '')}. Reload the page to try again.`;
  box.hidden = false;
  const status = root.querySelector('[data-el="status"]');
  if (status && status.textContent === 'Loading…') status.textContent = 'The playground could not start.';
}

/**
 * Mounts a playground into `root` (which receives TEMPLATE).
 * options: state — [[name, value]] applied leniently (URL names);
 *          controls, panels — the lists of names to show, as their attributes read (null: all);
 *          autoplay — train as soon as visible (off under prefers-reduced-motion);
 *          linkBase — the page a copied link points to;
 *          onParam(name, value) — a parameter changed (a control, a preset, an attribute, a message);
 *          onEvent(type, value) — 'input' | 'change' | 'playground-update'.
 */
export function mount(root, bindings, options = {}) {
  const { state = [], controls = null, panels = null, linkBase = location.href, onParam = () => {}, onEvent = () => {} } =
    options;
  root.innerHTML = trusted()?.createHTML(TEMPLATE) ?? TEMPLATE;
  root.classList.add('ap');
  // The widget's own inputs report through onEvent; their native input/change events stay
  // inside, so a host listening on an <ablation-playground> hears each change once.
  for (const type of ['input', 'change']) root.addEventListener(type, (e) => e.stopPropagation());
  const el = (name) => root.querySelector(`[data-el="${name}"]`);
  // no inline handler (a host's Content-Security-Policy may forbid them): the form never submits
  el('controls').addEventListener('submit', (e) => e.preventDefault());
  const params = [...root.querySelectorAll('[data-param]')];
  // the lessons' presets, named and described by the Rust table
  const presets = bindings.Settings.presets();
  for (let i = 0; i < presets.length; i += 2) {
    const option = new Option(presets[i], presets[i]);
    option.title = presets[i + 1];
    el('preset').append(option);
  }
  const radios = [...el('placement').querySelectorAll('input')];
  const group = `ap-placement-${++radioGroups}`;
  for (const r of radios) r.name = group;
  const canvases = {
    histogram: el('histogram'), loss: el('loss'), depth: el('depthplot'),
    compare: el('compare'), sweep: el('sweep'), knockout: el('knockout'),
  };
  // which comparison panels have something to show
  const started = { compare: false, sweep: false, knockout: false };
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;

  const notices = [];
  /** A `controls` or `panels` list as its attribute reads: a Set of the names it gives (in any
   *  case), or null (all, or the default panels) if it gives none; unknown names get a notice. */
  function listOf(what, text, allowed) {
    if (text == null || String(text).trim() === '') return null;
    const names = String(text).toLowerCase().split(/[\s,]+/).filter(Boolean);
    const known = names.filter((n) => allowed.includes(n));
    const unknown = names.filter((n) => !allowed.includes(n));
    if (unknown.length) {
      const quoted = unknown.slice(0, 4).map((n) => `"${n.slice(0, 30)}"`).join(', ') + (unknown.length > 4 ? ', …' : '');
      const fallback = known.length ? '' : `; showing the default ${what}`;
      notice([`${what}: ignored ${quoted} (the names are ${allowed.join(', ')})${fallback}`]);
    }
    return known.length ? new Set(known) : null;
  }
  let shown = { controls: listOf('controls', controls, CONTROLS), panels: listOf('panels', panels, PANELS) };
  function present() {
    for (const c of root.querySelectorAll('[data-control]')) {
      c.hidden = shown.controls != null && !shown.controls.has(c.dataset.control);
    }
    for (const p of root.querySelectorAll('[data-panel]')) {
      const name = p.dataset.panel;
      p.hidden = shown.panels != null ? !shown.panels.has(name) : LAB_PANELS.includes(name) && !started[name];
    }
  }
  present();

  let settings = null; // created when the widget first comes near the viewport
  let view = null;
  let driver = null;
  let generation = 0; // bumped by every restart; frames of older generations are dropped
  let pending = [...state];
  let playing = options.autoplay !== false && !reducedMotion;
  let visible = false;
  let stopped = false;
  let frameRequested = false;
  let incoming = null; // the newest frame ({bytes, seq}), not yet drawn
  let drawnSeq = -1; // the last command the drawn frame reflects
  const waiting = []; // [seq, resolve]: promises of commands, kept until their frame is drawn
  let redraw = false; // draw the current frame again (resize, theme, panels)
  let updateDue = 0; // next playground-update event
  let updateTimer = 0; // a trailing one, due when an update was held back

  let markCreated;
  /** Resolves once the widget has started (when it first comes near the viewport). */
  const created = new Promise((resolve) => (markCreated = resolve));
  /** `command`, at once if the widget has started, else once it has (then its promise). */
  const whenCreated = (command) => (...args) =>
    settings ? command(...args) : created.then(() => (stopped ? undefined : command(...args)));

  /** Resolves once a frame reflecting every command sent so far is on screen. */
  function drawn() {
    if (!driver) return Promise.resolve();
    const seq = driver.seq;
    if (drawnSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => waiting.push([seq, resolve]));
  }

  /** Shows `lines` after the earlier notices (the last 8, and how many more came before). Each
   *  notice is its own node, added to the box, so that the live region announces only the new
   *  ones. */
  function notice(lines) {
    if (!lines.length) return;
    const box = el('notice');
    for (const line of lines) {
      const item = document.createElement('span');
      item.dataset.notice = '';
      item.textContent = notices.length ? ` · ${line}` : line;
      notices.push(line);
      box.append(item);
    }
    const items = box.querySelectorAll('[data-notice]');
    for (let i = 0; i < items.length - 8; i++) items[i].remove();
    const earlier = notices.length - 8;
    let count = box.querySelector('[data-earlier]');
    if (earlier > 0) {
      if (!count) {
        count = document.createElement('span');
        count.dataset.earlier = '';
        count.setAttribute('aria-hidden', 'true');
        box.prepend(count);
      }
      count.textContent = `…and ${earlier} earlier`;
    }
  }

  function fail(message) {
    stopped = true;
    driver?.stop();
    showError(root, message);
  }

  function create() {
    // read as one query, as a URL is: a preset applies first wherever it stands, several pin=
    // make one list, and a bad value falls back with a notice
    settings = new bindings.Settings(new URLSearchParams(pending.map(([name, value]) => [name, String(value)])).toString());
    pending = [];
    notice(settings.takeNotices());
    view = new bindings.View();
    driver = startDriver(bindings, {
      onFrame(bytes, seq) {
        incoming = { bytes, seq };
        wake();
      },
      onLab(bytes) {
        try {
          view.loadLab(bytes);
        } catch (e) {
          notice([`ignored a damaged comparison (${e.message ?? e})`]);
        }
        redraw = true;
        wake();
      },
      onNotice: (text) => notice([text]),
      onError: fail,
    });
    restart();
    if (settings.pinCount > 0) sendPins();
    // a lesson that shows only a comparison panel shows it filling in, as it would a run
    if (playing) for (const name of ['compare', 'sweep']) if (shown.panels?.has(name)) startLab(name);
    syncControls();
    markCreated();
  }

  /** Tells the engine to start again from the seed with the current settings. */
  function restart() {
    driver.send({ type: 'restart', query: settings.runQuery(), generation: ++generation });
    run();
  }

  /** The pins to the engine, which recomputes any new one from the seed. */
  function sendPins() {
    driver.send({ type: 'pins', text: settings.get('pin') });
    updateDue = 0;
  }

  /** Starts a comparison: 'compare' (All four), 'sweep' or 'knockout'; resolves once the
   *  engine has taken the command and a frame after it is drawn. */
  function startLab(name) {
    started[name] = true;
    if (name === 'knockout') driver.send({ type: 'knockout' });
    else driver.send({ type: name, query: settings.runQuery() });
    present();
    changed();
    return drawn();
  }

  /** Trains only while playing and on screen. */
  function run() {
    driver?.send({ type: playing && visible ? 'play' : 'pause' });
    el('status').setAttribute('aria-busy', String(playing && visible));
  }

  /** The state and readouts: the settings now, the readouts of the last frame drawn. */
  function value() {
    if (!settings) return null;
    const frame = view.hasFrame ? JSON.parse(view.stateJson(true)) : { step: 0, loss: null, act_std: null, diverged_at: null, knockout: null };
    // the seed is a 64-bit integer: as text it survives JavaScript's doubles
    const config = { ...JSON.parse(settings.json()), seed: settings.get('seed') };
    const lab = JSON.parse(view.labJson());
    return {
      ...config, pin: settings.get('pin'),
      step: frame.step, loss: frame.loss, act_std: frame.act_std, diverged_at: frame.diverged_at, finished: frame.finished ?? false,
      pins: lab.pins, compare: lab.compare, sweep: lab.sweep, knockout: frame.knockout,
    };
  }

  // Controls show the settings (after a restart, after a bad value, on load).
  function syncControls() {
    if (!settings) return;
    const depth = settings.get('depth');
    el('depth').value = depth;
    el('depth').setAttribute('aria-valuetext', `${depth} layers`);
    el('depth-value').textContent = depth;
    el('residual').checked = settings.get('residual') === 'on';
    const norm = settings.get('norm');
    el('layernorm').checked = norm !== 'off';
    el('placement').hidden = norm === 'off' || (shown.controls != null && !shown.controls.has('placement'));
    if (norm !== 'off') for (const r of radios) r.checked = r.value === norm;
    for (const input of params) input.value = settings.get(input.dataset.param);
    el('preset').value = settings.get('preset');
    el('play').textContent = playing ? 'Pause' : 'Play';
  }

  function changed() {
    palette = null;
    redraw = true;
    updateDue = 0;
    wake();
  }

  /** Sets a parameter; `lenient` replaces a bad value by the nearest valid one, with a notice.
   *  Every parameter that changed, the one named or others (a preset, a corrected value), is
   *  reported through onParam, so that attributes and the address bar follow the state. */
  function set(name, text, { lenient = false } = {}) {
    if (!settings) {
      // the last value given wins (several pin= given at once still make one list)
      pending = pending.filter(([n]) => n !== name);
      pending.push([name, text]);
      return;
    }
    const before = settings.query();
    const [beforeRun, beforePins] = [settings.runQuery(), settings.get('pin')];
    try {
      if (lenient) settings.setLeniently(name, String(text));
      else settings.set(name, String(text));
    } catch (e) {
      notice([e.message ?? String(e)]);
    }
    notice(settings.takeNotices());
    syncControls();
    const after = settings.query();
    if (after === before) return;
    const old = new URLSearchParams(before);
    const now = new URLSearchParams(after);
    for (const [k, v] of now) if (old.get(k) !== v) onParam(k, v);
    if (old.has('pin') && !now.has('pin')) onParam('pin', '');
    if (settings.runQuery() !== beforeRun) restart();
    if (settings.get('pin') !== beforePins) sendPins();
  }

  function sizeCanvas(canvas) {
    const scale = devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * scale));
    const h = Math.max(1, Math.round(canvas.clientHeight * scale));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    return scale;
  }

  // The charts' colours, as the browser resolves the widget's CSS (and so the host's --ap-*
  // theme): read again after a change (dark mode, resize) and at most once a second otherwise.
  let palette = null;
  let paletteAt = 0;
  function colours(now) {
    if (palette === null || now - paletteAt > 1000) {
      palette = [...el('palette').children].map((c) => getComputedStyle(c).color).join(';');
      paletteAt = now;
    }
    return palette;
  }

  function draw(now) {
    const [isDark, c] = [dark.matches, colours(now)];
    if (!canvases.histogram.closest('[hidden]')) view.drawHistogram(canvases.histogram, sizeCanvas(canvases.histogram), isDark, c);
    if (!canvases.loss.closest('[hidden]')) view.drawLoss(canvases.loss, sizeCanvas(canvases.loss), isDark, c);
    if (!canvases.depth.closest('[hidden]')) view.drawDepth(canvases.depth, sizeCanvas(canvases.depth), isDark, c);
    if (view.hasCompare && !canvases.compare.closest('[hidden]')) view.drawCompare(canvases.compare, sizeCanvas(canvases.compare), isDark, c);
    if (view.hasSweep && !canvases.sweep.closest('[hidden]')) view.drawSweep(canvases.sweep, sizeCanvas(canvases.sweep), isDark, c);
    if (view.hasKnockout && !canvases.knockout.closest('[hidden]')) view.drawKnockout(canvases.knockout, sizeCanvas(canvases.knockout), isDark, c);
  }

  // Every word and every chart on screen comes from the same frame.
  function writeText(now) {
    el('status').textContent = view.status;
    el('caption').textContent = view.caption;
    const summaries = [
      ['histogram', view.histogramSummary],
      ['loss', view.lossSummary],
      ['depth', view.depthSummary],
      ['compare', view.compareSummary],
      ['sweep', view.sweepSummary],
      ['knockout', view.knockoutSummary],
    ];
    for (const [name, text] of summaries) {
      if (el(`${name}-summary`).textContent === text) continue;
      el(`${name}-summary`).textContent = text;
      canvases[name].setAttribute('aria-label', text);
    }
    writeCompareTable(view.compareTable());
    writePins(view.pinLabels());
    if (now >= updateDue) {
      clearTimeout(updateTimer);
      updateTimer = 0;
      updateDue = now + UPDATE_EVERY_MS;
      onEvent('playground-update', value());
    } else if (!updateTimer) {
      // throttled, but the host still hears the last state (a run that stops, a knockout that
      // lands right after an update): one trailing update when the interval is over
      updateTimer = setTimeout(() => {
        updateTimer = 0;
        if (stopped) return;
        updateDue = performance.now() + UPDATE_EVERY_MS;
        onEvent('playground-update', value());
      }, updateDue - now);
    }
  }

  // All four's table and the pins' list, from the core's words (no numbers formatted here)
  const writeCompareTable = tableWriter(el('compare-table'), 5);
  // a reader's Remove: its button goes away, so the focus moves to Pin (a host's unpin(i)
  // leaves the focus where it is)
  const writePins = pinListWriter(el('pins'), (i) => {
    controller.unpin(i);
    el('pin').focus();
  });

  function frame(now) {
    frameRequested = false;
    if (stopped || !visible) return;
    try {
      if (!settings) create();
      if (incoming) {
        const { bytes, seq } = incoming;
        incoming = null;
        if (view.load(bytes, generation)) {
          drawnSeq = seq;
          redraw = true;
          // the run stopped by itself (step limit or divergence): Play continues it
          if (playing && view.generation === generation && (view.finished || view.divergedAt !== undefined)) {
            playing = false;
            run();
            syncControls();
            updateDue = 0;
          }
        }
      }
      if (redraw && view.hasFrame) {
        redraw = false;
        draw(now);
        writeText(now);
        for (let i = waiting.length - 1; i >= 0; i--) {
          if (waiting[i][0] <= drawnSeq) waiting.splice(i, 1)[0][1]();
        }
      }
    } catch (e) {
      fail(e.message ?? String(e));
    }
  }

  function wake() {
    if (!frameRequested && visible && !stopped) {
      frameRequested = true;
      requestAnimationFrame(frame);
    }
  }

  function emit(type) {
    onEvent(type, value());
  }

  // ---- events ----
  el('depth').addEventListener('input', (e) => {
    set('depth', e.target.value);
    emit('input');
  });
  el('depth').addEventListener('change', () => emit('change'));
  // Page Up/Down move by ten layers (a browser's own step is a tenth of the range, 9.5, rounded)
  el('depth').addEventListener('keydown', (e) => {
    const by = { PageUp: 10, PageDown: -10 }[e.key];
    if (!by) return;
    e.preventDefault();
    const slider = e.target;
    const next = Math.min(Number(slider.max), Math.max(Number(slider.min), Number(slider.value) + by));
    if (String(next) === slider.value) return;
    slider.value = String(next);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  });
  el('residual').addEventListener('change', (e) => {
    set('residual', e.target.checked ? 'on' : 'off');
    emit('input');
    emit('change');
  });
  el('layernorm').addEventListener('change', (e) => {
    const placement = radios.find((r) => r.checked)?.value ?? 'pre';
    set('norm', e.target.checked ? placement : 'off');
    emit('input');
    emit('change');
  });
  for (const r of radios) {
    r.addEventListener('change', () => {
      set('norm', r.value);
      emit('input');
      emit('change');
    });
  }
  el('preset').addEventListener('change', (e) => {
    set('preset', e.target.value);
    emit('input');
    emit('change');
  });
  for (const input of params) {
    input.addEventListener('change', () => {
      set(input.dataset.param, input.value);
      emit('input');
      emit('change');
    });
  }
  const controller = {
    /** Read-only access for scripts and tests: the settings and the last frame drawn. */
    get playground() {
      if (!settings) return null;
      return {
        get step() {
          return view.step;
        },
        get generation() {
          return view.generation;
        },
        get mode() {
          return driver.mode;
        },
        get memory() {
          return { engine: driver.engineMemory, page: bindings.memoryBytes() };
        },
        get timings() {
          return driver.timings;
        },
        /** The frame on screen reflects every command sent so far. */
        get settled() {
          return drawnSeq === driver.seq && !incoming && !redraw;
        },
        get: (name) => settings.get(name),
        query: () => settings.query(),
        stateJson: () => (view.hasFrame ? view.stateJson(false) : 'null'),
      };
    },
    get playing() {
      return playing;
    },
    get value() {
      return value();
    },
    set,
    /** Sets a parameter back to its default (`pin`: no pins). */
    unset(name) {
      set(name, new bindings.Settings('').get(name) ?? '', { lenient: true });
    },
    /** Sets a presentation option as its attribute or URL parameter reads (`controls`,
     *  `panels`, `autoplay`; null: the default); false if `name` is not one. */
    setOption(name, text) {
      // autoplay says how a widget starts: removed later, it leaves the run as it is
      if (name === 'autoplay') text != null && (isOff(text) ? controller.pause() : controller.play());
      else if (name === 'controls') controller.show({ controls: listOf('controls', text, CONTROLS) });
      else if (name === 'panels') controller.show({ panels: listOf('panels', text, PANELS) });
      else return false;
      return true;
    },
    /** Shows only the given controls and panels (Sets of names; null shows all). */
    show({ controls = shown.controls, panels = shown.panels } = {}) {
      shown = { controls, panels };
      present();
      syncControls();
      changed();
    },
    // Each command returns a promise that resolves once its effect is drawn. Given before the
    // widget has started, play and pause say how it starts (and resolve at once); the others
    // wait for it (a widget that is never shown never starts).
    play() {
      playing = true;
      if (view?.finished) driver.send({ type: 'continue' });
      run();
      syncControls();
      return drawn();
    },
    pause() {
      playing = false;
      run();
      syncControls();
      return drawn();
    },
    step: whenCreated(() => {
      playing = false;
      run();
      driver.send({ type: 'step' });
      syncControls();
      return drawn();
    }),
    reset: whenCreated(() => {
      restart();
      return drawn();
    }),
    drawn,
    /** Pins the live run at its current step (at most three pins). */
    pin: whenCreated(async () => {
      if (!view.hasFrame) await drawn(); // the run's first frame says its step
      try {
        settings.addPin(view.step);
      } catch (e) {
        notice([e.message ?? String(e)]);
        return Promise.resolve();
      }
      sendPins();
      onParam('pin', settings.get('pin'));
      return drawn();
    }),
    /** Removes pin number `index` (from 0). */
    unpin: whenCreated((index) => {
      settings.removePin(index >>> 0);
      sendPins();
      onParam('pin', settings.get('pin'));
      return drawn();
    }),
    compare: whenCreated(() => startLab('compare')),
    sweep: whenCreated(() => startLab('sweep')),
    knockout: whenCreated(() => startLab('knockout')),
    /** The link that reproduces this state on the playground page. */
    link() {
      const url = new URL(linkBase);
      url.search = settings ? settings.query() : '';
      return url.href;
    },
    destroy() {
      stopped = true;
      // nothing more will be drawn: every promise still waiting resolves, commands waiting
      // for the start are dropped
      for (const [, resolve] of waiting.splice(0)) resolve();
      markCreated();
      clearTimeout(updateTimer);
      driver?.stop();
      io.disconnect();
      ro.disconnect();
      dark.removeEventListener('change', changed);
      density.removeEventListener('change', densityChanged);
    },
  };
  el('pin').addEventListener('click', () => controller.pin());
  for (const name of LAB_PANELS) {
    el(`run-${name}`).addEventListener('click', () => controller[name]());
    el(`again-${name}`).addEventListener('click', () => controller[name]());
  }
  el('play').addEventListener('click', () => (playing ? controller.pause() : controller.play()));
  el('step').addEventListener('click', () => controller.step());
  el('reset').addEventListener('click', () => controller.reset());
  el('rescale').addEventListener('click', () => driver?.send({ type: 'rescale' }));
  el('reset-scale').addEventListener('click', () => driver?.send({ type: 'resetScale' }));
  el('copy').addEventListener('click', async () => {
    const link = el('link');
    link.value = controller.link();
    link.hidden = false;
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      el('copy').textContent = 'Link copied';
    } catch {
      el('copy').textContent = 'Copy the link below';
    }
  });
  const ro = new ResizeObserver(changed);
  ro.observe(el('panels'));
  dark.addEventListener('change', changed);
  // Moved to a screen of another pixel density: redraw the canvases at the new resolution
  // (a media query for the current density, asked again after each change).
  let density = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
  function densityChanged() {
    density.removeEventListener('change', densityChanged);
    density = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
    density.addEventListener('change', densityChanged);
    changed();
  }
  density.addEventListener('change', densityChanged);
  // Lazy and polite: compute only near the viewport, pause when scrolled away.
  const io = new IntersectionObserver(
    (entries) => {
      visible = entries[entries.length - 1].isIntersecting;
      if (visible && !settings) wake();
      else if (settings) run();
      if (visible) changed();
    },
    { rootMargin: '200px' },
  );
  io.observe(root);
  return controller;
}
