// One playground widget: its state, in one object with named fields that only this file
// writes, and the wiring between its parts (the controller, the renderer, the controls and the
// observers read what they need and ask for changes through the functions they are given). The reader's settings live in a wasm `Settings` handle on this thread; the live run
// trains in a Web Worker of its own (driver.js) that reconciles to the desired state this file
// sends and answers with frames; the comparisons run as jobs in a pool of other workers
// (pool.js); a wasm `View` draws each frame and gives its words (render.js). Used by the page
// (app.js) and by the <ablation-playground> element. No maths here: every number and sentence
// comes from Rust.

import { trusted } from './assets.js';
import { bindControls, buildMore, listOf, showSettings as showControls } from './controls.js';
import { createController } from './controller.js';
import { startDriver } from './driver.js';
import { noticeBoard } from './notices.js';
import { watchSurroundings } from './observers.js';
import { createPool } from './pool.js';
import { initialState } from './protocol.js';
import { COMPARISONS } from './schema.js';
import { createRenderer } from './render.js';
import { CONTROLS, COMPARISON_PANELS, PANELS, STARTS, TASK_PANELS, TEMPLATE } from './template.js';

export { isOff, showError } from './template.js';
import { showError } from './template.js';

const UPDATE_EVERY_MS = 250; // playground-update events for the host: often enough, not a flood
/** While comparisons share the machine's cores with the live run, its training is drawn at
 *  most this often (20 a second), leaving the drawing's time to the training and the jobs; a
 *  frame that answers the reader (a new generation: a slider, a switch) is drawn at once. */
const CROWDED_DRAW_MS = 50;
/** A widget away from the view this long lets its live worker go, its run put aside (a lesson
 *  of twelve would otherwise keep twelve workers' memory); coming back, a new worker goes on
 *  from it bit for bit. */
const HIBERNATE_MS = 20_000;

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

  /** The widget's whole state: written here only. */
  const w = {
    root,
    el,
    bindings,
    options,
    notice,
    controls: buildMore(root),
    shown: { controls: listOf('controls', controls, CONTROLS, notice), panels: listOf('panels', panels, PANELS, notice) },
    /** Which comparison panels have something to show. */
    started: Object.fromEntries(COMPARISON_PANELS.map((name) => [name, false])),
    // made when the widget first comes near the viewport
    settings: null,
    view: null,
    driver: null,
    pool: null,
    theme: null, // the host's colours, followed (theme.js; observers.js starts it)
    /** Parameters given before the start: the last value of each wins. */
    pending: [...state],
    /** The live run the page wants (protocol.js), and the generation of its last restart:
     *  frames from before that are dropped. */
    live: null,
    runGeneration: 0,
    playing: options.autoplay !== false && !matchMedia('(prefers-reduced-motion: reduce)').matches,
    visible: false,
    stopped: false,
    frameRequested: false,
    /** When the panels were last drawn. */
    drawnAt: -Infinity,
    drawnGeneration: -1,
    /** The newest frame's bytes, not yet drawn. */
    incoming: null,
    /** What to draw again: the live run's panels (a new frame, a command), the comparisons'
     *  panels (a report), or both (resize, theme, panels, pins). */
    stale: { live: false, comparisons: false },
    /** The task is a sequence task: "The model writes" has something to show. */
    sequenceTask: false,
    /** [generation, resolve]: promises waiting for a frame that answers that state. */
    waiting: [],
    updateDue: 0,
    updateTimer: 0,
    /** Away from the view since this timer was set: `HIBERNATE_MS` (tests shorten it). */
    hibernateTimer: 0,
    hibernateMs: HIBERNATE_MS,
  };

  function present() {
    for (const c of root.querySelectorAll('[data-control]')) {
      c.hidden = w.shown.controls != null && !w.shown.controls.has(c.dataset.control);
    }
    for (const p of root.querySelectorAll('[data-panel]')) {
      const name = p.dataset.panel;
      p.hidden =
        w.shown.panels != null
          ? !w.shown.panels.has(name) || (TASK_PANELS.includes(name) && !w.sequenceTask)
          : (COMPARISON_PANELS.includes(name) && !w.started[name]) || (TASK_PANELS.includes(name) && !w.sequenceTask);
    }
    // the tuned lens matches the model's next-token distribution: a sequence task's alone
    el('lens-buttons').hidden = !w.sequenceTask;
  }
  present();

  /** Every control shows the settings; the task panels follow a change of task. */
  function showSettings() {
    const sequenceTask = showControls(w);
    if (w.sequenceTask !== sequenceTask) {
      w.sequenceTask = sequenceTask;
      present();
    }
  }

  /** Shows only the given controls and panels (Sets of names; null shows all). */
  function show(shown) {
    w.shown = shown;
    present();
    showSettings();
    changed();
  }

  function setPlaying(playing) {
    w.playing = playing;
  }

  let markCreated;
  /** Resolves once the widget has started (when it first comes near the viewport). */
  const created = new Promise((resolve) => (markCreated = resolve));

  /** Resolves once a frame answering the newest desired state is on screen, drawn after now. */
  function drawn() {
    if (!w.driver || w.stopped) return Promise.resolve();
    w.stale.live = true;
    wake();
    return new Promise((resolve) => w.waiting.push([w.live.generation, resolve]));
  }

  function fail(message) {
    w.stopped = true;
    w.driver?.stop();
    w.pool?.stop();
    for (const [, resolve] of w.waiting.splice(0)) resolve();
    showError(root, message);
  }

  /** Sends the live run's worker a new desired state: the current one with `changes`. */
  function want(changes) {
    w.live = { ...w.live, ...changes, generation: w.live.generation + 1 };
    w.driver.want(w.live);
    // a host's command to a widget away from the view wakes its worker: it goes again later
    if (!w.visible) hibernateLater();
  }

  function create() {
    // read as one query, as a URL is: a preset applies first wherever it stands, several pin=
    // make one list, and a bad value falls back with a notice
    w.settings = new bindings.Settings(new URLSearchParams(w.pending.map(([name, value]) => [name, String(value)])).toString());
    w.pending = [];
    notice(w.settings.takeNotices());
    w.view = new bindings.View();
    w.driver = startDriver(bindings, {
      onFrame(bytes) {
        w.incoming = bytes;
        wake();
      },
      onKnockout(bytes, generation, purpose) {
        if (generation < w.runGeneration) return; // the run it measured was restarted
        try {
          if (purpose === 'lens') w.view.startTunedLens(bytes);
          else w.view.startKnockout(bytes);
        } catch (e) {
          notice([`${e.message ?? e}`]);
          return;
        }
        w.pool.sync(w.view);
        changed();
      },
      onTextFailed(message, generation) {
        if (generation < w.runGeneration) return; // a state since replaced
        // the widget goes on with the task it had: the text is there for another try later
        notice([`The text task could not start: ${message}. Back to the regression task.`]);
        chooseTask('teacher');
      },
      onNotice: (text) => notice([text]),
      onError: fail,
    });
    w.pool = createPool(bindings, {
      onReport(bytes, done) {
        let taken = 0;
        try {
          taken = w.view.report(bytes); // 1: a pin's, drawn in the live run's panels
        } catch (e) {
          notice([`ignored a damaged comparison (${e.message ?? e})`]);
        }
        if (done) w.pool.sync(w.view);
        if (taken === 1) w.stale.live = true;
        if (taken) w.stale.comparisons = true;
        wake();
      },
      onJobFailed(id, reason) {
        // said once, in its row, pin or table and here; the other jobs go on
        if (w.view.fail(id, reason)) {
          notice([`a comparison failed: ${reason}`]);
          w.stale.comparisons = true;
          w.stale.live = true; // a pin's label
          wake();
        }
      },
      onNotice: (text) => notice([text]),
      onError: (text) => notice([`a comparison failed: ${text}`]),
    });
    w.live = { ...initialState(w.settings.configBytes()), generation: 0 };
    w.runGeneration = 1;
    want({ playing: w.playing && w.visible });
    status();
    if (w.settings.pinCount > 0) sendPins();
    // a lesson that shows only a comparison panel shows it filling in, as it would a run
    if (w.playing) for (const c of COMPARISONS) if (c.viewStart && w.shown.panels?.has(c.panel)) startComparison(c.panel);
    showSettings();
    markCreated();
  }

  /** Starts the live run again from the seed with the current settings. */
  function restart() {
    want({ config: w.settings.configBytes(), restarts: w.live.restarts + 1, playing: w.playing && w.visible });
    w.runGeneration = w.live.generation;
    w.view.clearKnockout();
    status();
  }

  /** The pins to the comparisons, which compute any new one from the seed. */
  function sendPins() {
    w.view.setPins(w.settings);
    w.pool.sync(w.view);
    w.updateDue = 0;
    changed();
  }

  /** Starts the comparison of panel `name` (schema.js's COMPARISONS): its jobs in the pool, or
   *  the knockout through the live worker, which holds the stack it measures. */
  function startComparison(name) {
    w.started[name] = true;
    const { viewStart } = COMPARISONS.find((c) => c.panel === name);
    if (!viewStart) want({ knockouts: w.live.knockouts + 1 });
    else {
      w.view[viewStart](w.settings);
      w.pool.sync(w.view);
    }
    present();
    changed();
    return drawn();
  }

  /** Trains only while playing and on screen. */
  function run() {
    if (w.driver && w.live.playing !== (w.playing && w.visible)) want({ playing: w.playing && w.visible });
    // paused or scrolled away, the comparisons may have every core at once
    if (!(w.playing && w.visible)) w.pool?.liveTrains(false);
    status();
  }

  function status() {
    el('status').setAttribute('aria-busy', String(w.playing && w.visible));
  }

  function changed() {
    w.renderer.forgetColours();
    w.stale = { live: true, comparisons: true };
    w.updateDue = 0;
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
      names = change(w.settings);
    } catch (e) {
      notice([e.message ?? String(e)]);
    }
    notice(w.settings.takeNotices());
    showSettings();
    for (const n of names) onParam(n, w.settings.get(n));
    if (names.some((n) => n !== 'pin')) restart();
    if (names.includes('pin')) sendPins();
  }

  /** Sets a parameter; `lenient` replaces a bad value by the nearest valid one, with a notice. */
  function set(name, text, { lenient = false } = {}) {
    if (!w.settings) {
      // the last value given wins (several pin= given at once still make one list)
      w.pending = w.pending.filter(([n]) => n !== name);
      w.pending.push([name, text]);
      return;
    }
    apply((s) => (lenient ? s.setLeniently(name, String(text)) : s.set(name, String(text))));
  }

  /** Chooses a task with its defaults, as the Task menu does (a bad name gets a notice). */
  function chooseTask(task) {
    if (!w.settings) return set('task', task);
    apply((s) => s.chooseTask(String(task)));
  }

  /** The state and readouts: the settings now, the readouts of the last frame drawn. */
  function value() {
    return w.settings ? JSON.parse(w.view.valueJson(w.settings)) : null;
  }

  /** The host hears the state at most every UPDATE_EVERY_MS, and the last one always. */
  function update(now) {
    if (now >= w.updateDue) {
      clearTimeout(w.updateTimer);
      w.updateTimer = 0;
      w.updateDue = now + UPDATE_EVERY_MS;
      onEvent('playground-update', value());
    } else if (!w.updateTimer) {
      // throttled, but the host still hears the last state (a run that stops, a knockout that
      // lands right after an update): one trailing update when the interval is over
      w.updateTimer = setTimeout(() => {
        w.updateTimer = 0;
        if (w.stopped) return;
        w.updateDue = performance.now() + UPDATE_EVERY_MS;
        onEvent('playground-update', value());
      }, w.updateDue - now);
    }
  }

  function frame(now) {
    w.frameRequested = false;
    if (w.stopped || !w.visible) return;
    try {
      if (!w.settings) create();
      const { view } = w;
      if (w.incoming) {
        const bytes = w.incoming;
        w.incoming = null;
        if (view.load(bytes, w.runGeneration)) {
          w.stale.live = true;
          w.pool.liveTrains(w.live.playing && !view.finished && view.divergedAt === undefined);
          // the run stopped by itself (step limit or divergence) under the newest state: Play
          // continues it
          if (w.playing && view.generation === w.live.generation && (view.finished || view.divergedAt !== undefined)) {
            w.playing = false;
            run();
            showSettings();
            w.updateDue = 0;
          }
        }
      }
      const held =
        w.stale.live &&
        !w.stale.comparisons &&
        w.pool.crowded &&
        view.generation === w.drawnGeneration &&
        now - w.drawnAt < CROWDED_DRAW_MS;
      if (held) wake();
      else if ((w.stale.live || w.stale.comparisons || w.renderer.owes) && view.hasFrame) {
        w.drawnAt = now;
        w.drawnGeneration = view.generation;
        const stale = w.stale;
        w.stale = { live: false, comparisons: false };
        if (w.renderer.draw(now, stale)) wake(); // the panels owed, at the next frame
        w.renderer.write();
        update(now);
        for (let i = w.waiting.length - 1; i >= 0; i--) {
          if (w.waiting[i][0] <= view.generation) w.waiting.splice(i, 1)[0][1]();
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
    if (w.visible || w.stopped) return;
    w.driver?.hibernate();
    w.renderer.release();
  }

  /** Away from the view, the worker goes in `hibernateMs` from now (in view, it stays). */
  function hibernateLater() {
    clearTimeout(w.hibernateTimer);
    if (!w.visible) w.hibernateTimer = setTimeout(hibernate, w.hibernateMs);
  }

  function wake() {
    if (!w.frameRequested && w.visible && !w.stopped) {
      w.frameRequested = true;
      requestAnimationFrame(frame);
    }
  }

  const emit = (type) => onEvent(type, value());
  /** Nothing more will be drawn: every promise still waiting resolves, commands waiting for
   *  the start are dropped. */
  function destroy() {
    w.stopped = true;
    for (const [, resolve] of w.waiting.splice(0)) resolve();
    markCreated();
    w.driver?.stop();
    w.pool?.stop();
    clearTimeout(w.updateTimer);
    clearTimeout(w.hibernateTimer);
    surroundings.stop();
  }

  const controller = createController(w, {
    created, drawn, want, run, restart, sendPins, startComparison, set, value, changed, listOf,
    show, setPlaying, showSettings, destroy,
  });
  w.renderer = createRenderer(w, {
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
      w.visible = near;
      if (w.visible && !w.settings) wake();
      else if (w.settings) run();
      if (w.visible) changed();
      hibernateLater();
    },
  });
  w.theme = surroundings.theme;
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
  el('play').addEventListener('click', () => (w.playing ? controller.pause() : controller.play()));
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
