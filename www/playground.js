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
import { bindReaderIo, saveFile } from './reader-io.js';
import { createRenderer } from './render.js';
import { keepText, textBytes, urlBytes } from './texts.js';
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
/** What the text panel says of the shipped text. */
const PLAYS_WORDS = 'Hamlet, Macbeth and Othello by Shakespeare, shipped with the playground.';

/** A reader's text named by its id (`<sha256>.<chars>.<vocab>`), in words. */
function awaitingWords(id) {
  const [hash, chars] = id.split('.');
  return `a text of ${Number(chars).toLocaleString('en')} characters with SHA-256 ${hash.slice(0, 12)}…`;
}

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
    /** The run stopped by itself (its step limit, a divergence), not by the reader's Pause: a
     *  new setting's run trains. */
    stoppedItself: false,
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
    /** The task is the text: its own-text and prompt controls show. */
    textTask: false,
    /** A link's reader's text (its text_id) this page does not have yet: the run trains on the
     *  plays until the reader gives that text, and a text with another hash is refused. */
    awaitingText: null,
    /** The prompt the reader last asked to continue, until its continuation is announced. */
    promptAsked: null,
  };

  function present() {
    for (const c of root.querySelectorAll('[data-control]')) {
      // Copy link needs a playground page to link to (none in the npm package or a notebook)
      c.hidden = (w.shown.controls != null && !w.shown.controls.has(c.dataset.control)) || (c.dataset.control === 'copy' && options.linkBase === '');
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
    for (const e of root.querySelectorAll('[data-text-only]')) e.hidden = !w.textTask;
  }
  present();

  /** Every control shows the settings; the task panels follow a change of task. */
  function showSettings() {
    const sequenceTask = showControls(w);
    const textTask = w.settings?.get('task') === 'text';
    if (w.sequenceTask !== sequenceTask || w.textTask !== textTask) {
      w.sequenceTask = sequenceTask;
      w.textTask = textTask;
      present();
    }
    if (textTask) showText();
  }

  /** The sentence about the text the run learns (a reader's, as its worker described it). */
  function showText() {
    const id = w.settings.get('text_id');
    const words = id === 'plays' ? PLAYS_WORDS : (w.textWords?.id === id ? w.textWords.words : `a reader's text, ${id.slice(0, 12)}…`);
    const waiting = w.awaitingText ? ` Waiting for ${awaitingWords(w.awaitingText)}: drop, choose or paste it.` : '';
    if (el('text-words').textContent !== words + waiting) el('text-words').textContent = words + waiting;
    el('text-plays').hidden = id === 'plays';
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
    w.stoppedItself = false;
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

  /** Trains on a reader's text (its bytes, from `source`: "the file x.txt"): the live run's
   *  worker checks it and holds it; then the text task on it. Refused in words, changing
   *  nothing, if the worker finds it unusable or a link waits for another text. */
  async function useText(bytes, source) {
    if (!w.settings) await created;
    if (w.stopped) return;
    let checked;
    try {
      checked = await w.driver.checkText(bytes);
    } catch (e) {
      notice([`Not trained on ${source}: ${e.message ?? e}`]);
      return;
    }
    if (w.awaitingText && checked.id !== w.awaitingText) {
      notice([`Not trained on ${source}: its SHA-256 is ${checked.id.slice(0, 12)}…, and this link's run trained on ${w.awaitingText.slice(0, 12)}… (${awaitingWords(w.awaitingText)}). Choose Back to the plays to stop waiting for it.`]);
      return;
    }
    keepText(checked.id, bytes);
    w.awaitingText = null;
    w.textWords = checked;
    setPlaying(true); // "Train on …" trains, even after a run that had finished
    apply((s) => [...(s.get('task') === 'text' ? [] : s.chooseTask('text')), ...s.set('text_id', checked.id)]);
    showText();
  }

  /** Starts the run again from a weights file (from `source`: "the file w.safetensors"): its
   *  configuration, then its weights, measured at step 0 and paused; Play trains on from
   *  them. Refused in words, changing nothing, if the file is not one of ours, is damaged, or
   *  trained on a reader's text this page does not have. */
  async function loadWeights(bytes, source) {
    if (!w.settings) await created;
    if (w.stopped) return;
    let textId;
    try {
      textId = bindings.weightsTextId(bytes);
    } catch (e) {
      notice([`Not loaded, ${source}: ${e.message ?? e}`]);
      return;
    }
    if (textId !== 'plays' && !textBytes(textId)) {
      notice([`Not loaded, ${source}: its run trained on a reader's text (${awaitingWords(textId)}); give that text first, then load them`]);
      return;
    }
    setPlaying(false);
    apply((s) => s.adoptWeights(bytes));
    try {
      await w.driver.loadWeights(bytes);
    } catch (e) {
      notice([`Not loaded, ${source}: ${e.message ?? e}`]);
      return;
    }
    notice([`Loaded the weights of ${source}, measured at step 0; Play trains on from them.`]);
    await drawn();
  }

  /** Loads the weights file at `url` (`weights-src`). */
  function weightsFrom(url) {
    return urlBytes(url, 'weights').then(
      (bytes) => loadWeights(bytes, `the weights at ${url}`),
      (e) => notice([`Not loaded, weights-src: ${e.message ?? e}`]),
    );
  }

  /** Trains on the text at `url` (`text-src`), fetched on this thread, checked in the worker. */
  function textFrom(url) {
    return urlBytes(url).then(
      (bytes) => useText(bytes, `the text at ${url}`),
      (e) => notice([`Not trained on text-src: ${e.message ?? e}`]),
    );
  }

  /** Back to the three plays (and no longer waiting for a link's text). */
  function usePlays() {
    w.awaitingText = null;
    set('text_id', 'plays');
    if (w.settings) showText();
  }

  /** The stack continues `text` by `chars` characters from now on (null: the text's own
   *  prompt); resolves with the continuation once it is written (a prompt asked again, or
   *  none, resolves the one before with null). */
  function setPrompt(text, chars) {
    if (!w.settings || w.stopped) return Promise.resolve(null);
    w.promptAsked?.resolve(null);
    const done = new Promise((resolve) => {
      w.promptAsked = text == null ? null : { text, chars, resolve };
    });
    el('prompt-said').textContent = '';
    want({ prompt: text == null ? null : { text, chars } });
    return text == null ? Promise.resolve(null) : done;
  }

  /** Saves `what`: 'report' (JSON), 'csv' (the loss history), 'weights' (safetensors), or
   *  chart `chart` as 'svg' or 'png'. */
  async function download(what, chart) {
    if (!w.view?.hasFrame) throw new Error('Nothing to download before the run has begun');
    const stem = `ablation-playground-step${w.view.step}`;
    if (what === 'weights') saveFile(root, `${stem}.safetensors`, await w.driver.exportRun('weights'), 'application/octet-stream');
    else if (what === 'report') {
      // the run in ablate's report's schema, and the page's comparisons as .value has them
      const report = JSON.parse(await w.driver.exportRun('report'));
      report.comparisons = JSON.parse(w.view.comparisonsJson());
      saveFile(root, `${stem}.json`, JSON.stringify(report, null, 1), 'application/json');
    } else if (what === 'csv') saveFile(root, `${stem}-loss.csv`, w.view.lossCsv(), 'text/csv');
    else if (!chart) throw new Error('No chart has anything to draw yet');
    else if (what === 'svg') saveFile(root, `${stem}-${chart}.svg`, w.view.svg(chart, w.theme?.dark ?? w.renderer.dark.matches), 'image/svg+xml');
    else if (what === 'png') {
      const canvas = w.renderer.canvasOf(chart);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error(`The ${chart} chart could not be made into a PNG`);
      saveFile(root, `${stem}-${chart}.png`, blob);
    }
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
    // a link to a run on a reader's text: the page needs that text (the reader's, or text-src)
    const linked = w.settings.get('text_id');
    if (linked !== 'plays' && !textBytes(linked)) {
      w.settings.set('text_id', 'plays'); // (no run yet to restart)
      awaitText(linked, "This link's run");
    }
    if (options.textSrc) textFrom(options.textSrc).then(() => options.weightsSrc && weightsFrom(options.weightsSrc));
    else if (options.weightsSrc) weightsFrom(options.weightsSrc);
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
    if (w.playing) for (const c of COMPARISONS) if (!c.fromLiveStack && w.shown.panels?.has(c.panel)) startComparison(c.panel);
    showSettings();
    markCreated();
  }

  /** Starts the live run again from the seed with the current settings. */
  function restart() {
    if (w.stoppedItself) {
      setPlaying(true);
      showSettings();
    }
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
    const { fromLiveStack } = COMPARISONS.find((c) => c.panel === name);
    if (fromLiveStack) want({ knockouts: w.live.knockouts + 1 });
    else {
      w.view.startComparison(name, w.settings);
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
    // a reader's text named by a host (an attribute, a message) that this page has not been
    // given: the plays until it is, as for a link
    if (name === 'text_id' && w.settings.namesOwnText(String(text)) && !textBytes(String(text))) {
      if (w.settings.get('text_id') !== 'plays') apply((s) => s.set('text_id', 'plays'));
      awaitText(String(text), 'This run');
      return;
    }
    apply((s) => (lenient ? s.setLeniently(name, String(text)) : s.set(name, String(text))));
  }

  /** Waits for the reader's text `id` (refusing another) while the plays train, saying that
   *  `whose` run ("This link's run") trained on it. */
  function awaitText(id, whose) {
    w.awaitingText = id;
    onParam('text_id', 'plays');
    notice([`${whose} trained on a reader's text (${awaitingWords(id)}): until it is given, the plays.`]);
    if (w.textTask) showText();
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
            w.stoppedItself = true;
            run();
            showSettings();
            w.updateDue = 0;
          }
        }
      }
      // a frame loaded before a restart (a slider dragged past it within the frame) is never
      // drawn: the restart said the new state, and the new run's first frame replaces it
      if (view.hasFrame && view.generation < w.runGeneration) return;
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
        announcePrompt();
        update(now);
        for (let i = w.waiting.length - 1; i >= 0; i--) {
          if (w.waiting[i][0] <= view.generation) w.waiting.splice(i, 1)[0][1]();
        }
      }
    } catch (e) {
      fail(e.message ?? String(e));
    }
  }

  /** Says once, politely, what the stack wrote after the reader's prompt. */
  function announcePrompt() {
    if (w.promptAsked == null) return;
    const [prompt, continuation, outside] = w.view.written() ?? [];
    // said once it is whole (the frames show it as it is written)
    if (continuation === undefined || [...continuation].length < w.promptAsked.chars) return;
    if (prompt !== w.promptAsked.text && !outside) return;
    w.promptAsked.resolve(continuation);
    w.promptAsked = null;
    const left = outside ? ` (not in the text, so not read: ${outside})` : '';
    el('prompt-said').textContent = `It continued your prompt${left}: ${continuation}`;
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
    w.promptAsked?.resolve(null);
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
    show, setPlaying, showSettings, destroy, useText, textFrom, loadWeights, weightsFrom, setPrompt,
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
  bindReaderIo(w, { useText, usePlays, setPrompt, download, loadWeights, notice });
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
