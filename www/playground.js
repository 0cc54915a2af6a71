// One playground widget: the wiring between its parts. Its state is widget.js's plain data,
// written by `update` alone through `dispatch` here; the handles it holds (`parts`: the reader's
// settings as a wasm `Settings`, a wasm `View` that draws each frame and gives its words, the
// live run's driver, the comparisons' pool, the renderer, the host's theme) are made once; the
// drawing's schedule (`loop`) is the frame loop's own; what a reader brings and takes away
// (texts, weights, the prompt, the downloads) is reader-io.js's. The live run trains in a Web
// Worker of its own (driver.js) that reconciles to the desired state the update writes and
// answers with frames; the comparisons run as jobs in a pool of other workers (pool.js). The
// controller, the renderer, the controls and the observers read what they need and ask for
// changes through the functions they are given. Used by the page (app.js) and by the
// <ablation-playground> element. No maths here: every number and sentence comes from Rust.

import { trusted } from './assets.js';
import { bindControls, buildMore, listOf, showSettings as showControls } from './controls.js';
import { createController } from './controller.js';
import { startDriver } from './driver.js';
import { noticeBoard } from './notices.js';
import { watchSurroundings } from './observers.js';
import { createPool } from './pool.js';
import { COMPARISONS } from './schema.js';
import { createReaderIo } from './reader-io.js';
import { createRenderer } from './render.js';
import { textBytes } from './texts.js';
import { CONTROLS, COMPARISON_PANELS, PANELS, STARTS, TASK_PANELS, TEMPLATE } from './template.js';
import { initialWidget, training, update } from './widget.js';

export { isOff, showError } from './template.js';
import { showError } from './template.js';

const UPDATE_EVERY_MS = 250; // playground-update events for the host: often enough, not a flood
/** While comparisons share the machine's cores with the live run, its training is drawn at
 *  most this often (20 a second), leaving the drawing's time to the training and the jobs; a
 *  frame that answers the reader (a new generation: a slider, a switch) is drawn at once. */
const CROWDED_DRAW_MS = 50;
/**
 * Mounts a playground into `root` (which receives TEMPLATE).
 * options: state — [[name, value]] applied leniently (URL names);
 *          controls, panels — the lists of names to show, as their attributes read (null: all);
 *          autoplay — train as soon as visible (off under prefers-reduced-motion);
 *          linkBase — the page a copied link points to;
 *          onParam(name, value) — a parameter changed (a control, a preset, an attribute, a message);
 *          onEvent(type, value) — 'input' | 'change' | 'playground-update'.
 * Returns the controller (controller.js).
 */
export function mount(root, bindings, options = {}) {
  const { state = [], controls = null, panels = null, onParam = () => {}, onEvent = () => {} } = options;
  root.innerHTML = trusted()?.createHTML(TEMPLATE) ?? TEMPLATE;
  root.classList.add('ap');
  // The widget's own inputs report through onEvent; their native input/change events stay
  // inside, so a host listening on an <ablation-playground> hears each change once.
  for (const type of ['input', 'change']) root.addEventListener(type, (e) => e.stopPropagation());
  const el = (name) => root.querySelector(`[data-el="${name}"]`);
  // no inline handler (a host's Content-Security-Policy may forbid them): the form never submits
  el('controls').addEventListener('submit', (e) => e.preventDefault());
  const notice = noticeBoard(el('notice'));

  /** The widget's state (widget.js): written by `update` alone, through `dispatch`. */
  const st = initialWidget({
    playing: options.autoplay !== false && !matchMedia('(prefers-reduced-motion: reduce)').matches,
    shown: { controls: listOf('controls', controls, CONTROLS, notice), panels: listOf('panels', panels, PANELS, notice) },
    comparisons: COMPARISON_PANELS,
    pending: state,
  });
  /** What the widget holds, each made once: the renderer now; the theme when the observers
   *  start; the settings, the view, the driver and the pool when the widget first comes near
   *  the viewport. */
  const parts = { settings: null, view: null, driver: null, pool: null, renderer: null, theme: null };
  /** The drawing's schedule, written by the frame loop alone (`wake`, `frame`, `changed`,
   *  `drawn`, `update`, `hibernateLater`). */
  const loop = {
    frameRequested: false,
    /** When the panels were last drawn, and the generation then drawn. */
    drawnAt: -Infinity,
    drawnGeneration: -1,
    /** The newest frame's bytes, not yet drawn. */
    incoming: null,
    /** What to draw again: the live run's panels (a new frame, a command), the comparisons'
     *  panels (a report), or both (resize, theme, panels, pins). */
    stale: { live: false, comparisons: false },
    /** [generation, resolve]: promises waiting for a frame that answers that state. */
    waiting: [],
    updateDue: 0,
    updateTimer: 0,
    hibernateTimer: 0,
  };
  /** What the widget's modules read: its markup, its state (read only) and its parts. */
  const w = { root, el, bindings, options, notice, controls: buildMore(root), state: st, parts };

  /** The one way the state changes: `update`, then the desired live state to the worker if it
   *  moved, and what follows from training or not. */
  function dispatch(message) {
    const sent = st.live?.generation;
    update(st, message);
    if (!parts.driver || !st.live) return;
    if (st.live.generation !== sent) {
      parts.driver.want(st.live);
      // a host's command to a widget away from the view wakes its worker: it goes again later
      if (!st.visible) hibernateLater();
    }
    // paused or scrolled away, the comparisons may have every core at once
    if (!training(st)) parts.pool?.liveTrains(false);
    el('status').setAttribute('aria-busy', String(training(st)));
  }

  function present() {
    for (const c of root.querySelectorAll('[data-control]')) {
      // Copy link needs a playground page to link to (none in the npm package or a notebook)
      c.hidden = (st.shown.controls != null && !st.shown.controls.has(c.dataset.control)) || (c.dataset.control === 'copy' && options.linkBase === '');
    }
    for (const p of root.querySelectorAll('[data-panel]')) {
      const name = p.dataset.panel;
      p.hidden =
        st.shown.panels != null
          ? !st.shown.panels.has(name) || (TASK_PANELS.includes(name) && !st.sequenceTask)
          : (COMPARISON_PANELS.includes(name) && !st.started[name]) || (TASK_PANELS.includes(name) && !st.sequenceTask);
    }
    // the tuned lens matches the model's next-token distribution: a sequence task's alone
    el('lens-buttons').hidden = !st.sequenceTask;
    for (const e of root.querySelectorAll('[data-text-only]')) e.hidden = !st.textTask;
  }
  present();

  /** Every control shows the settings; the task panels follow a change of task. */
  function showSettings() {
    const sequenceTask = showControls(w);
    const textTask = parts.settings?.get('task') === 'text';
    if (st.sequenceTask !== sequenceTask || st.textTask !== textTask) {
      dispatch({ kind: 'task', sequenceTask, textTask });
      present();
    }
    if (textTask) reader.showText();
  }

  /** Shows only the given controls and panels (Sets of names; null shows all). */
  function show(shown) {
    dispatch({ kind: 'show', shown });
    present();
    showSettings();
    changed();
  }

  let markCreated;
  /** Resolves once the widget has started (when it first comes near the viewport). */
  const created = new Promise((resolve) => (markCreated = resolve));
  /** The reader's texts, weights, prompt and downloads (reader-io.js). */
  const reader = createReaderIo(w, { dispatch, apply, set, created, drawn });

  /** Every frame received and every change since is drawn. */
  function drawnAll() {
    return !loop.incoming && !loop.stale.live && !loop.stale.comparisons;
  }

  /** Resolves once a frame answering the newest desired state is on screen, drawn after now. */
  function drawn() {
    if (!parts.driver || st.stopped) return Promise.resolve();
    loop.stale.live = true;
    wake();
    return new Promise((resolve) => loop.waiting.push([st.live.generation, resolve]));
  }

  function fail(message) {
    dispatch({ kind: 'stop' });
    parts.driver?.stop();
    parts.pool?.stop();
    for (const [, resolve] of loop.waiting.splice(0)) resolve();
    showError(root, message);
  }

  function create() {
    // read as one query, as a URL is: a preset applies first wherever it stands, several pin=
    // make one list, and a bad value falls back with a notice
    parts.settings = new bindings.Settings(new URLSearchParams(st.pending.map(([name, value]) => [name, String(value)])).toString());
    notice(parts.settings.takeNotices());
    // a link to a run on a reader's text: the page needs that text (the reader's, or text-src)
    const linked = parts.settings.get('text_id');
    if (linked !== 'plays' && !textBytes(linked)) {
      parts.settings.set('text_id', 'plays'); // (no run yet to restart)
      reader.awaitText(linked, "This link's run");
    }
    if (options.textSrc) reader.textFrom(options.textSrc).then(() => options.weightsSrc && reader.weightsFrom(options.weightsSrc));
    else if (options.weightsSrc) reader.weightsFrom(options.weightsSrc);
    parts.view = new bindings.View();
    parts.driver = startDriver(bindings, {
      onFrame(bytes) {
        loop.incoming = bytes;
        wake();
      },
      onKnockout(bytes, generation, purpose) {
        if (generation < st.runGeneration) return; // the run it measured was restarted
        try {
          if (purpose === 'lens') parts.view.startTunedLens(bytes);
          else parts.view.startKnockout(bytes);
        } catch (e) {
          notice([`${e.message ?? e}`]);
          return;
        }
        parts.pool.sync(parts.view);
        changed();
      },
      onTextFailed(message, generation) {
        if (generation < st.runGeneration) return; // a state since replaced
        // the widget goes on with the task it had: the text is there for another try later
        notice([`The text task could not start: ${message}. Back to the regression task.`]);
        chooseTask('teacher');
      },
      onNotice: (text) => notice([text]),
      onError: fail,
    });
    parts.pool = createPool(bindings, {
      onReport(bytes, done) {
        let taken = 0;
        try {
          taken = parts.view.report(bytes); // 1: a pin's, drawn in the live run's panels
        } catch (e) {
          notice([`ignored a damaged comparison (${e.message ?? e})`]);
        }
        if (done) parts.pool.sync(parts.view);
        if (taken === 1) loop.stale.live = true;
        if (taken) loop.stale.comparisons = true;
        wake();
      },
      onJobFailed(id, reason) {
        // said once, in its row, pin or table and here; the other jobs go on
        if (parts.view.fail(id, reason)) {
          notice([`a comparison failed: ${reason}`]);
          loop.stale.comparisons = true;
          loop.stale.live = true; // a pin's label
          wake();
        }
      },
      onNotice: (text) => notice([text]),
      onError: (text) => notice([`a comparison failed: ${text}`]),
    });
    dispatch({ kind: 'start', config: parts.settings.configBytes() });
    if (parts.settings.pinCount > 0) sendPins();
    // a lesson that shows only a comparison panel shows it filling in, as it would a run
    if (st.playing) for (const c of COMPARISONS) if (!c.fromLiveStack && st.shown.panels?.has(c.panel)) startComparison(c.panel);
    showSettings();
    markCreated();
  }

  /** Starts the live run again from the seed with the current settings. */
  function restart() {
    const playing = st.playing;
    dispatch({ kind: 'restart', config: parts.settings.configBytes() });
    parts.view.clearKnockout();
    if (st.playing !== playing) showSettings(); // a run that had stopped by itself trains
  }

  /** The pins to the comparisons, which compute any new one from the seed. */
  function sendPins() {
    parts.view.setPins(parts.settings);
    parts.pool.sync(parts.view);
    loop.updateDue = 0;
    changed();
  }

  /** Starts the comparison of panel `name` (schema.js's COMPARISONS): its jobs in the pool, or
   *  the knockout through the live worker, which holds the stack it measures. */
  function startComparison(name) {
    dispatch({ kind: 'comparison-started', name });
    const { fromLiveStack } = COMPARISONS.find((c) => c.panel === name);
    if (fromLiveStack) dispatch({ kind: 'request', name: 'knockouts' });
    else {
      parts.view.startComparison(name, parts.settings);
      parts.pool.sync(parts.view);
    }
    present();
    changed();
    return drawn();
  }

  function changed() {
    parts.renderer.forgetColours();
    loop.stale = { live: true, comparisons: true };
    loop.updateDue = 0;
    wake();
  }

  /** Changes the settings by `change(settings)`, which returns the names it changed (or
   *  throws: a notice). Every parameter that changed, the one named or others (a preset, a
   *  task's defaults, a corrected value), is reported through onParam, so that attributes and
   *  the address bar follow the state; a model parameter restarts the run, the pins go to the
   *  comparisons. */
  function apply(change) {
    let names = [];
    try {
      names = change(parts.settings);
    } catch (e) {
      notice([e.message ?? String(e)]);
    }
    notice(parts.settings.takeNotices());
    showSettings();
    for (const n of names) onParam(n, parts.settings.get(n));
    if (names.some((n) => n !== 'pin')) restart();
    if (names.includes('pin')) sendPins();
  }

  /** Sets a parameter; `lenient` replaces a bad value by the nearest valid one, with a notice. */
  function set(name, text, { lenient = false } = {}) {
    if (!parts.settings) {
      dispatch({ kind: 'pending', name, value: text });
      return;
    }
    // a reader's text named by a host (an attribute, a message) that this page has not been
    // given: the plays until it is, as for a link
    if (name === 'text_id' && parts.settings.namesOwnText(String(text)) && !textBytes(String(text))) {
      if (parts.settings.get('text_id') !== 'plays') apply((s) => s.set('text_id', 'plays'));
      reader.awaitText(String(text), 'This run');
      return;
    }
    apply((s) => (lenient ? s.setLeniently(name, String(text)) : s.set(name, String(text))));
  }

  /** Chooses a task with its defaults, as the Task menu does (a bad name gets a notice). */
  function chooseTask(task) {
    if (!parts.settings) return set('task', task);
    apply((s) => s.chooseTask(String(task)));
  }

  /** The state and readouts: the settings now, the readouts of the last frame drawn. */
  function value() {
    return parts.settings ? JSON.parse(parts.view.valueJson(parts.settings)) : null;
  }

  /** The host hears the state at most every UPDATE_EVERY_MS, and the last one always. */
  function tellHost(now) {
    if (now >= loop.updateDue) {
      clearTimeout(loop.updateTimer);
      loop.updateTimer = 0;
      loop.updateDue = now + UPDATE_EVERY_MS;
      onEvent('playground-update', value());
    } else if (!loop.updateTimer) {
      // throttled, but the host still hears the last state (a run that stops, a knockout that
      // lands right after an update): one trailing update when the interval is over
      loop.updateTimer = setTimeout(() => {
        loop.updateTimer = 0;
        if (st.stopped) return;
        loop.updateDue = performance.now() + UPDATE_EVERY_MS;
        onEvent('playground-update', value());
      }, loop.updateDue - now);
    }
  }

  function frame(now) {
    loop.frameRequested = false;
    if (st.stopped || !st.visible) return;
    try {
      if (!parts.settings) create();
      const { view } = parts;
      if (loop.incoming) {
        const bytes = loop.incoming;
        loop.incoming = null;
        if (view.load(bytes, st.runGeneration)) {
          loop.stale.live = true;
          parts.pool.liveTrains(st.live.playing && !view.finished && view.divergedAt === undefined);
          // the run stopped by itself (step limit or divergence) under the newest state: Play
          // continues it
          if (view.finished || view.divergedAt !== undefined) {
            const playing = st.playing;
            dispatch({ kind: 'stopped-itself', generation: view.generation });
            if (st.playing !== playing) {
              showSettings();
              loop.updateDue = 0;
            }
          }
        }
      }
      // a frame loaded before a restart (a slider dragged past it within the frame) is never
      // drawn: the restart said the new state, and the new run's first frame replaces it
      if (view.hasFrame && view.generation < st.runGeneration) return;
      const held =
        loop.stale.live &&
        !loop.stale.comparisons &&
        parts.pool.crowded &&
        view.generation === loop.drawnGeneration &&
        now - loop.drawnAt < CROWDED_DRAW_MS;
      if (held) wake();
      else if ((loop.stale.live || loop.stale.comparisons || parts.renderer.owes) && view.hasFrame) {
        loop.drawnAt = now;
        loop.drawnGeneration = view.generation;
        const stale = loop.stale;
        loop.stale = { live: false, comparisons: false };
        if (parts.renderer.draw(now, stale)) wake(); // the panels owed, at the next frame
        parts.renderer.write();
        reader.announcePrompt();
        tellHost(now);
        for (let i = loop.waiting.length - 1; i >= 0; i--) {
          if (loop.waiting[i][0] <= view.generation) loop.waiting.splice(i, 1)[0][1]();
        }
      }
    } catch (e) {
      fail(e.message ?? String(e));
    }
  }

  /** Away from the view: the live worker goes, its run put aside (the comparisons' jobs have
   *  what they read of it already; their idle workers go by themselves, pool.js), and the
   *  canvases' pixels with it; coming near the view again redraws every panel (`changed`). */
  function hibernate() {
    if (st.visible || st.stopped) return;
    parts.driver?.hibernate();
    parts.renderer.release();
  }

  /** Away from the view, the worker goes in `hibernateMs` from now (in view, it stays). */
  function hibernateLater() {
    clearTimeout(loop.hibernateTimer);
    if (!st.visible) loop.hibernateTimer = setTimeout(hibernate, st.hibernateMs);
  }

  function wake() {
    if (!loop.frameRequested && st.visible && !st.stopped) {
      loop.frameRequested = true;
      requestAnimationFrame(frame);
    }
  }

  const emit = (type) => onEvent(type, value());
  /** Nothing more will be drawn: every promise still waiting resolves, commands waiting for
   *  the start are dropped. */
  function destroy() {
    dispatch({ kind: 'stop' });
    reader.stop();
    for (const [, resolve] of loop.waiting.splice(0)) resolve();
    markCreated();
    parts.driver?.stop();
    parts.pool?.stop();
    clearTimeout(loop.updateTimer);
    clearTimeout(loop.hibernateTimer);
    surroundings.stop();
  }

  const controller = createController(w, {
    dispatch, created, drawn, drawnAll, restart, sendPins, startComparison, set, value, changed, listOf,
    show, showSettings, destroy, ...reader,
  });
  parts.renderer = createRenderer(w, {
    onRemovePin(i) {
      // a reader's Remove: its button goes away, so the focus moves to Pin (a host's unpin(i)
      // leaves the focus where it is)
      controller.unpin(i);
      el('pin').focus();
    },
  });
  bindControls(w, { set, chooseTask, emit });
  wireButtons(w, controller);

  const surroundings = watchSurroundings(w, {
    changed,
    visibility(near) {
      dispatch({ kind: 'visible', near });
      if (near) changed(); // (the first time: the frame that creates the widget)
      hibernateLater();
    },
  });
  parts.theme = surroundings.theme;
  return controller;
}

/** The buttons: each calls the controller, as a host's script would. */
function wireButtons(w, controller) {
  const { el } = w;
  el('pin').addEventListener('click', () => controller.pin());
  el('fit-lens').addEventListener('click', () => controller.tunedLens());
  for (const name of COMPARISON_PANELS) {
    el(`run-${name}`).addEventListener('click', () => controller[STARTS[name]]());
    el(`again-${name}`).addEventListener('click', () => controller[STARTS[name]]());
  }
  el('play').addEventListener('click', () => (controller.playing ? controller.pause() : controller.play()));
  el('step').addEventListener('click', () => controller.step());
  el('reset').addEventListener('click', () => controller.reset());
  el('rescale').addEventListener('click', () => controller.fitAxis(true));
  el('reset-scale').addEventListener('click', () => controller.fitAxis(false));
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
}
