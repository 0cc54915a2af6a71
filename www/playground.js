// One playground widget: the wiring between its parts. Its state is widget.js's plain data,
// written by `update` alone through `dispatch` here; the handles it holds (`parts`: the reader's
// settings as a wasm `Settings`, a wasm `View` that draws each frame and gives its words, the
// live run's driver, the comparisons' pool, the renderer, the host's theme) are made once; when
// it draws is schedule.js's, which calls `frame` here; what a reader brings and takes away
// (texts, weights, the prompt, the downloads) is reader-io.js's. The live run trains in a Web
// Worker of its own (driver.js) that reconciles to the desired state the update writes and
// answers with frames; the comparisons run as jobs in a pool of other workers (pool.js). The
// controller, the renderer, the controls and the observers read what they need and ask for
// changes through the functions they are given. Used by the page (app.js) and by the
// <ablation-playground> element. No maths here: every number and sentence comes from Rust.

import { trusted } from './assets.js';
import { bindControls, buildMore, listNotice, listOf, showSettings as showControls, wireButtons } from './controls.js';
import { createController } from './controller.js';
import { startDriver } from './driver.js';
import { noticeBoard } from './notices.js';
import { watchSurroundings } from './observers.js';
import { COMPARISONS } from './schema.js';
import { createComparisons } from './comparing.js';
import { createLanguage } from './language.js';
import { createReaderIo } from './reader-io.js';
import { createRenderer } from './render.js';
import { textBytes } from './texts.js';
import { CONTROLS, COMPARISON_PANELS, PANELS, TASK_PANELS, TEMPLATE } from './template.js';
import { createSchedule } from './schedule.js';
import { initialWidget, training, update } from './widget.js';

export { isOff, showError } from './template.js';
import { showError } from './template.js';

/**
 * Mounts a playground into `root` (which receives TEMPLATE).
 * options: state — [[name, value]] applied leniently (URL names);
 *          controls, panels — the lists of names to show, as their attributes read (null: all);
 *          autoplay — train as soon as visible (off under prefers-reduced-motion);
 *          linkBase — the page a copied link points to;
 *          lang — the language it speaks (a BCP 47 tag), else hostLang() — its host's (null: English);
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
  // (its words the widget's, once it has them: w.say, below)
  const notice = noticeBoard(el('notice'), { earlier: (n) => w.say('notice-earlier', { n }) });
  /** The names a `controls` or `panels` list ignored, until the widget has its words. */
  const ignoredLists = [];

  /** The widget's state (widget.js): written by `update` alone, through `dispatch`. */
  const st = initialWidget({
    playing: options.autoplay !== false && !matchMedia('(prefers-reduced-motion: reduce)').matches,
    // (said once the widget has its words, below)
    shown: { controls: listOf('controls', controls, CONTROLS, (p) => ignoredLists.push(p)), panels: listOf('panels', panels, PANELS, (p) => ignoredLists.push(p)) },
    comparisons: COMPARISON_PANELS,
    pending: state,
  });
  /** What the widget holds, each made once: the renderer now; the theme when the observers
   *  start; the settings, the view, the driver and the pool when the widget first comes near
   *  the viewport. */
  const parts = { settings: null, view: null, driver: null, pool: null, renderer: null, theme: null };
  /** When it draws, tells its host and lets its worker go (schedule.js). */
  const schedule = createSchedule({
    awake: () => st.visible && !st.stopped,
    stopped: () => st.stopped,
    onFrame: frame,
    onUpdate: () => onEvent('playground-update', value()),
    onHibernate: hibernate,
  });
  /** What the widget's modules read: its markup, its state (read only) and its parts. */
  const w = { root, el, bindings, options, notice, controls: buildMore(root), state: st, parts };
  /** Its comparisons: the pool, the knockout's stack, the pins (comparing.js). */
  const comparisons = createComparisons(w, { dispatch, schedule, changed, present, drawn });

  /** The one way the state changes: `update`, then the desired live state to the worker if it
   *  moved, and what follows from training or not. Returns what changed (widget.js). */
  function dispatch(message) {
    const changed = update(st, message);
    if (!parts.driver || !st.live) return changed;
    if (changed.live) {
      parts.driver.want(st.live);
      // a host's command to a widget away from the view wakes its worker: it goes again later
      if (!st.visible) hibernateLater();
    }
    // paused or scrolled away, the comparisons may have every core at once
    if (!training(st)) parts.pool?.liveTrains(false);
    el('status').setAttribute('aria-busy', String(training(st)));
    return changed;
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
  /** The language it speaks (language.js): its own `lang`, else its host's. */
  const language = createLanguage(w, {
    changed() {
      if (!parts.renderer) return;
      showSettings(); // (the words JavaScript writes: Play or Pause, the slider's value)
      changed();
    },
  });
  w.say = language.say;
  w.sayCount = language.sayCount;
  w.textWords = language.textWords;
  w.reason = language.reason;
  /** Resolves once the widget speaks its language: a notice said before then would be English. */
  w.wordsReady = language.ready;
  language.ready.then(() => ignoredLists.forEach((p) => notice([listNotice(w.say, p)])));
  language.want(options.lang ?? options.hostLang?.() ?? '', options.lang != null);
  /** Speaks `tag` (the lang option; null: the host's language again). */
  function speak(tag) {
    return language.want(tag ?? options.hostLang?.() ?? '', tag != null);
  }

  /** The reader's texts, weights, prompt and downloads (reader-io.js). */
  const reader = createReaderIo(w, { dispatch, apply, set, created, drawn });

  /** Resolves once a frame answering the newest desired state is on screen, drawn after now. */
  function drawn() {
    if (!parts.driver || st.stopped) return Promise.resolve();
    schedule.mark({ live: true });
    return schedule.drawn(st.live.generation);
  }

  function fail(message) {
    dispatch({ kind: 'stop' });
    parts.driver?.stop();
    parts.pool?.stop();
    schedule.resolveAll();
    let why = message;
    try {
      why = w.reason(message); // (a refusal said in the widget's words)
    } catch {
      why = message; // the wasm is what failed
    }
    showError(root, why, w.say);
  }

  function create() {
    // read as one query, as a URL is: a preset applies first wherever it stands, several pin=
    // make one list, and a bad value falls back with a notice
    parts.settings = new bindings.Settings(new URLSearchParams(st.pending.map(([name, value]) => [name, String(value)])).toString());
    language.apply();
    // (the link's notices in the widget's language: once its words are in)
    language.ready.then(() => notice(parts.settings.takeNotices()));
    // a link to a run on a reader's text: the page needs that text (the reader's, or text-src)
    const linked = parts.settings.get('text_id');
    if (linked !== 'plays' && !textBytes(linked)) {
      parts.settings.set('text_id', 'plays'); // (no run yet to restart)
      reader.awaitText(linked, 'link');
    }
    if (options.textSrc) reader.textFrom(options.textSrc).then(() => options.weightsSrc && reader.weightsFrom(options.weightsSrc));
    else if (options.weightsSrc) reader.weightsFrom(options.weightsSrc);
    parts.view = new bindings.View();
    language.apply();
    parts.driver = startDriver(bindings, {
      onFrame: schedule.receive,
      onKnockout: comparisons.knockout,
      onTextFailed(message, generation) {
        if (generation < st.runGeneration) return; // a state since replaced
        // the widget goes on with the task it had: the text is there for another try later
        notice([w.say('notice-text-failed', { why: w.reason(message) })]);
        chooseTask('teacher');
      },
      onNotice: (text) => notice([text]),
      onError: fail,
    });
    comparisons.startPool();
    dispatch({ kind: 'start', config: parts.settings.configBytes() });
    if (parts.settings.pinCount > 0) comparisons.sendPins();
    // a lesson that shows only a comparison panel shows it filling in, as it would a run
    if (st.playing) for (const c of COMPARISONS) if (!c.fromLiveStack && st.shown.panels?.has(c.panel)) comparisons.start(c.panel);
    showSettings();
    markCreated();
  }

  /** Starts the live run again from the seed with the current settings. */
  function restart() {
    const changed = dispatch({ kind: 'restart', config: parts.settings.configBytes() });
    parts.view.clearKnockout();
    if (changed.playing) showSettings(); // a run that had stopped by itself trains
  }

  function changed() {
    parts.renderer.forgetColours();
    schedule.changed();
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
    if (names.includes('pin')) comparisons.sendPins();
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
      reader.awaitText(String(text), 'run');
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

  /** An animation frame: the widget made on the first, the newest frame loaded, and what is
   *  stale drawn, its words written, the host told, the promises it answers resolved. */
  function frame(now) {
    try {
      if (!parts.settings) create();
      const { view } = parts;
      const bytes = schedule.take();
      if (bytes && view.load(bytes, st.runGeneration)) {
        schedule.mark({ live: true });
        parts.pool.liveTrains(st.live.playing && !view.finished && view.divergedAt === undefined);
        // the run stopped by itself (step limit or divergence) under the newest state: Play
        // continues it, a new setting trains
        if (view.finished || view.divergedAt !== undefined) {
          if (dispatch({ kind: 'stopped-itself', generation: view.generation }).playing) {
            showSettings();
            schedule.hurry();
          }
        }
      }
      // a frame loaded before a restart (a slider dragged past it within the frame) is never
      // drawn: the restart said the new state, and the new run's first frame replaces it
      if (!view.hasFrame || view.generation < st.runGeneration) return;
      const stale = schedule.due(now, { generation: view.generation, crowded: parts.pool.crowded, owes: parts.renderer.owes });
      if (!stale) return;
      if (parts.renderer.draw(now, stale)) schedule.wake(); // the panels owed, at the next frame
      parts.renderer.write();
      reader.announcePrompt();
      schedule.tellHost(now);
      schedule.answered(view.generation);
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
    schedule.hibernateLater(!st.visible, st.hibernateMs);
  }

  const emit = (type) => onEvent(type, value());
  /** Nothing more will be drawn: every promise still waiting resolves, commands waiting for
   *  the start are dropped. */
  function destroy() {
    dispatch({ kind: 'stop' });
    reader.stop();
    schedule.stop();
    markCreated();
    parts.driver?.stop();
    parts.pool?.stop();
    surroundings.stop();
  }

  const controller = createController(w, {
    dispatch, created, drawn, settled: schedule.settled, restart, sendPins: comparisons.sendPins, startComparison: comparisons.start, set, value, changed, listOf, speak,
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
